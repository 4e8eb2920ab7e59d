"""A seat taken in a round under way, as the screens read it (over loopback TCP, real host,
real sessions, the game's controller in front of each): Ivo leaves, a computer plays his open
seat, and Dino sits down in it. The plays made there before Dino are never his, on his screen
or on Ada's, and Dino's seat taken back from disk shows only what is true now."""

from __future__ import annotations

from pathlib import Path

import trio
from hosting import create, start_host
from person_screen import Player, sit, take_back, until

from scopa_net.bots.levels import make_player
from scopa_net.rules import RuleSet
from scopa_net.server.host import Host


async def play_until_the_computer_played_for_ivo(ada: Player) -> None:
    """Ada plays her turns until the computer has played Ivo's open seat and it is her turn
    again, in a round still under way (so the seat's last play is the computer's)."""
    player = make_player("random", 7)
    with trio.fail_after(30):
        while True:
            view = ada.session.view
            if view is not None and view.my_turn and not view.round_over:
                computer_last = view.plays and view.plays[-1].seat == 1
                if computer_last and any(line.startswith("bot 1 plays") for line in ada.lines):
                    return
                await ada.session.submit(player.choose(view))
            await trio.sleep(0.01)


async def dino_takes_ivos_seat(nursery: trio.Nursery, host: Host, tmp: Path) -> tuple[Player, ...]:
    """Ada and Ivo play; Ivo leaves mid round, a computer plays his seat, and Dino sits down
    in it (it is Ada's turn then)."""
    ada = await sit(nursery, host, "Ada", tmp, create=create(RuleSet.of(2, 11)))
    ivo = await sit(nursery, host, "Ivo", tmp, table_id=ada.session.table_id)
    await until(lambda: ada.session.view is not None and ivo.session.view is not None)
    await ivo.session.leave()
    await until(lambda: "Ivo left the table; a computer player takes the seat" in ada.text)
    await play_until_the_computer_played_for_ivo(ada)
    dino = await sit(nursery, host, "Dino", tmp, table_id=ada.session.table_id)
    await until(lambda: "Dino sat down at the table" in ada.text, 10)
    return ada, dino


async def test_a_seat_taken_mid_match_and_taken_back_from_disk_shows_only_the_table_now(
    tmp_path: Path,
) -> None:
    """Dino's client dies and he runs the same command again: his screen says he is back and
    shows the board as it is, not his old sit-down lines again (before: "You took a seat in a
    match under way...", and that board, before the real state)."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01, grace=600)
        _, dino = await dino_takes_ivos_seat(nursery, host, tmp_path)
        await until(lambda: "You took a seat in a match under way" in dino.text, 10)
        dino.crash()
        back = await take_back(nursery, host, dino, tmp_path)
        said_back = next(i for i, line in enumerate(back.lines) if "Back in your seat" in line)
        before = back.lines[:said_back]
        assert not [line for line in before if "match under way" in line], back.text
        assert not [line for line in before if line.startswith(("Round ", "Last ", "Your"))], (
            back.text
        )
        nursery.cancel_scope.cancel()
