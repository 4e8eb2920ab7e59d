"""Length-prefixed frames: a 4-byte big-endian length, then that many bytes of payload.

:class:`FrameReader` splits a byte stream into payloads as the bytes arrive. A length of 0 or
above :data:`MAX_FRAME` is refused as soon as its four bytes are in, before any of its body is
kept, so the reader never holds more than one partial frame (at most ``MAX_FRAME + 4`` bytes).
Errors are queued behind the frames that came before them, so feeding the same bytes whole or
in slices gives the same frames and then the same error.
"""

from __future__ import annotations

from collections import deque

from scopa_net.wire.errors import ErrorCode, LocalProtocolError, RemoteProtocolError

HEADER_SIZE = 4
MAX_FRAME = 64 * 1024
"""Largest payload in bytes (the length prefix not counted)."""


class EndOfStream:
    """Returned by :meth:`FrameReader.next_frame` once the peer closed at a frame boundary."""

    def __repr__(self) -> str:
        return "END_OF_STREAM"


END_OF_STREAM = EndOfStream()


def frame(payload: bytes, max_frame: int = MAX_FRAME) -> bytes:
    """The payload with its length prefix; :class:`LocalProtocolError` if it cannot be sent."""
    size = len(payload)
    if not 0 < size <= max_frame:
        raise LocalProtocolError(
            ErrorCode.BAD_FRAME, f"payload of {size} bytes is outside 1..{max_frame}"
        )
    return size.to_bytes(HEADER_SIZE, "big") + payload


class FrameReader:
    """Bytes in, whole payloads out. ``receive_data(b"")`` marks the end of the stream."""

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        self.max_frame = max_frame
        self._partial = bytearray()
        self._body_size: int | None = None  # set while reading a body
        self._ready: deque[bytes | RemoteProtocolError] = deque()
        self._failed = False
        self._ended = False

    @property
    def buffered(self) -> int:
        """Bytes held for the frame still arriving (never more than ``max_frame + 4``)."""
        return len(self._partial)

    @property
    def mid_frame(self) -> bool:
        """Whether a frame has begun and is not complete (its length bytes count)."""
        return bool(self._partial) or self._body_size is not None

    def receive_data(self, data: bytes) -> None:
        if self._ended:
            if data:
                raise LocalProtocolError(ErrorCode.BAD_FRAME, "data received after end of stream")
            return
        if self._failed:
            return  # the stream is already broken; its error is queued
        if not data:
            self._ended = True
            if self._partial or self._body_size is not None:
                self._fail(self._truncation())
            return
        if not self._partial and self._body_size is None:
            size = int.from_bytes(data[:HEADER_SIZE], "big")
            if len(data) == HEADER_SIZE + size and 0 < size <= self.max_frame:
                self._ready.append(bytes(data[HEADER_SIZE:]))  # one whole frame, as most come
                return
        self._split(memoryview(data))

    def next_frame(self) -> bytes | EndOfStream | None:
        """The next payload, :data:`END_OF_STREAM`, or ``None`` when more bytes are needed.

        Raises :class:`RemoteProtocolError` (again on every call) once the stream is broken.
        """
        if self._ready:
            item = self._ready[0]
            if isinstance(item, RemoteProtocolError):
                raise item
            return self._ready.popleft()
        if self._ended:
            return END_OF_STREAM
        return None

    def _split(self, data: memoryview) -> None:
        pos, end = 0, len(data)
        partial = self._partial
        while pos < end:
            if self._body_size is None:
                take = min(HEADER_SIZE - len(partial), end - pos)
                partial += data[pos : pos + take]
                pos += take
                if len(partial) < HEADER_SIZE:
                    return
                size = int.from_bytes(partial, "big")
                partial.clear()
                if not 0 < size <= self.max_frame:
                    self._fail(
                        RemoteProtocolError(
                            ErrorCode.BAD_FRAME,
                            f"frame length {size} is outside 1..{self.max_frame}",
                        )
                    )
                    return
                self._body_size = size
            missing = self._body_size - len(partial)
            if not partial and end - pos >= missing:
                self._ready.append(bytes(data[pos : pos + missing]))  # whole body at once
            else:
                take = min(missing, end - pos)
                partial += data[pos : pos + take]
                if take < missing:
                    return
                self._ready.append(bytes(partial))
                partial.clear()
                missing = take
            pos += missing
            self._body_size = None

    def _truncation(self) -> RemoteProtocolError:
        if self._body_size is None:
            what = f"{len(self._partial)} of {HEADER_SIZE} length bytes"
        else:
            what = f"{len(self._partial)} of {self._body_size} bytes"
        return RemoteProtocolError(ErrorCode.BAD_FRAME, f"stream ended inside a frame ({what})")

    def _fail(self, error: RemoteProtocolError) -> None:
        self._failed = True
        self._partial.clear()
        self._body_size = None
        self._ready.append(error)
