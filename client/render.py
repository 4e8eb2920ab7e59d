"""The game as lines of text: pure functions of a :class:`~scopa_net.view.SeatView`.

Each line is a prompt-toolkit :class:`FormattedText` whose fragments carry ``class:`` style
names only (never colours); :func:`plain` flattens lines to text for logs, tests and the
``--plain`` mode. Every card is written as the letters a player types (``7d``), and, unless in
ASCII mode, the suit glyph after it; colour, when on, only repeats the suit.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from prompt_toolkit.formatted_text import FormattedText, StyleAndTextTuples
from prompt_toolkit.formatted_text.utils import fragment_list_to_text, split_lines

from scopa_net.cards import Card
from scopa_net.client.moves import legal_plays
from scopa_net.client.style import SUIT_CLASS, Display
from scopa_net.names import display_width
from scopa_net.notation import card_name, format_card
from scopa_net.plays import Play, PlayRecord
from scopa_net.score_line import after_name
from scopa_net.view import SeatView

Line = FormattedText


def plain(lines: Iterable[StyleAndTextTuples]) -> str:
    """Lines as text without styles, one per line."""
    return "\n".join(fragment_list_to_text(line) for line in lines)


def wrap_line(line: StyleAndTextTuples, width: int) -> list[FormattedText]:
    """``line`` cut into lines of at most ``width`` columns, never inside a word.

    Columns are the terminal's: a CJK character or an emoji takes two, a combining accent
    none (:func:`~scopa_net.names.display_width`). A row's parts are separated by two spaces
    or more (the sides of a score, the cards on the table): it breaks between parts first,
    and between the words of a part only when the part does not fit a line alone. Lines after
    the first are indented under the text after a label (``Table``, ``Captured``...), so a row
    still reads as a row. A line break in the text starts a new line, and each line is cut on
    its own. A number stays with its unit ("60 s"); a path (a word with a '/') is never cut,
    nor a line holding a command to copy (``scopa-net ...``): the terminal wraps those.
    """
    if any("\n" in text for _, text, *_ in line):
        return [row for part in split_lines(line) for row in wrap_line(part, width)]
    chars = [(style, ch) for style, text, *_ in line for ch in text]
    if width <= 0 or _width(chars) <= width or _is_command(chars):
        return [FormattedText(line)]
    indent = display_width(line[0][1]) if line[0][0] == "class:label" else 0
    indent = indent if indent <= width // 2 else 0
    text = "".join(ch for _, ch in chars)
    lead = len(text) - len(text.lstrip(" "))  # a line's own indent stays on its first row
    rows: list[list[tuple[str, str]]] = [list(chars[: lead if lead <= width // 2 else 0])]

    def new_row(piece: list[tuple[str, str]]) -> None:
        # Under the label's text, unless the word only fits a whole line.
        rows.append([("", " ")] * (indent if _width(piece) <= width - indent else 0))

    def place(piece: list[tuple[str, str]], gap: int) -> None:
        filled = any(ch != " " for _, ch in rows[-1])
        if filled and _width(rows[-1]) + gap + _width(piece) > width:
            new_row(piece)
        elif filled:
            rows[-1].extend([("", " ")] * gap)
        while _width(rows[-1]) + _width(piece) > width and not _is_path(piece):
            # A word longer than a line is cut; a path is left whole for the terminal to wrap
            cut = _fitting(piece, width - _width(rows[-1]))
            if cut == 0 and not any(ch != " " for _, ch in rows[-1]):
                cut = _fitting(piece, _width(piece[:1]))  # one wide character, wider than all
            rows[-1].extend(piece[:cut])
            piece = piece[cut:]
            new_row(piece)
        rows[-1].extend(piece)

    for start, end, gap in _runs(text, 0, len(text), min_gap=2):
        part = chars[start:end]
        filled = any(ch != " " for _, ch in rows[-1])
        fresh = width - indent if len(rows) > 1 or filled else width
        room = width - _width(rows[-1]) - (gap if filled else 0)
        if _width(part) <= room or _width(part) > fresh:
            words = _glue_units([(chars[s:e], g) for s, e, g in _runs(text, start, end, min_gap=1)])
            if _width(part) <= room:
                words = [(part, gap)]
            for k, (word, g) in enumerate(words):
                place(word, gap if k == 0 else g)
        else:
            place(part, gap)
    return [_fragments(row) for row in rows]


def help_rows(rows: Mapping[str, str]) -> list[FormattedText]:
    """``help``'s rows: each name in a column as wide as the longest, two spaces, then what
    it does. The name is a label, so a description wrapped on a narrow screen goes on under
    its own text, not under the names (:func:`wrap_line`)."""
    width = max((len(name) for name in rows), default=0)
    return [
        FormattedText([("class:label", f"  {name:<{width}}  "), ("", what)])
        for name, what in rows.items()
    ]


UNITS = frozenset({"s", "ms", "min", "h", "seconds", "second", "minutes", "minute", "%"})
"""Words that name the unit of the number before them: never put on a line of their own."""
NUMBERED = frozenset({"bot", "seat"})
"""Words a number completes as a name ("bot 4", "seat 2"): never cut from their number."""


def _glue_units(
    words: list[tuple[list[tuple[str, str]], int]],
) -> list[tuple[list[tuple[str, str]], int]]:
    """``words`` with each unit joined to the number before it, as one word ("60 s"), and
    each number joined to the ``bot`` or ``seat`` before it, so a name stays whole ("bot 4")."""
    out: list[tuple[list[tuple[str, str]], int]] = []
    for word, gap in words:
        text = "".join(ch for _, ch in word).rstrip(".,:;!?)")
        last = "".join(ch for _, ch in out[-1][0]).lstrip("(").lower() if out else ""
        unit = text in UNITS and last[-1:].isdigit()
        if out and gap == 1 and (unit or (text.isdigit() and last in NUMBERED)):
            before, before_gap = out[-1]
            out[-1] = ([*before, (word[0][0], " "), *word], before_gap)
        else:
            out.append((word, gap))
    return out


COMMAND = "scopa-net "
"""How a line holding a command to copy begins (after its indent): such a line is never cut."""


def _is_command(chars: Sequence[tuple[str, str]]) -> bool:
    """Whether the line is a command a person copies: left whole, for the terminal to wrap."""
    return "".join(ch for _, ch in chars).lstrip(" ").startswith(COMMAND)


def _is_path(piece: Sequence[tuple[str, str]]) -> bool:
    """Whether a word is a path (it has a '/'): copied whole, so never cut by us."""
    return any(ch == "/" for _, ch in piece)


def _width(chars: Sequence[tuple[str, str]]) -> int:
    """Terminal columns of styled characters."""
    return display_width("".join(ch for _, ch in chars))


def _fitting(piece: Sequence[tuple[str, str]], columns: int) -> int:
    """How many of ``piece``'s characters fit ``columns``, a character's accents with it."""
    used = 0
    count = 0
    for _, ch in piece:
        w = display_width(ch)
        if w and used + w > columns:
            break
        used += w
        count += 1
    return count


def _runs(text: str, start: int, end: int, *, min_gap: int) -> list[tuple[int, int, int]]:
    """Pieces of ``text[start:end]`` split at ``min_gap`` spaces or more: (start, end, gap)."""
    out: list[tuple[int, int, int]] = []
    i = start
    while i < end:
        gap_from = i
        while i < end and text[i] == " ":
            i += 1
        gap = i - gap_from
        piece = i
        while i < end:
            if text[i] == " " and text[i : i + min_gap] == " " * min_gap:
                break
            i += 1
        if piece < i:
            out.append((piece, i, gap))
    return out


def _fragments(chars: list[tuple[str, str]]) -> FormattedText:
    out: StyleAndTextTuples = []
    for style, ch in chars:
        if out and out[-1][0] == style:
            out[-1] = (style, out[-1][1] + ch)
        else:
            out.append((style, ch))
    return FormattedText(out)


def card_text(card: Card, display: Display) -> str:
    return format_card(card, display.scheme) + display.glyph(card.suit)


def card_fragment(card: Card, display: Display) -> tuple[str, str]:
    return (SUIT_CLASS[card.suit], card_text(card, display))


def cards_fragments(
    cards: Sequence[Card], display: Display, *, values: bool = False
) -> StyleAndTextTuples:
    """Cards separated by two spaces; with ``values``, each followed by its capture value."""
    if not cards:
        return [("class:value", "(none)")]
    out: StyleAndTextTuples = []
    for i, card in enumerate(cards):
        if i:
            out.append(("", "  "))
        out.append(card_fragment(card, display))
        if values:
            out.append(("class:value", f"={card.value}"))
    return out


def capturing_cards(view: SeatView) -> frozenset[Card]:
    """The cards in hand that would capture if played now (a card that can, must); none
    marked when it is not this seat's turn, or the view cannot be rebuilt into a position."""
    try:
        plays = legal_plays(view) if view.my_turn and not view.round_over else []
    except ValueError:
        return frozenset()
    return frozenset(play.card for play in plays if play.captured)


