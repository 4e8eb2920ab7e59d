"""A machine that poses as a host (tests of what our client sends to a host it cannot be sure
of, protocol.md 3.2, 5.3): a raw TCP server on 127.0.0.1 that welcomes with the real host's key,
which it cannot sign with, and keeps every byte a client sent it."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from scopa_net.version_words import hello_refusal
from scopa_net.wire import messages as m
from scopa_net.wire.codec import decode, encode
from scopa_net.wire.errors import ErrorCode
from scopa_net.wire.framing import END_OF_STREAM, FrameReader


class Poser:
    """A raw TCP server on 127.0.0.1 that answers ``hello`` with a ``welcome`` carrying the
    real host's key, which it cannot sign with: in version 5 with ``proof`` (None: none), or,
    speaking only ``version`` 4, refusing a ``hello`` in 5 as an older host does: with
    ``bye bad_version`` naming 4, or (``refusal`` "bad_field") refusing its ``challenge`` as
    a released host of 4 does. It keeps every message each connection sent it."""

    def __init__(
        self,
        key: bytes,
        port: int = 0,
        version: int = 5,
        proof: bytes | None = None,
        refusal: str = ErrorCode.BAD_VERSION.value,
    ):
        self.key, self.version, self.proof, self.refusal = key, version, proof, refusal
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", port))
        self.listener.listen()
        self.listener.settimeout(0.1)
        self.port: int = self.listener.getsockname()[1]
        self.received: list[m.Message] = []
        self.raw = bytearray()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="poser", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.listener.accept()
            except TimeoutError:
                continue
            with conn:
                conn.settimeout(0.1)
                self._talk(conn)
        self.listener.close()

    def _talk(self, conn: socket.socket) -> None:
        reader = FrameReader()
        while not self._stop.is_set():
            try:
                data = conn.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                return
            self.raw += data
            reader.receive_data(data)
            while (payload := reader.next_frame()) is not None:
                if payload is END_OF_STREAM:
                    return
                assert isinstance(payload, bytes)
                msg = decode(payload)
                self.received.append(msg)
                if isinstance(msg, m.Hello):
                    conn.sendall(self._answer(msg))
            if not data:
                return

    def _answer(self, hello: m.Hello) -> bytes:
        if hello.version > self.version and self.refusal == ErrorCode.BAD_FIELD.value:
            words = "hello: hello: unknown 'challenge'"
            return encode(m.Bye(reason=ErrorCode.BAD_FIELD.value, message=words))
        if hello.version > self.version:
            refusal = hello_refusal(hello.version, self.version)
            return encode(m.Bye(reason=ErrorCode.BAD_VERSION.value, message=refusal))
        proof = self.proof if hello.version >= m.KEY_PROOF_SINCE else None
        return encode(
            m.Welcome(version=hello.version, host_name="club", host_key=self.key, key_proof=proof)
        )

    def close(self) -> None:
        self._stop.set()
        self._thread.join(10)

    def got_nothing_secret(self, token: bytes) -> None:
        """Only ``hello`` came: no ``resume``, no ``join``, and the token in no byte."""
        assert self.received, "the client never came"
        assert {msg.TYPE for msg in self.received} <= {"hello", "bye"}, self.received
        assert token not in self.raw


@contextmanager
def posing(
    key: bytes,
    port: int = 0,
    version: int = 5,
    proof: bytes | None = None,
    refusal: str = ErrorCode.BAD_VERSION.value,
) -> Iterator[Poser]:
    poser = Poser(key, port, version, proof, refusal)
    try:
        yield poser
    finally:
        poser.close()
