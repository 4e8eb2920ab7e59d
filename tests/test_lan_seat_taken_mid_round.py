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


def last_rows(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("Last ")]


async def test_plays_made_in_a_seat_before_its_person_sat_down_are_not_theirs(
    tmp_path: Path,
) -> None:
    """Dino's board does not credit him with the computer's play in his seat before he sat
    down (before: "Last  Dino plays 6h"); it names the computer for it as Ada's does (the
    snapshot he sat down with says who made each play; it read "seat 1 (before you)"), then
    Dino for his own play."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01, grace=600)
        ada, dino = await dino_takes_ivos_seat(nursery, host, tmp_path)
        seen = await dino.type("board")
        rows = last_rows(seen)
        assert not [row for row in rows if "Dino" in row], seen
        assert [row for row in rows if "bot 1 plays" in row], seen
        assert [row for row in last_rows(await ada.type("board")) if "bot 1 plays" in row]
        # Ada plays, then Dino: his play is his, on both screens.
        player = make_player("random", 3)
        await ada.session.submit(player.choose(ada.session.view))
        await until(lambda: dino.session.view is not None and dino.session.view.my_turn, 10)
        await dino.session.submit(player.choose(dino.session.view))
        await until(lambda: [line for line in ada.lines if line.startswith("Dino plays")], 10)
        await until(lambda: [line for line in dino.lines if line.startswith("You play")], 10)
        assert [row for row in last_rows(await dino.type("board")) if "You play" in row]
        nursery.cancel_scope.cancel()


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


async def test_a_person_sitting_down_in_a_round_under_way_sees_the_board_at_once(
    tmp_path: Path,
) -> None:
    """Dino sits down while it is Ada's turn: his screen said he took a seat and was
    connected, then nothing (no table, no hand) until he typed `board`. Now the board is drawn
    once, after the lines he reads on sitting down, without his asking."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01, grace=600)
        ada, dino = await dino_takes_ivos_seat(nursery, host, tmp_path)
        await until(lambda: any(line.startswith("Your hand ") for line in dino.lines), 10)
        table = ada.session.table_id
        said = dino.lines.index(f"You sit at table {table} 'test table', seat 1.")
        hand = next(i for i, line in enumerate(dino.lines) if line.startswith("Your hand "))
        assert said < hand, dino.text
        # Where he sits first, then what that seat is (tmux club night: the other way round).
        assert dino.lines[said + 1].startswith("You took a seat in a match under way"), dino.text
        assert "Your turn." not in dino.text, dino.text  # Ada's turn: the board all the same
        assert sum(line.startswith("Your hand ") for line in dino.lines) == 1, dino.text
        nursery.cancel_scope.cancel()


async def test_a_newcomer_at_a_table_of_partners_is_told_who_their_partner_is_at_once(
    tmp_path: Path,
) -> None:
    """Club night: Elio took Bruno's seat mid-round at a table of two pairs, and read the
    board with no word of whom he played with (the "Partners:" line waited for the next
    round's deal); everyone else had read it when the match began."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01, grace=600)
        ada = await sit(nursery, host, "Ada", tmp_path, create=create(RuleSet.of(4, 11), bots=2))
        ivo = await sit(nursery, host, "Ivo", tmp_path, table_id=ada.session.table_id)
        await until(lambda: ada.session.view is not None and ivo.session.view is not None)
        await ivo.session.leave()
        await until(lambda: "Ivo left the table; a computer player takes the seat" in ada.text)
        dino = await sit(nursery, host, "Dino", tmp_path, table_id=ada.session.table_id)
        await until(lambda: "Dino sat down at the table" in ada.text, 10)
        await until(lambda: any(line.startswith("Your hand") for line in dino.lines), 10)
        nursery.cancel_scope.cancel()
    told = [i for i, line in enumerate(dino.lines) if line.startswith("Partners: Dino and ")]
    board = next(i for i, line in enumerate(dino.lines) if line.startswith("Round 1  dealer"))
    assert told, dino.text
    assert told[0] < board, dino.text
    assert " against Ada and " in dino.lines[told[0]], dino.text
