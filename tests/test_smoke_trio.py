import trio


async def test_trio_mode_runs_async_tests() -> None:
    await trio.sleep(0)
