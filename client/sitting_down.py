"""Taking a seat at a host: meeting the host (its key checked against the one pinned, or
pinned on first use), sitting down at the chosen table or opening a new one (with the command
friends type to join it), and starting the seat's view and deal checks from the snapshot the
host sends (protocol.md 3.2-3.4)."""

from __future__ import annotations

from typing import Any

from scopa_net.client.addresses import shown_address
from scopa_net.client.friend_address import friend_address
from scopa_net.client.host_link import connect
from scopa_net.client.known_hosts import OWN_HOSTS, KnownHosts, remember_own_host
from scopa_net.client.proven_keys import ProvenKeys
from scopa_net.client.render import NEW_SEAT_SITTING_OUT
from scopa_net.client.session import ConnectionState, Message, ViewChanged
from scopa_net.client.session_errors import (
    ByeError,
    HostKeyChangedError,
    HostStoppingError,
    SessionError,
)
from scopa_net.client.table_words import waiting_line
from scopa_net.fair.commitments import fingerprint
from scopa_net.mirror import SeatMirror
from scopa_net.names import clean_name, table_label
from scopa_net.seat_holders import SeatHolders
from scopa_net.wire import messages as m
from scopa_net.witness import DealWitness

TOOK_A_SEAT = (
    "You took a seat in a match under way: from the next round on each card, play and score is "
    "checked, on the match score the host gives now (its word for the rounds before), and "
    "your transcript of this match starts there."
)
"""What a person who takes a seat in a match under way reads first, at an ordinary table or a
blind one: the seat carries the snapshot it sat down with on (protocol.md 5.10, 9.7), and its
transcript is of version 7 (6.1), at a blind table 8 (9.8)."""

YOU_SIT_AT = "You sit at"
"""How the line that says where a person sat down begins ("You sit at table 1, seat 2.")."""


