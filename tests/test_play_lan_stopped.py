"""``play --lan`` stopped by SIGTERM (or closed by any cancel of its game's screen): the
friends at its table read that the host stopped and that their seats are kept, as when
``scopa-net host`` is stopped, not that the connection to the host was lost.

Found by hand (tmux): ``kill`` at Ada's ``play --lan --humans 2`` left Bruno's ``join``
reading "Connection: reconnecting (the connection to the host was lost; trying to get back.
...)". The game's screen closes by cancelling its trio side, and that cancel reached the
embedded host too: it was gone before it could say goodbye. Her ``away`` ended the same way.

These tests run the embedded host bound to loopback (nothing is announced on the LAN)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import trio
from person_screen import PersonScreen, sit, until

from scopa_net.client.embedded import kept_lan_seats, lan_table_lock, open_embedded_game
from scopa_net.client.seat_store import SeatStore
from scopa_net.rules import RuleSet

HOST_STOPPED = (
    "Connection: reconnecting (the host was stopped; waiting for it to start again. Your seat "
    "is kept: type quit to stop trying)."
)


async def friend_reads_when_the_game_closes(
    tmp_path: Path, ada_types: tuple[str, ...]
) -> list[str]:
    """Ada opens ``play --lan`` with a seat for Dino, who joins; once both are dealt, Ada
    types ``ada_types`` and her game's screen closes by a cancel (as SIGTERM closes it, and
    as the app closes it after her ``away``). What Dino's screen printed after the deal."""
    with lan_table_lock(tmp_path):
        async with trio.open_nursery() as nursery:
            with trio.CancelScope() as screen:
                async with open_embedded_game(
                    RuleSet.of(2, 11),
                    name="Ada",
                    level="random",
                    delay=0,
                    lan=True,
                    bind="127.0.0.1",
                    port=0,
                    humans=2,
                    data_dir=tmp_path,
                ) as ada:
                    here = SimpleNamespace(port=ada.embedded_port)  # type: ignore[attr-defined]
                    dino = await sit(nursery, here, "Dino", tmp_path, table_id=ada.table_id)  # type: ignore[arg-type]
                    await PersonScreen(ada).until_dealt()
                    await until(lambda: dino.controller.state.in_match, 10)
                    dealt = len(dino.lines)
                    ada_screen = PersonScreen(ada)
                    for line in ada_types:
                        await ada_screen.type(line)
                    screen.cancel()  # the game's screen closes
                    await trio.sleep_forever()
            await until(lambda: "Connection: reconnecting" in dino.text, 10)
            await trio.sleep(0.3)  # anything said after it would be read too
            nursery.cancel_scope.cancel()
    assert SeatStore(tmp_path / "Dino").records()  # his seat is kept for the host's return
    return dino.lines[dealt:]


async def test_friends_read_that_the_host_stopped_when_play_lan_is_terminated(
    tmp_path: Path,
) -> None:
    said = await friend_reads_when_the_game_closes(tmp_path, ())
    assert said == [HOST_STOPPED], said
    (kept,) = kept_lan_seats(tmp_path)  # Ada's seat too: `scopa-net play --lan` takes it back
    assert kept.name == "Ada"


async def test_friends_read_that_the_host_stopped_when_its_player_steps_away(
    tmp_path: Path,
) -> None:
    said = await friend_reads_when_the_game_closes(tmp_path, ("quit", "away"))
    assert said[-1] == HOST_STOPPED, said
    assert not [line for line in said if "connection to the host was lost" in line], said
