"""A cheating host written from protocol.md alone: ``document_host``'s host with one named way
of biasing or re-rolling a deal, for the tests of what a client at it notices and what its
person reads. Like ``document_host`` it imports nothing from scopa_net, server or client.

Each cheat is what a dishonest host could send with the messages of section 5, after seeing
what section 5 lets it see first (every seat's seed, when it takes them):

- ``"recommit"``: once round 2's seeds are in, it throws that shuffle away and opens round 2
  again, a fresh ``round_commit`` with the same ``round_no`` and ``prev`` (a re-roll with no
  void: 5.4's "No re-roll").
- ``"bot_seed"``: its computer player's seat commits and reveals a seed the host chose, a seed
  that counts (5.4: only people's seats commit; a seed the host chooses adds nothing, and with
  it a round no person's seed shuffled is not marked as such).
- ``"bot_seed_withheld"``: as ``"bot_seed"``, but after seeing the people's seeds it leaves its
  own seat's seed out (``no_reveal``): the host picks between two deals, the one without its
  seed.
- ``"early_end"``: once round 1 is revealed it ends the match with a signed ``match_end``
  naming seat 0's side the winner, though no side reached the target (5.9).
- ``"abandoned"``: as ``"early_end"``, but with no winner (``winner`` nil: "the match was
  abandoned", 3.9), at scores no side has won with.
- ``"drop_seed"``: it takes seat 0's seed without a receipt and leaves it out (``no_reveal``):
  the choice section 7 says a host keeps, once per person per round.
- ``"journal_lost"``: once round 2's seeds are in, it cuts seat 0's connection and acts as a
  host whose journal was put back from an older copy (3.3): it keeps no event from round 2's
  ``round_commit`` on, answers seat 0's ``resume`` with ``error stale``, and opens round 2
  again.
- ``"snapshot_recommit"``: once round 2's seeds are in, it cuts seat 0's connection; at its
  ``resume`` it answers ``catch_up: "snapshot"`` (a host's choice, 3.4), showing round 1 as the
  last dealt, and opens round 2 again, as ``"recommit"``.
- ``"snapshot_catch_up"``: once seat 0 has made its first play, it cuts seat 0's connection and
  answers its ``resume`` with ``catch_up: "snapshot"`` though it holds every event missed: the
  rest of that round reaches the seat unchecked. Then it plays on honestly.
- ``"closed_after_seeds"``: once round 2's seeds are in, it says it is shutting down (``bye
  shutting_down``) and, at the seats' ``resume``, that it closed the table as it restarted
  (``no_such_table`` with ``why: "table_closed_on_restart"``): the round, and the match, are
  thrown away.
- ``"absent_seed"``: for a person's seat whose player is gone (not connected), it commits a seed
  of its own choosing, then, having seen the other seeds, leaves it out (``no_reveal``), as if
  that player had committed and dropped: a choice between two deals nobody's client complains
  of.
- ``"receipt_then_snapshot"``: it signs seat 0's receipt for its seed, then cuts seat 0's
  connection, leaves the seed out (``no_reveal``) and deals; at seat 0's ``resume`` it answers
  ``catch_up: "snapshot"``, so that the seat never sees the ``seed_reveals`` its receipt would
  prove a lie.
- ``"fake_void"``: once round 1 is dealt (not void), it calls it void for kings (5.8) whatever
  the table holds, and deals again.
- ``"rematch_midway"``: once round 2's seeds are in, it says everyone agreed to play again
  (``rematch_status`` ``agreed``, though no ``match_end`` came and nobody was asked, 3.11) and
  opens round 1 of a new match: the match so far, and round 2's deal, thrown away.
- ``"restart_reroll"``: once round 2's seeds are in, it holds the round (nothing relayed) and
  sets ``deal_seen``; when told (:meth:`CheatingMatch.reroll_unseen`, once the seat's client has
  stopped) it acts as ``"journal_lost"``, but for a client started afresh that takes the seat
  back from disk: it keeps no event from round 2's ``round_commit`` on and opens round 2 again,
  which that client's ``resume`` (from where its match began) gets in the replay
  (:meth:`CheatingMatch.abandon_unseen`: or ends the match there with no winner, as if round 2
  had never been opened).
- ``"rematch_unasked"``: as its ``match_end`` goes out, it says everyone agreed to play again
  (``rematch_status`` ``agreed``, every vote ``yes``) though seat 0's person never answered,
  and opens round 1 of a new match (3.11: ``agreed`` only when every vote is ``yes``).
- ``"rematch_over_no"``: when seat 0 answers ``rematch {agree: false}``, it counts a ``yes``
  for it, says everyone agreed, and opens round 1 of a new match.
- ``"commits_dropped"``: in round 1 it relays no person's commitment (``seed_commits`` all
  nil: "none came in time"), though they came: no seed counts, and the host alone chose the
  deck (5.4: the round is marked not fair-checked).
- ``"forged_play"``: in round 1, the first time seat 0 is to play after the computer player's
  play, it plays for seat 0 itself, at once (a legal play from that hand), though seat 0's
  person is connected and no computer stands in for them: the play is recorded as theirs.
- ``"forged_ack"``: as ``"forged_play"``, and just before that play it sends seat 0 an ``ack``
  naming it under a ``move_id`` seat 0 never used (``FORGED_MOVE_ID``), as if the person had
  sent it: an answer to no ``play`` of that connection (3.1).

The round re-rolled is round 2 (``REROLLED``): its dealer follows from round 1's (5.6), so the
deal the host sends after the re-roll is one the deal plan allows.
"""

