"""The suite's own guards work: a stalled async test fails instead of hanging."""

from __future__ import annotations

import pytest
import trio
from conftest import ASYNC_TEST_LIMIT, guarded


async def test_the_hang_guard_fails_a_stalled_test(autojump_clock: trio.abc.Clock) -> None:
    async def stalled() -> None:
        await trio.sleep_forever()

    start = trio.current_time()
    with pytest.raises(trio.TooSlowError):
        await guarded(stalled)()
    assert trio.current_time() - start == pytest.approx(ASYNC_TEST_LIMIT)


async def test_the_hang_guard_passes_results_through(autojump_clock: trio.abc.Clock) -> None:
    async def answer(value: int) -> int:
        await trio.sleep(1)
        return value

    assert await guarded(answer)(value=7) == 7
