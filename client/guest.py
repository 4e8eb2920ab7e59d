"""Trio as a guest on asyncio, beside a prompt-toolkit prompt: the start and the orderly stop
that every terminal screen of the client shares (the game, pass-and-play).

Trio runs the network and the game (:func:`trio.lowlevel.start_guest_run`); asyncio runs the
prompt. Whichever ends first, trio is stopped first and waited for (its done callback), then the
prompt is taken down: never asyncio before trio.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from contextlib import suppress
from typing import Any

import trio


async def run_beside_prompt(
    trio_main: Callable[[asyncio.Future[None]], Coroutine[Any, Any, object]],
    prompt_loop: Callable[[asyncio.Future[None]], Coroutine[Any, Any, None]],
    *,
    cancel_trio: Callable[[], None],
    stop_prompt: Callable[[asyncio.Task[None]], None],
) -> tuple[asyncio.Future[Any], asyncio.Task[None]]:
    """Run ``trio_main(ready)`` as trio's guest and ``prompt_loop(ready)`` as an asyncio task
    until either ends; then stop the other, trio first. ``ready`` is set by the trio side when
    the prompt may start. Returns trio's outcome (a future holding it) and the prompt's task."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[Any] = loop.create_future()  # trio's Outcome
    ready: asyncio.Future[None] = loop.create_future()
    trio.lowlevel.start_guest_run(
        trio_main,
        ready,
        run_sync_soon_threadsafe=loop.call_soon_threadsafe,
        done_callback=done.set_result,
        host_uses_signal_set_wakeup_fd=True,
    )
    prompt = loop.create_task(prompt_loop(ready))
    cancelled = False
    try:
        await asyncio.wait({prompt, done}, return_when=asyncio.FIRST_COMPLETED)
    except asyncio.CancelledError:
        cancelled = True
    # Trio first: ask it to stop and wait for its done callback, whatever happened. A cancel
    # that comes meanwhile (SIGHUP, just after the closed terminal failed the prompt) is
    # raised once trio is done: before, it cut the wait short, and trio's side (a play --lan
    # host saying goodbye to its friends) was dropped with the loop.
    if not done.done():
        cancel_trio()
        while not done.done():
            try:
                await asyncio.shield(done)
            except asyncio.CancelledError:
                cancelled = True
    if not prompt.done():
        stop_prompt(prompt)
        with suppress(asyncio.CancelledError):
            await prompt
    if cancelled:
        if not prompt.cancelled():
            prompt.exception()  # taken: the cancel is this run's end, not the prompt's error
        raise asyncio.CancelledError
    return done, prompt
