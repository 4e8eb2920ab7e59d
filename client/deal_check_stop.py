"""Stopping a seat whose fair-deal check failed: the evidence saved, the party at fault found
(at a blind table from the round's reveal, protocol.md 9.6), the host told why the seat leaves,
and the words its person reads, raised as a :class:`DealCheckFailedError`."""

from __future__ import annotations

from contextlib import suppress
from typing import Any

import trio

from scopa_net.blind_witness import BlindWitness
from scopa_net.client.blind_not_now import BLIND_SENDS, BlindNotNow
from scopa_net.client.files import why_not_written
from scopa_net.client.host_link import LINK_ERRORS
from scopa_net.client.session import Message
from scopa_net.client.session_errors import DealCheckFailedError
from scopa_net.fair.check_names import check_line, check_name
from scopa_net.fair.errors import ChangedPlayError, FairnessError
from scopa_net.fair.plain_words import what_failed
from scopa_net.names import seat_named
from scopa_net.wire import messages as m
from scopa_net.wire.errors import ErrorCode

REVEAL_WAIT = 90.0
"""How long a seat that stopped on a failed blind check waits for the round's reveal, which
names the party at fault (protocol.md 9.6), before it leaves without it."""


class DealCheckStop:
    """What a session does when one of its fair-deal checks fails (see the module docstring)."""

    def __init__(self, session: Any) -> None:
        # session: the NetworkSession holding this (not imported: it imports this module).
        self.session = session

    async def deal_failed(self, exc: FairnessError, event: m.Message | None = None) -> None:
        """Stop at once (on ``event``): keep the evidence, tell the host why we leave, end the
        session."""
        session = self.session
        assert session.witness is not None
        session._held_screen.drop()  # a play held for judgement is not shown: the banner is
        round_no = session.witness.round_no
        session.verdict_failures.append(check_line(exc))
        named = exc
        changed_play = isinstance(exc, ChangedPlayError)
        if isinstance(session.witness, BlindWitness) and not changed_play:
            # (A changed play names the host itself: the seat leaves at once, its secret
            # kept, rather than give its seed for a reveal that could name nobody else.)
            named = await self.blind_stop(exc, round_no, event)
        evidence = session.witness.evidence(exc)
        unsaved = ""
        try:
            path = session._transcripts.save_file(evidence.encode(), "-FAILED")
        except OSError as err:
            path = None
            unsaved = why_not_written(err, session._transcripts.folder())
        culprit = self.blind_culprit(named) or self.blind_culprit(exc)
        person = culprit is not None and not culprit.startswith("the host")
        named_seats = session._words.named  # the checks know seats; this screen knows names
        lines = [
            f"DEAL CHECK FAILED in round {round_no}: {named_seats(check_line(exc))}",
            # A person's part that failed is theirs: the host is not blamed for it.
            "The game stops here: this round's deal cannot be trusted."
            if person
            else "The game stops here: this host cannot be trusted with your plays."
            if changed_play
            else "The game stops here: this host's deal cannot be trusted.",
        ]
        if named is not exc:
            lines.insert(1, f"The round's reveal: {named_seats(check_line(named))}")
        if culprit is not None:
            lines.insert(1, f"At fault: {culprit}.")
        # The check's own words are the evidence; this is what they mean to a player (a
        # party at fault by its seat: party p is the round's people[p - 1]).
        people = session.witness.people if isinstance(session.witness, BlindWitness) else ()
        # The reveal explains a failed check best when it names a party; when it names none
        # (the host's reveal signed another record than this seat's, or reads a dealer out
        # of turn as a record changed, 9.9 step 4), the check that stopped the seat, whose
        # kind the first line gives.
        meant = named if getattr(named, "party", None) is not None else exc
        lines.insert(1, f"What this means: {named_seats(what_failed(meant, people, live=True))}.")
        if path is not None:
            lines.append(f"Evidence saved to {path} (check it with: scopa-net verify {path})")
        elif unsaved:
            lines.append(f"Could not save the evidence: {unsaved}.")
        session._stop = True
        if session._link is not None:
            bye = m.Bye(
                reason=ErrorCode.DEAL_FAILED.value,
                message=f"round {round_no}: {check_name(exc)}"[: m.TEXT_LEN],
            )
            with suppress(*LINK_ERRORS), trio.move_on_after(2):
                await session._link.send(bye)
        session.deal_failure = DealCheckFailedError("\n".join(lines), path)
        raise session.deal_failure

    async def blind_stop(
        self, exc: FairnessError, round_no: int, event: m.Message | None
    ) -> FairnessError:
        """Before a blind seat leaves (9.6): send its seed for the round under way, then read
        that round's void and reveal (at most :data:`REVEAL_WAIT` seconds) for the party at
        fault. Returns what names it: the reveal's finding, or ``exc`` itself."""
        session = self.session
        w = session.witness
        assert isinstance(w, BlindWitness)
        out = w.stop(event)
        link = session._link
        if link is None or not w.awaits_reveal:
            return exc  # (no round this seat is a party of: refused as it was opened, say)
        session._emit(
            Message(
                seat=None,
                text=f"A deal check failed in round {round_no}: "
                f"{session._words.named(check_line(exc))}. "
                "Your seed for the round goes to the host, so that the round's reveal names "
                f"the party at fault: waiting for it (at most {REVEAL_WAIT:g} s).",
                local=True,
            )
        )
        last = 0 if session.mirror is None else session.mirror.seq
        held = BlindNotNow()  # the seed refused for now (the host's disk) goes again, the same
        with suppress(*LINK_ERRORS), trio.move_on_after(REVEAL_WAIT):
            for msg in out:
                held.sent(msg)
                await link.send(msg)
            while w.awaits_reveal:
                for again in held.due(trio.current_time()):
                    await link.send(again)
                got: m.Message | None = None
                with trio.move_on_at(held.next_due):
                    got = await link.receive()  # cancel-safe: bytes read stay in the codec
                if got is None:
                    continue  # its pause is over: the seed goes again
                if isinstance(got, m.Ping):
                    await link.send(m.Pong(nonce=got.nonce))
                elif isinstance(got, m.Error) and got.ref in BLIND_SENDS:
                    held.refused(got.ref, got.code, trio.current_time())  # (said above)
                elif got.SEQUENCED and got.seq > last:  # type: ignore[attr-defined]
                    last = got.seq  # type: ignore[attr-defined]
                    w.observe_stopped(got)
        return w.named or exc

    def blind_culprit(self, exc: FairnessError) -> str | None:
        """Who a failed blind check names: the host, or a person's seat."""
        session = self.session
        w = session.witness
        party = getattr(exc, "party", None)
        if not isinstance(w, BlindWitness) or party is None:
            return None
        if party == 0:
            return "the host (party 0)"
        people = w.people
        if not 0 < party <= len(people):
            return f"party {party}"
        seat = people[party - 1]
        return seat_named(seat, session._seating.names[seat], f"party {party}")
