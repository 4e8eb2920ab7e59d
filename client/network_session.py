"""A seat at a table on a host, over TCP: the network implementation of the client's Session.

It speaks the protocol through a sans-IO :class:`~scopa_net.wire.PlayerConnection`, takes part
in every fair deal (commits and reveals a fresh seed), checks each card on arrival with a
:class:`~scopa_net.witness.DealWitness`, keeps the seat's view with a
:class:`~scopa_net.mirror.SeatMirror`, and saves the transcript after every round. When the
connection drops it says so, reconnects with backoff and resumes with its seat token, resending
any move the host had not acknowledged; the player loses nothing but time.
"""

from __future__ import annotations

import itertools
import logging
import math
import secrets
import shlex
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import trio

from scopa_net.client.session import (
    ConnectionChanged,
    ConnectionState,
    Event,
    MatchOver,
    Message,
    RoundOver,
    RoundStarted,
    ViewChanged,
    VoidDeal,
)
from scopa_net.errors import IllegalPlayError, IllegalReason
from scopa_net.fair.commitments import fingerprint, seat_commitment
from scopa_net.fair.errors import FairnessError
from scopa_net.mirror import SeatMirror
from scopa_net.plays import Play, PlayRecord
from scopa_net.rules import RuleSet
from scopa_net.view import SeatView
from scopa_net.wire import messages as m
from scopa_net.wire.connection import NEED_DATA, ConnectionClosed, PlayerConnection
from scopa_net.wire.convert import opening_snapshot
from scopa_net.wire.errors import ErrorCode, ProtocolError
from scopa_net.witness import DealWitness

log = logging.getLogger("scopa_net.client")

CONNECT_TIMEOUT = 10.0
REQUEST_TIMEOUT = 15.0
SILENCE_TIMEOUT = 35.0
"""The host pings every 10 s; this long without a byte means the connection is dead."""
BACKOFF = (0.2, 0.5, 1.0, 2.0, 4.0, 8.0)
RECONNECT_FOR = 300.0
"""How long to keep trying to get back to the host before giving up."""
RECEIPT_WAIT = 10.0
"""How long after revealing its seed a seat waits for the host's signed receipt before it tells
its player that none came (the host signs one as soon as it takes the seed: protocol.md 5.4)."""
CLIENT_NAME = "scopa-net"
LINK_ERRORS = (
    OSError,
    trio.BrokenResourceError,
    trio.ClosedResourceError,
    trio.TooSlowError,
    ProtocolError,
)
"""What a lost or broken connection raises; the session reconnects."""


class SessionError(Exception):
    """The host refused us (no such table, bad password, full...) or went away for good."""


EXIT_DEAL_FAILED = 7
"""The exit status of a client that stopped because a fair-deal check failed (the same as
``scopa_net.commands.options.EXIT_DEAL_FAILED``, which the command line documents)."""


class DealCheckFailedError(SessionError):
    """A fair-deal check failed: the seat stopped playing. ``banner`` is what the player reads
    (the check, the round, where the evidence is); ``evidence`` is the saved transcript."""

    exit_status = EXIT_DEAL_FAILED

    def __init__(self, banner: str, evidence: Path | None) -> None:
        super().__init__(banner)
        self.banner = banner
        self.evidence = evidence


class UnexpectedReplyError(SessionError):
    """The host answered a join with something other than the seat's snapshot."""


class HostKeyChangedError(SessionError):
    """The host at this address signs with a different key than the one pinned."""


@dataclass(frozen=True, slots=True)
class TableChoice:
    """Which table to sit at: an existing one (``table_id``) or a new one (``create``)."""

    table_id: int | None = None
    seat: int | None = None
    password: str | None = None
    create: m.CreateTable | None = None


