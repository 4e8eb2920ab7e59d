"""``history`` of a match still in play says where a computer played for someone, as it does
for a match over ("a computer played for Dino in round 1"), over a real host's journal.

Before, the line read "Bruno 0 - Dino 0 after 0 rounds" while a computer had been playing
Dino's seat, and once Eve took it "Bruno ... - Dino, then Eve ...": nothing said a computer
had played for Dino.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import rawseat
import trio
from helpers import SeededSecrets, kings_on_the_table, plan_first_round
from hosting import create, start_host
from person_screen import in_play, sit, until
from rawseat import RawSeat

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.commands.main import main
from scopa_net.rules import RuleSet
from scopa_net.wire import messages as m


def so_far(round_no: int) -> str:
    """How far the match is, round ``round_no`` in play or over: never "after 0 rounds",
    which read as no score (the void deals counted, as the rounds are numbered)."""
    return rf"( after [1-9]\d* rounds?( \(\d+ of them void\))?|, round {round_no} in play)"


def in_play_line(db: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["history", "--db", db]) == 0
    (line,) = [line for line in capsys.readouterr().out.splitlines() if "in play" in line]
    return line


async def in_play_line_once(db: str, capsys: pytest.CaptureFixture[str], pattern: str) -> str:
    """History's line for the match once it matches ``pattern``: the host's memory is a
    moment ahead of its journal (a seat's change is on disk once its commit is done, which
    on a busy machine takes a while), and history reads the journal."""
    with trio.fail_after(10):
        while not re.search(pattern, line := in_play_line(db, capsys)):
            await trio.sleep(0.05)
    return line


async def test_history_of_a_match_in_play_says_a_computer_played_for_dino(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Dino's connection drops in round 1 and a computer plays for him; later Eve takes his
    seat. Both times, history's line for the match says a computer played for Dino."""
    db = str(tmp_path / "host.db")
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, db=db, grace=0.2, away_limit=1.0, bot_delay=0.05)
        choice = TableChoice(create=create(RuleSet.of(2, 16)))

        async def bruno(task_status=trio.TASK_STATUS_IGNORED) -> None:
            async with open_network_session("127.0.0.1", host.port, choice, name="Bruno") as s:
                task_status.started(s.table_id)
                await play_as_bot(s, make_player("random", 2))

        table_id = await nursery.start(bruno)
        dino = await RawSeat.connect(host.port)
        await dino.join(table_id, 1, "Dino")
        await dino.until(lambda msg: isinstance(msg, m.RoundCommit))
        await dino.aclose()
        holders = host.tables[table_id].table.holders
        with trio.fail_after(10):
            while not holders.computer_rounds()[1]:
                await trio.sleep(0.02)
        # Round 1, or the next after a deal void for its kings (about 1 in 600).
        first = holders.computer_rounds()[1][0]
        in_round = f"; a computer played for Dino in round {first}"
        line = await in_play_line_once(db, capsys, re.escape(in_round) + "$")
        assert re.search(rf": Bruno \d+ - Dino \d+{so_far(first)}", line), line

        with trio.fail_after(10):
            while host.open_seats == 0:
                await trio.sleep(0.05)
        eve = await RawSeat.connect(host.port)
        await eve.join(table_id, None, "Eve")
        line = await in_play_line_once(db, capsys, "Dino, then Eve")
        assert re.search(rf": Bruno \d+ - Dino, then Eve \d+{so_far(first)}", line), line
        assert re.search(rf"; a computer played for Dino in rounds? {first}\b", line), line
        await eve.aclose()
        await host.shutdown()
        nursery.cancel_scope.cancel()
    host.journal.close()


