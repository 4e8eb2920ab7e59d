"""The bottom toolbar: round, whose turn, score, stock and the connection, in one line.

The line fits the terminal, counted in columns (a CJK character takes two): on a narrow one it
says less (short labels, no stock, the score as figures with the player's own side first:
``you 1-5``; with three sides each side's initials before its points), never a cut-off word.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from prompt_toolkit.formatted_text import FormattedText, StyleAndTextTuples

from scopa_net.client.client_state import ClientState
from scopa_net.client.render import more_players, seat_label, side_label
from scopa_net.names import display_width
from scopa_net.score_line import after_name
from scopa_net.view import SeatView

WIDE = 10_000
"""The width assumed when the terminal's is not known: the fullest toolbar."""


def _turn(state: ClientState) -> str:
    view = state.view
    assert view is not None
    if state.match_over:
        return "match over"
    if state.paused:
        return "Enter: next round"
    awaited = _awaited(state)
    if awaited is not None:
        which = "the round being dealt" if view.round_over else "this round"
        return f"waiting for {awaited[0]} (back by {awaited[1]}, else {which} is void)"
    if view.to_move is None and not view.round_over and _between_deals(view):
        return "dealing"
    if view.round_over or view.to_move is None:
        return "round over"
    if view.my_turn:
        if state.move_sent:
            return "move queued" if state.move_queued else "move sent"
        return "YOUR TURN"
    if view.sitting_out and view.to_move == view.seat:
        return "a computer plays for you"
    return f"{seat_label(view.to_move, view, state.names)} to play"


def _awaited(state: ClientState) -> tuple[str, str] | None:
    """Whom the blind round in play waits for, lost, at the turn or the deal they hold up
    (the next round's deal too, being built with their part of the shuffle), and the time
    (``HH:MM:SS``) it is void unless they are back; None when it waits for nobody gone."""
    view, awaited = state.view, state.awaited_away
    if awaited is None:
        return None
    building = view is None or view.round_over  # the next round's deal, built with them
    if not building and view.to_move not in (None, awaited[0]):
        return None
    return awaited[1], time.strftime("%H:%M:%S", time.localtime(awaited[2]))


def _between_deals(view: SeatView) -> bool:
    """Every hand played out with cards left in the stock: the round goes on with the next
    deal (at a blind table after a round trip for the shares), it is not over."""
    return view.stock_count > 0 and not any(view.hand_counts) and not view.void_deal


def _initials(name: str, letters: int) -> str:
    """The first ``letters`` characters of each word of ``name``: ``NL`` for Nonna Lucía,
    ``b1`` for bot 1 (``No``, ``Lu`` with two)."""
    return "".join(word[:letters] for word in name.split()) or "?"


def side_tags(state: ClientState, *, you: bool = True) -> list[str]:
    """A short tag for each side, by side, the same at every screen but "you" for the
    reader's own (unless ``you`` is False: a screen several people share): its players'
    initials (``A&T`` for Asa & Teo), two letters of each word where two sides' would read
    the same, numbered where even those would."""
    view = state.view
    assert view is not None
    rules = view.rules
    sides = range(len(state.scores))

    def tag(side: int, letters: int) -> str:
        players = rules.seats_of(side)
        return "&".join(_initials(seat_label(s, view, state.names), letters) for s in players)

    found = [tag(side, 1) for side in sides]
    found = [tag(side, 2) if found.count(t) > 1 else t for side, t in enumerate(found)]
    found = [f"{t}#{side + 1}" if found.count(t) > 1 else t for side, t in enumerate(found)]
    if not you:
        return found
    return ["you" if side == view.side else tag for side, tag in zip(sides, found, strict=True)]


def _short_turn(state: ClientState, turn: str) -> str:
    """Whose turn in few columns: the player's initials for their name ("NA to play" for
    Nonna Anna), so that a long name leaves room for the score; a person lost at a blind
    table and the time the round waits until ("waiting for Bruno (until 20:41:05)")."""
    view = state.view
    assert view is not None
    awaited = _awaited(state)
    if awaited is not None and turn.startswith("waiting for "):
        return f"waiting for {awaited[0]} (until {awaited[1]})"
    if view.to_move is None or not turn.endswith(" to play"):
        return turn
    return f"{_initials(seat_label(view.to_move, view, state.names), 2)} to play"


def mine_first(state: ClientState) -> str:
    """The score as figures, this player's side first and called ``you``: ``you 1-5``
    (figures alone would not say which pair is which). With three sides or more, figures
    in a row could be read in any order: each side's tag before its points, in the order
    of the sides for everyone (``A&T 1 · you 3 · C&NL 1``)."""
    view = state.view
    assert view is not None
    scores = list(state.scores)
    if len(scores) > 2:
        return " · ".join(f"{tag} {p}" for tag, p in zip(side_tags(state), scores, strict=True))
    if not 0 <= view.side < len(scores):
        return "-".join(str(p) for p in scores)
    others = [str(p) for side, p in enumerate(scores) if side != view.side]
    return f"you {'-'.join([str(scores[view.side]), *others])}"