class KnownHosts:
    """Host keys pinned on first use, by address, in a small text file."""

    def __init__(self, path: Path | None) -> None:
        self.path = path

    def _pins(self) -> dict[str, str]:
        pins = {}
        if self.path is not None and self.path.exists():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                where, _, hexkey = line.partition(" ")
                if hexkey:
                    pins[where] = hexkey
        return pins

    def pinned(self, address: str) -> bytes | None:
        """The key pinned for ``address``, if one is."""
        hexkey = self._pins().get(address)
        return None if hexkey is None else bytes.fromhex(hexkey)

    def pin(self, address: str, key: bytes) -> None:
        """Pin ``key`` for ``address``, replacing the key pinned before (the user accepts it)."""
        if self.path is None:
            return
        pins = self._pins()
        pins[address] = key.hex()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text("".join(f"{a} {k}\n" for a, k in pins.items()), encoding="utf-8")

    def check(self, address: str, key: bytes) -> str | None:
        """Pin a new host; returns a warning if a pinned host's key changed."""
        if self.path is None:
            return None
        pinned = self.pinned(address)
        if pinned is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as f:
                f.write(f"{address} {key.hex()}\n")
            return None
        if pinned != key:
            return self.changed_warning(address, key, pinned)
        return None

    def changed_warning(self, address: str, key: bytes, pinned: bytes) -> str:
        """What a person reads when the host at ``address`` signs with another key."""
        return (
            f"WARNING: the host at {address} now has key {fingerprint(key)}, but it had "
            f"{fingerprint(pinned)} when you first played there. It may be a different host. "
            f"The key you trusted is pinned in {self.path}. If the host was reinstalled and "
            f"you trust it, accept its new key with: scopa-net join {address} --accept-new-key"
        )


