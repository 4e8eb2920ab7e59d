"""A seat's mirror on a first deal whose opening table holds three kings (protocol.md 5.8).

At a blind table the host sends the first ``deal`` (the opened ``blind_deal``) and only then,
once it has opened the table as well, its ``round_void``. The seat's mirror gave the turn in
between: a player (a person quick at the keyboard, a computer at once) played a card of a
void deal and read "not played: ... the table changed before it reached the host"; a test
that played from the view failed so about once in a hundred runs. The seat sees the kings as
the host does, so its mirror gives no turn on such a deal.
"""

from __future__ import annotations

from helpers import before_the_first_deal

from scopa_net.cards import CARDS
from scopa_net.mirror import SeatMirror
from scopa_net.wire import messages as m

KINGS = [c.index for c in CARDS if c.rank.name == "KING"]
TWOS = [c.index for c in CARDS if c.rank.name == "TWO"]
THREES = [c.index for c in CARDS if c.rank.name == "THREE"]


def _waiting_mirror(seat: int = 1) -> SeatMirror:
    """A seat at a two-player table before its first deal, the seeds just revealed."""
    snapshot = before_the_first_deal(2, seat)
    mirror = SeatMirror(snapshot)
    mirror.apply(
        m.SeedReveals(seq=3, round_id=bytes(16), seeds=(None, None), excluded=(None, None))
    )
    return mirror


def _first_deal(table: list[int]) -> m.Deal:
    """Seat 1's first deal (positions 0, 2, 4: seat 0 deals), with ``table`` face up."""
    hand = [
        m.DealtCard(pos=p, card=c, salt=bytes(16))
        for p, c in zip((0, 2, 4), THREES[:3], strict=True)
    ]
    laid = [m.DealtCard(pos=6 + i, card=c, salt=bytes(16)) for i, c in enumerate(table)]
    return m.Deal(seq=4, hand=tuple(hand), table=tuple(laid), stock=30)


def test_a_first_deal_with_three_kings_on_the_table_gives_no_turn() -> None:
    mirror = _waiting_mirror()
    view = mirror.apply(_first_deal([*KINGS[:3], TWOS[0]]))
    assert (len(view.hand), len(view.table)) == (3, 4)
    assert view.to_move is None
    assert not view.my_turn


def test_a_first_deal_with_two_kings_on_the_table_is_played() -> None:
    mirror = _waiting_mirror()
    view = mirror.apply(_first_deal([*KINGS[:2], *TWOS[:2]]))
    assert view.to_move == 1  # seat 0 dealt: seat 1 plays first
    assert view.my_turn
