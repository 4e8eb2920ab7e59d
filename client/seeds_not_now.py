"""This seat's seed messages the host answered "not now" (protocol.md 5.4, 3.6): a
``seed_commit`` or ``seed_reveal`` refused ``error storage`` (its journal cannot be written just
now) or ``error rate_limited`` was not taken, and the round still waits for it. The very message
refused goes again, byte for byte (the same seed: a fresh one would let a host that saw the
first choose between two deals, 5.4), after :mod:`~scopa_net.client.not_now`'s pauses (0.5 s,
doubling to 5 s), until the host takes it or the round no longer waits for it: any other
answer to it (``wrong_phase``: the stage is over), the event that ends its stage, or a new
connection (the resume sends what the round still waits for). Sans-IO: :class:`SeedsNotNow`
is told what was sent, the refusals, the events and the time, and says what goes again.
"""

from __future__ import annotations

import math

from scopa_net.client.not_now import SAID_AFTER, WHY, NotNow
from scopa_net.client.session_errors import PASSING_REFUSALS
from scopa_net.wire import messages as m

SEED_SENDS = ("seed_commit", "seed_reveal")
"""The seed messages of an ordinary table's fair deal, as an ``error``'s ``ref`` names them."""


def seed_goes_again(code: str) -> str:
    """The one line a person reads while their seed waits for a host that refused it for now."""
    return (
        "Your random seed for the coming shuffle goes to the host again in a moment, by "
        f"itself: {WHY[code]}."
    )


class SeedsNotNow:
    """The seed messages refused for now, when each goes again, and whether it was said (a
    blind table's stage messages wait the same way: :mod:`~scopa_net.client.blind_not_now`)."""

    SENDS: tuple[str, ...] = SEED_SENDS
    """The types of message kept, as an ``error``'s ``ref`` names them."""

    def __init__(self) -> None:
        self._sent: dict[str, m.Message] = {}
        """The last message of each type sent, by type: what a refusal names."""
        self._held: dict[str, m.Message] = {}
        """Those refused for now and still waited for, by type: what goes again."""
        self._pauses: NotNow[str] = NotNow()
        self._said: set[str] = set()
        """Types whose wait the person was told of (once a message)."""

    def sent(self, msg: m.Message) -> None:
        """``msg`` went to the host (first, or again)."""
        self._sent[msg.TYPE] = msg

    def refused(self, ref: str, code: str, now: float) -> str | None:
        """The host answered this seat's ``ref`` with ``error code``. Refused for now, the same
        message goes again after a pause; the line to show the person when the wait has grown
        long enough to notice (once), else None. Any other code ends it, silently."""
        msg = self._sent.get(ref)
        if msg is None or code not in PASSING_REFUSALS:
            self._stop(ref)  # (what was sent stays known: an answer to an older one, perhaps)
            return None
        self._held[ref] = msg
        self._pauses.refused(ref, now)
        if ref in self._said or self._pauses.waited(ref, now) < SAID_AFTER:
            return None
        self._said.add(ref)
        return self._goes_again(ref, code)

    def _goes_again(self, ref: str, code: str) -> str:
        """The line a person reads while their ``ref`` waits (a seed, here)."""
        return seed_goes_again(code)

    def moved_on(self, event: m.Message) -> None:
        """A table event: one that ends a held message's stage ends its wait (a new round, the
        commitments relayed, the seed taken or the seeds relayed)."""
        if isinstance(event, m.RoundCommit):
            self.forget_all()
        elif isinstance(event, m.SeedCommits):
            self._forget("seed_commit")
        elif isinstance(event, m.SeedReceipt | m.SeedReveals):
            self._forget("seed_reveal")

    def forget_all(self) -> None:
        """Nothing waits any more (a new round, or a new connection: the resume sends what
        the round still waits for, protocol.md 5.4)."""
        for ref in self.SENDS:
            self._forget(ref)

    @property
    def next_due(self) -> float:
        """When the next held message goes again (infinity: none waits)."""
        return self._pauses.next_due if self._held else math.inf

    def due(self, now: float) -> list[m.Message]:
        """The held messages due to go again by ``now``: exactly as first sent."""
        return [self._held[ref] for ref in self._pauses.due(now) if ref in self._held]

    def waiting(self, ref: str) -> bool:
        """Whether this seat's ``ref`` waits to go again."""
        return ref in self._held

    def _stop(self, ref: str) -> None:
        """``ref`` goes no more (unless refused for now again)."""
        self._held.pop(ref, None)
        self._pauses.answered(ref)
        self._said.discard(ref)

    def _forget(self, ref: str) -> None:
        """Its stage is over: nothing sent of ``ref`` goes again, whatever answer comes late."""
        self._stop(ref)
        self._sent.pop(ref, None)