from __future__ import annotations

import hmac
import os

import trio
from document_hashes import h, lp, u8, u32
from document_host import Connection, DocumentHost, Match, Round, seat_commitment
from document_referee import Table

REROLLED = 2
FORGED_MOVE_ID = 4242
"""``"forged_ack"``'s move id: one no client of these tests counts up to."""
CHEATS = (
    "recommit", "bot_seed", "bot_seed_withheld", "early_end", "abandoned", "drop_seed",
    "snapshot_recommit", "journal_lost", "snapshot_catch_up", "closed_after_seeds", "absent_seed",
    "receipt_then_snapshot", "fake_void", "rematch_midway", "restart_reroll", "forged_play",
    "forged_ack", "commits_dropped", "rematch_unasked", "rematch_over_no",
)  # fmt: skip


class CheatingMatch(Match):
    """A table whose host cheats as ``self.host.cheat`` names (module docstring)."""

    def end_round(self) -> None:
        super().end_round()
        unasked = self.host.cheat == "rematch_unasked" and self.match_no == 1
        if self.over and self.votes is None and unasked:
            self.votes = ["yes"] * len(self.seats)  # nobody was asked
            self.vote(0, True)  # "agreed": a new match, its round 1 opened

    def relay_commits(self) -> None:
        r = self.round
        if self.host.cheat in ("bot_seed", "bot_seed_withheld"):
            for seat, s in enumerate(self.seats):
                if s.kind == "bot":  # a seed of the host's choosing, committed like a person's
                    seed = h("cheat/bot-seed", r.round_id, u8(seat))
                    r.commits[seat] = seat_commitment(r.round_id, seat, seed)
                    if self.host.cheat == "bot_seed":
                        r.seeds[seat] = seed
        if self.host.cheat == "commits_dropped" and r.round_no == 1:
            r.commits = [None] * len(self.seats)  # "none came in time"
        if self.host.cheat == "absent_seed":
            for seat, s in enumerate(self.seats):
                if s.kind != "bot" and s.conn is None and r.commits[seat] is None:
                    seed = h("cheat/absent-seed", r.round_id, u8(seat))
                    r.commits[seat] = seat_commitment(r.round_id, seat, seed)  # never revealed
        super().relay_commits()

    def check_seeds(self) -> None:
        r = self.round
        if (
            self.host.cheat == "drop_seed"
            and r is not None
            and r.stage == "reveal"
            and r.round_no == 1
            and r.seeds[0] is not None
            and all(r.seeds[i] is not None for i in self.people() if r.commits[i] is not None)
        ):
            r.seeds[0] = None  # "it never came"; no receipt was sent (see _seed_reveal)
            self.relay_seeds()
            return
        super().check_seeds()

    def relay_seeds(self) -> None:
        r = self.round
        rerolling = self.host.cheat in (
            "recommit", "snapshot_recommit", "journal_lost", "closed_after_seeds",
        )  # fmt: skip
        if rerolling and r.round_no == REROLLED and not getattr(r, "rerolled", False):
            self._reroll(r)
            return
        if r.round_no == REROLLED and self.match_no == 1:
            if self.host.cheat == "rematch_midway":
                r.stage = "over"
                self.votes = ["yes"] * len(self.seats)  # nobody was asked
                self.vote(0, True)  # "agreed": a new match, its round 1 opened
                return
            if self.host.cheat == "restart_reroll" and not getattr(r, "rerolled", False):
                r.stage = "held"  # the host has seen the deal; nothing is relayed
                self.host.deal_seen.set()
                return
        super().relay_seeds()
        if self.host.cheat == "fake_void" and not r.void and not self.host.cheated_once:
            self.host.cheated_once = True  # (once)
            self.void_round()  # "three kings": a fresh shuffle, after seeing this one

    def _reroll(self, r: Round) -> None:
        """Send the round's seeds (the host has seen the deal they give), then open the round
        again instead of dealing it."""
        r.stage = "over"
        self.broadcast({
            "t": "seed_reveals", "round_id": r.round_id, "seeds": list(r.seeds),
            "excluded": [self._exclusion(i) for i in range(len(self.seats))],
        })  # fmt: skip
        if self.host.cheat == "closed_after_seeds":
            self.host.closed = self
            for s in self.seats:
                if s.conn is not None:
                    s.conn.put({"t": "bye", "reason": "shutting_down", "message": "restarting"})
                    s.conn.send.close()
            return
        if self.host.cheat == "journal_lost":
            for s, kept in zip(self.seats, r.logged_before, strict=True):
                del s.log[kept:]  # "lost": the journal was put back from before this round
            self.host.drop(self, 0)
            self.reopen()
            return
        if self.host.cheat == "snapshot_recommit":
            self.host.resync_next = True
            self.host.drop(self, 0)
            return  # the new round opens when seat 0 comes back (CheatingHost._resume)
        self.reopen()

    def apply(self, seat: int, card: int, captured: int, *, computer: bool = False) -> int:
        seq = super().apply(seat, card, captured, computer=computer)
        r = self.round
        if (
            self.host.cheat in ("forged_play", "forged_ack")
            and not self.host.cheated_once
            and seat != 0
            and r is not None
            and r.round_no == 1
            and r.replay is not None
            and not r.replay.over
            and r.replay.turn == 0
            and self.seats[0].conn is not None
        ):
            self.host.cheated_once = True
            code = r.replay.legal()[0]
            conn = self.seats[0].conn
            if self.host.cheat == "forged_ack":  # "seat 0 sent it": the ack goes first (3.5)
                forged = len(self.seats[0].log) + 1
                conn.put({"t": "ack", "move_id": FORGED_MOVE_ID, "seq": forged,
                          "duplicate": False})  # fmt: skip
            super().apply(0, code & 63, code >> 6)  # "seat 0 played it"
        return seq

    def abandon_unseen(self) -> None:
        """``"restart_reroll"``, told otherwise: forget every event from round 2's
        ``round_commit`` on and end the match there with no winner, as if round 2 had never
        been opened, for a seat's client started afresh."""
        r = self.round
        for s, kept in zip(self.seats, r.logged_before, strict=True):
            del s.log[kept:]
        self.round = None
        self._end_now(abandoned=True)

    def reroll_unseen(self) -> None:
        """``"restart_reroll"``: forget every event from round 2's ``round_commit`` on and
        open round 2 again (a new round id and shuffle), for a seat's client started afresh."""
        r = self.round
        for s, kept in zip(self.seats, r.logged_before, strict=True):
            del s.log[kept:]
        self.reopen()

    def _exclusion(self, seat: int) -> str | None:
        r, s = self.round, self.seats[seat]
        if r.commits[seat] is None:
            return "no_commit" if s.kind == "human" else None
        if r.seeds[seat] is None:
            return "no_reveal"
        if not hmac.compare_digest(
            seat_commitment(r.round_id, seat, r.seeds[seat]), r.commits[seat]
        ):
            return "bad_reveal"
        return None

    def reopen(self) -> None:
        """The round again: a new round id and host seed, the same number and ``prev``."""
        self.round_no -= 1
        self.open_round()
        self.round.rerolled = True

    def open_round(self) -> None:
        logged_before = [len(s.log) for s in self.seats]
        ending = self.host.cheat in ("early_end", "abandoned")
        if ending and self.round is not None and self.round_no == 1:
            self._end_now()  # instead of round 2
            return
        super().open_round()
        self.round.logged_before = logged_before

    def _end_now(self, *, abandoned: bool = False) -> None:
        """End the match after round 1, signed: seat 0's side the winner, or none."""
        winner = None if abandoned or self.host.cheat == "abandoned" else 0
        self.over, self.winner = True, winner
        scores = b"".join(u32(s) for s in self.scores)
        named = b"" if winner is None else u8(winner)
        msg = (
            lp(b"scopa-net/v1/match-end-signature") + lp(self.chain) + lp(scores) + lp(named)
        )  # fmt: skip
        self.broadcast({
            "t": "match_end", "scores": list(self.scores), "winner": winner,
            "sig": self.host.sign(msg),
        })  # fmt: skip


