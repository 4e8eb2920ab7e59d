"""The unbiased public shuffle: an HMAC-SHA256 counter stream and rejection-sampling
Fisher-Yates.

The stream for ``(key, label, round_id)`` is the concatenation of the blocks
``HMAC-SHA256(key, lp(label) || lp(round_id) || u32(j))`` for ``j = 0, 1, 2, ...``, read four bytes
at a time as big-endian 32-bit words. A number below ``n`` takes the next word ``w`` and returns
``w mod n`` when ``w < 2**32 - (2**32 mod n)``; otherwise it discards ``w`` and takes the next
word, so every result is exactly equally likely. Fisher-Yates over ``[0, 1, ..., 39]`` then
runs ``i`` from 39 down to 1, swapping place ``i`` with place ``below(i + 1)``.
"""

from __future__ import annotations

import hashlib
import hmac
import struct

from scopa_net.fair.hashing import (
    LABEL_DECK_SHUFFLE,
    LABEL_FIRST_DEALER,
    LABEL_HOST_ORDER,
    length_prefixed,
    u32,
)

DECK_SIZE = 40
WORD_SPAN = 1 << 32
EIGHT_WORDS = struct.Struct(">8I")
"""One HMAC-SHA256 block read as its eight big-endian 32-bit words."""


class RandomStream:
    """Uniform numbers from the HMAC-SHA256 counter stream of ``(key, label, round_id)``."""

    __slots__ = ("_buffer", "_counter", "_mac", "_prefix")

    def __init__(self, key: bytes, label: bytes, round_id: bytes) -> None:
        self._mac = hmac.new(key, digestmod=hashlib.sha256)
        self._prefix = length_prefixed(label, round_id)
        self._counter = 0
        self._buffer: list[int] = []

    def word(self) -> int:
        """The next 32-bit word of the stream."""
        if not self._buffer:
            mac = self._mac.copy()
            mac.update(self._prefix + u32(self._counter))
            self._buffer = list(EIGHT_WORDS.unpack(mac.digest()))
            self._buffer.reverse()  # popped from the end: the block's first word first
            self._counter += 1
        return self._buffer.pop()

    def below(self, n: int) -> int:
        """A number in ``0..n-1``, every value equally likely (rejection sampling)."""
        if not 1 <= n <= WORD_SPAN:
            raise ValueError(f"cannot draw below {n!r}")
        limit = WORD_SPAN - WORD_SPAN % n
        while True:
            w = self.word()
            if w < limit:
                return w % n


def fisher_yates(stream: RandomStream, size: int = DECK_SIZE) -> tuple[int, ...]:
    """A uniformly random permutation of ``0..size-1`` drawn from ``stream``."""
    items = list(range(size))
    for i in range(size - 1, 0, -1):
        j = stream.below(i + 1)
        items[i], items[j] = items[j], items[i]
    return tuple(items)


def host_order(host_seed: bytes, round_id: bytes) -> tuple[int, ...]:
    """The host's secret order: ``order[i]`` is the card index at place ``i`` of the
    committed list."""
    return fisher_yates(RandomStream(host_seed, LABEL_HOST_ORDER, round_id))


def deck_permutation(joint_seed: bytes, round_id: bytes) -> tuple[int, ...]:
    """The public shuffle: ``perm[pos]`` is the place in the committed list of the card at deck
    position ``pos``."""
    return fisher_yates(RandomStream(joint_seed, LABEL_DECK_SHUFFLE, round_id))


def first_dealer(joint_seed: bytes, round_id: bytes, players: int) -> int:
    """The first dealer of a match, drawn from the joint seed of its first shuffled round."""
    return RandomStream(joint_seed, LABEL_FIRST_DEALER, round_id).below(players)
