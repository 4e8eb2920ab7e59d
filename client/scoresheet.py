"""The score sheet of a round, line by line, and the summary at the end of a match."""

from __future__ import annotations

from collections.abc import Sequence

from prompt_toolkit.formatted_text import FormattedText, StyleAndTextTuples

from scopa_net.client.render import side_label
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
)
from scopa_net.view import SeatView

#: What each score line is called on the sheet, and what its figures count.
LINE_TITLES: dict[str, tuple[str, str]] = {
    CARDS_LINE: ("Cards", "cards taken"),
    COINS_LINE: ("Coins", "coins taken"),
    SETTEBELLO_LINE: ("Settebello", "holds the 7 of coins"),
    PRIMIERA_LINE: ("Primiera", "best card per suit, summed"),
    SWEEPS_LINE: ("Sweeps", "scope"),
    RE_BELLO_LINE: ("Re bello", "holds the king of coins"),
    NAPOLA_LINE: ("Napola", "run of coins from the ace"),
}

_LABEL = 12
_COL = 9


def _taker(line: ScoreLine, view: SeatView, names: Sequence[str]) -> str:
    scored = [side for side, p in enumerate(line.points) if p]
    if not scored:
        return "nobody" if line.name != SWEEPS_LINE else "none"
    if line.winner is not None and len(scored) == 1:
        return side_label(line.winner, view, names)
    return ", ".join(f"{side_label(s, view, names)} {line.points[s]}" for s in scored)


def _cells(values: Sequence[int | str]) -> str:
    return "".join(f"{v!s:>{_COL}}" for v in values)


def score_sheet(
    view: SeatView, score: RoundScore, match_scores: Sequence[int], names: Sequence[str]
) -> list[FormattedText]:
    """The sheet for a finished round: one line per scoring line with each side's figure, who
    took the point, the round totals and the running match score."""
    sides = [side_label(s, view, names) for s in range(len(score.totals))]
    header = [f"{s[: _COL - 1]}" for s in sides]
    lines = [
        FormattedText([("class:heading", f"Round {view.round_number} score sheet")]),
        FormattedText([("class:label", f"{'':<{_LABEL}}{_cells(header)}   point to")]),
    ]
    for line in score.lines:
        title = LINE_TITLES.get(line.name, (line.name, ""))[0]
        body: StyleAndTextTuples = [
            ("class:label", f"{title:<{_LABEL}}"),
            ("", _cells(line.figures)),
            ("", "   "),
            ("class:winner" if any(line.points) else "", _taker(line, view, names)),
        ]
        lines.append(FormattedText(body))
    lines.append(
        FormattedText([("class:label", f"{'Round':<{_LABEL}}"), ("", _cells(score.totals))])
    )
    lines.append(
        FormattedText(
            [
                ("class:label", f"{'Match':<{_LABEL}}"),
                ("class:heading", _cells(match_scores)),
                ("", f"   playing to {view.rules.target}"),
            ]
        )
    )
    return lines


def match_summary(
    view: SeatView, winner: int, match_scores: Sequence[int], rounds: int, names: Sequence[str]
) -> FormattedText:
    """One line: who won, the final score and how many rounds it took."""
    alone_me = view.rules.seats_of(winner) == (view.seat,)
    who = "You" if alone_me else side_label(winner, view, names)
    verb = "win" if alone_me or " & " in who else "wins"
    final = " to ".join(str(s) for s in sorted(match_scores, reverse=True))
    plural = "s" if rounds != 1 else ""
    return FormattedText(
        [
            ("class:winner", f"{who} {verb} the match"),
            ("", f", {final}, after {rounds} round{plural}."),
        ]
    )
