"""The score sheet of a round, line by line, and the summary at the end of a match."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from prompt_toolkit.formatted_text import FormattedText, StyleAndTextTuples

from scopa_net.cards import Card, cards_of
from scopa_net.client.render import side_label
from scopa_net.match import match_winner, won_by_cappotto
from scopa_net.names import display_width
from scopa_net.rules import RuleSet, Variant
from scopa_net.score_line import after_name
from scopa_net.scoring import (
    CARDS_LINE,
    COINS_LINE,
    NAPOLA_LINE,
    PRIMIERA_LINE,
    RE_BELLO_LINE,
    SETTEBELLO_LINE,
    SWEEPS_LINE,
    RoundScore,
    ScoreLine,
    prime_value,
    primiera_total,
    strict_leader,
)
from scopa_net.tally import primiera_count
from scopa_net.view import SeatView

#: What each score line is called on the sheet, and what its figures count.
LINE_TITLES: dict[str, tuple[str, str]] = {
    CARDS_LINE: ("Cards", "cards taken"),
    COINS_LINE: ("Coins", "coins taken"),
    SETTEBELLO_LINE: ("Settebello", "holds the 7 of coins"),
    PRIMIERA_LINE: ("Primiera", "best card per suit, summed"),
    SWEEPS_LINE: ("Sweeps", "scope: a point for each"),
    RE_BELLO_LINE: ("Re bello", "holds the king of coins"),
    NAPOLA_LINE: ("Napola", "run of coins from the ace"),
}

_LABEL = 12
_GAP = 3
SHEET_WIDTH = 80
"""The width a sheet is laid out for unless told the terminal's."""


def _taker(line: ScoreLine, sides: Sequence[str]) -> str:
    """Who took the line's point(s): a side's name, or each scoring side with ``+points``."""
    scored = [side for side, p in enumerate(line.points) if p]
    if not scored:
        return "nobody"
    if line.winner is not None and len(scored) == 1 and line.points[scored[0]] == 1:
        return sides[scored[0]]
    return ", ".join(f"{sides[s]} +{line.points[s]}" for s in scored)


def _last_column(sides: Sequence[str], rules: RuleSet) -> int:
    """How wide the sheet's last column may grow with these side names: a side that took a
    line's points (``Ada +2``), or the Match row's note (``match over (played to 11)``, ``...
    by cappotto ...`` where it can be). A line shared by several sides may be wider, and is
    wrapped on its own row."""
    taker = max(display_width(f"{side} +9") for side in sides)
    how = " by cappotto" * rules.has(Variant.CAPPOTTO)
    return max(taker, len(f"match over{how} (played to {rules.target})"))


def score_sheet(
    view: SeatView,
    score: RoundScore,
    match_scores: Sequence[int],
    names: Sequence[str],
    width: int = SHEET_WIDTH,
) -> list[FormattedText]:
    """The sheet for a finished round: one line per scoring line with each side's figure, who
    took the point, the round totals and the running match score.

    The sides are headed by their full names when the sheet fits ``width`` with them; when it
    does not, by letters (A, B, C) named on a line of their own, so no name is cut short. The
    choice rests on the names, the target and the width only, never on who scored what: every
    sheet of a match at one width is laid out alike, its Match row's note on that row.
    """
    full = [side_label(s, view, names) for s in range(len(score.totals))]
    takers = [_taker(line, full) for line in score.lines]
    col = max(6, *(display_width(n) + _GAP for n in full))
    if _LABEL + col * len(full) + _GAP + _last_column(full, view.rules) <= width:
        sides, legend = full, []
    else:
        sides = [chr(ord("A") + s) for s in range(len(full))]
        col = 6
        takers = [_taker(line, sides) for line in score.lines]
        legend = [
            FormattedText(
                [("", "   ".join(f"{k} = {n}" for k, n in zip(sides, full, strict=True)))]
            )
        ]

    def cells(values: Sequence[int | str]) -> str:
        """Each value right-aligned in ``col`` columns (a CJK character takes two)."""
        return "".join(" " * (col - display_width(str(v))) + str(v) for v in values)

    lines = [
        FormattedText([("class:heading", f"Round {view.round_number} score sheet")]),
        *legend,
        FormattedText([("class:label", f"{'':<{_LABEL}}{cells(sides)}{' ' * _GAP}points to")]),
    ]
    for line, taker in zip(score.lines, takers, strict=True):
        title = LINE_TITLES.get(line.name, (line.name, ""))[0]
        body: StyleAndTextTuples = [
            ("class:label", f"{title:<{_LABEL}}"),
            ("", cells(line.figures)),
            ("", " " * _GAP),
            ("class:winner" if any(line.points) else "", taker),
        ]
        lines.append(FormattedText(body))
    lines.append(
        FormattedText([("class:label", f"{'Round':<{_LABEL}}"), ("", cells(score.totals))])
    )
    lines.append(
        FormattedText(
            [
                ("class:label", f"{'Match':<{_LABEL}}"),
                ("class:heading", cells(match_scores)),
                ("", f"{' ' * _GAP}{to_the_target(view, match_scores)}"),
            ]
        )
    )
    suits = _suits_of_the_round(view, score, full)
    if suits:
        lines.append(FormattedText([("", suits)]))
    level = level_past_target(view, match_scores, names)
    if level:
        lines.append(FormattedText([("class:notice", level)]))
    return lines


