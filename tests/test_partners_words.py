"""At a table of partners the game says once, at the start of each match, who plays with
whom; ``who`` says each seat's partner."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from helpers import run_scopa_net
from hosting import MakeHost, create
from person_screen import PersonScreen

from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.rules import RuleSet


@pytest.mark.parametrize(
    "rules",
    [("--players", "4"), ("--players", "4", "--variant", "scopone")],
    ids=["four", "scopone"],
)
def test_a_table_of_partners_says_who_plays_with_whom_once(
    tmp_path: Path, rules: tuple[str, ...]
) -> None:
    """Before, the partnership was never put in words: only the score's "Ada & bot 2"."""
    done = run_scopa_net(
        "play", *rules, "--seed", "3", "--name", "Ada", home=tmp_path, input="who\nquit\ny\n"
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Partners: Ada and bot 2 against bot 1 and bot 3."
    assert sum(line.startswith("Partners:") for line in lines) == 1
    assert "Seat 0: Ada (you), with bot 2" in lines
    assert "Seat 3: bot 3, with bot 1" in lines


async def test_each_match_after_a_rematch_says_the_partners_again(
    tmp_path: Path, make_host: MakeHost
) -> None:
    """Ann and three computer players at a 4-player table over a real host play a match,
    agree to play again, and play the second: each match opens with its partners."""
    host = await make_host(bot_delay=0.0)
    choice = TableChoice(create=create(RuleSet.of(4, 1), bots=3))
    answers = iter(["y", "n"])

    async def answer(screen: PersonScreen) -> None:
        if screen.lines and screen.lines[-1].startswith("Play again"):
            await screen.type(next(answers))

    async with open_network_session(
        "127.0.0.1", host.port, choice, name="Ann", offer_rematch=True, data_dir=tmp_path
    ) as session:
        screen = PersonScreen(session)
        with trio.fail_after(60):
            await screen.play(answer)
    told = [line for line in screen.lines if line.startswith("Partners:")]
    assert told == ["Partners: Ann and bot 2 against bot 1 and bot 3."] * 2, screen.text
    said = [n for n, line in enumerate(screen.lines) if line.startswith("Partners:")]
    asked = [n for n, line in enumerate(screen.lines) if line.startswith("Play again")]
    assert said[0] < asked[0] < said[1] < asked[1], screen.text


def test_three_pairs_are_said_as_three_pairs() -> None:
    """Six players as three pairs read as a chain: "Partners: Ada and bot 3 against bot 1 and
    bot 4 against bot 2 and bot 5."."""
    import dataclasses

    from helpers import match_dealt

    from scopa_net.client.render import partners_line

    view = match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 7h 4h").view_for(0)
    names = ("Ada", "bot 1", "bot 2", "bot 3", "bot 4", "bot 5")
    pairs = dataclasses.replace(view, rules=RuleSet.of(6, 11, ["six_as_three_pairs"]))
    assert partners_line(pairs, names, 1) == (
        "Partners, three pairs: bot 1 and bot 4; Ada and bot 3; bot 2 and bot 5."
    )
    teams = dataclasses.replace(view, rules=RuleSet.of(6, 11))
    assert partners_line(teams, names, 0) == (
        "Partners: Ada, bot 2 and bot 4 against bot 1, bot 3 and bot 5."
    )