async def test_history_of_a_first_round_in_play_says_so_not_after_0_rounds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A match in its first round read "Ada: 0 - bot 1: 0 after 0 rounds", as if it had no
    score to show; it says the first round is in play."""
    db = str(tmp_path / "host.db")
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, db=db, bot_delay=30.0)
        ada = await RawSeat.connect(host.port)
        table_id = await ada.create(create(RuleSet.of(2, 11), bots=1))
        await ada.join(table_id, 0, "Ada")
        await ada.dealt()
        line = await in_play_line_once(db, capsys, "Ada")
        # Round 1, or 2 after a deal void for its kings (about 1 in 600): as the table says.
        in_play = f", in play: Ada: 0 - bot 1: 0, round {ada.view.round_number} in play"
        assert line.endswith(in_play), line
        await ada.aclose()
        await host.shutdown()
        nursery.cancel_scope.cancel()
    host.journal.close()


async def test_history_of_a_redeal_in_play_numbers_it_as_the_table_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 1 was void (three kings on the table) and round 2, the redeal, was in play:
    history read "round 1 in play", where every screen, verify and history's own "a computer
    played for ... in round 2" number it round 2; once it was scored, "after 1 round", where
    the table says "after 2 rounds (1 of them void)". It counts the void deal now."""
    round_id, host_seed, seed = kings_on_the_table(2, people=1)  # Ada's seed; the bot sends none
    plan_first_round(monkeypatch, round_id, host_seed)
    monkeypatch.setattr(rawseat, "secrets", SeededSecrets(seed))
    db = str(tmp_path / "host.db")
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, db=db, bot_delay=0.0)
        ada = await RawSeat.connect(host.port)
        table_id = await ada.create(create(RuleSet.of(2, 21), bots=1))  # no one round wins
        await ada.join(table_id, 0, "Ada")
        await ada.dealt()
        assert any(isinstance(e, m.RoundVoid) for e in ada.received), ada.received
        redeal = ada.view.round_number  # 2 (3 if the redeal was void too, as a deal can be)
        assert redeal >= 2
        line = await in_play_line_once(db, capsys, "Ada")
        assert line.endswith(f", in play: Ada: 0 - bot 1: 0, round {redeal} in play"), line

        move = 0
        with trio.fail_after(30):  # Ada plays round 2 out (the computer plays at once)
            while not any(isinstance(e, m.RoundEnd) for e in ada.received):
                if ada.view.my_turn and not ada.view.round_over:
                    move += 1
                    await ada.play(move, ada.my_plays()[0])
                else:
                    await ada.receive()
        line = await in_play_line_once(db, capsys, "after")
        found = re.search(
            r": Ada: \d+ - bot 1: \d+ after (\d+) rounds \((\d+) of them void\)$", line
        )
        assert found, line
        # One round played out, the voids before it counted (and the next deal's, should it
        # be void and dealt already).
        dealt, voids = int(found[1]), int(found[2])
        assert dealt - voids == 1, line
        assert voids >= redeal - 1, line
        await ada.aclose()
        await host.shutdown()
        nursery.cancel_scope.cancel()
    host.journal.close()


async def test_history_of_a_blind_round_called_off_numbers_the_next_as_the_table_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bruno stepped away in round 1 of a blind table, which called it off (protocol.md 9.7):
    every screen showed "Round 2 (round 1 dealt again)", and history read "round 1 in play;
    a computer played for Bruno in round 2", two numbers for one round. It counts every round
    called off now, as it counts a deal void for its kings."""
    db = str(tmp_path / "host.db")
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, db=db, bot_delay=30.0, grace=60.0)
        ada = await sit(
            nursery, host, "Ada", tmp_path, create=create(RuleSet.of(2, 11), blind=True)
        )
        bruno = await sit(nursery, host, "Bruno", tmp_path, table_id=ada.session.table_id)
        await until(lambda: in_play(ada) and in_play(bruno))
        await bruno.type("quit")
        await bruno.type("away")
        await until(lambda: "dealt again" in ada.text and in_play(ada))
        shown = ada.controller.state.view
        assert shown is not None
        assert shown.round_number >= 2, ada.text
        line = await in_play_line_once(db, capsys, "round [0-9]+ in play")
        assert line.endswith(f": Ada 0 - Bruno 0, round {shown.round_number} in play"), line
        await host.shutdown()
        nursery.cancel_scope.cancel()
    host.journal.close()