def suits_decided(
    rules: RuleSet, line: ScoreLine, suits: Sequence[int], sides: Sequence[str]
) -> str:
    """Why the primiera ``line`` went where its figures (the totals) do not say: by the
    default rule the side holding more suits wins whatever the totals (RULES.md,
    primiera), and no row shows the suit count. ``suits`` are the suits each side held.
    "" when the totals alone tell who scored, or under ``primiera=sum``."""
    if rules.has(Variant.PRIMIERA_SUM) or strict_leader(line.figures) == line.winner:
        return ""
    held = [f"{side} held {count}" for side, count in zip(sides, suits, strict=True)]
    held[0] += " suit" if suits[0] == 1 else " suits"  # "Ada held 3 suits, Bruno held 4"
    return (
        f"Primiera counts suits first: {', '.join(held)}; the most suits win whatever the totals."
    )


def _suits_of_the_round(view: SeatView, score: RoundScore, sides: Sequence[str]) -> str:
    """:func:`suits_decided` for a played round, the suits counted from the view's plays;
    "" when those plays do not give the sheet's totals (a view that lacks some of them)."""
    line = next((x for x in score.lines if x.name == PRIMIERA_LINE), None)
    if line is None:
        return ""
    counted = [primiera_total(pile, view.rules) for pile in view.captured_piles()]
    if tuple(total for _, total in counted) != line.figures:
        return ""
    return suits_decided(view.rules, line, [n for n, _ in counted], sides)


def primiera_cards(
    view: SeatView, score: RoundScore, sides: Sequence[str], said: Callable[[Card], str]
) -> list[str]:
    """Each side's primiera card by card, to check the sheet by hand: ``Primiera, Ada: 7d 21
    + 6h 18 + As 16 + Kb 10 = 65 (4 suits).`` (``said``: a card as the screen says it).
    Nothing when the view's plays do not give the sheet's totals."""
    line = next((x for x in score.lines if x.name == PRIMIERA_LINE), None)
    piles = view.captured_piles()
    counts = [primiera_count(cards_of(pile), view.rules) for pile in piles]
    if line is None or tuple(c.total for c in counts) != line.figures:
        return []
    out = []
    for side, count in zip(sides, counts, strict=True):
        if not count.best:
            out.append(f"Primiera, {side}: no cards.")
            continue
        rules = view.rules
        parts = " + ".join(f"{said(c)} {prime_value(c.rank, rules)}" for c in count.best)
        held = f"{count.suits} suit{'s' * (count.suits != 1)}"
        out.append(f"Primiera, {side}: {parts} = {count.total} ({held}).")
    return out


def points_to(line: ScoreLine, sides: Sequence[str]) -> str:
    """Who took a line's points, said in words: ``the point to Ada``, ``2 points to Ada``,
    ``1 point to Ada, 1 point to Bruno``, or ``nobody scores``."""
    scored = [side for side, p in enumerate(line.points) if p]
    if not scored:
        return "nobody scores"
    if line.winner is not None and len(scored) == 1 and line.points[scored[0]] == 1:
        return f"the point to {sides[scored[0]]}"
    return ", ".join(
        f"{line.points[s]} point{'s' * (line.points[s] != 1)} to {sides[s]}" for s in scored
    )


