"""What a person reads while "play again?" is open (protocol.md 3.11), over loopback TCP on a
slow network: a status the host sent before this person's answer reached it does not say the
vote waits for them, and the countdown never goes up."""

from __future__ import annotations

import trio
from hosting import Holding, create

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import NetworkSession, TableChoice, open_network_session
from scopa_net.client.session import Message
from scopa_net.rules import RuleSet
from scopa_net.server.host import Host
from scopa_net.wire import messages as m

SHORT = RuleSet.of(2, 1)


async def lines_until(session: NetworkSession, text: str) -> list[str]:
    """The lines the session's person reads, up to the first with ``text`` in it."""
    read = []
    with trio.fail_after(20):
        async for event in session.events:
            if isinstance(event, Message):
                read.append(event.text)
                if text in event.text:
                    return read
    raise AssertionError(f"the session ended before {text!r}: {read}")


async def test_after_answering_a_late_status_does_not_say_the_vote_waits_for_you(
    host: Host,
) -> None:
    """Bea answered y; then read "rematch: waiting for you, Carlo, Dino (59 s left to
    answer)", a status sent before her answer arrived; and the countdown went from 58 s back
    to 59 s."""
    held: list[Holding] = []

    async def slow() -> trio.abc.Stream:
        held.append(Holding(await trio.open_tcp_stream("127.0.0.1", host.port)))
        return held[-1]

    choice = TableChoice(create=create(SHORT))
    async with (
        open_network_session(
            "127.0.0.1", host.port, choice, name="bea", offer_rematch=True, connector=slow
        ) as bea,
        open_network_session(
            "127.0.0.1",
            host.port,
            TableChoice(table_id=bea.table_id),
            name="carlo",
            offer_rematch=True,
        ) as carlo,
    ):
        async with trio.open_nursery() as both:
            for n, session in enumerate((bea, carlo)):
                both.start_soon(play_as_bot, session, make_player("random", n))
        async with trio.open_nursery() as slow_network:
            slow_network.start_soon(held[-1].hold_for, 1.0)  # what the host sends Bea waits
            await carlo.rematch(True)
            await lines_until(carlo, "rematch: waiting for bea (")  # the host sent it to both
            await bea.rematch(True)  # her answer is on its way; Carlo's status is not read yet
        read = await lines_until(bea, "a new match begins")
        assert not [line for line in read if "waiting for you" in line], read
        # A status that says more seconds than one shown before (sent earlier, or by a host
        # restarted in the vote) shows no more than that one.
        votes = ("waiting", "yes")
        for seconds in (58, 59):
            status = m.RematchStatus(seq=1, match_no=2, state="open", votes=votes, seconds=seconds)
            bea._rematch_status(status)
        read = await lines_until(bea, "(58 s left to answer)")
        read += await lines_until(bea, "s left to answer)")
        assert read[-1] == "rematch: waiting for you (58 s left to answer)", read
