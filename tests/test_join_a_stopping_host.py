"""A ``join`` (or ``join --create``) whose request reaches a host that is stopping: the person
reads one line saying the host is stopping and what to do, status 3 (README: no scopa-net
host there, as a moment later, once it stopped, the connection is refused).

Found in last session's note: the host answers such a request with its goodbye alone (``bye``
``shutting_down``), and the person read "the host stopped the session: the host is shutting
down", status 1 ("the work failed"), with nothing about what to do. Real host over loopback
TCP; the client's stream holds its request until the host has begun to stop, as a person's
does who types the table number a moment too late.
"""

from __future__ import annotations

import contextlib
import re
from functools import partial
from pathlib import Path

import pytest
import trio
from hosting import create, start_host

from scopa_net.client.launch import one_line_failures
from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.commands.options import EXIT_UNREACHABLE, CommandError
from scopa_net.rules import RuleSet
from scopa_net.server.host import Host


class HeldUntilTheHostStops(trio.abc.Stream):
    """A TCP stream to ``host`` whose first request after ``hello`` is held until the host
    has begun to stop (and told this connection so)."""

    def __init__(self, stream: trio.SocketStream, host: Host, nursery: trio.Nursery) -> None:
        self.stream = stream
        self.host = host
        self.nursery = nursery
        self.sends = 0

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        self.sends += 1
        if self.sends == 2:  # hello went first; this is the request
            self.nursery.start_soon(self.host.shutdown)
            while not self.host.stopping:
                await trio.sleep(0.01)
            await trio.sleep(0.2)  # its bye on the way
        await self.stream.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.stream.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        return await self.stream.receive_some(max_bytes)

    async def aclose(self) -> None:
        await self.stream.aclose()


@pytest.mark.parametrize(
    ("choice", "nothing"),
    [
        (
            TableChoice(create=create(RuleSet.of(2, 11), bots=1)),
            "as you opened your table, so no table was opened",
        ),
        (TableChoice(table_id=1), "as you joined, so nothing was joined"),
    ],
    ids=["create", "join"],
)
async def test_a_request_that_meets_a_stopping_host_says_so_in_one_line(
    tmp_path: Path, choice: TableChoice, nothing: str
) -> None:
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery)

            async def connector() -> trio.abc.Stream:
                stream = await trio.open_tcp_stream("127.0.0.1", host.port)
                return HeldUntilTheHostStops(stream, host, nursery)

            with pytest.raises(CommandError) as failed, one_line_failures():
                async with open_network_session(
                    "127.0.0.1", host.port, choice, name="Ada", connector=connector
                ):
                    raise AssertionError("seated at a host that is stopping")
    assert failed.value.status == EXIT_UNREACHABLE == 3
    assert str(failed.value) == (
        f"the host at 127.0.0.1:{host.port} is stopping: it said goodbye {nothing}. Once "
        "whoever runs it has started it again, run the same command again."
    )


async def test_join_that_asks_a_stopping_host_for_its_tables_says_so_too() -> None:
    """``scopa-net join HOST`` first asks the host for its tables; the goodbye of a host that
    stops meanwhile read "HOST is not a scopa-net host: something listens there but does not
    speak scopa-net; check the port". A proxy on loopback holds the question until the host
    has begun to stop."""
    from scopa_net.commands.join_host import ask_host

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery)

            async def relay(client: trio.SocketStream) -> None:
                to_host = await trio.open_tcp_stream("127.0.0.1", host.port)
                held = HeldUntilTheHostStops(to_host, host, nursery)
                async with client, to_host, trio.open_nursery() as both:

                    async def down() -> None:
                        while data := await to_host.receive_some():
                            await client.send_all(data)

                    both.start_soon(down)
                    with contextlib.suppress(trio.BrokenResourceError):
                        while data := await client.receive_some():
                            await held.send_all(data)
                    both.cancel_scope.cancel()

            listeners = await nursery.start(partial(trio.serve_tcp, relay, 0, host="127.0.0.1"))
            port = listeners[0].socket.getsockname()[1]
            with pytest.raises(CommandError) as failed:
                await trio.to_thread.run_sync(ask_host, "127.0.0.1", port)
            nursery.cancel_scope.cancel()
    assert failed.value.status == EXIT_UNREACHABLE
    assert str(failed.value) == (
        f"the host at 127.0.0.1:{port} is stopping: it said goodbye as you joined, so nothing "
        "was joined. Once whoever runs it has started it again, run the same command again."
    )


def test_readme_quotes_that_line_under_status_3() -> None:
    """README's exit table quotes the line (for a host at 192.168.1.20:7311) under the status
    the command ends with."""
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    (row,) = re.findall(rf"^\| {EXIT_UNREACHABLE} \| (.*) \|$", readme, re.M)
    said = (
        "the host at 192.168.1.20:7311 is stopping: it said goodbye as you joined, so nothing "
        "was joined. Once whoever runs it has started it again, run the same command again."
    )
    assert f"`{said}`" in row