def plain_score_sheet(
    view: SeatView, score: RoundScore, match_scores: Sequence[int], names: Sequence[str]
) -> list[str]:
    """The sheet for plain mode (``--plain``, a screen reader): each line a sentence that
    stands alone, each figure said with its side's name, not under a column heading:
    ``Cards: Ada 23, Bruno 17; the point to Ada.``"""
    sides = [side_label(s, view, names) for s in range(len(score.totals))]

    mark = after_name(sides)  # "bot 1: 48", never "bot 1 48"

    def each(values: Sequence[int]) -> str:
        return ", ".join(f"{side}{mark}{value}" for side, value in zip(sides, values, strict=True))

    lines = [f"Round {view.round_number} score sheet."]
    for line in score.lines:
        title = LINE_TITLES.get(line.name, (line.name, ""))[0]
        lines.append(f"{title}: {each(line.figures)}; {points_to(line, sides)}.")
        if line.name == PRIMIERA_LINE and (suits := _suits_of_the_round(view, score, sides)):
            lines.append(suits)
    lines.append(f"Round: {each(score.totals)}.")
    lines.append(f"Match: {each(match_scores)}, {to_the_target(view, match_scores)}.")
    level = level_past_target(view, match_scores, names)
    return [*lines, level] if level else lines


def to_the_target(view: SeatView, match_scores: Sequence[int]) -> str:
    """The end of the sheet's Match row: ``playing to 11``, or, once a side has won, ``match
    over (played to 11)``."""
    target = view.rules.target
    if won_by_cappotto(view.rules, match_scores):  # over short of the target: say why
        return f"match over by cappotto (played to {target})"
    if match_winner(view.rules, match_scores) is not None:
        return f"match over (played to {target})"
    return f"playing to {target}"


def level_past_target(view: SeatView, match_scores: Sequence[int], names: Sequence[str]) -> str:
    """Why the match goes on though a side reached the target: sides level at the top play
    another round (RULES.md, the end of a match). "" otherwise."""
    top = max(match_scores, default=0)
    level = [side for side, points in enumerate(match_scores) if points == top]
    if top < view.rules.target or len(level) < 2:
        return ""
    who = " and ".join(side_label(side, view, names) for side in level)
    where = "the target" if top == view.rules.target else "past the target"
    return f"{who} are level at {top}, {where}: one more round decides."


def rounds_taken(rounds: int, voids: int = 0) -> str:
    """``3 rounds``, or ``3 rounds (1 of them void)``: every round dealt, void ones included,
    as the rounds are numbered on the board and the toolbar (``rounds``: those played out)."""
    dealt = rounds + voids
    counted = f"{dealt} round{'s' if dealt != 1 else ''}"
    return f"{counted} ({voids} of them void)" if voids else counted


def match_summary(
    view: SeatView,
    winner: int,
    match_scores: Sequence[int],
    rounds: int,
    names: Sequence[str],
    *,
    voids: int = 0,
) -> FormattedText:
    """One line: who won, the final score and how many rounds it took (``rounds`` played
    out, ``voids`` void): ``You win the match, 11 to 7, after 3 rounds.``; a side of the
    reader's, ``You & Carla win the match ...``, as their side reads everywhere."""
    alone_me = view.rules.seats_of(winner) == (view.seat,)
    side = side_label(winner, view, names, you=view.seat)
    who = "You" if alone_me else side[:1].upper() + side[1:] if side.startswith("you") else side
    verb = "win" if alone_me or " & " in who else "wins"
    how = " by cappotto" * won_by_cappotto(view.rules, match_scores)  # short of the target
    return FormattedText(
        [
            ("class:winner", f"{who} {verb} the match{how}"),
            ("", f"{final_score(view, winner, match_scores, names, you=view.seat)}, "),
            ("", f"after {rounds_taken(rounds, voids)}."),
        ]
    )


def final_score(
    view: SeatView,
    winner: int,
    match_scores: Sequence[int],
    names: Sequence[str],
    *,
    you: int | None = None,
) -> str:
    """What follows ``... win the match``: the winner's score first, then the others' from the
    highest. Two sides: ``, 11 to 7``. More: the winner's points, then each other side by its
    name and points, as a sentence says them: `` with 12 points (you 10, Elio 10)``, names
    ending in a digit followed by a colon as on every score line (`` with 5 points (Zio &
    bot 4: 4, you & Åsa: 2)``); the seat ``you`` (the reader's) is ``you``."""
    others = sorted(
        (side for side in range(len(match_scores)) if side != winner),
        key=lambda side: -match_scores[side],
    )
    if len(match_scores) <= 2:
        return ", " + " to ".join(str(match_scores[s]) for s in (winner, *others))
    labels = [side_label(s, view, names, you=you) for s in others]
    mark = after_name(labels)
    named = ", ".join(
        f"{label}{mark}{match_scores[s]}" for label, s in zip(labels, others, strict=True)
    )
    points = match_scores[winner]
    return f" with {points} point{'s' * (points != 1)} ({named})"
