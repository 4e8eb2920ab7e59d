"""A seat that changes hands in a match, as `history` and `verify` name it afterwards.

A real host on loopback, real client sessions. Bruno and Dino sit at a two-player table; Dino
plays round 1, and leaves for good in round 2 (a computer finishes it for him); Ivo takes the
seat once round 3 is dealt and plays to the end. Before, `verify` of Bruno's transcript named
every round's seat 1 "Ivo" (the client saved the last names only), and `history` said
"Bruno 8 - Ivo 11": Dino was not mentioned.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import trio
from hosting import create, start_host

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.files import names_beside
from scopa_net.client.network_session import NetworkSession, TableChoice, open_network_session
from scopa_net.commands.main import main
from scopa_net.rules import RuleSet


async def _dino_plays_round_1_and_leaves_in_round_2(
    session: NetworkSession, left: trio.Event
) -> None:
    player = make_player("random", 3)
    while True:
        view = session.view
        if view is not None and view.round_number >= 2 and view.plays and not view.round_over:
            await session.leave()
            left.set()
            return
        if view is not None and view.my_turn and not view.round_over:
            await session.submit(player.choose(view))
        with trio.move_on_after(0.5):
            await session.events.receive()


async def _play_a_match_whose_seat_1_changes_hands(db: Path, data: Path) -> int:
    """Bruno (seat 0) plays the whole match; Dino (seat 1) round 1 and part of round 2; Ivo
    the rest from round 3. The table's number."""
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, db=str(db), bot_delay=0.0)
            rules = RuleSet.of(2, 16)  # several rounds: Ivo plays some
            port = host.port
            choice = TableChoice(create=create(rules))
            async with open_network_session(
                "127.0.0.1", port, choice, name="Bruno", data_dir=data
            ) as bruno:
                table = TableChoice(table_id=bruno.table_id, seat=1)
                async with open_network_session("127.0.0.1", port, table, name="Dino") as dino:
                    left = trio.Event()
                    nursery.start_soon(_dino_plays_round_1_and_leaves_in_round_2, dino, left)
                    async with trio.open_nursery() as players:
                        players.start_soon(play_as_bot, bruno, make_player("random", 1))
                        await left.wait()
                        while (view := bruno.view) is None or view.round_number < 3:
                            await trio.sleep(0.01)
                        async with open_network_session(
                            "127.0.0.1", port, table, name="Ivo"
                        ) as ivo:
                            await play_as_bot(ivo, make_player("random", 2))
            table_id = bruno.table_id
            await host.shutdown()
            nursery.cancel_scope.cancel()
    host.journal.close()
    return table_id


def test_history_and_verify_name_each_round_by_who_held_the_seat_then(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "nobody"))  # pins come from --pin
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("SCOPA_NET_NAME", "Bruno")
    db, data = tmp_path / "host.db", tmp_path / "bruno"
    table_id = trio.run(_play_a_match_whose_seat_1_changes_hands, db, data)

    assert main(["history", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert re.search(r": Bruno \d+ - Dino, then Ivo \d+; .* won", out), out

    (saved,) = (data / "transcripts").glob("*.scopa")
    names = names_beside(saved).read_text(encoding="utf-8").splitlines()
    assert names[:3] == ["Bruno", "Ivo", "match\tBruno\tDino, then Ivo"], names
    assert "round 1\tBruno\tDino" in names, names
    assert "round 2\tBruno\tDino" in names, names
    assert main(["verify", str(saved)]) == 0
    words = capsys.readouterr().out
    assert words.startswith("seat 0 (Bruno, you), 2 players"), words
    said = re.findall(r"^round (\d+): .*\bseat 1 \(([^)]*)\)", words, re.MULTILINE)
    assert said, words  # seat 1 deals every other round
    for round_no, who in said:
        assert who == ("Dino" if int(round_no) <= 2 else "Ivo"), words
    (result,) = [line for line in words.splitlines() if line.startswith("match result")]
    assert "seat 1 (Dino, then Ivo)" in result, words

    # The host's export carries the names it knows beside the transcript, round by round.
    out_file = tmp_path / "t.scopa"
    export = ["history", "--db", str(db), "--export", str(table_id), "--out", str(out_file)]
    assert main(export) == 0
    assert f"the seats' names in {tmp_path / 't.names'}" in capsys.readouterr().out
    assert main(["verify", str(out_file)]) == 0
    exported = capsys.readouterr().out
    assert exported.startswith("seat 0 (Bruno, you), 2 players"), exported
    said = re.findall(r"^round (\d+): .*\bseat 1 \(([^)]*)\)", exported, re.MULTILINE)
    assert said, exported
    for round_no, who in said:
        assert who == ("Dino" if int(round_no) <= 2 else "Ivo"), exported
    assert "seat 1 (Dino, then Ivo)" in exported, exported
