"""A blind table of the host driven without sockets: each person's seat runs a
:class:`~scopa_net.blind_witness.BlindWitness` on its own log and sends what it queues; people
play at random from their own board (for the blind table tests)."""

from __future__ import annotations

import random

from table_driver import KEY, CatchesUp

from scopa_net.blind_witness import BlindWitness
from scopa_net.fair.commitments import public_key_bytes
from scopa_net.fair.errors import FairnessError
from scopa_net.mirror import SeatMirror
from scopa_net.rules import RuleSet
from scopa_net.server.blind_table import BlindTable
from scopa_net.server.table import Phase, SeatKind, TableError, token_hash
from scopa_net.wire import messages as m


def new_blind_table(rules: RuleSet, bots: int = 0) -> BlindTable:
    return BlindTable(1, "blind", rules, KEY, bots=bots, bot_level=1 if bots else None)


class BlindDriver(CatchesUp):
    """Every open seat joined by a person, each watching its own log with a blind witness."""

    MOST_STEPS = 5000

    def __init__(self, table: BlindTable, seed: int, *, stop_on_failure: bool = False) -> None:
        """``stop_on_failure``: a seat whose check fails stops as our client does (9.6): it
        sends its seed, then reads only the round's void and reveal (``stopped``)."""
        self.table = table
        self.stop_on_failure = stop_on_failure
        self.stopped: dict[int, FairnessError] = {}
        """Seats that stopped on a failed check, and what failed."""
        self.rng = random.Random(seed)
        self.people = [s for s, info in enumerate(table.seats) if info.kind is SeatKind.OPEN]
        for seat in self.people:
            table.join(seat, f"p{seat}", token_hash(bytes([seat]) * 16))
        host_key = public_key_bytes(KEY)
        self.witnesses = {
            s: BlindWitness(table.rules, host_key, s, new_seed=lambda: self.rng.randbytes(32))
            for s in self.people
        }
        self.mirrors = {s: SeatMirror(table.snapshot(s)) for s in self.people}
        self.read = {s: self.mirrors[s].seq for s in self.people}
        self.verdicts: list[tuple[int, str]] = []
        self.frames: list[m.Message] = []
        """Everything the people sent the host."""
        self.hold: set[int] = set()
        """Seats whose messages are not delivered (a person gone)."""

    def catch_up(self) -> None:
        stops: list[tuple[int, m.Message]] = []
        for seat, witness in self.witnesses.items():
            if seat in self.hold:
                continue  # gone: it reads nothing more
            log = self.table.seats[seat].log
            base = self.table.seats[seat].base
            for event in log[self.read[seat] - base :]:
                if seat in self.stopped:
                    witness.observe_stopped(event)
                    continue
                try:
                    verdict, opened = witness.observe(event)
                except FairnessError as exc:
                    if not self.stop_on_failure:
                        raise
                    self.stopped[seat] = exc
                    stops += [(seat, msg) for msg in witness.stop(event)]
                    continue
                self.mirrors[seat].apply(opened if opened is not None else event)
                if verdict is not None:
                    self.verdicts.append((seat, verdict.note))
            self.read[seat] = self.table.seats[seat].seq
        for seat, msg in stops:  # sent once every seat has read what was there
            self.send(seat, msg)

    def deliver(self) -> bool:
        sent = False
        for seat, witness in self.witnesses.items():
            if seat in self.hold or seat in self.stopped:
                continue
            for msg in witness.take_outgoing():
                self.frames.append(msg)
                try:
                    self.send(seat, msg)
                except TableError:
                    continue  # stale (the round moved on, say void): refused, as by a host
                sent = True
        return sent

    def send(self, seat: int, msg: m.Message) -> None:
        t = self.table
        if isinstance(msg, m.BlindKey):
            t.blind_key(seat, msg.round_id, msg.key)
        elif isinstance(msg, m.BlindShuffle):
            t.blind_shuffle(seat, msg.round_id, msg.deck, msg.proof, msg.sig)
        elif isinstance(msg, m.BlindShares):
            t.blind_shares(seat, msg.round_id, msg.deal, msg.shares, msg.sig)
        elif isinstance(msg, m.BlindReveal):
            t.blind_reveal(seat, msg.round_id, msg.seed)
        else:
            raise AssertionError(msg)

    def step(self) -> bool:
        """One input; False when the match is over (or nothing can move)."""
        table = self.table
        self.catch_up()
        if table.phase is Phase.OVER:
            return False
        if self.deliver():
            return True
        if table.needs_round:
            table.start_round(self.rng.randbytes(16), self.rng.randbytes(32))
            return True
        acting = table.to_act()
        if not acting:
            return False
        seat, what = acting[0]
        assert what == "play", acting
        if seat not in self.witnesses or table.host_plays(seat):
            view = table.view_for(seat)
            assert view is not None
            plays = table.match.round.legal_plays()  # the host's own computer player
            play = plays[self.rng.randrange(len(plays))]
            table.play(seat, None, table.seats[seat].seq, play.card.index, play.captured_mask)
            return True
        if seat in self.hold or seat in self.stopped:
            return False
        view = self.mirrors[seat].view
        from scopa_net.bots.levels import make_player

        play = make_player("random", self.rng.randrange(1000)).choose(view)
        pos, proof = self.witnesses[seat].play_proof(play.card.index)
        msg = m.Play(
            move_id=len(self.frames) + 1,
            after=self.mirrors[seat].seq,
            card=play.card.index,
            captured=play.captured_mask,
            pos=pos,
            proof=proof,
        )
        self.frames.append(msg)
        table.play(seat, msg.move_id, msg.after, msg.card, msg.captured, pos=pos, proof=proof)
        return True

    def run(self, limit: int = 5000) -> None:
        for _ in range(limit):
            if not self.step():
                return
        raise AssertionError("the match did not end")


def gone_past_grace(phase: Phase) -> tuple[BlindTable, BlindDriver]:
    """A match at three seats (people 0 and 1, a computer at 2) in which seat 1's person goes
    for good at ``phase`` of round 1 and their grace period ends at once."""
    table = new_blind_table(RuleSet.of(3, 1), bots=1)
    driver = BlindDriver(table, seed=4)
    for _ in range(300):
        driver.catch_up()
        if table.phase is phase and (phase is Phase.KEYS or (1, "play") in table.to_act()):
            break
        if table.phase is phase and any(seat == 1 for seat, _ in table.to_act()):
            break
        driver.step()
    assert table.phase is phase
    driver.hold = {1}  # seat 1's client is gone: it reads and sends nothing more
    driver.witnesses[1].take_outgoing()
    driver.deliver()
    driver.catch_up()
    table.set_status(1, connected=False, stand_in=True, grace=0)
    driver.run()
    return table, driver
