"""The 40 cards as points: ``P[c] = from_uniform(H("scopa-net/blind/v1/card-point", u8(c)))``.

Every encoding looks like any other point, so a masked card says nothing of its value; a
decryption is a card only if it is exactly one of these 40 points.
"""

from __future__ import annotations

from scopa_net.fair.blind.group import from_uniform
from scopa_net.fair.blind.tags import TAG_CARD_POINT
from scopa_net.fair.hashing import tagged_hash, u8

DECK_SIZE = 40

CARD_POINTS: tuple[bytes, ...] = tuple(
    from_uniform(tagged_hash(TAG_CARD_POINT, u8(c))) for c in range(DECK_SIZE)
)
"""``CARD_POINTS[c]``: the point of card index ``c``."""

_CARD_OF = {point: c for c, point in enumerate(CARD_POINTS)}
assert len(_CARD_OF) == DECK_SIZE, "the card points must be distinct"


def card_of(point: bytes) -> int | None:
    """The card index whose point this is, or None when it is no card."""
    return _CARD_OF.get(point)
