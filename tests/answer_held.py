"""A connection whose next answer to a move (``ack`` or ``reject``) from the host is held back
while the frames after it pass: the client reads the ``played`` its move caused before the
answer that judges it (protocol.md 3.5, a held ``played``), for tests of what a person's
screen shows meanwhile."""

from __future__ import annotations

import trio
from hosting import Through

from scopa_net.wire import messages as m
from scopa_net.wire.codec import decode
from scopa_net.wire.framing import FrameReader, frame


class AnswerHeld(Through):
    """Once ``armed``, the next ``ack`` or ``reject`` read from the host is kept back (it is
    ``answer`` then) until ``release`` is set; every other frame passes, in order."""

    def __init__(self, inner: trio.abc.Stream) -> None:
        super().__init__(inner)
        self.armed = False
        self.answer: m.Ack | m.Reject | None = None
        self.release = trio.Event()
        self._held: bytes | None = None
        self._passing = b""
        self._frames = FrameReader()
        self._ended = False

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        while True:
            if self._held is not None and self.release.is_set():
                data, self._held = self._held + self._passing, None
                self._passing = b""
                return data
            if self._passing or self._ended:
                data, self._passing = self._passing, b""
                return data
            if self._held is None:
                self._take(await self.inner.receive_some())
                continue
            async with trio.open_nursery() as either:  # (until bytes come, or the release)

                async def read() -> None:
                    self._take(await self.inner.receive_some())  # (kept, even if cancelled now)
                    either.cancel_scope.cancel()

                async def released() -> None:
                    await self.release.wait()
                    either.cancel_scope.cancel()

                either.start_soon(read)
                either.start_soon(released)

    def _take(self, data: bytes | bytearray) -> None:
        """Bytes from the host: their whole frames pass, or the answer waited for is held."""
        if not data:
            self._ended = True
            return
        self._frames.receive_data(bytes(data))
        while isinstance(payload := self._frames.next_frame(), bytes):
            msg = decode(payload)
            if self.armed and isinstance(msg, m.Ack | m.Reject):
                self.armed, self.answer, self._held = False, msg, frame(payload)
            else:
                self._passing += frame(payload)
