"""What a person reads who types a card while another person is to play (real host over
loopback TCP, real sessions, the game's controller in front of each)."""

from __future__ import annotations

from pathlib import Path

import trio
from hosting import create, start_host
from person_screen import in_play, sit, until

from scopa_net.rules import RuleSet


async def test_a_card_typed_out_of_turn_says_whose_turn_it_is(tmp_path: Path) -> None:
    """Carla typed 7h while Ada was to play and read "illegal play: '7h': it is not your
    turn", a rule's words, not whom the table waits for. Now she reads that it is Ada's
    turn, and nothing is sent."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01, grace=600)
        ada = await sit(nursery, host, "Ada", tmp_path, create=create(RuleSet.of(2)))
        carla = await sit(nursery, host, "Carla", tmp_path, table_id=ada.session.table_id)
        # The deal on the screen, not only in the session; a round with plays (a random deal
        # is void about once in 600: the card typed then is told the round is over).
        for screen in (ada, carla):
            await until(lambda s=screen: in_play(s), 10)
        waiting, moving = (carla, ada) if ada.controller.state.view.my_turn else (ada, carla)
        card = waiting.controller.state.view.hand[0]
        said = await waiting.type(str(card))
        mover = moving.session.name
        assert said == [f"illegal play: '{card}': it is {mover}'s turn, not yours"], said
        assert waiting.controller.state.view.hand[0] == card
        nursery.cancel_scope.cancel()
