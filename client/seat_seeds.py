"""This seat's part in an ordinary table's fair deal (protocol.md 5): its commitment and then
its seed, sent when the round waits for them (at a blind table, what the round waits on from
it), sent again when the host refused them for now (:mod:`~scopa_net.client.seeds_not_now`),
the host's signed receipt awaited, and what the person reads when a seed was lost with an
earlier client or no receipt came."""

from __future__ import annotations

import math
from typing import Any

import trio

from scopa_net.blind_witness import BlindWitness
from scopa_net.client.blind_not_now import BlindNotNow
from scopa_net.client.seeds_not_now import SeedsNotNow
from scopa_net.client.session import Message
from scopa_net.wire import messages as m


class SeatSeeds:
    """Sends a session's commitments and seeds and follows their receipts (see the module
    docstring). The seed itself is the session's (``_seed``); ``receipt_wait`` is how long a
    receipt may take (the session's RECEIPT_WAIT)."""

    def __init__(self, session: Any, *, receipt_wait: float) -> None:
        # session: the NetworkSession holding this (not imported: it imports this module).
        self.session = session
        self.receipt_wait = receipt_wait
        self.receipt_due = math.inf
        """When the receipt for the seed this seat revealed is overdue (inf: none awaited)."""
        self._receipt_round: bytes | None = None
        """The round whose seed that receipt is for."""
        self._seed_lost_round: bytes | None = None
        """The round whose lost seed was said (once)."""
        self.not_now = SeedsNotNow()
        """The commitment or seed the host refused for now (its disk, a rate limit): it goes
        again, the same, while the round waits for it."""
        self.blind_not_now = BlindNotNow()
        """At a blind table, this seat's key, deck, shares or seed refused so: the same."""

    async def send(self, msg: m.SeedCommit | m.SeedReveal) -> None:
        """Send this seat's commitment or seed (a seed: its receipt is awaited from now)."""
        self.not_now.sent(msg)
        await self.session._link.send(msg)
        if isinstance(msg, m.SeedReveal):
            self.await_receipt(msg.round_id)

    async def send_blind(self, msg: m.Message) -> None:
        """Send this seat's part of a blind round (its key, deck, shares or seed), kept so
        that a refusal for now sends the same again."""
        self.blind_not_now.sent(msg)
        await self.session._send_quietly(msg)

    def blind_refused(self, msg: m.Error, now: float) -> None:
        """The host answered this seat's blind message with ``msg``: for now, it goes again
        (a wait long enough to notice said once); anything else ends it, unsaid."""
        assert msg.ref is not None
        said = self.blind_not_now.refused(msg.ref, msg.code, now)
        if said is not None:
            self.session.notice(said)

    @property
    def next_due(self) -> float:
        """When the next message refused for now goes again (infinity: none waits)."""
        return min(self.not_now.next_due, self.blind_not_now.next_due)

    def moved_on(self, event: m.Message) -> None:
        """A table event: a message refused for now waits no more once its stage is over."""
        self.not_now.moved_on(event)
        self.blind_not_now.moved_on(event)

    def refused(self, msg: m.Error, now: float) -> None:
        """The host answered this seat's ``seed_commit`` or ``seed_reveal`` with ``msg``: for
        now (its disk, a rate limit), it goes again, and a wait long enough to notice is said
        once; anything else (``wrong_phase``: the round no longer waits for it) ends it,
        unsaid."""
        assert msg.ref is not None
        said = self.not_now.refused(msg.ref, msg.code, now)
        if msg.ref == "seed_reveal" and self.not_now.waiting("seed_reveal"):
            self.receipt_due = math.inf  # not taken: no receipt is owed for it
        if said is not None:
            self.session.notice(said)

    async def send_again(self, link: Any) -> None:
        """Send again, exactly as before, the commitment, seed or blind message whose pause is
        over."""
        now = trio.current_time()
        for msg in self.blind_not_now.due(now):
            await link.send(msg)
        for msg in self.not_now.due(now):
            await link.send(msg)
            if isinstance(msg, m.SeedReveal):
                self.await_receipt(msg.round_id)

    async def send_seed_if_due(self) -> None:
        """Give the host this seat's commitment or seed if the round in play waits for it.

        Called when every message that has arrived is handled, so that a catch-up replay
        is read to its end before the client decides what the host still waits for."""
        session = self.session
        w = session.witness
        if not session._seed_due or w is None or session._link is None:
            return
        session._seed_due = False
        if isinstance(w, BlindWitness):
            if w.owed is not None:  # what the blind round waits on from us, once more
                self.blind_not_now.sent(w.owed)
                await session._link.send(w.owed)
            return
        current = w.current
        if current is None:
            return
        if current.commits is None:
            if session._seed is None:
                session._seed = session._new_seed()
                session._kept.keep_seed(current.round_id, session._seed)
            commit = w.my_commitment(session._seed)
            await self.send(m.SeedCommit(round_id=current.round_id, commit=commit))
        elif w.should_reveal():
            w.revealed = True
            await self.send(m.SeedReveal(round_id=current.round_id, seed=session._seed))
        elif (
            current.seeds is None
            and current.commits[session.seat] is not None
            and session._seed is None
            and not w.mid_match
        ):
            self.round_unchecked(current.round_id, current.round_no)

    def round_unchecked(self, round_id: bytes, round_no: int) -> None:
        """Say once that this seat cannot check a round whose seed an earlier client chose."""
        if self._seed_lost_round == round_id:
            return
        self._seed_lost_round = round_id
        self.session._emit(
            Message(
                seat=None,
                text=f"This seat's seed for round {round_no} was lost with the client that "
                "chose it, so this seat cannot check that round: its own seed cannot be "
                "confirmed among those the host relays. Every round after it is checked.",
                local=True,
            )
        )

    def await_receipt(self, round_id: bytes) -> None:
        """The seed for ``round_id`` just went: its receipt is due within ``receipt_wait``."""
        self.receipt_due = trio.current_time() + self.receipt_wait
        self._receipt_round = round_id

    def receipt_overdue(self) -> None:
        """The seed went out RECEIPT_WAIT ago and neither its receipt nor the round's seeds
        came back: say so once (a host that later leaves the seed out cannot claim it never
        arrived, and a host that stalls is named)."""
        session = self.session
        self.receipt_due = math.inf
        w = session.witness
        if w is None or w.current is None or w.current.round_id != self._receipt_round:
            return  # that round is over: its receipt (or the lack of one) was judged with it
        if w.current.receipt is not None or w.current.seeds is not None:
            return  # the receipt came, or the seeds are out and the witness judged them
        session._emit(
            Message(
                seat=None,
                text=f"You revealed your seed for round {w.current.round_no} "
                f"{self.receipt_wait:g} s ago and the host has not signed a receipt for it; "
                "if your seed is left out of this round, the host is to blame",
                local=True,
            )
        )
