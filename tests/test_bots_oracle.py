"""The oracle sees every hidden card: it exists to measure the ceiling in the arena, and
nothing that seats a player at a table (the network, play, host, join, bots) can reach it."""

from __future__ import annotations

import ast
import time
from pathlib import Path

import pytest

from scopa_net.bots.arena import ArenaConfig, play_pair
from scopa_net.bots.levels import LEVELS, make_player
from scopa_net.bots.oracle import ORACLE, Oracle
from scopa_net.commands.main import main
from scopa_net.rules import RuleSet
from scopa_net.wire import messages

ROOT = Path(__file__).resolve().parent.parent  # the repository: its source, not an install


def test_no_level_name_builds_the_oracle() -> None:
    assert ORACLE not in LEVELS
    with pytest.raises(ValueError, match="unknown level 'oracle'"):
        make_player(ORACLE, 1)
    # It is not a Player either: nothing that hands it a seat's view can use it.
    assert not hasattr(Oracle(1), "choose")


def test_every_wire_bot_level_is_a_fair_player() -> None:
    """A host builds its computer players from the wire's bot_level (1-5): none is the oracle."""
    from scopa_net.server.table_task import BOT_LEVELS as HOST_LEVELS

    lo, hi = 1, 5
    assert "Int(1, 5)" in Path(messages.__file__).read_text()
    for number in range(lo, hi + 1):
        name = HOST_LEVELS.get(number, "random")
        assert name != ORACLE
        assert hasattr(make_player(name, 0), "choose")


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--bot-level", "oracle"],
        ["host", "--bot-level", "oracle"],
        ["join", "127.0.0.1:1", "--bot-level", "oracle"],
        ["bots", "127.0.0.1:1", "--bot-level", "oracle"],
        ["bots", "127.0.0.1:1", "--level", "oracle"],
    ],
)
def test_table_commands_refuse_the_oracle(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "'oracle' is not a level" in err
    assert "Traceback" not in err


def test_only_the_arena_imports_the_oracle() -> None:
    """Source check: the oracle module is imported by the arena (core and command) alone."""
    importers = []
    for folder in ("scopa_net", "server", "client", "commands"):
        for path in (ROOT / folder).rglob("*.py"):
            tree = ast.parse(path.read_text())
            for node in ast.walk(tree):
                names = []
                if isinstance(node, ast.ImportFrom) and node.module:
                    names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
                elif isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                if any(n.endswith("bots.oracle") for n in names):
                    importers.append(path.relative_to(ROOT).as_posix())
    assert sorted(importers) == ["scopa_net/bots/arena.py"]


@pytest.mark.parametrize("players", [2, 4])
def test_the_oracle_plays_legal_matches_in_the_arena(players: int) -> None:
    config = ArenaConfig(ORACLE, "greedy", 1, RuleSet.of(players, 2), seed=3)
    for game in play_pair(config, 0, time.perf_counter):
        assert max(game.points) >= 2
        assert game.rounds >= 1


def test_the_oracle_captures_what_it_knows_is_coming() -> None:
    """Seeing the hidden cards pays: over a few duplicate pairs it outscores greedy."""
    config = ArenaConfig(ORACLE, "greedy", 3, RuleSet.of(2, 4), seed=11)
    margin = 0
    for pair in range(config.pairs):
        for game in play_pair(config, pair, time.perf_counter):
            margin += game.a_points - game.b_points
    assert margin > 0