def _versions(state: ClientState) -> list[StyleAndTextTuples]:
    """The toolbar from the fullest to the shortest."""
    view = state.view
    conn_text = state.connection.value
    if state.unanswered_for and state.move_sent and not state.move_queued:
        conn_text = f"no answer from the host for {state.unanswered_for} s"
    conn = ("class:toolbar.state", f" {conn_text} ")
    if view is None:
        awaited = _awaited(state)
        if awaited is not None:  # the first deal, being built, waits for them
            waits = (
                f" waiting for {awaited[0]} (back by {awaited[1]}, else the round being dealt "
                "is void) |"
            )
            short = f" waiting for {awaited[0]} (until {awaited[1]}) |"
            return [[("", waits), conn], [("", short), conn], [("", " waiting |"), conn]]
        if state.players_awaited:  # not "waiting for the deal": no card comes until they do
            more = more_players(state.players_awaited)
            return [[("", f" waiting for {more} |"), conn], [("", " waiting |"), conn]]
        return [[("", " waiting for the deal |"), conn], [("", " waiting |"), conn]]
    turn = ("class:toolbar.turn", _turn(state))
    names = [side_label(side, view, state.names) for side in range(len(state.scores))]
    mark = after_name(names)  # "bot 1: 0", never "bot 1 0"
    named = "  ".join(f"{n}{mark}{p}" for n, p in zip(names, state.scores, strict=True))
    mine = mine_first(state)
    target = view.rules.target
    stock = f"stock {view.stock_count}"
    short = f" R{view.round_number} | "
    return [
        [
            ("", f" Round {view.round_number} | "),
            turn,
            ("", f" | {named} (to {target}) | {stock} |"),
            conn,
        ],
        [("", short), turn, ("", f" | {named} /{target} | {stock} |"), conn],
        [("", short), turn, ("", f" | {named} /{target} |"), conn],
        [("", short), turn, ("", f" | {mine} /{target} | {stock} |"), conn],
        [("", short), turn, ("", f" | {mine} /{target} |"), conn],
        [("", " "), turn, ("", f" | {mine} |"), conn],
        [("", " "), turn, ("", f" | {mine} ")],
        [("", " "), (turn[0], _short_turn(state, turn[1])), ("", f" | {mine} ")],
        [("", " "), turn, ("", " ")],
        [("", " "), (turn[0], _short_turn(state, turn[1])), ("", " ")],
    ]


def _fitting(versions: list[StyleAndTextTuples], width: int) -> FormattedText:
    """The first of ``versions`` that fits in ``width`` columns, the last column left free;
    when none does, the last one's whole words that fit (never a word cut in two, nor a line
    the terminal wraps)."""
    for version in versions:
        if display_width("".join(text for _, text, *_ in version)) < width:
            return FormattedText(version)
    return FormattedText(_whole_words(versions[-1], width - 1))


def _whole_words(version: StyleAndTextTuples, columns: int) -> StyleAndTextTuples:
    """``version`` cut after its last whole word that ends within ``columns`` columns."""
    text = "".join(t for _, t, *_ in version)
    end = 0  # the longest prefix that ends a word and fits
    for n in range(1, len(text) + 1):
        if display_width(text[:n]) > columns:
            break
        if n == len(text) or (text[n] == " " and text[n - 1] != " "):
            end = n
    kept: StyleAndTextTuples = []
    for style, t, *_ in version:
        if end <= 0:
            break
        kept.append((style, t[:end]))
        end -= len(t)
    return kept


def shared_toolbar_text(state: ClientState, turn: str, width: int = WIDE) -> FormattedText:
    """The toolbar of a screen several people share (pass and play) in at most ``width``
    columns: every side by its names, never "you", ``turn`` as given. On a narrow screen it
    drops the round's word, the stock and the target first, then names the sides by their
    initials (``Ni 0 · Zo 3``) and the player to play too: the score and whose turn it is
    stay."""
    view = state.view
    if view is None:
        return FormattedText([("", " waiting for the deal ")])
    names = [side_label(side, view, state.names) for side in range(len(state.scores))]
    mark = after_name(names)  # "bot 1: 0", never "bot 1 0"
    named = "  ".join(f"{n}{mark}{p}" for n, p in zip(names, state.scores, strict=True))
    tags = " · ".join(
        f"{t} {p}" for t, p in zip(side_tags(state, you=False), state.scores, strict=True)
    )
    target, stock = view.rules.target, f"stock {view.stock_count}"
    at = ("class:toolbar.turn", turn)
    short = ("class:toolbar.turn", _short_turn(state, turn))
    r = view.round_number
    return _fitting(
        [
            [("", f" Round {r} | "), at, ("", f" | {named} (to {target}) | {stock} ")],
            [("", f" R{r} | "), at, ("", f" | {named} /{target} | {stock} ")],
            [("", f" R{r} | "), at, ("", f" | {named} /{target} ")],
            [("", " "), at, ("", f" | {named} ")],
            [("", " "), at, ("", f" | {tags} ")],
            [("", " "), short, ("", f" | {tags} ")],
            [("", f" {tags} ")],
        ],
        width,
    )


def toolbar_text(state: ClientState, width: int = WIDE) -> FormattedText:
    """The toolbar for ``state`` in at most ``width`` columns (style names only, so it
    follows the style sheet). A wide character (CJK) takes two columns."""
    return _fitting(_versions(state), width)


def app_columns() -> int:
    """The width of the running prompt's terminal; :data:`WIDE` when it cannot be had."""
    from prompt_toolkit.application.current import get_app

    try:
        return get_app().output.get_size().columns
    except Exception:  # no terminal size to be had (a pipe): the fullest toolbar
        return WIDE


def make_toolbar(state: ClientState) -> Callable[[], FormattedText]:
    """A toolbar callable for ``PromptSession(bottom_toolbar=...)``, read at each redraw."""

    def toolbar() -> FormattedText:
        return toolbar_text(state, app_columns())

    return toolbar