#: After a card in the hand: it must capture if played. Text, so it shows without colour too.
MUST_CAPTURE = "*"


def hand_fragments(view: SeatView, display: Display) -> StyleAndTextTuples:
    """The hand with capture values like the table's, ``*`` on the cards that must capture."""
    takers = capturing_cards(view)
    out = cards_fragments(view.hand, display, values=True)
    if not takers:
        return out
    marked: StyleAndTextTuples = []
    for style, text in out:
        marked.append((style, text))
        if style == "class:value" and text.startswith("="):
            card = view.hand[sum(1 for s, t in marked if s == "class:value") - 1]
            if card in takers:
                marked.append(("class:sweep", MUST_CAPTURE))
    marked.append(("class:value", f"   ({MUST_CAPTURE} must capture)"))
    return marked


def play_fragments(play: Play, display: Display) -> StyleAndTextTuples:
    """``7d♦ x 5s♠+2b♣``: the card played and what it took."""
    out: StyleAndTextTuples = [card_fragment(play.card, display)]
    for i, card in enumerate(play.captured):
        out.append(("", " x " if i == 0 else "+"))
        out.append(card_fragment(card, display))
    return out


def seat_label(seat: int, view: SeatView, names: Sequence[str]) -> str:
    return names[seat] if seat < len(names) else f"seat {seat}"


