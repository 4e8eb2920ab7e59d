"""One connection to a host: its framing, its pings and its silences, a request and the answer
it waits for (protocol.md 3.1-3.6), and the errors that say the connection is lost.

The session (:mod:`~scopa_net.client.network_session`) opens one with :func:`connect`, and a new
one each time it takes its seat back.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import replace

import trio

from scopa_net.client.addresses import shown_address
from scopa_net.client.hello_versions import HELLO_VERSIONS
from scopa_net.client.proven_keys import ProvenKeys
from scopa_net.client.session_errors import (
    ByeError,
    HelloHeldError,
    HostUnprovenError,
    HostWentBackError,
    RefusedError,
    UnexpectedReplyError,
    VersionMismatchError,
    unproven,
)
from scopa_net.fair.commitments import check_signature, welcome_message
from scopa_net.fair.errors import BadSignatureError
from scopa_net.names import clean_text
from scopa_net.wire import messages as m
from scopa_net.wire.connection import (
    MAX_PINGS,
    NEED_DATA,
    PING_INTERVAL,
    ConnectionClosed,
    NeedData,
    PlayerConnection,
    State,
    bye_for,
)
from scopa_net.wire.errors import ErrorCode, ProtocolError, RemoteProtocolError

CONNECT_TIMEOUT = 10.0
REQUEST_TIMEOUT = 15.0
SILENCE_TIMEOUT = 35.0
"""The host pings every 10 s; this long without a byte means the connection is dead."""
CLIENT_NAME = "scopa-net"
LINK_ERRORS = (
    OSError,
    trio.BrokenResourceError,
    trio.ClosedResourceError,
    trio.TooSlowError,
    ProtocolError,
)
"""What a lost or broken connection raises; the session reconnects."""
LOST_LINK = tuple(error for error in LINK_ERRORS if error is not OSError)
"""What a connection already open raises when it is lost or broken: an OSError while playing
is this client's own (a file it could not write...), a bug that ends the game, not a reason
to try to get back to the host."""


NO_PINGS = (State.HELLO, State.WELCOME, State.CLOSED)
"""Connection states in which a player may not ping (protocol.md 3.1)."""


@contextmanager
def _stream_errors() -> Iterator[None]:
    """An OSError from the connection's stream as the broken connection it is, so that an
    OSError anywhere else (a file of this client's) is never taken for a lost host."""
    try:
        yield
    except OSError as exc:
        raise trio.BrokenResourceError(f"the connection broke: {exc}") from exc


class _Link:
    """One TCP connection to the host."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.conn = PlayerConnection()
        self._pending: list[m.Message] = []
        # The pump (seeds, pongs) and the player (moves, chat) both send: one at a time, so
        # the bytes go out in the order the connection state machine saw them.
        self._sending = trio.StrictFIFOLock()
        self._last_sent = trio.current_time()
        self._unanswered = 0  # our pings the host has not answered yet

    async def send(self, msg: m.Message) -> None:
        async with self._sending:
            data = self.conn.send(msg)
            with _stream_errors():
                await self.stream.send_all(data)
            self._last_sent = trio.current_time()

    async def receive(self) -> m.Message:
        """The next message; raises on silence, a closed stream or a protocol error. The
        host's answers to our own pings are taken here and never returned."""
        while True:
            if self._pending:
                return self._pending.pop(0)
            try:
                event = self._next_event()
            except RemoteProtocolError as exc:
                await self._bye_for(exc)
                raise
            if event is NEED_DATA:
                self.conn.receive_data(await self._receive_some())
                continue
            if isinstance(event, ConnectionClosed):
                raise trio.BrokenResourceError("the host closed the connection")
            return event

    async def _bye_for(self, exc: RemoteProtocolError) -> None:
        """The host broke the protocol: say so in ``bye`` before the connection is closed
        (protocol.md 1), whatever this client was waiting for (a ``welcome``, a ``joined``,
        its snapshot, an event), once; a connection that cannot take it is closed anyway."""
        if self.conn.state is State.CLOSED:
            return
        with trio.CancelScope(shield=True), trio.move_on_after(2), suppress(*LINK_ERRORS):
            await self.send(bye_for(exc))  # shielded: the break is raised, not a cancel

    def _next_event(self) -> m.Message | NeedData | ConnectionClosed:
        """The codec's next event, past the host's answers to our pings. The host's own words
        (a ``bye``'s or an ``error``'s) come cleaned as a chat line is: no bidi control,
        zero-width character or line break the codec lets through reaches a person's line."""
        event = self.conn.next_event()
        while isinstance(event, m.Pong):
            self._unanswered -= 1
            event = self.conn.next_event()
        if isinstance(event, m.Bye | m.Error):
            event = replace(event, message=clean_text(event.message))
        return event

    async def _receive_some(self) -> bytes:
        """The next bytes from the host. Pings it whenever we have sent nothing for
        ``PING_INTERVAL`` seconds (protocol.md 3.6: either side does, so a host that never
        pings still hears from an idle seat); TooSlowError after ``SILENCE_TIMEOUT`` of
        silence."""
        deadline = trio.current_time() + SILENCE_TIMEOUT
        while True:
            ping_at = self._last_sent + PING_INTERVAL
            with trio.move_on_at(min(ping_at, deadline)), _stream_errors():
                return await self.stream.receive_some(65536)
            if trio.current_time() >= deadline:
                raise trio.TooSlowError
            if self._unanswered < MAX_PINGS and self.conn.state not in NO_PINGS:
                await self._ping()
            else:  # a host this far behind, or one yet to welcome us: wait for it
                self._last_sent = trio.current_time()

    async def _ping(self) -> None:
        """Send one ping whole, even when the wait around :meth:`receive` is cancelled
        meanwhile (half a frame would break the stream); BrokenResourceError if the host
        takes no bytes for ``REQUEST_TIMEOUT`` seconds."""
        self._unanswered += 1
        with trio.CancelScope(shield=True):
            with trio.move_on_after(REQUEST_TIMEOUT) as sending:
                await self.send(m.Ping(nonce=secrets.randbelow(2**32)))
            if sending.cancelled_caught:
                raise trio.BrokenResourceError("the host takes no bytes from us")

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
                    raise RefusedError(
                        reply.code, reply.message, reply.why, self.conn.version, reply.current_seq
                    )
                elif isinstance(reply, m.Bye):
                    if reply.reason == ErrorCode.BAD_VERSION.value:
                        raise VersionMismatchError(reply.message)
                    raise ByeError(reply.reason, reply.message)
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

    def has_more(self) -> bool:
        """Whether a whole message is already here, waiting to be read."""
        if self._pending:
            return True
        event = self._next_event()
        if event is NEED_DATA:
            return False
        self._pending.append(event)  # type: ignore[arg-type]
        return True

    async def aclose(self) -> None:
        await trio.aclose_forcefully(self.stream)


Connector = Callable[[], Awaitable[trio.abc.Stream]]
"""Opens a byte stream to the host (TCP by default; tests pass memory streams)."""


async def connect(
    host: str,
    port: int,
    connector: Connector | None = None,
    *,
    proven: ProvenKeys | None = None,
) -> tuple[_Link, m.Welcome]:
    """Open a connection and say hello: in this client's newest version, or, to a host that
    speaks only an older one this client still speaks, again in that one (protocol.md 3.2);
    at once in that one to a host this run already knows speaks nothing newer
    (:mod:`~scopa_net.client.hello_versions`). A host that refuses the newest but gives a key
    that once proved itself (``proven``: this run's and, with a data directory, earlier
    runs'; :mod:`~scopa_net.client.proven_keys`) is refused: :class:`HostWentBackError`,
    nothing secret sent."""
    proven = proven or ProvenKeys()
    first = HELLO_VERSIONS.first(host, port)
    if first < m.PROTOCOL_VERSION:
        try:
            link, welcome = await _say_hello(host, port, connector, first)
        except VersionMismatchError:  # another scopa-net there now: start from the newest
            HELLO_VERSIONS.forget(host, port)
        else:
            if not proven.has_proved(welcome.host_key) and HELLO_VERSIONS.same_host(
                host, port, welcome.host_key
            ):
                return link, welcome
            # Another host at that address, or a key that proved itself, which the newest
            # version must prove again: it may speak it now.
            await link.aclose()
            HELLO_VERSIONS.forget(host, port)
    try:
        link, welcome = await _say_hello(host, port, connector, m.PROTOCOL_VERSION)
        if welcome.version >= m.KEY_PROOF_SINCE:  # proved (_say_hello), for this run
            proven.remember(welcome.host_key)
        return link, welcome
    except VersionMismatchError as exc:
        older = exc.host_version
        if older is None or not m.OLDEST_VERSION <= older < m.PROTOCOL_VERSION:
            raise
    except ByeError as exc:
        # A host of version 4 reads a `hello` in 5 as one in 4 and refuses its `challenge`, a
        # key it does not know, before its version (protocol.md 3.2): say it again in 4.
        if not _refuses_challenge(exc) or m.OLDEST_VERSION >= m.KEY_PROOF_SINCE:
            raise
        older = m.KEY_PROOF_SINCE - 1
    link, welcome = await _say_hello(host, port, connector, older)
    if older < m.KEY_PROOF_SINCE and proven.has_proved(welcome.host_key):
        # A key that proved itself, at a host that now says it cannot: a downgrade (3.2).
        await link.aclose()
        where = shown_address(host, port)
        raise HostWentBackError(where, welcome.host_key, older)
    HELLO_VERSIONS.learn(host, port, older, welcome.host_key)
    return link, welcome


def _refuses_challenge(exc: ByeError) -> bool:
    """Whether ``exc``, answering a ``hello`` in 5, is a host's ``bye bad_field``: nothing in
    that ``hello`` but its ``challenge`` can be a bad field to a host of 4."""
    return exc.reason == ErrorCode.BAD_FIELD.value


def proves_its_key(welcome: m.Welcome, challenge: bytes) -> bool:
    """Whether ``welcome``'s ``key_proof`` is the host's signature, under its ``host_key``,
    of this connection's ``challenge`` (protocol.md 5.3)."""
    if welcome.key_proof is None:
        return False
    signed = welcome_message(welcome.version, challenge, welcome.host_key)
    try:
        check_signature(welcome.host_key, welcome.key_proof, signed, "welcome")
    except BadSignatureError:
        return False
    return True


async def _say_hello(
    host: str, port: int, connector: Connector | None, version: int
) -> tuple[_Link, m.Welcome]:
    """A new connection, welcomed in ``version`` by a host that proves it holds the key it
    gives, in a version that has the proof (protocol.md 5.3): :class:`HostUnprovenError`,
    before anything else is sent, when it does not."""
    with trio.fail_after(CONNECT_TIMEOUT):
        if connector is not None:
            stream = await connector()
        else:
            stream = await trio.open_tcp_stream(host, port)
    link = _Link(stream)
    challenge = secrets.token_bytes(m.CHALLENGE_SIZE) if version >= m.KEY_PROOF_SINCE else None
    try:
        hello = m.Hello(version=version, client=CLIENT_NAME, challenge=challenge)
        welcome = await link.request(hello, m.Welcome)
    except VersionMismatchError as exc:
        await link.aclose()
        where = shown_address(host, port)
        raise VersionMismatchError(exc.message, f"the host at {where}") from None
    except ByeError as exc:
        await link.aclose()
        if exc.reason != ErrorCode.TIMEOUT.value:
            raise
        where = shown_address(host, port)
        raise HelloHeldError(where, exc.message) from None
    except BaseException:
        await link.aclose()
        raise
    assert isinstance(welcome, m.Welcome)
    if challenge is not None and not proves_its_key(welcome, challenge):
        await link.aclose()
        where = shown_address(host, port)
        raise HostUnprovenError(unproven(where, welcome.host_key))
    return link, welcome


async def list_tables(host: str, port: int) -> tuple[m.TableInfo, ...]:
    link, _ = await connect(host, port)
    try:
        reply = await link.request(m.ListTables(), m.Tables)
        assert isinstance(reply, m.Tables)
        return reply.tables
    finally:
        await link.aclose()
