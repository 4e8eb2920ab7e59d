"""Where a seat caught up by snapshot takes its own chain up again (protocol.md 5.10, 9.7).

A snapshot that stands at the last round the seat saw revealed (or at no round dealt) tells it
nothing of the match it did not check: the seat still holds that round's chain hash (or the
zero hash), so the next round opened, if numbered next, must link to it (*broken chain* if
not), and the seat then follows the match as it did before the catch-up. The same for the
ordinary witness (``round_commit``) and the blind one (``blind_round``).
"""

from __future__ import annotations

import dataclasses

from scopa_net.fair.commitments import ZERO_CHAIN
from scopa_net.fair.errors import BrokenChainError
from scopa_net.fair.hashing import same_bytes
from scopa_net.fair.verifier import RoundByRoundVerifier
from scopa_net.match_so_far import MatchSoFar
from scopa_net.transcript_shape import KeptShape

TRANSCRIPT_GOES_ON = "as your transcript of this match says"
"""How a seat's notice of a round passed unseen ends (its file says so: 6.1 ``caught_up``, at
a blind table 9.8's version 8)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Rejoin:
    """Where a seat caught up by snapshot takes the chain up again: the round due next, the
    chain hash it must link to, and the seat's state before the catch-up (its verifier, None
    to carry the snapshot on; whether mid-match; the next dealer; its transcript's shape)."""

    round_no: int
    chain: bytes
    verifier: RoundByRoundVerifier | None
    mid_match: bool
    dealer: int | None
    kept: KeptShape = (None, 0, None, ())


def chain_kept(
    so_far: MatchSoFar | None,
    *,
    last_revealed: int,
    chain: bytes | None,
    verifier: RoundByRoundVerifier | None,
    mid_match: bool,
    kept: KeptShape = (None, 0, None, ()),
) -> Rejoin | None:
    """What a seat can take up again after the snapshot ``so_far`` was told by, when it stands
    at ``last_revealed`` (0: the seat saw no round revealed), whose chain hash the seat holds:
    the next round's ``prev`` must be it. Before anything was dealt, round 1 links to the zero
    hash and the seat checks the match from its start. None when the snapshot stands
    elsewhere (the match before it is the host's word)."""
    if so_far is None:
        return None
    if so_far.last_dealt == 0 and last_revealed == 0:
        return Rejoin(1, ZERO_CHAIN, None, mid_match=False, dealer=None)
    if chain is None or last_revealed == 0 or so_far.last_dealt != last_revealed:
        return None
    dealer = None if verifier is None else verifier.next_dealer
    if verifier is not None and dealer is None:
        verifier = None  # a round failed: the seat stopped there
    return Rejoin(last_revealed + 1, chain, verifier, mid_match=mid_match, dealer=dealer, kept=kept)


def linked(rejoin: Rejoin, round_no: int, prev: bytes) -> str | None:
    """The first round opened after the catch-up, ``round_no`` linked to ``prev``: None when
    it is the round due next and links to the seat's own chain (taken up again); the notice
    for the person when a round passed unseen (the match before it stays the host's word, and
    the seat's transcript says so: :data:`TRANSCRIPT_GOES_ON`). Raises
    :class:`BrokenChainError` when it is due next and links elsewhere."""
    if round_no != rejoin.round_no and rejoin.round_no == 1:
        return (
            f"round {round_no} is the first round you see opened: the rounds before it are "
            f"the host's word, {TRANSCRIPT_GOES_ON}"
        )
    if round_no != rejoin.round_no:  # a round passed unfollowed: its chain is not here
        return (
            f"round {round_no} follows round {rejoin.round_no - 1}, the last the snapshot you "
            "were caught up with showed dealt, and you did not see the round between: the "
            f"match before it is the host's word, {TRANSCRIPT_GOES_ON}"
        )
    if not same_bytes(prev, rejoin.chain):
        before = (
            "the zero hash (no round was dealt before it)"
            if rejoin.round_no == 1
            else f"round {rejoin.round_no - 1}'s chain hash {rejoin.chain.hex()}, which this "
            "seat checked (the snapshot you were caught up with stands at that round)"
        )
        raise BrokenChainError(f"round {round_no} links to {prev.hex()}, not to {before}")
    return None


def taken_up(
    rejoin: Rejoin | None, round_no: int, prev: bytes, notices: list[str]
) -> Rejoin | None:
    """A witness's first round opened after its catch-up (``round_no``, linked to ``prev``):
    ``rejoin`` when the seat takes its own chain up again there; None when there was nothing
    to take up, or a round passed unseen (its notice added to ``notices``). Raises
    :class:`BrokenChainError` as :func:`linked` does."""
    if rejoin is None:
        return None
    notice = linked(rejoin, round_no, prev)
    if notice is not None:
        notices.append(notice)
        return None
    return rejoin


__all__ = ["TRANSCRIPT_GOES_ON", "Rejoin", "chain_kept", "linked", "taken_up"]