def more_players(count: int) -> str:
    """``count`` more players, in words: "1 more player", "2 more players"."""
    return f"{count} more player" + ("" if count == 1 else "s")


def dealer_label(view: SeatView, names: Sequence[str], you: int | None) -> str:
    """Who deals the round: the seat's name, ``you`` for the reader's own seat ``you`` (as
    their side is ``you & Carla``)."""
    return "you" if view.dealer == you else seat_label(view.dealer, view, names)


def side_label(side: int, view: SeatView, names: Sequence[str], *, you: int | None = None) -> str:
    """A side named by its players: ``Ada``, or ``Ada & Bot 2`` for a partnership; the seat
    ``you`` (the reader's own) is ``you``: ``you & Bot 2``."""
    return " & ".join(
        "you" if s == you else seat_label(s, view, names) for s in view.rules.seats_of(side)
    )


def partners_line(view: SeatView, names: Sequence[str], seat: int | None) -> str:
    """Who plays with whom at a table of partners, said once a match: ``Partners: Ada and
    Maximiliano against Zoë and 李小龙.``, the reader's side first; "" when each plays alone."""
    rules = view.rules
    if rules.side_count == rules.players:
        return ""
    first = rules.side_of(seat) if seat is not None and 0 <= seat < rules.players else 0
    order = [first, *(side for side in range(rules.side_count) if side != first)]

    def together(side: int) -> str:
        who = [seat_label(s, view, names) for s in rules.seats_of(side)]
        return f"{', '.join(who[:-1])} and {who[-1]}"

    if rules.side_count > 2:  # three pairs: "A against B against C" reads as a chain
        return f"Partners, three pairs: {'; '.join(together(side) for side in order)}."
    return f"Partners: {' against '.join(together(side) for side in order)}."


def player_label(
    record: PlayRecord,
    view: SeatView,
    names: Sequence[str],
    computer: Collection[int] = (),
    *,
    makers: Mapping[int, str] | None = None,
    you: int | None = None,
) -> str:
    """Who made a play: the seat's name, or ``Ada (computer)`` when a computer played for
    the person (``computer``: the indexes in ``view.plays`` of the plays a computer made for
    a person away, or sitting a blind round out). ``makers``: by index in ``view.plays``, the
    name of whoever held the seat when the play was made, if it has changed hands since.
    ``you``: the seat of the person reading, whose own plays are ``You``."""
    index = next((i for i, r in enumerate(view.plays) if r is record), None)
    who = seat_label(record.seat, view, names)
    if makers and index in makers:
        who = makers[index]
    if index is not None and index in computer:
        return f"{who} (computer)"
    if record.seat == you and who == seat_label(record.seat, view, names):
        return "You"  # made by whoever holds the seat now (a client notes every play's maker)
    return who