class SittingDown:
    """How a session takes its seat and starts it (see the module docstring)."""

    def __init__(self, session: Any) -> None:
        # session: the NetworkSession holding this (not imported: it imports this module).
        self.session = session

    async def sit_down(self) -> None:
        """Connect, open or find the chosen table, and take a seat at it."""
        session = self.session
        try:
            link, welcome = await connect(
                session.host, session.port, session.connector, proven=ProvenKeys(session.data_dir)
            )
            session._link = link
            self.welcome(welcome)
            await self._take_a_seat(link)
        except ByeError as exc:
            if not HostStoppingError.said_by(exc):
                raise
            where = shown_address(session.host, session.port)
            opening = session.choice.create is not None
            raise HostStoppingError.at(where, opening=opening) from None

    async def _take_a_seat(self, link: Any) -> None:
        """Open or find the chosen table on ``link``, just welcomed, and sit down at it."""
        session = self.session
        choice = session.choice
        table_id = choice.table_id
        password = choice.password
        info: m.TableInfo | None = None
        if choice.create is not None:
            password = password or choice.create.password
            created = await link.request(choice.create, m.TableCreated)
            assert isinstance(created, m.TableCreated)
            info = created.table
            table_id = info.id
        elif table_id is not None:
            listing = await link.request(m.ListTables(), m.Tables)
            assert isinstance(listing, m.Tables)
            info = next((t for t in listing.tables if t.id == table_id), None)
        if table_id is None:
            raise SessionError("no table chosen")
        joined = await link.request(
            m.Join(table_id=table_id, seat=choice.seat, name=session.name, password=password),
            m.Joined,
        )
        assert isinstance(joined, m.Joined)
        session.table_id, session._seat, session._token = joined.table_id, joined.seat, joined.token
        snapshot = await link.expect(m.Snapshot)
        assert isinstance(snapshot, m.Snapshot)
        # A match the lobby lists as begun is one under way, even before its first deal (a
        # blind round waiting for keys, say): this seat did not see its round begin.
        self.start_seat(snapshot, mid_match=True if info is not None and info.started else None)
        if info is not None and not snapshot.seats:
            for seat, seat_info in enumerate(info.seats):
                if seat_info.name is not None and seat < len(session._seating.names):
                    session._seating.names[seat] = clean_name(seat_info.name) or f"seat {seat}"
        if not snapshot.seats:
            session._seating.names[joined.seat] = session.name
        settled = session._seating.names[joined.seat]
        if snapshot.seats and settled != clean_name(session.name):
            # The host gave this seat another name (``Fabio (2)``: the name was taken here).
            session.notice(
                f"{clean_name(session.name)} is taken at this table: you are {settled} here; "
                "`name NEW` changes it"
            )
            session.name = settled
        session._kept.keep_seat(joined.token, joined.epoch, snapshot, info)
        session._set_state(ConnectionState.CONNECTED)
        if choice.create is not None and session.pin_host:  # (play --lan says it its own way)
            session._join_command = await self.join_words(table_id, bool(choice.create.password))
            session.where_to_join = (
                f"Table {table_id} is yours. Friends join it with {session._join_command}; the "
                "match begins when every seat is taken.",
            )
            for line in session.where_to_join:  # none when the computers took every other seat
                session.notice(line)
        elif choice.create is None:
            table = table_label(table_id, info.name if info is not None else "")
            session.notice(f"{YOU_SIT_AT} {table}, seat {joined.seat}.")
            waiting = session._seating.players_awaited()
            if waiting:
                session.notice(waiting_line(waiting))
        self.say_where_the_seat_starts(snapshot)  # after where: a match under way, a round sat out
        self.show_the_board(snapshot)

    async def join_words(self, table_id: int, password: bool) -> str:
        """The command friends type to join the table this seat opened, quoted, at an
        address they can reach (never a loopback one without saying so), and never the
        password itself, on a screen others see (their ``join`` asks for it, unseen:
        ``--password`` on their command line would show it to their machine's other users)."""
        session = self.session
        assert session._link is not None
        friend = await friend_address(session.host, session.port, session._link.stream)
        command = f"`scopa-net join {friend.address} --table {table_id}"
        command += "`"
        if friend.note:
            command += f" ({friend.note})"
        if password:
            command += (
                ", which asks them for the password you chose (tell them yourself: it is not "
                "shown here)"
            )
        return command

    def welcome(self, welcome: m.Welcome) -> None:
        """Check the host's key in its ``welcome``: the one this seat was played with, and
        the one pinned for its address (a new host is pinned; a changed key is refused before
        anything is sent, a password or a token)."""
        session = self.session
        if session.host_key is not None and welcome.host_key != session.host_key:
            raise HostKeyChangedError(self.key_changed(welcome.host_key))
        session.host_key = welcome.host_key
        if session.data_dir is not None and not session.pin_host:
            try:
                remember_own_host(session.data_dir, welcome.host_key)  # for `scopa-net verify`
            except OSError as exc:
                session._not_saved(
                    "Could not save this host's key",
                    exc,
                    session.data_dir / OWN_HOSTS,
                    "The game goes on, but `scopa-net verify` will not know its transcripts "
                    "as your own host's.",
                )
        pins = (
            None
            if session.data_dir is None or not session.pin_host
            else session.data_dir / "known_hosts"
        )
        if welcome.host_key == session.choice.accepted_key:
            pins = None  # accepted, and could not be pinned: said already
        known = KnownHosts(pins)
        try:
            warning = known.check(f"{session.host}:{session.port}", welcome.host_key)
        except OSError as exc:
            assert pins is not None
            warning = None
            session._not_saved(
                "Could not pin this host's key",
                exc,
                pins,
                "The game goes on, but the next `scopa-net join` to this host will meet it as new.",
            )
        if warning:  # it changed since `join` looked (and checked it): nothing is sent to it
            raise HostKeyChangedError(warning)
        if welcome.version >= m.KEY_PROOF_SINCE and session.pin_host:  # proved: kept
            proven = ProvenKeys(session.data_dir)
            try:
                proven.save(welcome.host_key)
            except OSError as exc:
                assert proven.path is not None
                session._not_saved(
                    "Could not keep this host's proof of its key",
                    exc,
                    proven.path,
                    "The game goes on, but a later `scopa-net join` will not know that this "
                    "host proved its key if a machine posing as it speaks an older protocol.",
                )

    def key_changed(self, now: bytes) -> str:
        """What a person reads when the host at this address signs with another key than the
        one this seat is played with (a different host there now, or one that lost its
        journal): the seat is not taken to it."""
        session = self.session
        assert session.host_key is not None
        where = f"{session.host}:{session.port}"
        pinned = fingerprint(session.host_key)
        keys = f"the host at {where} now has key {fingerprint(now)}, not {pinned}"
        if session._kept.record is None:
            return f"{keys}, the one this match was played with: it may be a different host"
        seat = f"table {session.table_id}, seat {session._seat}, as {session._kept.record.name}"
        return (
            f"{keys}, the one your seat ({seat}) is kept at: it may be a different host, or "
            f"one that lost its journal. Your seat stays kept for that host; `scopa-net join "
            f"{where} --no-resume --accept-new-key` sits down anew with the new key."
        )

    def start_seat(self, snapshot: m.Snapshot, *, mid_match: bool | None = None) -> None:
        """Start the seat's view, its deal checks and its seats from ``snapshot``
        (``mid_match``: the match began without this seat: its transcript starts from this
        snapshot's word). What a person sitting down reads is :meth:`sit_down`'s to say: a
        seat kept on disk, started from the snapshot it sat down with, says none of it again
        (the replay ends with the table now)."""
        session = self.session
        session._start = snapshot
        session._verified_before = session.rounds_verified
        session._void_verified_before = session.void_rounds_verified
        session.rules = snapshot.rules.to_rules()
        session.mirror = SeatMirror(snapshot)
        assert session.host_key is not None
        if mid_match is None:
            mid_match = snapshot.round_no > 0
        session._start_mid_match = mid_match
        session.witness = DealWitness(
            session.rules, session.host_key, snapshot.seat, mid_match=mid_match
        )
        if mid_match:  # the match so far as this snapshot tells it, checked from here (5.10)
            session.witness.sat_down(snapshot)
        session._seating.names = [f"seat {s}" for s in range(session.rules.players)]
        session._seating.holders = SeatHolders(session.rules.players)
        session._seating.take_seats(snapshot.seats, snapshot.stand_ins)
        session._from_snapshot(snapshot, sat_down=True)

    def say_where_the_seat_starts(self, snapshot: m.Snapshot) -> None:
        """What a person sitting down reads first: a match under way joined (its deal checked
        from the next round), a blind round sat out."""
        session = self.session
        if snapshot.round_no > 0:
            session._emit(Message(seat=None, text=TOOK_A_SEAT, local=True))
        view = session.mirror.view
        if view.new_seat and not view.round_over:  # a blind round begun without this seat (9.7)
            session._emit(Message(seat=None, text=NEW_SEAT_SITTING_OUT, local=True))

    def show_the_board(self, snapshot: m.Snapshot) -> None:
        """The board of a round under way, drawn once for the person who just sat down (at
        any seat, their turn or not), after what they read on sitting down."""
        if snapshot.round_no:
            self.session._emit(ViewChanged(view=self.session.mirror.view, sat_down=True))
