"""A table whose match is over for good (the vote on playing again declined, or nobody left
to ask for one) lingers a minute for late readers (protocol.md 3.11) but counts against no
limit on tables: a club that plays match after match is never told it has too many tables.
One that may still play again counts. End to end over loopback TCP."""

from __future__ import annotations

from functools import partial

import pytest
import trio
from hosting import MakeHost, create, host_in_thread

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import SessionError, TableChoice, open_network_session
from scopa_net.client.session import RematchClosed
from scopa_net.commands.main import main
from scopa_net.commands.options import EXIT_REFUSED
from scopa_net.rules import RuleSet

ONE_POINT = TableChoice(create=create(RuleSet.of(2, 1), bots=1))


async def refused_table(port: int) -> str:
    """What the host says to one more table asked for from this address."""
    with pytest.raises(SessionError) as refused:
        async with open_network_session("127.0.0.1", port, ONE_POINT, name="bea"):
            pass
    return str(refused.value)


LIMITS = [
    ({"max_tables_per_address": 1}, "at most 1 table from one address"),
    ({"max_tables": 1, "max_tables_per_address": 100}, "this host already runs 1 table"),
]


@pytest.mark.parametrize(("limit", "words"), LIMITS)
@pytest.mark.parametrize("ending", ["says no", "leaves"])
async def test_a_table_over_for_good_frees_its_place(
    make_host: MakeHost, limit: dict[str, int], words: str, ending: str
) -> None:
    host = await make_host(**limit)
    with trio.fail_after(60):
        async with open_network_session(
            "127.0.0.1", host.port, ONE_POINT, name="ann", offer_rematch=True
        ) as ann:
            assert await play_as_bot(ann, make_player("random", 2)) is not None
            # Ann may still ask to play again: her table keeps its place.
            said = await refused_table(host.port)
            assert said.startswith("too_many_tables: ")
            assert words in said
            if ending == "leaves":
                await ann.leave()
            else:
                await ann.rematch(False)
                while not isinstance(await ann.events.receive(), RematchClosed):
                    pass
        # The table lingers for the rest of its minute, but no match follows.
        assert len(host.tables) == 1
        async with open_network_session("127.0.0.1", host.port, ONE_POINT, name="bea") as bea:
            assert bea.table_id != ann.table_id


@pytest.mark.parametrize(
    ("limit", "owner", "line"),
    [
        (
            {"max_tables_per_address": 1},
            "127.0.0.1",
            "scopa-net: the host will open no more tables: at most 1 table from one address; "
            "finish or leave one first",
        ),
        (
            {"max_tables": 1},
            None,
            "scopa-net: the host will open no more tables: this host already runs 1 table, as "
            "many as it allows; join one of them, or try again once one has finished",
        ),
    ],
)
def test_bots_refused_a_table_say_which_limit(
    limit: dict[str, int], owner: str | None, line: str, capfd: pytest.CaptureFixture[str]
) -> None:
    """The host's words say which limit refused the table, not one sentence for both."""
    with host_in_thread(**limit) as running:
        held = partial(running.host.create_table, "held", RuleSet.of(2, 1), owner=owner)
        running.call(held)
        argv = ["bots", running.address, "--create", "--count", "2", "--players", "2"]
        assert main([*argv, "--target", "1", "--quiet"]) == EXIT_REFUSED
    assert capfd.readouterr().err.splitlines() == [line]


def test_bots_play_table_after_table_from_one_address(capsys: pytest.CaptureFixture[str]) -> None:
    """The tester's club night: `bots --create` again and again from one address, each run's
    tables over and lingering for their minute, never hits the quota of tables."""
    with host_in_thread(max_tables_per_address=1) as running:
        argv = ["bots", running.address, "--create", "--count", "2", "--players", "2"]
        for _ in range(3):
            assert main([*argv, "--target", "1", "--quiet"]) == 0
            assert "2 bots sent, 1 match finished" in capsys.readouterr().out