def record_line(
    record: PlayRecord,
    view: SeatView,
    names: Sequence[str],
    display: Display,
    computer: Collection[int] = (),
    *,
    makers: Mapping[int, str] | None = None,
    you: int | None = None,
) -> Line:
    """One play as it happened: who, what, and a sweep if it was one (``computer``,
    ``makers``, ``you``: as for :func:`player_label`)."""
    who = player_label(record, view, names, computer, makers=makers, you=you)
    out: StyleAndTextTuples = [("class:you" if record.seat == view.seat else "", who)]
    out.append(("", " play " if who == "You" else " plays "))  # "You play", "Ada plays"
    out += play_fragments(record.play, display)
    if record.sweep:
        out.append(("class:sweep", "  Scopa!"))
    return FormattedText(out)


NEW_SEAT_SITTING_OUT = "A computer finishes this round for you; you play from the next round."
"""A person who took a seat during a blind round its people began without it (9.7)."""


SAT_OUT_HAND = "(a computer plays it this round)"
"""The hand of a seat sitting a blind round out: the host's party's cards, not its to see."""


def turn_text(view: SeatView, names: Sequence[str], *, told: bool = False) -> str:
    """The board's last line: whose turn it is. ``told``: that a computer plays this seat
    this round was said already (once a round is enough)."""
    if view.round_over or view.to_move is None:
        return "The round is over."
    if view.my_turn:
        return "Your turn."
    if view.sitting_out and told:  # said once this round: now only whose turn it is
        if view.to_move == view.seat:  # not "A computer plays for you now." at every board
            return "Waiting for the computer playing your seat."
        return f"Waiting for {seat_label(view.to_move, view, names)}."
    if view.sitting_out and view.new_seat:
        return NEW_SEAT_SITTING_OUT
    if view.sitting_out:
        # Printed once, it stays in the scrollback while the round goes on: so nothing in it
        # that the next play makes untrue (whose turn it is: the toolbar says, as it changes).
        return "A computer plays your seat this round; you play again from the next one."
    return f"Waiting for {seat_label(view.to_move, view, names)}."


def last_plays(view: SeatView) -> list[PlayRecord]:
    """The most recent play of each seat, in the order they were made."""
    latest: dict[int, PlayRecord] = {}
    for record in view.plays:
        latest.pop(record.seat, None)
        latest[record.seat] = record
    return list(latest.values())


def _row(label: str, body: StyleAndTextTuples) -> Line:
    return FormattedText([("class:label", f"{label:<10}"), *body])


def round_title(view: SeatView) -> str:
    """``Round 3``, or for the redeal of a void round ``Round 3 (round 2 dealt again)``: the
    number is the wire's, as verify and history count, and the words say which deal it is."""
    again = f" (round {view.round_number - 1} dealt again)" if view.redeal else ""
    return f"Round {view.round_number}{again}"


def board_lines(
    view: SeatView,
    names: Sequence[str],
    display: Display,
    computer: Collection[int] = (),
    *,
    makers: Mapping[int, str] | None = None,
    told: bool = False,
    you: int | None = None,
) -> list[Line]:
    """The whole screen of the game for ``view.seat``, top to bottom (``computer``,
    ``makers``, ``you``: as for :func:`player_label`; ``told``: as for :func:`turn_text`)."""
    rules = view.rules
    variants = ", ".join(sorted(v.value for v in rules.variants)) or "none"
    lines = [
        FormattedText(
            [
                ("class:heading", round_title(view)),
                ("", f"  dealer {dealer_label(view, names, you)}"),
                ("", f"  target {rules.target}  variants: {variants}"),
                *([("class:heading", "  blind")] if view.blind else []),
            ]
        )
    ]
    score: StyleAndTextTuples = []
    for side, points in enumerate(view.scores_now):
        if side:
            score.append(("", "   "))
        mine = "class:you" if side == view.side else ""
        # "bot 1: 0", not "bot 1 0": a name may end in a number.
        score.append((mine, f"{side_label(side, view, names)}: {points}"))
    lines.append(_row("Score", score))
    lines.append(_row("Table", cards_fragments(view.table, display, values=True)))
    lines.append(_row("Stock", [("", f"{view.stock_count} cards")]))
    piles: StyleAndTextTuples = []
    for side, count in enumerate(view.pile_counts):
        if side:
            piles.append(("", "   "))
        sweeps = view.sweeps[side]
        # "bot 1: 2 cards", as on the Score row: "bot 1 2 cards" reads as a name and a number.
        piles.append(("", f"{side_label(side, view, names)}: {count} cards"))
        piles.append(("class:sweep" if sweeps else "", f", {sweeps} sweep{'s' * (sweeps != 1)}"))
    lines.append(_row("Captured", piles))
    for record in last_plays(view):
        row = record_line(record, view, names, display, computer, makers=makers, you=you)
        lines.append(_row("Last", list(row)))
    if view.sitting_out and not view.hand:  # the host's party's cards: not this seat's to see
        lines.append(_row("Your hand", [("class:value", SAT_OUT_HAND)]))
    else:
        lines.append(_row("Your hand", hand_fragments(view, display)))
    turn = turn_text(view, names, told=told)
    lines.append(FormattedText([("class:turn" if view.my_turn else "", turn)]))
    return lines


