"""A small fault-injecting TCP proxy on loopback, in the manner of toxiproxy.

It forwards each client connection to the host and can slice the bytes into 1-7 byte pieces,
cut every open connection at once (as a network blip does), stall every connection for a while
(bytes held, both ways, and passed on in order when the stall lifts), and capture everything
the host sent to each client for later inspection.
"""

from __future__ import annotations

import random

import trio


class FaultProxy:
    def __init__(
        self, target_port: int, *, slice_bytes: bool = False, capture: bool = False, seed: int = 0
    ) -> None:
        self.target_port = target_port
        self.slice_bytes = slice_bytes
        self.capture = capture
        self.rng = random.Random(seed)
        self.port = 0
        self.captured: list[bytearray] = []
        self._open: set[trio.CancelScope] = set()
        self.cuts = 0
        self._stalled_until = -1.0
        self._stall_when_connected: float | None = None
        self._held: trio.Event | None = None

    def stall_next_connection(self, seconds: float) -> None:
        """As :meth:`stall`, but starting when the next connection comes (a process that
        takes a moment to start connects late, and must still meet the stall)."""
        self._stall_when_connected = seconds

    def stall(self, seconds: float) -> None:
        """From now, for ``seconds``, pass no byte either way on any connection (new ones
        included): each is held and passed on, in order, when the stall lifts."""
        self._stalled_until = trio.current_time() + seconds

    def hold(self) -> None:
        """As :meth:`stall`, but until :meth:`lift` (a stall that ends when the test has done
        what it must do meanwhile, however long a loaded machine takes for it)."""
        if self._held is None:
            self._held = trio.Event()

    def lift(self) -> None:
        """End a :meth:`hold`: the bytes held are passed on, in order."""
        held, self._held = self._held, None
        if held is not None:
            held.set()

    async def serve(self, *, task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.port = listeners[0].socket.getsockname()[1]
        async with trio.open_nursery() as nursery:
            task_status.started(self.port)
            await trio.serve_listeners(self._handle, listeners, handler_nursery=nursery)

    def cut_all(self) -> int:
        """Reset every connection now; returns how many were cut."""
        scopes = list(self._open)
        for scope in scopes:
            scope.cancel()
        self.cuts += len(scopes)
        return len(scopes)

    async def _handle(self, client: trio.SocketStream) -> None:
        if self._stall_when_connected is not None:
            self.stall(self._stall_when_connected)
            self._stall_when_connected = None
        captured = bytearray()
        if self.capture:
            self.captured.append(captured)
        upstream: trio.SocketStream | None = None
        try:
            upstream = await trio.open_tcp_stream("127.0.0.1", self.target_port)
            with trio.CancelScope() as scope:
                self._open.add(scope)
                try:
                    async with trio.open_nursery() as nursery:
                        cancel = nursery.cancel_scope
                        nursery.start_soon(self._pipe, client, upstream, None, cancel)
                        nursery.start_soon(self._pipe, upstream, client, captured, cancel)
                finally:
                    self._open.discard(scope)
        except OSError:
            pass
        finally:
            with trio.CancelScope(shield=True):
                await trio.aclose_forcefully(client)
                if upstream is not None:
                    await trio.aclose_forcefully(upstream)

    async def _pipe(
        self,
        source: trio.SocketStream,
        sink: trio.SocketStream,
        captured: bytearray | None,
        scope: trio.CancelScope,
    ) -> None:
        try:
            while True:
                data = await source.receive_some(65536)
                if not data:
                    break
                await trio.sleep_until(self._stalled_until)
                while self._held is not None:
                    await self._held.wait()
                if captured is not None and self.capture:
                    captured += data
                if self.slice_bytes:
                    while data:
                        n = self.rng.randint(1, 7)
                        await sink.send_all(data[:n])
                        data = data[n:]
                        await trio.sleep(0)
                else:
                    await sink.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        finally:
            scope.cancel()
