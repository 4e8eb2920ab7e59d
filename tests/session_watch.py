"""Watching a real client session in end-to-end tests: the lines its person reads, and a
condition waited on with a deadline."""

from __future__ import annotations

from collections.abc import Callable

import trio

from scopa_net.client.network_session import NetworkSession
from scopa_net.client.session import Message


async def said_into(session: NetworkSession, said: list[str]) -> None:
    """Read the session's events as the screen would, keeping the lines its person reads."""
    async for event in session.events:
        if isinstance(event, Message):
            said.append(event.text)


async def until(condition: Callable[[], object], seconds: float = 10) -> None:
    """Wait until ``condition()`` is true, checking every 10 ms; fail after ``seconds``."""
    with trio.fail_after(seconds):
        while not condition():
            await trio.sleep(0.01)