# --- plain mode: one fact per line, long card names, nothing drawn twice ---------------------


def card_words(card: Card, display: Display) -> str:
    return card_name(card, display.scheme)


def words_of(cards: Sequence[Card], display: Display) -> str:
    return ", ".join(card_words(c, display) for c in cards) or "nothing"


def play_said(play: Play, display: Display) -> str:
    """A play in words that parse back as typed: ``7 of coins takes 5 of swords, 2 of
    clubs``, or ``7 of coins`` when it takes nothing."""
    said = card_words(play.card, display)
    return f"{said} takes {words_of(play.captured, display)}" if play.captured else said


def play_words(
    record: PlayRecord,
    view: SeatView,
    names: Sequence[str],
    display: Display,
    computer: Collection[int] = (),
    *,
    makers: Mapping[int, str] | None = None,
    you: int | None = None,
) -> str:
    """One play in words (``computer``, ``makers``, ``you``: as for :func:`player_label`)."""
    who = player_label(record, view, names, computer, makers=makers, you=you)
    text = f"{who} played {card_words(record.play.card, display)}"  # past tense: any person
    if record.play.captured:
        text += f", taking {words_of(record.play.captured, display)}"
    return text + (". Scopa!" if record.sweep else ".")


def hand_words(view: SeatView, display: Display) -> str:
    """The hand for a screen reader: each card with its value, and whether it must capture."""
    takers = capturing_cards(view)
    words = [
        f"{card_words(c, display)} ({c.value}{', must capture' if c in takers else ''})"
        for c in view.hand
    ]
    return ", ".join(words) or "nothing"


def _count(number: int, thing: str) -> str:
    """``1 card``, ``3 cards``, ``no sweeps``."""
    return f"{number or 'no'} {thing}{'s' * (number != 1)}"


def captured_words(view: SeatView, names: Sequence[str]) -> str:
    """What each side has taken this round, as a sentence: ``Captured: Ada has 3 cards and 1
    sweep; Bot 1 has no cards and no sweeps.`` (the verb keeps a name's number off the count)."""
    said = []
    for side, count in enumerate(view.pile_counts):
        verb = "has" if len(view.rules.seats_of(side)) == 1 else "have"
        sweeps = _count(view.sweeps[side], "sweep")
        said.append(f"{side_label(side, view, names)} {verb} {_count(count, 'card')} and {sweeps}")
    return f"Captured: {'; '.join(said)}."


def plain_board(
    view: SeatView, names: Sequence[str], display: Display, *, told: bool = False
) -> list[str]:
    """The board as short sentences, for a screen reader (``told``: as for
    :func:`turn_text`)."""
    table = ", ".join(f"{card_words(c, display)} ({c.value})" for c in view.table)
    sides = [side_label(side, view, names) for side in range(len(view.scores_now))]
    mark = after_name(sides)  # "bot 1: 0", never "bot 1 0"
    score = ", ".join(f"{side}{mark}{p}" for side, p in zip(sides, view.scores_now, strict=True))
    return [
        f"{round_title(view)}, target {view.rules.target}"
        f"{', a blind table' if view.blind else ''}. Score: {score}.",
        f"Dealer: {dealer_label(view, names, view.seat)}.",
        f"Table: {table or 'empty'}.",
        f"Stock: {view.stock_count} cards.",
        captured_words(view, names),
        f"Your hand: {SAT_OUT_HAND[1:-1] if view.sitting_out else hand_words(view, display)}.",
        turn_text(view, names, told=told),
    ]
