"""How a match of three players ends on each person's screen. It read "Dora wins the match 12
to 10 (you) to 10 (Elio)", which nobody says; it reads as a sentence: the winner's points,
then each other player by name with theirs. Real host over loopback TCP, three real sessions
with the game's controller in front of each, to the end of a short match."""

from __future__ import annotations

import re

import trio
from hosting import create, start_host
from person_screen import PersonScreen

from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.rules import RuleSet

NAMES = ("Dora", "Elio", "Ada")
ENDING = re.compile(
    r"^(?P<who>You win|\w+ wins) the match with (?P<points>\d+) points? "
    r"\((?P<others>\w+ \d+, \w+ \d+)\), after \d+ rounds?(?: \(\d+ of them void\))?\.$"
)


async def test_a_match_of_three_ends_in_a_sentence_with_every_name() -> None:
    screens: dict[str, PersonScreen] = {}
    over = {name: trio.Event() for name in NAMES}
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0.0)
            choice = TableChoice(create=create(RuleSet.of(3, 3)))
            seated = trio.Event()

            async def person(name: str, choice: TableChoice) -> None:
                async with open_network_session(
                    "127.0.0.1", host.port, choice, name=name
                ) as session:
                    screen = screens[name] = PersonScreen(session)
                    if name == NAMES[0]:
                        seated.set()

                    async def at_the_end(screen: PersonScreen) -> None:
                        if screen.controller.state.match_over:
                            over[name].set()

                    await screen.play(at_the_end)

            nursery.start_soon(person, NAMES[0], choice)
            await seated.wait()
            table_id = screens[NAMES[0]].session.table_id
            for name in NAMES[1:]:
                nursery.start_soon(person, name, TableChoice(table_id=table_id))
            for event in over.values():
                await event.wait()
            nursery.cancel_scope.cancel()
    endings = {
        name: [ln for ln in screens[name].lines if " the match with " in ln] for name in NAMES
    }
    for name, lines in endings.items():
        assert len(lines) == 1, (name, screens[name].text)
        said = ENDING.match(lines[0])
        assert said, lines[0]
        others = dict(part.split() for part in said["others"].split(", "))
        winner = "you" if said["who"] == "You win" else said["who"].split()[0]
        assert {winner, *others} == {"you" if n == name else n for n in NAMES}, lines[0]
