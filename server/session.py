"""One player connection on the host: a reader and a writer around a sans-IO HostConnection.

The reader turns bytes into messages and hands table business to the table's task; the writer
drains the connection's :class:`~scopa_net.server.outbox.Outbox`. Either ending ends both. Every
wait on the peer is bounded: the handshake, silence (with pings in between), and each write.
Whatever goes wrong stays inside this connection: it is logged and the connection is closed.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import traceback
from typing import TYPE_CHECKING

import trio

from scopa_net.fair.commitments import sign, welcome_message
from scopa_net.server.outbox import Outbox
from scopa_net.server.table_task import (
    BLIND_REQUESTS,
    PACED_BY_THE_GAME,
    Request,
    TableTask,
    refusal_at_a_closed_table,
)
from scopa_net.version_words import Reader, another_version, read_hello_refusal
from scopa_net.wire import messages as m
from scopa_net.wire.codec import SharedFrames
from scopa_net.wire.connection import (
    MAX_PINGS,
    NEED_DATA,
    ConnectionClosed,
    HostConnection,
    State,
)
from scopa_net.wire.errors import ErrorCode, LocalProtocolError, ProtocolError, RefusalWhy

if TYPE_CHECKING:
    from scopa_net.server.host import Host

log = logging.getLogger("scopa_net.host")

RECEIVE_SIZE = 65536
DRAIN_TIME = 1.0
DRAIN_BYTES = 1 << 20
"""How long, and how much, the host reads from a peer after its last frame before closing."""
TABLE_REQUESTS = (
    m.Play,
    m.Say,
    m.Rename,
    m.SeedCommit,
    m.SeedReveal,
    m.Leave,
    m.Rematch,
    *BLIND_REQUESTS,
)
TO_THE_TABLE = (*TABLE_REQUESTS, m.Bye)
"""What the reader hands to the table the connection sits at (a ``bye`` says why it left)."""
NEEDS_THE_JOURNAL = (m.CreateTable, m.Join, m.Resume, *TABLE_REQUESTS)
"""Requests that change a table, refused while the journal cannot be written."""
FAIRNESS_WRITES = 16
"""A writer whose writes all go straight to the socket yields to the other tasks after this
many of them (a write through the scheduler yields every time)."""
PUSH_BACK_WITHIN = 0.5
"""A frame moves the reader's deadline on only when that deadline is closer than this share
of ``heartbeat_interval``: a connection heard from more often than that never has its wait
cut short, and its deadline is moved once every few frames, not at every one."""
OUTSIDE_THE_LIMIT = (m.Ping, m.Pong, m.Hello)
"""Messages no request limit looks at (pings and pongs have a bound of their own, 3.1)."""


async def drain(stream: trio.abc.Stream, seconds: float = DRAIN_TIME) -> None:
    """After the last frame: close our side and read (and drop) what the peer still sends,
    briefly, so that closing with its bytes unread does not reset the connection and throw
    away the ``bye`` on its way."""
    if not isinstance(stream, trio.abc.HalfCloseableStream):
        return
    with trio.move_on_after(seconds):
        try:
            await stream.send_eof()
            left = DRAIN_BYTES
            while left > 0 and (data := await stream.receive_some(RECEIVE_SIZE)):
                left -= len(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError, trio.BusyResourceError) as exc:
            let_go(exc)


def let_go(exc: BaseException) -> None:
    """Clear the frames of ``exc``'s traceback and of the errors it chains, once it is
    handled. Trio turns a socket's ``OSError`` (``ENOTCONN`` from ``send_eof`` when the
    peer is gone) into a ``BrokenResourceError`` inside a context manager, whose frames keep
    both errors in a cycle; those frames reach the session's own (``f_back``), so each such
    connection's session would wait for the host's rare sweep (server/collector.py)."""
    seen: set[int] = set()
    chained: BaseException | None = exc
    while chained is not None and id(chained) not in seen:
        seen.add(id(chained))
        traceback.clear_frames(chained.__traceback__)  # (skips frames still running)
        chained.__traceback__ = None
        chained = chained.__cause__ or chained.__context__


def write_failure(exc: BaseException) -> str:
    """Why a write to a connection failed, in words: ``connection reset by peer``."""
    if isinstance(exc, trio.TooSlowError):
        return "the other end did not read in time"
    cause = exc.__cause__ or exc.__context__
    if isinstance(cause, OSError) and cause.strerror:
        return cause.strerror[:1].lower() + cause.strerror[1:]
    return "the connection was closed"


class PlayerSession:
    def __init__(
        self, host: Host, stream: trio.abc.Stream, peer: str, *, address: str | None = None
    ) -> None:
        self.host = host
        self.config = host.config
        self._push_back_within = PUSH_BACK_WITHIN * self.config.heartbeat_interval
        self.stream = stream
        self.peer = peer
        self.address = address
        """The peer's address (tables it creates count against its quota)."""
        self.conn = HostConnection()
        self.outbox = Outbox(max_replies=self.config.max_replies, max_lag=self.config.max_lag)
        self.table_id: int | None = None
        self._writer_done = trio.Event()
        self._fd = stream.socket.fileno() if isinstance(stream, trio.SocketStream) else None
        """The socket's descriptor for direct writes (None: not a TCP stream)."""
        self._direct_writes = 0
        self._leftover = b""
        """Bytes the outbox's sink could not write at once; the writer sends them first."""
        self._sink_error: Exception | None = None
        self._joined_encoded = False
        """A ``joined`` is among the bytes encoded and not yet handed whole to the socket."""
        if self._fd is not None:
            self.outbox.sink = self._write_now
        self._tokens = float(self.config.request_burst)
        self._paced_tokens = float(self.config.request_burst)
        """The bucket of refused game-paced messages (plain floats, not a bucket object: one
        object less per connection for the host's collector to walk)."""
        self._tokens_at = trio.current_time()
        self._pings_out = 0
        """Pings this host queued that no ``pong`` has answered yet: at most ``MAX_PINGS``
        (protocol.md 3.1), however long a peer that talks goes without answering them."""

    async def run(self) -> None:
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._write_then_stop, nursery.cancel_scope)
                await self._read()
                # The reader is done: let the writer send what is queued (a bye), briefly.
                with trio.move_on_after(1.0):
                    if self.outbox.closing is None:
                        self.outbox.close(m.Bye(reason=ErrorCode.QUIT.value, message="goodbye"))
                    await self._writer_done.wait()
                nursery.cancel_scope.cancel()
            await drain(self.stream)
        finally:
            await self._leave_table()
            # The outbox's sink is a method of this session: a cycle. Broken, the session is
            # freed by reference counting once the table lets go of the outbox (the host's
            # collector never looks at old objects again: server/collector.py).
            self.outbox.sink = None

    # --- reading ------------------------------------------------------------------------

    async def _read(self) -> None:
        """Read until the peer leaves or misbehaves. Bounded waits: the whole handshake must
        finish within ``handshake_timeout``; after it, a ping goes out after
        ``heartbeat_interval`` of silence and the connection closes after ``silence_timeout``;
        a frame begun must be finished within ``frame_timeout`` (no byte-a-second peers).

        The deadlines are kept lazily: one cancel scope covers many reads (a scope with a
        deadline, opened and closed around every read, costs two trips through trio's
        deadline table a frame). A frame that arrives moves the real deadlines on, and the
        scope's only when it is near firing (:data:`PUSH_BACK_WITHIN`), or when something
        falls due sooner (it never fires late); a scope that fires early anyway (a
        cancellation is dearer than a deadline moved) has what is really due looked at, and a
        new one is opened. The reader's awaits that must not be cut short are shielded."""
        config = self.config
        handshake_deadline = trio.current_time() + config.handshake_timeout
        last_heard = trio.current_time()
        next_ping = last_heard + config.heartbeat_interval
        frame_started: float | None = None
        while True:
            due = self._due(handshake_deadline, last_heard, next_ping, frame_started)
            with trio.move_on_at(due) as scope:
                while True:
                    try:
                        data = await self._receive()
                    except (trio.BrokenResourceError, trio.ClosedResourceError):
                        return
                    # b"": the peer closed its side, fed in all the same: inside a frame,
                    # that is a bad_frame (protocol.md section 1), said and logged as one.
                    now = trio.current_time()
                    last_heard = now
                    next_ping = now + config.heartbeat_interval
                    try:
                        self.conn.receive_data(data)
                        while True:
                            event = self.conn.next_event()
                            if event is NEED_DATA:
                                break
                            if (
                                isinstance(event, m.Bye)
                                and event.reason == ErrorCode.DEAL_FAILED.value
                            ):
                                await self._dispatch(event)  # the table tells the others why
                            if isinstance(event, m.Bye):
                                # Its client closing in order, not a drop (protocol.md 3.3).
                                self.outbox.said_bye = event.reason == ErrorCode.QUIT.value
                            if isinstance(event, (ConnectionClosed, m.Bye)):
                                return
                            if self.outbox.owes_many:
                                await self._wait_for_room()
                                if self._writer_done.is_set() or self.outbox.closing:
                                    return
                            await self._dispatch(event)
                    except ProtocolError as exc:
                        versions = exc.code is ErrorCode.BAD_VERSION and read_hello_refusal(
                            exc.message
                        )  # the organiser is told whose scopa-net is behind, and who updates
                        words = versions and another_version(*versions, Reader.ORGANISER)
                        log.info("connection %s: %s", self.peer, words or exc)
                        self._bye(exc.code, exc.message)
                        return
                    if self.conn.mid_frame:
                        frame_started = frame_started if frame_started is not None else now
                    else:
                        frame_started = None
                    due = self._due(handshake_deadline, last_heard, next_ping, frame_started)
                    if due < scope.deadline or scope.deadline - now < self._push_back_within:
                        scope.deadline = due
            now = trio.current_time()
            if self.conn.state in (State.HELLO, State.WELCOME):
                if now >= handshake_deadline:
                    self._bye(ErrorCode.TIMEOUT, "no hello in time")
                    return
                continue
            if frame_started is not None and now >= frame_started + config.frame_timeout:
                self._bye(ErrorCode.TIMEOUT, "a frame took too long to arrive")
                return
            if now >= last_heard + config.silence_timeout:
                self._bye(ErrorCode.TIMEOUT, f"nothing received for {now - last_heard:.0f} s")
                return
            if now >= next_ping:
                self._send_ping()
                next_ping = now + config.heartbeat_interval

    async def _wait_for_room(self) -> None:
        """Read no further request while half of ``max_replies`` answers are owed: the peer
        is reading them (the writer takes them and room comes) or it is not (the writer's
        send times out and the connection ends). Shielded, so that the read deadlines do not
        cut it short with a frame decoded and not yet handled; the writer's send timeout,
        twice over, bounds it."""
        with trio.CancelScope(shield=True), trio.move_on_after(2 * self.config.send_timeout):
            await self.outbox.room_for_answers()
        if self.outbox.crowded:
            self._bye(ErrorCode.TIMEOUT, "too many answers not taken; resume")

    def _due(
        self,
        handshake_deadline: float,
        last_heard: float,
        next_ping: float,
        frame_started: float | None,
    ) -> float:
        """When the reader must next look at the clock (a method, not a closure: a closure's
        cells would be more objects per connection for the host's collector to walk)."""
        if self.conn.state in (State.HELLO, State.WELCOME):
            return handshake_deadline
        config = self.config
        deadline = min(next_ping, last_heard + config.silence_timeout)
        if frame_started is not None:
            deadline = min(deadline, frame_started + config.frame_timeout)
        return deadline

    async def _receive(self) -> bytes:
        """The next bytes from the peer (``b""`` once it closed its side). Over TCP the socket
        is read directly once it is readable, which saves a trip through the scheduler per
        read; other streams are read the ordinary way."""
        fd = self._fd
        if fd is None:
            return await self.stream.receive_some(RECEIVE_SIZE)
        while True:
            await trio.lowlevel.wait_readable(fd)
            try:
                return os.read(fd, RECEIVE_SIZE)
            except BlockingIOError:
                continue  # woken with nothing to read after all
            except OSError as exc:
                raise trio.BrokenResourceError(f"read failed: {exc}") from exc

    def _bye(self, code: ErrorCode, message: str) -> None:
        self.outbox.close(m.Bye(reason=code.value, message=message[: m.TEXT_LEN]))

    def _send_ping(self) -> None:
        """Ping a peer gone quiet, unless four pings are out already: a fifth would break
        the bound of protocol.md 3.1 (the silence timeout still closes a peer gone)."""
        if self.conn.state in (State.HELLO, State.WELCOME, State.CLOSED):
            return
        if self._pings_out < MAX_PINGS:
            self._pings_out += 1
            self.outbox.reply(m.Ping(nonce=secrets.randbelow(2**32)))

    def _refill(self) -> None:
        """Two token buckets, each ``request_rate`` per second and ``request_burst`` at once:
        one for requests, one for refused game-paced messages. Each game-paced message
        refused (or a ``play`` acknowledged as a duplicate) since the last look takes a token
        from both (3.6), down to a debt of one burst."""
        now = trio.current_time()
        config = self.config
        burst = float(config.request_burst)
        gained = (now - self._tokens_at) * config.request_rate
        self._tokens_at = now
        refused, self.outbox.refused_paced = self.outbox.refused_paced, 0
        self._tokens = max(min(burst, self._tokens + gained) - refused, -burst)
        self._paced_tokens = max(min(burst, self._paced_tokens + gained) - refused, -burst)

    def _within_rate(self) -> bool:
        self._refill()
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    def _refusals_within_rate(self) -> bool:
        """A game-paced message takes no token, but once refused ones have used up their own
        bucket the next is refused until it fills again. Other requests never empty that
        bucket: a client that sends only what the game asks for is never refused a move."""
        self._refill()
        return self._paced_tokens - self.outbox.paced_in_flight >= 1

    def _refuse_rate(self, msg: m.Message) -> None:
        self._refuse(msg, ErrorCode.RATE_LIMITED, "too many requests; slow down")

    def _refuse(
        self, msg: m.Message, code: ErrorCode, text: str, why: RefusalWhy | None = None
    ) -> None:
        """Answer a request the host will not pass on: ``reject`` for a move, else ``error``
        (``why``: protocol.md 3.8's reason, where a client acts on it). A game-paced message
        refused for another reason than the rate counts against it."""
        if isinstance(msg, PACED_BY_THE_GAME) and code is not ErrorCode.RATE_LIMITED:
            self.outbox.refused_paced += 1
        if isinstance(msg, m.Play):
            self.outbox.reply(
                m.Reject(
                    move_id=msg.move_id,
                    code=code.value,
                    reason=None,
                    message=text[: m.TEXT_LEN],
                    current_seq=None,
                )
            )
        elif msg.TYPE in m.PLAYER_REQUESTS:
            self.outbox.reply(
                m.Error(
                    code=code.value,
                    message=text[: m.TEXT_LEN],
                    ref=msg.TYPE,
                    why=None if why is None else why.value,
                )
            )

    @property
    def seated(self) -> bool:
        """Whether this connection plays a seat now (its table's events reach it)."""
        return self.outbox.seat is not None and self.conn.state is State.SEATED

    async def _dispatch(self, msg: m.Message) -> None:
        host = self.host
        if isinstance(msg, PACED_BY_THE_GAME):
            if not self._refusals_within_rate():
                self._refuse_rate(msg)
                return
        elif not isinstance(msg, OUTSIDE_THE_LIMIT) and not self._within_rate():
            self._refuse_rate(msg)
            return
        if host.writer.failing is not None and isinstance(msg, NEEDS_THE_JOURNAL):
            self._refuse(
                msg,
                ErrorCode.STORAGE,
                "the host cannot save the game just now (its disk refuses writes); "
                "try again in a moment",
            )
            return
        if isinstance(msg, TO_THE_TABLE):  # first: what a seated player sends most
            task = None if self.table_id is None else host.tables.get(self.table_id)
            if task is not None:
                await self._to_table(task, msg)
            elif self.table_id is not None:  # the table closed (or stopped) a moment ago
                self._refuse(msg, *refusal_at_a_closed_table(self.table_id, msg))
        elif isinstance(msg, m.Hello):
            self.outbox.protocol = msg.version
            proof = None
            if msg.challenge is not None:  # protocol 5: prove this host holds its key (5.3)
                signed = welcome_message(msg.version, msg.challenge, host.public_key)
                proof = sign(host.key, signed)
            self.outbox.reply(
                m.Welcome(
                    version=msg.version,
                    host_name=self.config.name,
                    host_key=host.public_key,
                    key_proof=proof,
                )
            )
        elif isinstance(msg, m.Ping):
            self.outbox.reply(m.Pong(nonce=msg.nonce))
        elif isinstance(msg, m.Pong):
            self._pings_out -= 1  # (the connection refuses a pong that answers no ping)
        elif isinstance(msg, m.ListTables):
            self.outbox.reply(m.Tables(tables=host.table_infos()))
        elif isinstance(msg, m.CreateTable):
            with trio.CancelScope(shield=True):  # not cut short by the reader's deadline
                await host.create_table_for(self.outbox, msg, self.address)
        elif isinstance(msg, (m.Join, m.Resume)):
            task = host.tables.get(msg.table_id)
            if task is None:
                _, why = host.closed_at_restore.get(msg.table_id, ("", None))
                self._refuse(msg, *refusal_at_a_closed_table(msg.table_id, msg, why))
                return
            self.table_id = msg.table_id
            await self._to_table(task, msg)

    async def _to_table(self, task: TableTask, msg: m.Message) -> None:
        """Hand ``msg`` to the table: a move is handled here and now while the table's task is
        idle (:meth:`TableTask.take_now`); else it goes to the task's inbox, at once while
        there is room, else after a wait."""
        paced = isinstance(msg, PACED_BY_THE_GAME)
        if paced:
            self.outbox.paced_in_flight += 1  # the table takes one off when it has handled it
        self.outbox.at_table += 1  # the table calls answered() when it has
        if type(msg) is m.Play and task.take_now(self.outbox, msg):
            return  # handled here and now (no hop through the table's inbox)
        request = Request(self.outbox, msg)
        try:
            try:
                task.send.send_nowait(request)
            except trio.WouldBlock:
                with trio.CancelScope(shield=True):  # not cut short by the reader's deadline
                    await task.send.send(request)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            # The table closed or stopped between the lookup and now: as if it had gone a
            # moment earlier.
            if paced:
                self.outbox.paced_in_flight -= 1
            self.outbox.at_table -= 1
            self._refuse(msg, *refusal_at_a_closed_table(task.table.table_id, msg))

    async def _leave_table(self) -> None:
        if self.table_id is None:
            return
        task = self.host.tables.get(self.table_id)
        if task is not None:
            with (
                trio.CancelScope(shield=True),
                trio.move_on_after(self.config.send_timeout),
                contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError),
            ):
                await task.send.send(Request(self.outbox, None))

    # --- writing ------------------------------------------------------------------------

    async def _write_then_stop(self, scope: trio.CancelScope) -> None:
        try:
            await self._write()
        except (trio.BrokenResourceError, trio.ClosedResourceError, trio.TooSlowError) as exc:
            # Not news: the table's own line names the player who lost the connection.
            log.debug("connection %s: write failed: %s", self.peer, write_failure(exc))
            let_go(exc)
        except ProtocolError as exc:
            log.error("connection %s: host sent out of order: %s", self.peer, exc)
        finally:
            self._writer_done.set()
            self.outbox.stop_waiting()
            scope.cancel()

    async def _write(self) -> None:
        outbox = self.outbox
        while True:
            batch = await outbox.next_batch()
            if self._sink_error is not None:
                self._raise_sink_error()
            if self.conn.broken:
                # The peer broke the protocol: the replies owed to its frames before the bad
                # one (a pong, a tables) still go, then the bye saying why (protocol.md 3.1);
                # table events no longer do (the player resumes by seq).
                if outbox.closing is not None:
                    owed = [msg for msg in batch if not msg.SEQUENCED]
                    await self._send_final(outbox.closing, self._encode(owed))
                    return
                batch = []
            data = self._encode(batch)
            if self._leftover:
                data, self._leftover = self._leftover + data, b""
            if data:
                await self._send(data)
                self._handed_whole()
            if outbox.overflowed:
                log.info("connection %s: fell behind its seat, closing to resume", self.peer)
                await self._send_final(
                    m.Bye(reason=ErrorCode.TIMEOUT.value, message="too far behind; resume")
                )
                return
            if outbox.closing is not None and not batch:
                await self._send_final(outbox.closing)
                return

    def _raise_sink_error(self) -> None:
        """Raise what the sink could not write for (an OSError as a broken stream). The error
        is let go of on the way (a frame that holds a raised error, and the error's traceback
        that holds the frame, are a cycle)."""
        error, self._sink_error = self._sink_error, None
        try:
            if isinstance(error, OSError):
                raise trio.BrokenResourceError(f"write failed: {error}") from error
            assert error is not None
            raise error
        finally:
            error = None

    def _write_now(self, batch: list[m.Message], frames: SharedFrames | None) -> None:
        """The outbox's sink: encode and write ``batch`` without waiting (called by a table's
        task while this connection's writer is idle). Whatever the socket does not take at
        once, and any error, is left to the writer task."""
        if self.conn.broken:
            return  # the writer sends what is owed, then the bye saying why
        try:
            data = self._encode(batch, frames)
            try:
                sent = os.write(self._fd, data)  # type: ignore[arg-type]
            except BlockingIOError:
                sent = 0
        except (ProtocolError, OSError) as exc:
            self._sink_error = exc.with_traceback(None)  # its frames would hold this session
            self.outbox.kick()
            return
        if sent < len(data):
            self._leftover = data[sent:]
            self.outbox.kick()
        else:
            self._handed_whole()

    def _handed_whole(self) -> None:
        """Everything encoded so far is in the socket: a ``joined`` among it was written."""
        if self._joined_encoded:
            self._joined_encoded = False
            self.outbox.joined_unsent = False

    def _encode(self, batch: list[m.Message], frames: SharedFrames | None = None) -> bytes:
        """The bytes of ``batch`` (``frames``: where events every seat shares are encoded once).

        A message the connection's state no longer allows because of the peer is dropped
        quietly (:meth:`_moot`). Any other message out of order is the host's own mistake and
        raises :class:`LocalProtocolError`."""
        send = self.conn.send
        out = []
        for msg in batch:
            try:
                out.append(send(msg) if frames is None else send(msg, frames.encode(msg)))
                if type(msg) is m.Joined:
                    self._joined_encoded = True
            except LocalProtocolError:
                if not self._moot(msg):
                    raise
                state = self.conn.state.value
                log.debug("connection %s: %s dropped in state %s", self.peer, msg.TYPE, state)
        return b"".join(out)

    def _moot(self, msg: m.Message) -> bool:
        """Whether ``msg`` may no longer go because of what the peer did: it said ``bye``
        (nothing more goes; the answers owed to frames before it are dropped, protocol.md
        3.1), or its seat went from it with ``left`` (a move it sent before reading that was
        not applied, and its ``reject`` is not sent, 5.4)."""
        state = self.conn.state
        return state is State.CLOSED or (state is State.LOBBY and isinstance(msg, m.Reject))

    async def _send(self, data: bytes) -> None:
        """Write ``data``, waiting at most ``send_timeout`` for the peer to take it.

        Over TCP the bytes are first offered to the socket directly: almost always the
        kernel takes them all at once, and the write costs no trip through the scheduler.
        What it does not take is sent the ordinary way, bounded by the timeout."""
        if self._fd is not None:
            try:
                sent = os.write(self._fd, data)
            except BlockingIOError:
                sent = 0
            except OSError as exc:
                raise trio.BrokenResourceError(f"write failed: {exc}") from exc
            self._direct_writes += 1
            if sent == len(data):
                if self._direct_writes % FAIRNESS_WRITES == 0:
                    await trio.lowlevel.checkpoint()  # let the other tasks run now and then
                return
            data = data[sent:]
        with trio.fail_after(self.config.send_timeout):
            await self.stream.send_all(data)

    async def _send_final(self, bye: m.Bye, owed: bytes = b"") -> None:
        """Write ``owed`` (replies already encoded), then ``bye``, after whatever part of a
        frame the sink left unwritten."""
        try:
            data = owed + self.conn.send(bye)
        except ProtocolError:
            data = owed
        data, self._leftover = self._leftover + data, b""
        if not data:
            return
        with trio.move_on_after(self.config.send_timeout) as sending:
            await self.stream.send_all(data)
        if not sending.cancelled_caught:
            self._handed_whole()
