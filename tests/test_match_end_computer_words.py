"""The line that says who won a match says where a computer played for someone, as `verify`
and `history` say it of the same match (a real host in virtual time, each person's screen in
front of a real session)."""

from __future__ import annotations

from pathlib import Path

import trio
import trio.testing
from hosting import create, start_memory_host
from person_screen import PersonScreen

from scopa_net.client.files import names_beside
from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.client.seat_store import SeatStore
from scopa_net.rules import RuleSet


async def test_the_winner_line_says_a_computer_played_for_someone_as_verify_does(
    autojump_clock: trio.testing.MockClock, tmp_path: Path
) -> None:
    """Dario's terminal closed for good in round 1 of a match to 1 point; a computer played
    his seat and won it. Ada read "Dario wins the match 4 to 2, after 2 rounds." and nothing
    more, while `verify` of her transcript and `history` said "a computer played for Dario in
    round 1". Now the line at the table says so too."""
    screens: dict[str, PersonScreen] = {}
    async with trio.open_nursery() as nursery:
        _host, net = await start_memory_host(nursery, bot_delay=0.01, grace=600.0)

        async def person(name: str, choice: TableChoice, seated: trio.Event) -> None:
            async with open_network_session(
                "mem",
                0,
                choice,
                name=name,
                connector=net.connect,
                data_dir=tmp_path / name,
                store=SeatStore(tmp_path / name),  # a seat kept: Dario may step away
            ) as session:
                screen = screens[name] = PersonScreen(session)
                seated.set()

                async def dario_goes(screen: PersonScreen) -> None:
                    view = screen.session.view
                    if name == "Dario" and view is not None and view.plays and not went:
                        went.append(await screen.type("quit"))
                        went.append(await screen.type("away"))

                await screen.play(dario_goes)

        went: list[list[str]] = []
        seated = {name: trio.Event() for name in ("Ada", "Dario")}
        nursery.start_soon(
            person, "Ada", TableChoice(create=create(RuleSet.of(2, 1))), seated["Ada"]
        )
        await seated["Ada"].wait()
        table = TableChoice(table_id=screens["Ada"].session.table_id)
        nursery.start_soon(person, "Dario", table, seated["Dario"])
        with trio.fail_after(600):
            while "the match" not in screens["Ada"].text:
                await trio.sleep(1)
        nursery.cancel_scope.cancel()
    assert went[-1][0].startswith("Stepping away; your seat is kept"), went
    ada = screens["Ada"]
    (result,) = [line for line in ada.lines if " the match" in line and "win" in line]
    assert result.endswith(". A computer played for Dario in round 1."), ada.text
    (saved,) = (tmp_path / "Ada" / "transcripts").glob("*.scopa")
    assert "\ncomputer\t\t1\n" in names_beside(saved).read_text(encoding="utf-8")  # verify's