class _Link:
    """One TCP connection to the host."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.conn = PlayerConnection()
        self._pending: list[m.Message] = []
        # The pump (seeds, pongs) and the player (moves, chat) both send: one at a time, so
        # the bytes go out in the order the connection state machine saw them.
        self._sending = trio.StrictFIFOLock()

    async def send(self, msg: m.Message) -> None:
        async with self._sending:
            await self.stream.send_all(self.conn.send(msg))

    async def receive(self) -> m.Message:
        """The next message; raises on silence, a closed stream or a protocol error."""
        while True:
            if self._pending:
                return self._pending.pop(0)
            event = self.conn.next_event()
            if event is NEED_DATA:
                with trio.fail_after(SILENCE_TIMEOUT):
                    data = await self.stream.receive_some(65536)
                self.conn.receive_data(data)
                continue
            if isinstance(event, ConnectionClosed):
                raise trio.BrokenResourceError("the host closed the connection")
            return event

    async def request(self, msg: m.Message, *answers: type[m.Message]) -> m.Message:
        """Send a request and wait for its answer, answering pings meanwhile."""
        await self.send(msg)
        with trio.fail_after(REQUEST_TIMEOUT):
            while True:
                reply = await self.receive()
                if isinstance(reply, answers):
                    return reply
                if isinstance(reply, m.Ping):
                    await self.send(m.Pong(nonce=reply.nonce))
                elif isinstance(reply, m.Error):
                    raise SessionError(f"{reply.code}: {reply.message}")
                elif isinstance(reply, m.Bye):
                    raise SessionError(f"the host closed the connection: {reply.message}")
                else:
                    self._pending.append(reply)

    async def expect(self, kind: type[m.Message]) -> m.Message:
        """Wait for the next message of ``kind`` (answering pings; others are kept)."""
        with trio.fail_after(REQUEST_TIMEOUT):
            while True:
                msg = await self.receive()
                if isinstance(msg, kind):
                    return msg
                if isinstance(msg, m.Ping):
                    await self.send(m.Pong(nonce=msg.nonce))
                else:
                    self._pending.append(msg)
                    raise UnexpectedReplyError(f"expected {kind.TYPE}, got {msg.TYPE}")

    async def aclose(self) -> None:
        await trio.aclose_forcefully(self.stream)


Connector = Callable[[], Awaitable[trio.abc.Stream]]
"""Opens a byte stream to the host (TCP by default; tests pass memory streams)."""


async def connect(
    host: str, port: int, connector: Connector | None = None
) -> tuple[_Link, m.Welcome]:
    """Open a connection and say hello."""
    with trio.fail_after(CONNECT_TIMEOUT):
        if connector is not None:
            stream = await connector()
        else:
            stream = await trio.open_tcp_stream(host, port)
    link = _Link(stream)
    try:
        welcome = await link.request(
            m.Hello(version=m.PROTOCOL_VERSION, client=CLIENT_NAME), m.Welcome
        )
    except BaseException:
        await link.aclose()
        raise
    assert isinstance(welcome, m.Welcome)
    return link, welcome


async def list_tables(host: str, port: int) -> tuple[m.TableInfo, ...]:
    link, _ = await connect(host, port)
    try:
        reply = await link.request(m.ListTables(), m.Tables)
        assert isinstance(reply, m.Tables)
        return reply.tables
    finally:
        await link.aclose()


class NetworkSession:
    """A seat at a table on a host; see the module docstring."""

    def __init__(
        self,
        host: str,
        port: int,
        choice: TableChoice,
        *,
        name: str,
        data_dir: Path | None = None,
        on_transcript: Callable[[bytes], None] | None = None,
        connector: Connector | None = None,
        check_deals: bool = True,
        pin_host: bool = True,
        offer_rematch: bool = False,
    ) -> None:
        """``check_deals=False`` skips checking cards and verifying rounds (a load generator
        with thousands of seats in one process); a person's client always checks.
        ``pin_host=False`` does not pin the host's key (a throwaway host in this process).
        ``offer_rematch``: after the match, stay for a vote on playing again (:meth:`rematch`;
        a person's game screen asks); otherwise decline at once and end the session."""
        self.host, self.port = host, port
        self.connector = connector
        self.check_deals = check_deals
        self.pin_host = pin_host
        self.offer_rematch = offer_rematch
        self.choice = choice
        self.name = name
        self.data_dir = data_dir
        self.on_transcript = on_transcript
        self._send_events, self._events = trio.open_memory_channel[Event](256)
        self._state = ConnectionState.CONNECTING
        self._link: _Link | None = None
        self.table_id: int | None = None
        self._seat: int | None = None
        self._token: bytes | None = None
        self.host_key: bytes | None = None
        self.mirror: SeatMirror | None = None
        self.witness: DealWitness | None = None
        self.rules: RuleSet | None = None
        self._names: list[str] = []
        self._move_ids = itertools.count(secrets.randbelow(2**30) + 1)
        self._unacked: dict[int, tuple[m.Play, trio.Event]] = {}
        self._answers: dict[int, m.Ack | m.Reject] = {}
        self._seed: bytes | None = None
        self._receipt_due = math.inf
        """When the receipt for the seed this seat revealed is overdue (inf: none awaited)."""
        self._receipt_round: bytes | None = None
        """The round whose seed that receipt is for."""
        self._stop = False
        self.connected = trio.Event()
        self._seq_changed = trio.Event()
        self.verdict_failures: list[str] = []
        self.deal_failure: DealCheckFailedError | None = None
        """Set when a fair-deal check failed and the seat stopped."""
        self.rounds_verified = 0
        self.match_no = 1
        """Which match at this table the seat plays (one more after each agreed rematch)."""

    # --- the Session protocol -----------------------------------------------------------

    @property
    def seat(self) -> int:
        assert self._seat is not None
        return self._seat

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._names)

    @property
    def view(self) -> SeatView | None:
        if self.mirror is None or self.mirror.view.round_number == 0:
            return None
        return self.mirror.view

    @property
    def connection(self) -> ConnectionState:
        return self._state

    @property
    def events(self) -> trio.MemoryReceiveChannel[Event]:
        return self._events

    async def submit(self, play: Play) -> PlayRecord:
        assert self.mirror is not None
        move_id = next(self._move_ids)
        msg = m.Play(
            move_id=move_id,
            after=self.mirror.seq,
            card=play.card.index,
            captured=play.captured_mask,
        )
        done = trio.Event()
        self._unacked[move_id] = (msg, done)
        await self._send_quietly(msg)
        await done.wait()
        answer = self._answers.pop(move_id, None)
        if answer is None:
            # The session ended (the match is over) before the ack came back; the events
            # it caused may have arrived all the same.
            for record in reversed(self.mirror.view.plays):
                if record.seat == self.seat and record.play == play:
                    return record
            raise SessionError("the session ended before the host answered that move")
        if isinstance(answer, m.Reject):
            reason = IllegalReason.NOT_YOUR_TURN
            if answer.reason is not None:
                reason = IllegalReason[answer.reason.upper()]
            elif answer.code == ErrorCode.WRONG_PHASE.value:
                reason = IllegalReason.ROUND_OVER
            raise IllegalPlayError(reason, play.text())
        # The ack can arrive before the event it acknowledges: wait for that event.
        while self.mirror.seq < answer.seq and self._state is not ConnectionState.CLOSED:
            await self._seq_changed.wait()
        for record in reversed(self.mirror.view.plays):
            if record.seat == self.seat and record.play == play:
                return record
        return PlayRecord(self.seat, play, False)

    async def say(self, text: str) -> None:
        await self._send_quietly(m.Say(text=text))

    async def rematch(self, agree: bool) -> None:
        """Answer, after the match, whether to play again with the same seats and rules."""
        await self._send_quietly(m.Rematch(agree=agree))

    async def leave(self) -> None:
        """Give up the seat and end the session."""
        self._stop = True
        if self._link is not None:
            await self._send_quietly(m.Leave())

    # --- running ------------------------------------------------------------------------

    async def run(self) -> None:
        """Connect, sit down, and keep the seat until the match ends or we are stopped."""
        try:
            await self._sit_down()
            await self._serve_until_over()
        finally:
            self._set_state(ConnectionState.CLOSED)
            for _, done in self._unacked.values():
                done.set()  # no answer will come now
            self._seq_changed.set()
            self._send_events.close()
            if self._link is not None:
                with trio.CancelScope(shield=True):
                    await self._link.aclose()

    async def _sit_down(self) -> None:
        link, welcome = await connect(self.host, self.port, self.connector)
        self._link = link
        self._welcome(welcome)
        choice = self.choice
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
            m.Join(table_id=table_id, seat=choice.seat, name=self.name, password=password),
            m.Joined,
        )
        assert isinstance(joined, m.Joined)
        self.table_id, self._seat, self._token = joined.table_id, joined.seat, joined.token
        snapshot = await link.expect(m.Snapshot)
        assert isinstance(snapshot, m.Snapshot)
        self._start_seat(snapshot)
        if info is not None:
            for seat, seat_info in enumerate(info.seats):
                if seat_info.name is not None and seat < len(self._names):
                    self._names[seat] = seat_info.name
        self._names[joined.seat] = self.name
        self._set_state(ConnectionState.CONNECTED)

    def _welcome(self, welcome: m.Welcome) -> None:
        if self.host_key is not None and welcome.host_key != self.host_key:
            raise HostKeyChangedError("the host's key changed while we were playing")
        self.host_key = welcome.host_key
        pins = None if self.data_dir is None or not self.pin_host else self.data_dir / "known_hosts"
        known = KnownHosts(pins)
        warning = known.check(f"{self.host}:{self.port}", welcome.host_key)
        if warning:
            self._emit(Message(seat=None, text=warning, local=True))

    def _start_seat(self, snapshot: m.Snapshot) -> None:
        self.rules = snapshot.rules.to_rules()
        self.mirror = SeatMirror(snapshot)
        assert self.host_key is not None
        self.witness = DealWitness(
            self.rules, self.host_key, snapshot.seat, mid_match=snapshot.round_no > 0
        )
        if snapshot.round_no > 0:
            self._emit(
                Message(
                    seat=None,
                    text="You took a seat in a match under way: each card is checked from "
                    "the next round on, and no transcript is saved for this match.",
                    local=True,
                )
            )
        self._names = [f"seat {s}" for s in range(self.rules.players)]
        if snapshot.round_no:
            self._emit(ViewChanged(view=self.mirror.view))

    async def _serve_until_over(self) -> None:
        deadline = trio.current_time() + RECONNECT_FOR
        attempt = 0
        while not self._stop:
            try:
                await self._pump()
                return
            except LINK_ERRORS as exc:
                if self._stop:
                    return
                log.info("connection lost: %r", exc)
            if self._link is not None:
                await self._link.aclose()
                self._link = None
            self._set_state(ConnectionState.RECONNECTING, "connection lost; reconnecting")
            while not self._stop:
                if trio.current_time() > deadline:
                    raise SessionError("could not get back to the host")
                await trio.sleep(BACKOFF[min(attempt, len(BACKOFF) - 1)])
                attempt += 1
                try:
                    await self._resume()
                    attempt = 0
                    deadline = trio.current_time() + RECONNECT_FOR
                    break
                except LINK_ERRORS:
                    if self._link is not None:  # it resumed, then broke at once
                        await self._link.aclose()
                        self._link = None
                    continue

    async def _resume(self) -> None:
        assert self.table_id is not None and self._token is not None and self.mirror is not None
        link, welcome = await connect(self.host, self.port, self.connector)
        try:
            self._welcome(welcome)
            resumed = await link.request(
                m.Resume(
                    table_id=self.table_id,
                    seat=self.seat,
                    token=self._token,
                    last_seq=self.mirror.seq,
                ),
                m.Resumed,
            )
        except BaseException:
            await link.aclose()
            raise
        assert isinstance(resumed, m.Resumed)
        self._token = resumed.token
        self._link = link
        self._set_state(ConnectionState.CONNECTED, "back at the table")
        # Whatever the host had not acknowledged goes again; a repeat is applied once.
        for msg, _ in list(self._unacked.values()):
            await link.send(msg)
        await self._resend_seed()

    async def _resend_seed(self) -> None:
        """After a resume, the host may still wait for this seat's commitment or seed."""
        w = self.witness
        if w is None or w.current is None or self._seed is None or self._link is None:
            return
        if w.current.commits is None:
            commit = w.my_commitment(self._seed)
            await self._link.send(m.SeedCommit(round_id=w.current.round_id, commit=commit))
        elif w.should_reveal():
            w.revealed = True
            await self._link.send(m.SeedReveal(round_id=w.current.round_id, seed=self._seed))
            self._await_receipt(w.current.round_id)

    async def _pump(self) -> None:
        """Handle messages until the match is over (returns) or the connection fails."""
        assert self._link is not None
        link = self._link
        while True:
            with trio.move_on_at(self._receipt_due) as waiting:
                msg = await link.receive()  # cancel-safe: bytes read stay in the codec
            if waiting.cancelled_caught:
                self._receipt_overdue()
                continue
            if isinstance(msg, m.Ping):
                await link.send(m.Pong(nonce=msg.nonce))
            elif isinstance(msg, m.Ack | m.Reject):
                self._answer(msg)
            elif isinstance(msg, m.Bye):
                if msg.reason == ErrorCode.SUPERSEDED.value:
                    # Our seat was resumed from another client: that one plays now.
                    self._stop = True
                    self._emit(Message(seat=None, text=f"disconnected: {msg.message}"))
                    return
                raise trio.BrokenResourceError(f"the host said goodbye: {msg.message}")
            elif isinstance(msg, m.Snapshot):
                assert self.mirror is not None
                if self.witness is not None and msg.seq > self.mirror.seq:
                    # Caught up by snapshot: the events skipped (commitments, seeds, cards)
                    # were never seen, so checking resumes with the next round.
                    self.witness.resynced()
                    self._emit(
                        Message(
                            seat=None,
                            text="the host caught this seat up with a snapshot: cards are "
                            "checked again from the next round, and no transcript is saved "
                            "for this match",
                        )
                    )
                self.mirror.apply(msg)
                self._emit(ViewChanged(view=self.mirror.view))
            elif isinstance(msg, m.Left):
                return
            elif isinstance(msg, m.Error):
                self._emit(Message(seat=None, text=f"the host refused: {msg.message}"))
            elif msg.SEQUENCED and await self._table_event(msg):
                return

    def _await_receipt(self, round_id: bytes) -> None:
        self._receipt_due = trio.current_time() + RECEIPT_WAIT
        self._receipt_round = round_id

    def _receipt_overdue(self) -> None:
        """The seed went out RECEIPT_WAIT ago and neither its receipt nor the round's seeds
        came back: say so once (a host that later leaves the seed out cannot claim it never
        arrived, and a host that stalls is named)."""
        self._receipt_due = math.inf
        w = self.witness
        if w is None or w.current is None or w.current.round_id != self._receipt_round:
            return  # that round is over: its receipt (or the lack of one) was judged with it
        if w.current.receipt is not None or w.current.seeds is not None:
            return  # the receipt came, or the seeds are out and the witness judged them
        self._emit(
            Message(
                seat=None,
                text=f"You revealed your seed for round {w.current.round_no} "
                f"{RECEIPT_WAIT:g} s ago and the host has not signed a receipt for it; "
                "if your seed is left out of this round, the host is to blame",
                local=True,
            )
        )

    def _answer(self, msg: m.Ack | m.Reject) -> None:
        pending = self._unacked.pop(msg.move_id, None)
        if pending is not None:
            self._answers[msg.move_id] = msg
            pending[1].set()

    async def _table_event(self, e: m.Message) -> bool:
        """Take one numbered event; True when the match is over."""
        assert self.mirror is not None and self.witness is not None and self._link is not None
        if e.seq <= self.mirror.seq:  # type: ignore[attr-defined]
            return False  # already seen (a replay overlapping what we had)
        # Every check comes before the event is shown: a card that fails never reaches the
        # screen, and nothing ("Your turn.") follows a failed check.
        try:
            verdict = self.witness.observe(e) if self.check_deals else None
        except FairnessError as exc:
            await self._deal_failed(exc)
        for notice in self.witness.take_notices():
            self._emit(Message(seat=None, text=notice, local=True))
        view = self.mirror.apply(e)
        self._seq_changed.set()
        self._seq_changed = trio.Event()
        if verdict is not None:
            self.rounds_verified += 1
            self._emit(Message(seat=None, text=f"Deal check: {verdict.note}", local=True))
            self._save_transcript()
        if isinstance(e, m.RoundCommit):
            self._seed = secrets.token_bytes(32)
            if self.check_deals:
                commit = self.witness.my_commitment(self._seed)
            else:
                commit = seat_commitment(e.round_id, self.seat, self._seed)
            await self._link.send(m.SeedCommit(round_id=e.round_id, commit=commit))
        elif isinstance(e, m.SeedCommits) and self._seed is not None:
            if self.check_deals and not self.witness.should_reveal():
                return False  # the host did not relay our commitment: our seed is out
            if not self.check_deals and e.commits[self.seat] is None:
                return False
            self.witness.revealed = True
            await self._link.send(m.SeedReveal(round_id=e.round_id, seed=self._seed))
            self._await_receipt(e.round_id)
        elif isinstance(e, m.Deal):
            if self.mirror.started_round:
                self._emit(RoundStarted(view=view))
            else:
                self._emit(ViewChanged(view=view))
        elif isinstance(e, m.Played):
            self._emit(ViewChanged(view=view, record=view.plays[-1]))
        elif isinstance(e, m.RoundVoid):
            self._emit(VoidDeal(view=view))  # kings: the only void (any other fails a check)
        elif isinstance(e, m.RoundEnd):
            assert view.round_score is not None
            self._emit(RoundOver(view=view, score=view.round_score, match_scores=tuple(e.scores)))
        elif isinstance(e, m.MatchEnd):
            saved = self._save_transcript()  # now with the match result
            rounds = view.round_number
            self._emit(MatchOver(winner=e.winner or 0, match_scores=tuple(e.scores), rounds=rounds))
            if saved is not None:
                where = _shown_path(saved)
                self._emit(Message(seat=None, text=f"Transcript saved: {where}", local=True))
                text = f"Check it any time with: scopa-net verify {where}"
                self._emit(Message(seat=None, text=text, local=True))
            if not self.offer_rematch:
                await self._send_quietly(m.Rematch(agree=False))  # say so: nobody waits for us
                return True
        elif isinstance(e, m.RematchStatus):
            return self._rematch_status(e)
        elif isinstance(e, m.Chat):
            self._emit(Message(seat=e.seat, text=e.text))
        elif isinstance(e, m.SeatStatus):
            self._seat_status(e)
        return False

    def _rematch_status(self, e: m.RematchStatus) -> bool:
        """Take the state of a rematch vote; True when there will be none (the session ends)."""
        assert self.rules is not None and self.host_key is not None
        if e.state == "declined":
            self._emit(Message(seat=None, text="no rematch: the table is closing"))
            return True
        if e.state == "agreed":
            self.match_no = e.match_no + 1
            assert self.table_id is not None
            start = opening_snapshot(self.rules, seat=self.seat, seq=e.seq, table_id=self.table_id)
            self.mirror = SeatMirror(start)
            self.witness = DealWitness(self.rules, self.host_key, self.seat)
            self._emit(Message(seat=None, text="everyone agreed: a new match begins"))
            return False
        waiting = [self._names[s] for s, v in enumerate(e.votes) if v == "waiting"]
        self._emit(Message(seat=None, text=f"rematch: waiting for {', '.join(waiting)}"))
        return False

    def _seat_status(self, e: m.SeatStatus) -> None:
        if e.name is not None and e.seat < len(self._names):
            self._names[e.seat] = e.name
        if e.seat == self._seat:
            return
        who = e.name or f"seat {e.seat}"
        if not e.connected and e.kind == "human" and e.grace:
            text = f"{who} lost the connection; a computer plays for them in {e.grace} s"
        elif e.stand_in:
            text = f"a computer is playing for {who}"
        elif e.connected and e.kind == "human":
            text = f"{who} is at the table"
        else:
            return
        self._emit(Message(seat=None, text=text))

    async def _deal_failed(self, exc: FairnessError) -> None:
        """Stop at once: keep the evidence, tell the host why we leave, end the session."""
        assert self.witness is not None
        round_no = self.witness.round_no
        check = type(exc).__name__
        self.verdict_failures.append(f"{check}: {exc}")
        evidence = self.witness.evidence(exc)
        try:
            path = self._save_file(evidence.encode(), "-FAILED")
        except OSError as err:
            log.warning("could not save the evidence: %s", err)
            path = None
        lines = [
            f"DEAL CHECK FAILED in round {round_no}: {check}: {exc}",
            "The game stops here: this host's deal cannot be trusted.",
        ]
        if path is not None:
            lines.append(f"Evidence saved to {path} (check it with: scopa-net verify {path})")
        self._stop = True
        if self._link is not None:
            bye = m.Bye(
                reason=ErrorCode.DEAL_FAILED.value,
                message=f"round {round_no}: {check}"[: m.TEXT_LEN],
            )
            with suppress(*LINK_ERRORS), trio.move_on_after(2):
                await self._link.send(bye)
        self.deal_failure = DealCheckFailedError("\n".join(lines), path)
        raise self.deal_failure

    def _save_file(self, data: bytes, suffix: str = "") -> Path | None:
        """Write a transcript where the player keeps them; the path, or None if nowhere."""
        if self.on_transcript is not None:
            self.on_transcript(data)
        if self.data_dir is None or self.host_key is None:
            return None
        folder = self.data_dir / "transcripts"
        folder.mkdir(parents=True, exist_ok=True)
        fp = fingerprint(self.host_key).replace("-", "")[:12]
        match = "" if self.match_no == 1 else f"-match{self.match_no}"
        path = folder / f"{fp}-table{self.table_id}-seat{self._seat}{match}{suffix}.scopa"
        path.write_bytes(data)
        return path

    def _save_transcript(self) -> Path | None:
        """Write the match's transcript so far; the file written, if one was."""
        assert self.witness is not None
        if self.witness.mid_match:
            return None  # a transcript must start at the match's first round to be verified
        return self._save_file(self.witness.transcript().encode())

    # --- helpers ------------------------------------------------------------------------

    def _emit(self, event: Event) -> None:
        try:
            self._send_events.send_nowait(event)
        except trio.WouldBlock:
            log.warning("client event queue full; dropping %s", type(event).__name__)
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            pass

    def _set_state(self, state: ConnectionState, detail: str = "") -> None:
        if state is not self._state:
            self._state = state
            self._emit(ConnectionChanged(state=state, detail=detail))
        if state is ConnectionState.CONNECTED:
            self.connected.set()

    async def _send_quietly(self, msg: m.Message) -> None:
        """Send if connected; a lost connection is the reconnect loop's business."""
        if self._link is None:
            return
        with suppress(OSError, trio.BrokenResourceError, trio.ClosedResourceError, ProtocolError):
            await self._link.send(msg)


