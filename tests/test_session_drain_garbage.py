"""Closing a connection whose peer has gone leaves no cycle behind: on Python 3.13 the
``BrokenResourceError`` trio raises for ``ENOTCONN`` kept its frames, and through them the
session's, in a cycle that only the host's rare sweep would free
(``tests/test_host_garbage.py`` plays the whole host; this is the one call)."""

from __future__ import annotations

import gc
import socket
import struct
import types

import trio

from scopa_net.server.session import drain


async def reset_by_peer() -> trio.SocketStream:
    """The host's end of a TCP connection whose peer closed with a reset."""
    listener = trio.socket.socket()
    with listener:
        await listener.bind(("127.0.0.1", 0))
        listener.listen()
        peer = socket.create_connection(listener.getsockname())
        server, _ = await listener.accept()
    peer.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    peer.close()
    await trio.sleep(0.05)  # the reset arrives
    return trio.SocketStream(server)


def frames_left_in_cycles() -> list[str]:
    """The names of the functions whose frames a full collection finds unreachable."""
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        return [o.f_code.co_name for o in gc.garbage if isinstance(o, types.FrameType)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


async def test_draining_a_connection_reset_by_its_peer_leaves_no_frames_in_a_cycle() -> None:
    gc.collect()
    gc.disable()  # as on the host
    try:
        stream = await reset_by_peer()
        await drain(stream, 1)
        await stream.aclose()
        assert frames_left_in_cycles() == []
    finally:
        gc.enable()
