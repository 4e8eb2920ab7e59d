"""A person caught up by ``snapshot`` (protocol.md 3.4) on a finished round, the next one not
yet dealt, reads that round's score sheet (and the match's end, if it ended) as a person who
never left read it, once.

The snapshot of such a table shows the round over, its sheet in ``round_score``; the client
drew nothing of it, and the person had to type ``score`` to see how the round went.

Real host on loopback TCP that replays a resume at most one missed event (``replay_limit``),
so a seat taken back from disk, or back after its connection was cut while events went on,
is caught up by a snapshot (of the present, as a host of protocol 4 sends it:
``round_start_catch_up=False``); the next round waits for the person away (a long grace time), so
the snapshot lands on the finished round. Each screen is read as a person reads it.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

import trio
from hosting import CutOff, Through, create, start_host
from person_screen import Player, sit, until

from scopa_net.bots.levels import make_player
from scopa_net.client.network_session import (
    CAUGHT_UP_AT_ROUNDS_YOU_SAW,
    CAUGHT_UP_BETWEEN_ROUNDS,
)
from scopa_net.client.seat_store import SeatStore
from scopa_net.errors import IllegalPlayError
from scopa_net.rules import RuleSet
from scopa_net.server.table import Phase
from scopa_net.view import SeatView

BACK = "Back in your seat"


class SeedsHeld(Through):
    """A connection whose ``seed_commit`` to the host for the round after one its person saw
    played (``played()``) never leaves (its first does: round 1's, or that of the round it
    came back in; and a redeal's after a deal void for its kings, which has no plays): the
    next round waits for this person (their client dies before it would go)."""

    def __init__(self, inner: trio.abc.Stream, played: Callable[[], bool]) -> None:
        super().__init__(inner)
        self.played = played
        self.commits = 0

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        if b"seed_commit" in bytes(data):
            self.commits += 1
            if self.commits > 1 and self.played():
                return  # lost on the way
        await self.inner.send_all(data)


def saw_plays(people: list[Player]) -> Callable[[], bool]:
    """Whether the person (``people[0]``, once seated) has seen a card played in the round on
    their screen: a round played, not a deal void for its kings."""

    def played() -> bool:
        view = people[0].session.view if people else None
        return view is not None and bool(view.plays)

    return played


async def plays_turns(player: Player, seed: int, gate: trio.Event | None = None) -> None:
    """Play at random at each of this person's turns (their screen takes the events); with a
    ``gate``, the last card of a round waits for it."""
    chooser = make_player("random", seed)
    while True:
        view = player.session.view
        if view is not None and view.my_turn and not view.round_over:
            if gate is not None and not view.stock_count and sum(view.hand_counts) == 1:
                await gate.wait()
            with suppress(IllegalPlayError):  # the table moved on first
                await player.session.submit(chooser.choose(view))
        await trio.sleep(0.01)


def sheets(text: str) -> list[str]:
    """The score sheets a screen printed, by their heading."""
    return [
        line for line in text.splitlines() if line.startswith("Round ") and "score sheet" in line
    ]


async def taken_back_on_a_finished_round(
    tmp_path: Path, target: int, over: Callable[[SeatView], bool]
) -> tuple[Player, Player, Player]:
    """Ada and Bruno play to ``target``; Bruno's client dies once his screen showed the sheet
    of a round for which ``over(view)`` holds, and he takes his seat back from disk (caught up
    by snapshot) before the next round is dealt. Returns Ada, Bruno, Bruno back.

    To ``target`` 11 his client sends no seed commitment after round 1 (it died first), so
    round 2 waits for him; to a lower one, where a match may end at any round, it does."""
    async with trio.open_nursery() as nursery:
        host = await start_host(
            nursery, replay_limit=1, grace=600, bot_delay=0.0, round_start_catch_up=False
        )
        rules = RuleSet.of(2, target)
        ada = await sit(nursery, host, "Ada", tmp_path, create=create(rules), offer_rematch=True)
        table_id = ada.session.table_id

        seated: list[Player] = []

        async def bruno_connects() -> trio.abc.Stream:
            stream = await trio.open_tcp_stream("127.0.0.1", host.port)
            return SeedsHeld(stream, saw_plays(seated)) if target == 11 else stream

        bruno = await sit(
            nursery,
            host,
            "Bruno",
            tmp_path,
            table_id=table_id,
            offer_rematch=True,
            connector=bruno_connects,
        )
        seated.append(bruno)
        table = host.tables[table_id].table
        bruno_plays = trio.CancelScope()
        nursery.start_soon(plays_turns, ada, 1)

        async def bruno_turns() -> None:
            with bruno_plays:
                await plays_turns(bruno, 2)

        nursery.start_soon(bruno_turns)

        def ended(view: SeatView | None) -> bool:  # a round played (a void deal has no sheet)
            return view is not None and view.round_over and bool(view.plays) and over(view)

        await until(lambda: ended(bruno.session.view))
        bruno_plays.cancel()
        view = bruno.session.view
        round_no = view.round_number
        await until(lambda: f"Round {round_no} score sheet" in bruno.text)
        if view.winner is not None:
            await until(lambda: "the match" in bruno.text)
        bruno.crash()  # kill -9, the round's sheet on his screen
        # The next round is not dealt while he is away (it waits for his seeds), or the
        # match is over.
        waiting = (Phase.COMMIT, Phase.REVEAL)
        await until(lambda: table.phase in (*waiting, Phase.OVER))
        assert table.round_no == round_no + (table.phase in waiting)
        (record,) = SeatStore(tmp_path / "Bruno").records()
        back = await sit(
            nursery,
            host,
            "Bruno",
            tmp_path,
            table_id=table_id,
            resume_from=record,
            offer_rematch=True,
        )
        await until(lambda: BACK in back.text)
        await trio.sleep(0.3)  # what else his screen prints
        nursery.cancel_scope.cancel()
    return ada, bruno, back


async def test_taken_back_by_snapshot_on_a_finished_round_reads_its_sheet(
    tmp_path: Path,
) -> None:
    """Bruno's client dies as a round ends (the match goes on) and he takes his seat back
    before the next round is dealt: his screen said he was back, at that round, and showed
    neither its end nor its sheet (``score`` did)."""
    with trio.fail_after(60):
        ada, bruno, back = await taken_back_on_a_finished_round(
            tmp_path, 11, lambda view: view.winner is None
        )
    assert CAUGHT_UP_BETWEEN_ROUNDS in back.text, back.text  # not a replay
    round_no = bruno.session.view.round_number
    heading = f"Round {round_no} score sheet"
    assert heading in ada.text, ada.text  # as those who saw it read it
    assert heading in bruno.text, bruno.text
    assert sheets(back.text) == [heading], back.text  # once
    shown = back.text[back.text.index(BACK) :]
    assert heading in shown, back.text
    # The sheet as his screen printed it before, line by line.
    again = sheet_lines(shown)
    assert again == sheet_lines(bruno.text), back.text


def sheet_lines(text: str) -> list[str]:
    """The first score sheet a screen printed, from its heading to its ``Match`` line."""
    lines = text[text.index("score sheet") :].splitlines()
    return lines[: next(i for i, line in enumerate(lines) if line.startswith("Match ")) + 1]


def summaries(text: str) -> list[str]:
    """The lines that say how the match ended."""
    return [line for line in text.splitlines() if " the match" in line and "after " in line]


async def test_taken_back_by_snapshot_after_the_match_ended_reads_its_last_sheet_and_end(
    tmp_path: Path,
) -> None:
    """Bruno's client dies as the match ends and he takes his seat back while the table
    waits for a rematch: his screen said who won, with no sheet of the round that won it."""
    with trio.fail_after(60):
        _, bruno, back = await taken_back_on_a_finished_round(
            tmp_path, 1, lambda view: view.winner is not None
        )
    assert CAUGHT_UP_BETWEEN_ROUNDS in back.text, back.text  # not a replay
    round_no = bruno.session.view.round_number
    heading = f"Round {round_no} score sheet"
    assert sheets(back.text) == [heading], back.text  # once
    assert sheet_lines(back.text) == sheet_lines(bruno.text[bruno.text.index(heading) :])
    # The match's end as his screen said it before, once, after the sheet.
    assert summaries(back.text) == summaries(bruno.text), back.text
    assert back.text.index(heading) < back.text.index(summaries(back.text)[0]), back.text
    assert "Play again with the same players?" in back.text.partition(heading)[2], back.text


async def test_back_after_a_cut_across_a_rounds_end_reads_its_sheet(tmp_path: Path) -> None:
    """The network of whoever does not play round 1's last card goes down just before it is
    played; back while round 2 waits for them, caught up by snapshot, they read round 1's
    sheet as the other read it (their screen showed nothing of round 1's end)."""
    gate = trio.Event()
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            host = await start_host(
                nursery, replay_limit=1, grace=600, bot_delay=0.0, round_start_catch_up=False
            )
            networks = {name: CutOff(host.port) for name in ("Ada", "Bruno")}
            ada = await sit(
                nursery,
                host,
                "Ada",
                tmp_path,
                create=create(RuleSet.of(2, 11)),
                connector=networks["Ada"].connect,
            )
            table_id = ada.session.table_id
            bruno = await sit(
                nursery,
                host,
                "Bruno",
                tmp_path,
                table_id=table_id,
                connector=networks["Bruno"].connect,
            )
            table = host.tables[table_id].table
            people = {"Ada": ada, "Bruno": bruno}
            for seed, player in enumerate(people.values()):
                nursery.start_soon(plays_turns, player, seed, gate)

            def at_last_card(player: Player) -> bool:
                view = player.session.view
                return bool(
                    view and view.my_turn and not view.stock_count and sum(view.hand_counts) == 1
                )

            await until(lambda: any(at_last_card(p) for p in people.values()))
            last = next(name for name, p in people.items() if at_last_card(p))
            other = "Bruno" if last == "Ada" else "Ada"
            # Round 1, or the next after a deal void for its kings (about 1 in 600).
            round_no = people[last].session.view.round_number
            await networks[other].cut()
            gate.set()
            await until(lambda: table.round_no == round_no + 1 and table.phase is Phase.COMMIT)
            assert not people[other].session.view.round_over  # nothing of its end seen
            networks[other].up = True
            back = people[other]
            await until(lambda: CAUGHT_UP_BETWEEN_ROUNDS in back.text)
            await until(lambda: "score sheet" in back.text.partition(CAUGHT_UP_BETWEEN_ROUNDS)[2])
            await trio.sleep(0.3)  # anything else it prints
            nursery.cancel_scope.cancel()
    seen = people[last]
    assert sheets(back.text) == [f"Round {round_no} score sheet"], back.text  # once
    assert sheet_lines(back.text) == sheet_lines(seen.text), back.text


async def test_back_after_a_cut_once_the_sheet_was_read_is_not_shown_it_again(
    tmp_path: Path,
) -> None:
    """Ada read round 1's sheet; her network went down, Bruno said a few things meanwhile, and
    she was caught up by snapshot while round 2 waited for her: round 1's sheet is not shown
    her a second time."""
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            host = await start_host(
                nursery, replay_limit=1, grace=600, bot_delay=0.0, round_start_catch_up=False
            )
            seated: list[Player] = []
            network = CutOff(host.port, wrap=lambda stream: SeedsHeld(stream, saw_plays(seated)))
            ada = await sit(
                nursery,
                host,
                "Ada",
                tmp_path,
                create=create(RuleSet.of(2, 11)),
                connector=network.connect,
            )
            seated.append(ada)
            table_id = ada.session.table_id
            bruno = await sit(nursery, host, "Bruno", tmp_path, table_id=table_id)
            table = host.tables[table_id].table
            for seed, player in enumerate((ada, bruno)):
                nursery.start_soon(plays_turns, player, seed)
            # Round 1's sheet, or the next round's after a deal void for its kings.
            await until(lambda: sheets(ada.text))
            (heading,) = sheets(ada.text)
            round_no = int(heading.split()[1])
            await network.cut()
            for said in ("ciao", "dove sei?"):
                await bruno.session.say(said)
            await until(lambda: table.round_no == round_no + 1 and table.phase is Phase.COMMIT)
            network.up = True
            # (The snapshot stands at the round whose sheet she read, which she checked.)
            await until(lambda: CAUGHT_UP_AT_ROUNDS_YOU_SAW in ada.text)
            await trio.sleep(0.3)  # anything else it prints
            nursery.cancel_scope.cancel()
    assert sheets(ada.text) == [heading], ada.text