def _shown_path(path: Path) -> str:
    """``path`` as a person can paste it into a shell: ``~/...`` under the home directory."""
    quoted = shlex.quote(str(path))
    try:
        inside = path.relative_to(Path.home())
    except ValueError:
        return quoted
    short = f"~/{inside}"
    return short if shlex.quote(str(inside)) == str(inside) else quoted


@asynccontextmanager
async def open_network_session(
    host: str, port: int, choice: TableChoice, **options: object
) -> AsyncIterator[NetworkSession]:
    """A running :class:`NetworkSession`, seated; leaving the block ends it."""
    session = NetworkSession(host, port, choice, **options)  # type: ignore[arg-type]
    async with trio.open_nursery() as nursery:
        failed: list[BaseException] = []

        async def run() -> None:
            try:
                await session.run()
            except DealCheckFailedError:
                # The seat stopped on a failed check: end the block; raised below, unwrapped.
                session.connected.set()
                nursery.cancel_scope.cancel()
            except Exception as exc:
                if session.connected.is_set():
                    raise
                failed.append(exc)
                session.connected.set()

        nursery.start_soon(run)
        await session.connected.wait()
        if not failed and session.deal_failure is None:
            try:
                yield session
            except Exception:
                # Whatever the block was doing when the seat stopped (waiting for an answer
                # that will not come) matters less than why it stopped.
                if session.deal_failure is None:
                    raise
            finally:
                nursery.cancel_scope.cancel()
    if session.deal_failure is not None:
        raise session.deal_failure
    if failed:
        raise failed[0]
