"""A network seat kept on disk, so that it outlives its client: the seat's record (token, the
seeds it chose, the moves the host has not answered, the plays it acknowledged), saved as it
changes and forgotten once there is nothing left to take back
(:mod:`~scopa_net.client.seat_store` writes the files)."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from scopa_net.client.seat_store import (
    PendingMove,
    SeatRecord,
    SeatStore,
    seats_kept,
)
from scopa_net.fair.errors import FairnessError
from scopa_net.fair.transcript import RoundRecord, decode_round, encode_round
from scopa_net.wire import messages as m
from scopa_net.wire.codec import encode_payload

log = logging.getLogger("scopa_net.client")


class KeptSeat:
    """The record of a session's seat in its ``store`` (None: nothing is kept), with what the
    session is at now (its names, the last event seen, the moves not answered)."""

    def __init__(self, session: Any, store: SeatStore | None, record: SeatRecord | None) -> None:
        # session: the NetworkSession holding this (not imported: it imports this module).
        self.session = session
        self.store = store
        self.record = record
        """The seat's record, as last saved (None: no seat kept)."""
        self.playing = False
        """Whether the session's :meth:`~NetworkSession.run` is under way: only then does the
        session hold its seat's lock (see :mod:`~scopa_net.client.seat_store`), so a record
        saved after it (stepping away) is left free to take back."""

    def keep_seat(
        self, token: bytes, epoch: int, snapshot: m.Snapshot, info: m.TableInfo | None
    ) -> None:
        """Write the new seat to the store before anything else happens at it."""
        session = self.session
        if self.store is None or session.host_key is None or session.rules is None:
            return
        rules = session.rules
        self.record = SeatRecord(
            host=session.host,
            port=session.port,
            host_key=session.host_key.hex(),
            table_id=snapshot.table_id,
            seat=snapshot.seat,
            name=session.name,
            players=rules.players,
            target=rules.target,
            variants=tuple(sorted(v.value for v in rules.variants)),
            table_name="" if info is None else info.name,
            mid_match=session.witness is not None and session.witness.mid_match,
            epoch=epoch,
            # Taken back from disk, the seat starts where its person sat down: what came
            # before (another match, another person's rounds in this seat) is not theirs.
            match_seq=snapshot.seq,
            seats=seats_kept(snapshot.seats),
            start=encode_payload(snapshot).hex()
            if session.witness and session.witness.mid_match
            else "",
            acked=(),
        ).with_token(token)
        self.save_record()

    def keep_token(self, token: bytes, epoch: int) -> None:
        """Keep the token the host gave on taking the seat back (and its epoch), at the
        address the seat was taken back at: a host that moved (found on the LAN by its key)
        keeps the seat there from now on, its record at the old address forgotten once the
        new one is written (never neither)."""
        if self.record is not None:
            before = self.record
            session = self.session
            self.record = replace(
                before.with_token(token),
                epoch=epoch,
                away=False,
                host=session.host,
                port=session.port,
            )
            self.save_record()
            store = self.store
            moved = store is not None and self.record.key != before.key
            if moved and store is not None and store.path(self.record).exists():
                store.delete(before)

    def keep_seed(self, round_id: bytes, seed: bytes) -> None:
        """Put the seat's seed on disk before its commitment leaves: a client that dies
        later reveals the same seed."""
        if self.record is not None:
            seeds = {**self.record.seeds, round_id.hex(): seed.hex()}
            self.record = replace(self.record, seeds=seeds)
            self.save_record()

    def keep_seeds_out(self, record: RoundRecord) -> None:
        """Put on disk the round whose commitments just reached this seat (``record``, as far
        as it was seen then), before anything of its seeds leaves: a client that takes the
        seat back holds the host to that round (:meth:`seeds_out_round`)."""
        if self.record is None:
            return
        kept = self.seeds_out_round()
        if kept is not None and kept.round_no > record.round_no:
            return  # a replay of an earlier round: the later one stays the one held to
        self.record = replace(self.record, seeds_out=encode_round(record).hex())
        self.save_record()

    def seeds_out_round(self) -> RoundRecord | None:
        """The round kept by :meth:`keep_seeds_out`, if one is (and can be read)."""
        record = self.record
        if record is None or not record.seeds_out:
            return None
        try:
            return decode_round(bytes.fromhex(record.seeds_out), record.players)
        except (ValueError, FairnessError):
            log.warning("the round kept in %s could not be read", record.key)
            return None

    def keep_blind_dealt(self, round_no: int, round_id: bytes) -> None:
        """Put on disk the blind round whose cards were just dealt in this seat's sight (once
        a round): a client that takes the seat back holds the host to it
        (:meth:`blind_dealt_round`); an earlier round seen again in a replay replaces none."""
        if self.record is None:
            return
        kept = self.record.blind_dealt
        if kept and (kept[0] > round_no or kept == (round_no, round_id.hex())):
            return
        self.record = replace(self.record, blind_dealt=(round_no, round_id.hex()))
        self.save_record()

    def blind_dealt_round(self) -> tuple[int, bytes] | None:
        """The round kept by :meth:`keep_blind_dealt`, if one is."""
        kept = None if self.record is None else self.record.blind_dealt
        if not kept:
            return None
        try:
            return int(kept[0]), bytes.fromhex(kept[1])
        except (ValueError, TypeError, IndexError):
            return None

    def kept_seed(self, round_id: bytes) -> bytes | None:
        """The seed this seat chose for round ``round_id`` before, if one is kept."""
        if self.record is None:
            return None
        seed = self.record.seeds.get(round_id.hex())
        return None if seed is None else bytes.fromhex(seed)

    def save_record(self) -> None:
        """Save the record with where the session is now (its names, the moves not answered,
        the plays the host acknowledged, as :class:`~scopa_net.client.own_plays.OwnPlays`
        has them); what cannot be written is told once."""
        session = self.session
        if self.store is None or self.record is None:
            return
        pending = tuple(
            PendingMove(msg.move_id, msg.after, msg.card, msg.captured)
            for msg, _ in session._unacked.values()
        )
        own = session._own_plays  # (the one owner of the plays the host acknowledged)
        record = replace(
            self.record,
            pending=pending,
            names=tuple(session._seating.names),
            last_seq=0 if session.mirror is None else session.mirror.seq,
            last_played=own.last_played,
            acked=own.acked_plays,
        )
        try:
            self.record = self.store.save(record)
            if self.playing and not self.store.hold(record):
                log.warning("another client on this machine holds the lock of %s", record.key)
        except OSError as exc:
            session._not_saved(
                "Could not save your seat",
                exc,
                self.store.path(record),
                "The game goes on, but if this client stops, `scopa-net join` cannot take the "
                "seat back.",
            )
            self.record = record

    def forget_record(self) -> None:
        """Delete the kept seat: there is nothing left to take back."""
        if self.store is not None and self.record is not None:
            self.store.delete(self.record)
        self.record = None

    def tokens(self) -> list[bytes]:
        """Tokens to try, newest first (the host honours the one before until the newest
        is used)."""
        session = self.session
        tokens = [] if session._token is None else [session._token]
        if self.record is not None:
            tokens += [bytes.fromhex(t) for t in self.record.tokens]
        return list(dict.fromkeys(tokens))
