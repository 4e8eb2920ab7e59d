"""From engine values to wire records: rule sets, score sheets and a seat's view."""

from __future__ import annotations

from scopa_net.rules import RuleSet
from scopa_net.scoring import RoundScore
from scopa_net.view import SeatView
from scopa_net.wire.messages import PlayInfo, RulesInfo, ScoreLineInfo, SeatInfo, Snapshot


def score_lines(score: RoundScore) -> tuple[ScoreLineInfo, ...]:
    """A round's score sheet, line by line, as ``round_end`` and ``snapshot`` carry it."""
    return tuple(
        ScoreLineInfo(name=line.name, figures=line.figures, points=line.points, winner=line.winner)
        for line in score.lines
    )


def snapshot_of(
    view: SeatView,
    *,
    seq: int,
    table_id: int,
    seats: tuple[SeatInfo, ...] = (),
    voids: int = 0,
    computer_plays: tuple[int, ...] = (),
    stand_ins: tuple[int, ...] = (),
    redeal: bool = False,
    makers: tuple[str, ...] = (),
) -> Snapshot:
    """The ``snapshot`` message for a seat's view, standing for its events up to ``seq``;
    ``seats`` says who holds each seat, ``voids`` how many rounds of the match were void,
    ``computer_plays`` which of the round's plays a computer made for a person, ``stand_ins``
    the seats a computer plays for their absent person now, ``redeal`` that the round deals a
    void round again, and ``makers`` who held each play's seat when it was made."""
    return Snapshot(
        seq=seq,
        table_id=table_id,
        seat=view.seat,
        side=view.side,
        rules=RulesInfo.of(view.rules),
        dealer=view.dealer,
        round_no=view.round_number,
        to_move=view.to_move,
        hand=tuple(c.index for c in view.hand),
        table=tuple(c.index for c in view.table),
        hand_counts=view.hand_counts,
        stock=view.stock_count,
        pile_counts=view.pile_counts,
        sweeps=view.sweeps,
        scores=view.scores,
        plays=tuple(
            PlayInfo(
                seat=r.seat, card=r.play.card.index, captured=r.play.captured_mask, sweep=r.sweep
            )
            for r in view.plays
        ),
        void_deal=view.void_deal,
        round_over=view.round_over,
        leftover=tuple(c.index for c in view.leftover),
        round_score=None if view.round_score is None else score_lines(view.round_score),
        winner=view.winner,
        seats=seats,
        voids=voids,
        computer_plays=computer_plays,
        stand_ins=stand_ins,
        redeal=redeal,
        makers=makers,
    )


def opening_snapshot(
    rules: RuleSet, *, seat: int, seq: int, table_id: int, seats: tuple[SeatInfo, ...] = ()
) -> Snapshot:
    """A seat's view before the first deal of a match: nothing dealt, no points, dealer 0
    (none is drawn yet). A host sends it before the first round; a client that agreed to a
    rematch starts the new match from it."""
    sides = rules.side_count
    return Snapshot(
        seq=seq,
        table_id=table_id,
        seat=seat,
        side=rules.side_of(seat),
        rules=RulesInfo.of(rules),
        dealer=0,
        round_no=0,
        to_move=None,
        hand=(),
        table=(),
        hand_counts=(0,) * rules.players,
        stock=0,
        pile_counts=(0,) * sides,
        sweeps=(0,) * sides,
        scores=(0,) * sides,
        plays=(),
        void_deal=False,
        round_over=False,
        leftover=(),
        round_score=None,
        winner=None,
        seats=seats,
    )
