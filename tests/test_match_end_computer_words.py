"""The line that says who won a match says where a computer played for someone, as `verify`
and `history` say it of the same match (a real host in virtual time, each person's screen in
front of a real session)."""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path

import trio
import trio.testing
from hosting import create, start_memory_host
from person_screen import PersonScreen, on_screen_at_memory_host, seat_in_turn

from scopa_net.client.files import names_beside
from scopa_net.rules import RuleSet
from scopa_net.seat_holders import rounds_words


async def test_the_winner_line_says_a_computer_played_for_someone_as_verify_does(
    autojump_clock: trio.testing.MockClock, tmp_path: Path
) -> None:
    """Dario's terminal closed for good in round 1 of a match to 1 point (or, after a deal
    void for its kings, in the redeal); a computer played his seat and won it. Ada read "Dario
    wins the match 4 to 2, after 2 rounds." and nothing more, while `verify` of her transcript
    and `history` said "a computer played for Dario in round 1". Now the line at the table
    says so too."""
    screens: dict[str, PersonScreen] = {}
    went: list[list[str]] = []
    went_in: list[int] = []  # the round: 1, or the next after a deal void for its kings

    async def dario_goes(screen: PersonScreen) -> None:
        view = screen.session.view
        if screen.session.name == "Dario" and view is not None and view.plays and not went:
            went_in.append(view.round_number)
            went.append(await screen.type("quit"))
            went.append(await screen.type("away"))

    async with trio.open_nursery() as nursery:
        _host, net = await start_memory_host(nursery, bot_delay=0.01, grace=600.0)
        person = partial(
            on_screen_at_memory_host, net, tmp=tmp_path, screens=screens, between=dario_goes
        )
        await seat_in_turn(nursery, person, ("Ada", "Dario"), create(RuleSet.of(2, 1)), screens)
        with trio.fail_after(600):
            while not winner_lines(screens["Ada"]):  # not "... the match begins when ..."
                await trio.sleep(1)
        nursery.cancel_scope.cancel()
    assert went[-1][0].startswith("Stepping away; your seat is kept"), went
    ada = screens["Ada"]
    (result,) = winner_lines(ada)
    # A match to 1 point can take more than one round (the host's shuffle is not seeded, and a
    # round can leave the sides level); the computer played Dario's seat in every one of them
    # from the one he left in, but for a deal void for its kings (no plays: dealt again).
    rounds = int(re.search(r"after (\d+) rounds?", result)[1])
    void = {int(r) for r in re.findall(r"^Round \d+ \(round (\d+) dealt again\)", ada.text, re.M)}
    computer = [r for r in range(went_in[0], rounds + 1) if r not in void]
    said = rounds_words(computer)  # "round 1", "rounds 1-3", "rounds 2 and 4"
    assert result.endswith(f". A computer played for Dario in {said}."), ada.text
    (saved,) = (tmp_path / "Ada" / "transcripts").glob("*.scopa")
    played = " ".join(str(r) for r in computer)
    names = names_beside(saved).read_text(encoding="utf-8")
    assert f"\ncomputer\t\t{played}\n" in names, names  # what verify reads


def winner_lines(screen: PersonScreen) -> list[str]:
    """The lines on ``screen`` that say who won the match."""
    return [line for line in screen.lines if " the match" in line and "win" in line]
