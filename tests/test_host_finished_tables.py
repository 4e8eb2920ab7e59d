"""A table whose match is over for good (the vote on playing again declined, or nobody left
to ask for one) lingers a minute for late readers (protocol.md 3.11) but counts against no
limit on tables: a club that plays match after match is never told it has too many tables.
One that may still play again counts. End to end over loopback TCP."""

from __future__ import annotations

import pytest
import trio
from hosting import MakeHost, create

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import SessionError, TableChoice, open_network_session
from scopa_net.client.session import RematchClosed
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
