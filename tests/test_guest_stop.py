"""The game's two sides stop in order, trio's first: its side is asked to stop and waited for
(its connections closed, a ``play --lan`` host's goodbye said) before the prompt's side ends,
whatever ends the run, a cancel that comes meanwhile too."""

from __future__ import annotations

import asyncio

import pytest
import trio

from scopa_net.client.guest import run_beside_prompt

HANG_GUARD = 30


async def _stopped_while_trio_says_goodbye() -> list[str]:
    """The prompt fails at once (its terminal gone); trio's side, asked to stop, takes 0.3 s
    to say goodbye (as a ``play --lan`` host does to its friends); the run is cancelled
    meanwhile (the SIGHUP that came with the closed terminal). What trio's side did."""
    did: list[str] = []
    scope = trio.CancelScope()
    token: list[trio.lowlevel.TrioToken] = []

    async def trio_main(ready: asyncio.Future[None]) -> None:
        token.append(trio.lowlevel.current_trio_token())
        with scope:
            ready.get_loop().call_soon_threadsafe(ready.set_result, None)
            await trio.sleep_forever()
        with trio.CancelScope(shield=True):
            await trio.sleep(0.3)
            did.append("goodbye said")

    async def prompt_loop(ready: asyncio.Future[None]) -> None:
        await ready
        raise OSError(5, "Input/output error")

    run = asyncio.create_task(
        run_beside_prompt(
            trio_main,
            prompt_loop,
            cancel_trio=lambda: token[0].run_sync_soon(scope.cancel),
            stop_prompt=lambda task: task.cancel(),
        )
    )
    await asyncio.sleep(0.1)  # the prompt failed; trio is saying goodbye
    run.cancel()
    with pytest.raises(asyncio.CancelledError):
        await run
    return did


def test_a_cancel_while_trio_says_goodbye_waits_for_it() -> None:
    """Trio is always stopped and waited for before the prompt's side ends: a cancel that
    came while it stopped (the terminal's SIGHUP, just after the closed terminal failed the
    prompt) cut that wait short, and the goodbye was dropped with the loop."""
    did = asyncio.run(asyncio.wait_for(_stopped_while_trio_says_goodbye(), HANG_GUARD))
    assert did == ["goodbye said"]
