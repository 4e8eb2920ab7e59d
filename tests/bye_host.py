"""A host on loopback that welcomes a client with a given key (proving it holds it, protocol.md
5.3) and answers its ``resume`` with
a final ``bye`` (a reason that is not passing, protocol.md 3.8): what a client taking its
seat back meets when the host ends the connection for good. ``go`` holds the answer back
until the test sets it (the client is reconnecting meanwhile). :class:`RefusalAtRequest`
answers a client's first request after ``hello`` instead, with a ``bye`` or an ``error``."""

from __future__ import annotations

import trio
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from scopa_net.fair.commitments import public_key_bytes, sign, welcome_message
from scopa_net.wire import messages as m
from scopa_net.wire.connection import NEED_DATA, ConnectionClosed, HostConnection
from scopa_net.wire.messages import NOT_FATAL


class ByeAtResume:
    ANSWERED: tuple[type[m.Message], ...] = (m.Resume,)
    """The requests answered with the bye."""

    def __init__(self, key: Ed25519PrivateKey, reason: str, message: str) -> None:
        self.key = key
        self.host_key = public_key_bytes(key)
        self.reason = reason
        self.message = message
        self.go = trio.Event()
        self.resumes = 0
        self.port = 0

    async def serve(self, *, task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.port = listeners[0].socket.getsockname()[1]
        async with trio.open_nursery() as nursery:
            task_status.started(self.port)
            await trio.serve_listeners(self._handle, listeners, handler_nursery=nursery)

    async def _handle(self, stream: trio.SocketStream) -> None:
        conn = HostConnection()
        try:
            while True:
                event = conn.next_event()
                if event is NEED_DATA:
                    data = await stream.receive_some(65536)
                    if not data:
                        return
                    conn.receive_data(data)
                elif isinstance(event, ConnectionClosed):
                    return
                elif isinstance(event, m.Hello):
                    version, challenge = event.version, event.challenge
                    proof = None
                    if challenge is not None:
                        proof = sign(self.key, welcome_message(version, challenge, self.host_key))
                    welcome = m.Welcome(
                        version=version,
                        host_name="bye host",
                        host_key=self.host_key,
                        key_proof=proof,
                    )
                    await stream.send_all(conn.send(welcome))
                elif isinstance(event, m.Ping):
                    await stream.send_all(conn.send(m.Pong(nonce=event.nonce)))
                elif isinstance(event, self.ANSWERED):
                    self.resumes += 1
                    await self.go.wait()
                    await stream.send_all(conn.send(self.answer(event)))
                    if self.closes:
                        return
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            return
        finally:
            await trio.aclose_forcefully(stream)

    @property
    def closes(self) -> bool:
        return True

    def answer(self, request: m.Message) -> m.Message:
        return m.Bye(reason=self.reason, message=self.message)


class RefusalAtRequest(ByeAtResume):
    """Welcomes, then answers the first request (a table made, joined or listed) with ``bye``
    of ``reason``, or, for a code that leaves the connection open, with ``error``; its words
    are ``message`` (whatever a host may put there: bidi controls too)."""

    ANSWERED = (m.CreateTable, m.Join, m.ListTables, m.Resume)

    def __init__(self, key: Ed25519PrivateKey, reason: str, message: str) -> None:
        super().__init__(key, reason, message)
        self.go.set()

    @property
    def closes(self) -> bool:
        return self.reason not in NOT_FATAL

    def answer(self, request: m.Message) -> m.Message:
        if self.closes:
            return super().answer(request)
        return m.Error(code=self.reason, message=self.message, ref=request.TYPE)
