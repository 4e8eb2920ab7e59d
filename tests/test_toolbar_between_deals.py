"""The toolbar between two deals of one round, over loopback TCP against a real host: every
hand played out, cards left in the stock, the next deal on its way (at a blind table after a
round trip for the shares, long enough to read). The round is not over there."""

from __future__ import annotations

import trio
from hosting import create, start_host

from scopa_net.client import render
from scopa_net.client.client_state import ClientState
from scopa_net.client.moves import legal_plays
from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.client.session import RoundOver, RoundStarted, ViewChanged
from scopa_net.client.style import Display
from scopa_net.client.toolbar import toolbar_text
from scopa_net.rules import RuleSet


async def test_between_two_deals_the_toolbar_says_dealing_not_round_over() -> None:
    """After the last card of each deal the bar said "round over" until the next deal came.
    It says "dealing" then, and "round over" once the round is scored."""
    bars: list[tuple[int, int, str]] = []  # (stock, cards in hands, the bar's turn part)
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0)
            choice = TableChoice(create=create(RuleSet.of(2, 11), bots=1))
            async with open_network_session("127.0.0.1", host.port, choice, name="Ada") as ada:
                state = ClientState(seat=ada.seat, names=tuple(ada.names), display=Display())
                async for event in ada.events:
                    if not isinstance(event, RoundStarted | ViewChanged | RoundOver):
                        continue
                    view = event.view
                    state.view = view
                    bar = render.plain([toolbar_text(state)])
                    bars.append((view.stock_count, sum(view.hand_counts), bar))
                    if isinstance(event, RoundOver):
                        break
                    if view.my_turn:  # (Ada may lead: her first turn comes with the deal)
                        await ada.submit(legal_plays(view)[0])
            nursery.cancel_scope.cancel()
    between = [bar for stock, held, bar in bars if stock and not held]
    assert between, bars  # 2 players: 30, 24, ... cards in the stock after each deal
    assert all("dealing" in bar and "round over" not in bar for bar in between), between
    assert "round over" in bars[-1][2], bars[-1]
