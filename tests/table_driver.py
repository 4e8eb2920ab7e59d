"""A table of the host driven without sockets: every seat played at random, each watching its
own log with a witness and a mirror (for the table and host contract tests)."""

from __future__ import annotations

import random
from collections.abc import Collection
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from scopa_net.fair.commitments import public_key_bytes
from scopa_net.mirror import SeatMirror
from scopa_net.rules import RuleSet
from scopa_net.server.table import Phase, SeatKind, Table, token_hash
from scopa_net.wire import messages as m
from scopa_net.witness import DealWitness

KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))


def new_table(rules: RuleSet, bots: int = 0) -> Table:
    return Table(1, "test", rules, KEY, bots=bots, bot_level=1 if bots else None)


def fill(table: Table) -> None:
    for seat, s in enumerate(table.seats):
        if s.kind is SeatKind.OPEN:
            table.join(seat, f"p{seat}", token_hash(bytes([seat]) * 16))


def _holding(seat: int, kind: str, name: str | None, stand_in: bool) -> list:
    """A seat's holder as a ``seat_status`` or a snapshot's ``seats`` says it: its name (an
    open seat's is ``bot N`` while a computer plays it, else ``seat N``) and whether a person."""
    return [name or (f"bot {seat}" if stand_in else f"seat {seat}"), kind == "human"]


class CatchesUp:
    """What a driver of either table kind (``Driver``, ``BlindDriver``) does to open a round
    unread and to catch a seat up by snapshot; it has ``table``, ``rng``, ``witnesses``,
    ``mirrors``, ``read``, ``catch_up`` and ``step``."""

    MOST_STEPS = 20000
    """How many inputs ``open_unread`` and ``run_until_round_over`` play before they give
    up."""

    def open_unread(self, round_no: int) -> None:
        """Play on until the host opens round ``round_no`` (its first event in the logs, read
        by no seat yet)."""
        for _ in range(self.MOST_STEPS):
            self.catch_up()
            if self.table.needs_round and self.table.round_no == round_no - 1:
                self.table.start_round(self.rng.randbytes(16), self.rng.randbytes(32))
                return
            assert self.step()
        raise AssertionError(f"round {round_no} was never opened")

    def run_until_round_over(self, round_no: int) -> None:
        """Play on until round ``round_no`` is revealed and the next not yet opened."""
        for _ in range(self.MOST_STEPS):
            self.catch_up()
            if self.table.needs_round and self.table.round_no == round_no:
                return
            assert self.step()
        raise AssertionError(f"round {round_no} never ended")

    def caught_up_at_the_round_opened(self, seat: int, round_no: int) -> None:
        """``seat`` caught up by the snapshot our host sends a person once round ``round_no``
        is opened (``open_unread``): the table as it stood just before the round's first
        event, every event of the round after it (3.4)."""
        point = self.table.catch_up_point(seat)
        assert point is not None
        seq, snapshot = point
        assert snapshot.seq == seq
        assert snapshot.round_no == round_no - 1
        self.caught_up_by_snapshot(seat, snapshot)

    def open_into_play(self, round_no: int) -> int:
        """Open round ``round_no`` (``open_unread``) and play on until it is dealt and being
        played, or, when it is void for its kings (about 1 deal in 600; tests/blind_void.py),
        the round dealt again after it: the number of the round in play."""
        self.open_unread(round_no)
        for _ in range(self.MOST_STEPS):
            self.catch_up()
            if self.table.dealt_round_no >= round_no and self.table.phase is Phase.PLAY:
                return self.table.dealt_round_no
            assert self.step()
        raise AssertionError(f"no round from round {round_no} on came into play")

    def read_after(self, seat: int, witness: Any, snapshot: m.Snapshot) -> None:
        """``witness`` (a deal or blind witness of ``seat``) reads ``seat``'s events after
        ``snapshot``."""
        for event in self.table.seats[seat].log:
            if event.seq > snapshot.seq:
                witness.observe(event)

    def caught_up_by_snapshot(self, seat: int, snapshot: m.Snapshot) -> None:
        """``seat``'s client is caught up with ``snapshot`` (protocol.md 3.4) as ours is: its
        witness carries the match on from it, and it reads the events after it."""
        self.witnesses[seat].resynced(snapshot)
        self.mirrors[seat] = SeatMirror(snapshot)
        self.read[seat] = snapshot.seq