class CheatingHost(DocumentHost):
    """``DocumentHost`` whose tables are :class:`CheatingMatch` (``cheat``: one of CHEATS)."""

    def __init__(self, cheat: str, **options: object) -> None:
        assert cheat in CHEATS, cheat
        super().__init__(cheat=cheat, **options)
        self.resync_next = False
        """The next ``resume`` is answered by snapshot (and, for ``snapshot_recommit``, the
        round opened again)."""
        self.cheated_once = False
        """A cheat done once only (the cut of ``snapshot_catch_up`` and
        ``receipt_then_snapshot``, the void of ``fake_void``) was done."""
        self.closed: Match | None = None
        """The table ``closed_after_seeds`` said it closed."""
        self.deal_seen = trio.Event()
        """Set by ``restart_reroll`` once it holds round 2's seeds."""

    def open_table(self, rules: Table, name: str = "house table", bots: int = 0) -> Match:
        plain = super().open_table(rules, name, bots)
        table = CheatingMatch(plain.id, plain.name, rules, None, plain.bot_level, self)
        table.seats = plain.seats
        self.tables[table.id] = table
        return table

    def _rematch(self, conn: Connection, msg: dict) -> None:
        table = conn.table
        over_no = self.cheat == "rematch_over_no" and table.match_no == 1
        if over_no and conn.seat == 0 and table.over and not msg["agree"]:
            table.votes = ["yes"] * len(table.seats)
            table.vote(0, True)  # seat 0 said no: counted as yes, "agreed"
            return
        super()._rematch(conn, msg)

    def _seed_reveal(self, conn: Connection, msg: dict) -> None:
        if self.cheat == "receipt_then_snapshot" and conn.seat == 0 and not self.cheated_once:
            table = conn.table
            r = table.round
            seed_hash = seat_commitment(r.round_id, 0, msg["seed"])
            receipt = (
                lp(b"scopa-net/v1/seed-receipt-signature") + lp(r.round_id) + lp(u8(0))
                + lp(seed_hash)
            )  # fmt: skip
            table.event(0, {"t": "seed_receipt", "round_id": r.round_id, "seat": 0,
                            "seed_hash": seed_hash, "sig": self.sign(receipt)})  # fmt: skip
            self.cheated_once = self.resync_next = True
            self.drop(table, 0)
            table.relay_seeds()  # without seat 0's seed: "it never came"
            return
        if self.cheat == "drop_seed" and conn.seat == 0:
            r = conn.table.round
            if r is not None and r.round_no == 1 and r.stage == "reveal":
                r.seeds[0] = msg["seed"]  # read, kept, and never acknowledged
                conn.table.check_seeds()
                return
        super()._seed_reveal(conn, msg)

    def _resume(self, conn: Connection, msg: dict) -> None:
        if self.closed is not None and self.closed.id == msg["table_id"]:
            self._error(
                conn, "no_such_table", "resume",
                f"the host closed table {msg['table_id']} as it restarted: its journal was damaged",
                "table_closed_on_restart",
            )  # fmt: skip
            return
        if not self.resync_next:
            super()._resume(conn, msg)
            return
        self.resync_next = False
        table = self.tables[msg["table_id"]]
        seat = msg["seat"]
        s = table.seats[seat]
        token = os.urandom(16)
        s.tokens, s.epoch = [token], s.epoch + 1
        self._seat(conn, table, seat)
        conn.put({"t": "resumed", "table_id": table.id, "seat": seat, "token": token,
                  "epoch": s.epoch, "catch_up": "snapshot"})  # fmt: skip
        conn.put(table.snapshot(seat, conn.version))
        conn.sent_seq = len(s.log)
        if self.cheat == "snapshot_recommit":
            table.reopen()  # round 1 the last dealt: round 2 again

    def _play(self, conn: Connection, msg: dict) -> None:
        table, seat = conn.table, conn.seat
        super()._play(conn, msg)
        if self.cheat == "snapshot_catch_up" and seat == 0 and not self.cheated_once:
            self.cheated_once = self.resync_next = True
            self.drop(table, 0)