class Driver(CatchesUp):
    """Plays every seat of a table at random, each seat watching its own log."""

    def __init__(self, table: Table, seed: int, watching: Collection[int] | None = None) -> None:
        """``watching``: the seats whose witness checks the events (every seat's if None; a
        seat left out still has its commitments made by its witness, as a client would)."""
        self.table = table
        self.rng = random.Random(seed)
        players = table.rules.players
        self.witnesses = [
            DealWitness(table.rules, public_key_bytes(KEY), s) for s in range(players)
        ]
        self.read = [0] * players
        self.seeds: dict[int, bytes] = {}
        self.mirrors = [SeatMirror(table.snapshot(s)) for s in range(players)]
        self.read = [mirror.seq for mirror in self.mirrors]
        self.stand_ins = [set(table.snapshot(s).stand_ins) for s in range(players)]
        """By seat: the seats its events said a computer stands in for (``seat_status``)."""
        self.holders = [
            [
                _holding(s, info.kind, info.name, s in self.stand_ins[seat])
                for s, info in enumerate(table.snapshot(seat).seats)
            ]
            for seat in range(players)
        ]
        """By seat: each seat's holder as its events said, ``[name, person]`` (a person's
        rename changes it in place)."""
        self.makers: list[list[list]] = [[] for _ in range(players)]
        """By seat: the holder of each play's seat when the events said it was made."""
        self.dealt_next: set[int] = set()
        """Seats that read a round opened and not yet its first deal."""
        self.check_views = True
        self.watching = range(players) if watching is None else watching

    def catch_up(self) -> None:
        for seat, witness in enumerate(self.witnesses):
            log = self.table.seats[seat].log
            for event in log[self.read[seat] :]:
                if seat in self.watching:
                    witness.observe(event)
                self.mirrors[seat].apply(event)
                if isinstance(event, m.SeatStatus):
                    told = self.stand_ins[seat]
                    (told.add if event.stand_in else told.discard)(event.seat)
                    now = _holding(event.seat, event.kind, event.name, event.stand_in)
                    held = self.holders[seat]
                    if now[1] and held[event.seat][1]:
                        held[event.seat][0] = now[0]  # the same person, renamed
                    elif now != held[event.seat]:
                        held[event.seat] = now
                elif isinstance(event, m.RoundCommit | m.BlindRound):
                    self.dealt_next.add(seat)  # the plays shown are the last round dealt's
                elif isinstance(event, m.Deal | m.BlindDeal) and seat in self.dealt_next:
                    self.dealt_next.discard(seat)
                    self.makers[seat] = []
                elif isinstance(event, m.Played):
                    self.makers[seat].append(self.holders[seat][event.seat])
            self.read[seat] = len(log)
            view = self.table.view_for(seat)
            if self.check_views and view is not None:
                # The view rebuilt from events equals the host's view, and equals a snapshot.
                assert self.mirrors[seat].view == view
                snap = self.table.snapshot(seat)
                assert SeatMirror(snap).view == view
                # What a snapshot says beside the view is what the seat's events told it too:
                # nothing of another seat's, nothing not yet revealed (protocol.md 3.4).
                assert snap.stand_ins == tuple(sorted(self.stand_ins[seat]))
                assert snap.redeal == self.mirrors[seat].view.redeal
                assert snap.makers == tuple(name for name, _ in self.makers[seat])

    def step(self) -> bool:
        """One input; False when the match is over."""
        table = self.table
        self.catch_up()
        if table.phase is Phase.OVER:
            return False
        if table.needs_round:
            table.start_round(self.rng.randbytes(16), self.rng.randbytes(32))
            return True
        seat, what = table.to_act()[0]
        round_id = table.round.record.round_id if table.round else b""
        if what == "commit":
            self.seeds[seat] = self.rng.randbytes(32)
            table.seed_commit(seat, round_id, self.witnesses[seat].my_commitment(self.seeds[seat]))
        elif what == "reveal":
            table.seed_reveal(seat, round_id, self.seeds[seat])
        else:
            view = table.view_for(seat)
            assert view is not None
            plays = table.match.round.legal_plays()
            play = plays[self.rng.randrange(len(plays))]
            table.play(
                seat,
                self.rng.randrange(1, 2**31),
                self.read[seat],
                play.card.index,
                play.captured_mask,
            )
        return True

    def run(self, limit: int = 20000) -> None:
        for _ in range(limit):
            if not self.step():
                return
        raise AssertionError("the match did not end")
