"""Everyone named on every screen, and names and chat that cannot lie (over loopback TCP).

Each player is a real network session with the terminal client's controller in front of it;
the tests read what each controller prints, as a person would.
"""

from __future__ import annotations

import io
import re

import pytest
import trio
from hosting import create, start_host
from prompt_toolkit.output.plain_text import PlainTextOutput
from prompt_toolkit.renderer import print_formatted_text as render_fragments
from prompt_toolkit.styles import Style

from scopa_net.bots.levels import make_player
from scopa_net.client import render
from scopa_net.client.controller import Controller
from scopa_net.client.network_session import NetworkSession, TableChoice, open_network_session
from scopa_net.client.style import Display
from scopa_net.rules import RuleSet
from scopa_net.wire import messages as m
from scopa_net.wire.errors import LocalProtocolError


class Screen:
    """What a controller printed: as text, and as the bytes a terminal would receive."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.raw = io.StringIO()
        self._output = PlainTextOutput(self.raw)  # type: ignore[arg-type]

    def show(self, lines: object) -> None:
        for line in lines:  # type: ignore[attr-defined]
            render_fragments(self._output, [*line, ("", "\n")], Style([]))
        self._output.flush()
        self.lines += render.plain(lines).splitlines()  # type: ignore[arg-type]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


class Player:
    def __init__(self, session: NetworkSession) -> None:
        self.session = session
        self.screen = Screen()
        self.controller = Controller(session, Display(), self.screen.show, lambda: None)

    async def pump(self) -> None:
        async for event in self.session.events:
            self.controller.handle_event(event)

    async def who(self) -> list[str]:
        before = len(self.screen.lines)
        await self.controller.handle_line("who")
        return self.screen.lines[before:]


def names_seat(line: str, seat: int, name: str) -> bool:
    """Whether ``who``'s ``line`` names ``name`` at ``seat``: "Seat 2: Ada (2)", or on Ada's
    own screen "Seat 2 (you): Ada (2)" (a name the host numbered takes "(you)" after the
    seat, so that it never reads as a second number)."""
    return line.startswith((f"Seat {seat}: {name}", f"Seat {seat} (you): {name}"))


async def until(predicate, seconds: float = 15) -> None:
    with trio.fail_after(seconds):
        while not predicate():
            await trio.sleep(0.01)


async def test_four_players_arrive_one_by_one_rename_drop_and_every_screen_names_every_seat() -> (
    None
):
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01, grace=1)
        rules = RuleSet.of(4, 11)
        players: list[Player] = []
        names = ["Ada", "Bruno", "Ada", "Dario"]  # the third is a second Ada
        shown = ["Ada", "Bruno", "Ada (2)", "Dario"]

        async def everyone_sees(names: list[str], *, among: list[Player] | None = None) -> None:
            """Every screen's ``who`` names every seat as ``names`` says, and the board (once
            dealt) names both sides in full."""
            for p in among or players:
                listed = await p.who()
                # A screen hears a name a moment after its session does: ask again briefly.
                with trio.move_on_after(5):
                    while not all(
                        any(names_seat(line, seat, name) for line in listed)
                        for seat, name in enumerate(names)
                    ):
                        await trio.sleep(0.05)
                        listed = await p.who()
                for seat, name in enumerate(names):
                    assert any(names_seat(line, seat, name) for line in listed), (
                        seat,
                        name,
                        listed,
                    )
                if p.controller.state.view is not None:
                    before = len(p.screen.lines)
                    p.controller.show_board()
                    board = "\n".join(p.screen.lines[before:])
                    assert f"{names[0]} & {names[2]}" in board, board
                    assert f"{names[1]} & {names[3]}" in board, board

        async with trio.open_nursery() as seats:
            for n, name in enumerate(names):
                choice = (
                    TableChoice(create=create(rules))
                    if n == 0
                    else TableChoice(table_id=players[0].session.table_id)
                )
                cm = open_network_session("127.0.0.1", host.port, choice, name=name)
                session = await seats.start(_hold, cm)
                player = Player(session)
                players.append(player)
                seats.start_soon(player.pump)
                # Everyone already seated hears of the arrival, by the name the host gave.
                for earlier in players[:-1]:
                    await until(lambda p=earlier, n=n: f"{shown[n]} sat down" in p.screen.text)
                if n == 0:  # the table's number, and how friends reach it (never said)
                    table = player.session.table_id
                    await until(lambda p=player, t=table: f"Table {t} is yours." in p.screen.text)
                    assert f"`scopa-net join 127.0.0.1:{host.port} --table {table}`" in (
                        player.screen.text
                    )
                    listed = await player.who()  # "Seat 1: open seat", not "seat 1; open seat"
                    assert any(line.startswith("Seat 1: open seat") for line in listed), listed
                # The newcomer knows everyone already there, from the snapshot.
                assert player.session.names[: n + 1] == tuple(shown[: n + 1])
                for p in players:
                    listed = await p.who()
                    for seat in range(n + 1):
                        assert any(names_seat(line, seat, shown[seat]) for line in listed)
            # All four seated: the deal comes, and the board names both sides in full.
            await until(lambda: all(p.controller.state.view is not None for p in players))
            await everyone_sees(shown)
            for p in players:
                # Seats are named, never "You" (but for "Your hand" and the sit-down line,
                # "You sit at table 1, seat 2.").
                said = p.screen.text.replace("Your", "").replace("You sit at table", "")
                assert "You" not in said, said

            # The second Ada takes a name already at the table: the host tells it apart.
            second = players[2]
            await second.controller.handle_line("name  bruno ")
            await until(lambda: "you are now called bruno (2)" in second.screen.text)
            for p in players[:2] + players[3:]:
                await until(lambda p=p: "Ada (2) is now called bruno (2)" in p.screen.text)
            await everyone_sees(["Ada", "Bruno", "bruno (2)", "Dario"])
            # Then a name of her own (``rename`` is the same command).
            await second.controller.handle_line("rename Carla")
            for p in players:
                await until(lambda p=p: "Carla" in p.session.names)
            shown = ["Ada", "Bruno", "Carla", "Dario"]
            await everyone_sees(shown)
            notices = [line for line in players[0].screen.lines if "now called" in line]
            assert notices == [
                "Table: Ada (2) is now called bruno (2)",
                "Table: bruno (2) is now called Carla",
            ]
            # Asking for the name one has changes nothing and sends nothing.
            await second.controller.handle_line("name Carla")
            assert second.screen.lines[-1] == "You are Carla already."
            await second.controller.handle_line("name")
            assert second.screen.lines[-1].startswith("You are Carla at this table.")

            # Dario's client drops: every other screen says so, by name, and then says
            # who plays for him.
            players[3].session._stop = True
            await players[3].session._link.aclose()  # type: ignore[union-attr]
            for p in players[:3]:
                await until(lambda p=p: "Table: Dario lost the connection" in p.screen.text)
                await until(lambda p=p: "a computer is playing for Dario" in p.screen.text)
                listed = await p.who()
                assert any(
                    line.startswith("Seat 3: Dario") and "away" in line for line in listed
                ), listed
            await everyone_sees(shown, among=players[:3])

            # The three left play the round out; every score sheet names every side.
            for p in players[:3]:
                seats.start_soon(_play_when_asked, p)
            for p in players[:3]:
                # (the sheet of the round played: round 1, or after a void deal, three kings
                # on the table about once in 600, the next; a void deal has no score sheet)
                await until(lambda p=p: SCORE_SHEET.search(p.screen.text), 60)
                found = SCORE_SHEET.search(p.screen.text)
                assert found is not None
                sheet = p.screen.text[found.start() :]
                assert "Ada & Carla" in sheet, sheet
                assert "Bruno & Dario" in sheet, sheet
                before = len(p.screen.lines)
                await p.controller.handle_line("score")
                again = "\n".join(p.screen.lines[before:])
                assert "Ada & Carla" in again, again
                assert "Bruno & Dario" in again, again
            seats.cancel_scope.cancel()
        nursery.cancel_scope.cancel()


SCORE_SHEET = re.compile(r"Round \d+ score sheet")


async def _play_when_asked(player: Player) -> None:
    """Play the first legal card whenever it is this player's turn, by typing it."""
    bot = make_player("random", 7)
    while True:
        view = player.controller.state.view
        if view is not None and view.my_turn and not view.round_over:
            await player.controller.handle_line(bot.choose(view).text())
        await trio.sleep(0.01)


async def _hold(cm, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
    async with cm as session:
        task_status.started(session)
        await trio.sleep_forever()


HOSTILE_NAME = "\u202etsoH\u200b\u2066"
HOSTILE_CHAT = [
    "LS-1\u2028Host: fake notice",
    "\u202eevil reversed",
    "zero\u200bwidth\u2060joiner\ufeff",
    "marks a" + "\u0301" * 30,
    "tags \U000e0041\U000e0042 and private \ue000",
    "wide " + "\uff37" * 60,
]
NEVER_WRITTEN = (
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"  # bidi
    "\u200b\u2060\ufeff"  # zero width
    "\u2028\u2029"  # line and paragraph separators
    "\ue000\U000e0041\x1b"  # private use, tags, escape
)


async def test_hostile_names_and_chat_reach_the_other_terminal_as_plain_visible_text() -> None:
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01)
        async with trio.open_nursery() as seats:
            ada = Player(
                await seats.start(
                    _hold,
                    open_network_session(
                        "127.0.0.1",
                        host.port,
                        TableChoice(create=create(RuleSet.of(2, 11))),
                        name="Ada",
                    ),
                )
            )
            seats.start_soon(ada.pump)
            eve = await seats.start(
                _hold,
                open_network_session(
                    "127.0.0.1",
                    host.port,
                    TableChoice(table_id=ada.session.table_id),
                    name=HOSTILE_NAME,
                ),
            )
            await until(lambda: "sat down" in ada.screen.text)
            for text in HOSTILE_CHAT:
                await eve.say(text)
                await trio.sleep(1.1)  # within the host's chat rate limit
            await until(lambda: ada.screen.text.count("<tsoH>") == len(HOSTILE_CHAT))
            # Escape sequences never leave the sender: the codec refuses control characters.
            with pytest.raises(LocalProtocolError, match="bad_field"):
                m.Say(text="\x1b[2J\x1b]52;c;aGk=\x07")
            seats.cancel_scope.cancel()
        written = ada.screen.raw.getvalue()
        assert not set(NEVER_WRITTEN) & set(written), [c for c in written if c in NEVER_WRITTEN]
        chat = [line for line in ada.screen.lines if line.startswith("<tsoH> ")]
        assert len(chat) == len(HOSTILE_CHAT), chat
        assert not [line for line in ada.screen.lines if line.startswith("tsoH")]
        # No line can pass for a notice: chat starts with "<name>", what the client says of
        # the table starts with "Table:", and only the host's own chat with "Host:" (none here).
        fakes = [line for line in ada.screen.lines if "fake notice" in line]
        assert fakes == ["<tsoH> LS-1 Host: fake notice"]
        assert not [line for line in ada.screen.lines if line.startswith("Host")]
        assert "Table: tsoH sat down at the table" in ada.screen.lines
        assert "\nHost" not in written
        assert not written.startswith("Host")
        assert all(line.count("\u0301") <= 2 for line in ada.screen.lines)
        wide = next(line for line in ada.screen.lines if line.startswith("<tsoH> wide"))
        assert len(wide) <= len("<tsoH> ") + m.TEXT_LEN
        nursery.cancel_scope.cancel()


async def test_a_person_who_leaves_for_good_is_not_named_for_the_computer_that_plays_on() -> None:
    """After Bea left for good, the others read "Bea played 5 of clubs": her name stayed on
    the seat a computer now plays."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01)
        async with trio.open_nursery() as seats:
            cm = open_network_session(
                "127.0.0.1", host.port, TableChoice(create=create(RuleSet.of(2))), name="Ada"
            )
            ada = Player(await seats.start(_hold, cm))
            seats.start_soon(ada.pump)
            cm = open_network_session(
                "127.0.0.1", host.port, TableChoice(table_id=ada.session.table_id), name="Bea"
            )
            bea = await seats.start(_hold, cm)
            await until(lambda: ada.controller.state.view is not None)
            await bea.leave(away=False)
            await until(lambda: "Bea left the table" in ada.screen.text)
            seat = 1 - ada.session.seat
            assert ada.session.names[seat] == f"bot {seat}"
            listed = await ada.who()
            assert f"Seat {seat}: open seat, a computer plays it" in listed
            seats.cancel_scope.cancel()
        nursery.cancel_scope.cancel()


async def test_a_person_cannot_take_a_computer_players_name() -> None:
    """A person could call themselves "bot 3" (at ``--name``, or with ``name`` in the game),
    and every screen then read their plays as a computer's. The game's ``name`` now refuses
    it in one line saying why; and the host, asked by a client that does not check, gives
    no seat such a name: at the table it is "Player N", and a rename to it changes nothing."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01)
        rules = RuleSet.of(3, 11)
        async with trio.open_nursery() as seats:
            opened = TableChoice(create=create(rules, bots=1))
            cm = open_network_session("127.0.0.1", host.port, opened, name="Ada")
            ada = Player(await seats.start(_hold, cm))
            seats.start_soon(ada.pump)
            there = TableChoice(table_id=ada.session.table_id)
            cm = open_network_session("127.0.0.1", host.port, there, name="bot 3")
            bruno = Player(await seats.start(_hold, cm))  # a client that does not check
            seats.start_soon(bruno.pump)
            await until(lambda: "Table: Player 2 sat down at the table" in ada.screen.text)
            assert bruno.session.names[1] == "Player 2"

            await ada.controller.handle_line("name Bot 3")
            assert ada.screen.lines[-1] == (
                "invalid name: 'Bot 3': that reads as a computer player's name (they are "
                "called bot 1, bot 2...); choose another"
            )
            await bruno.session.rename("bot")  # the host's own rule: nothing changes
            await bruno.session.rename("Bruno")
            await until(lambda: "Table: Player 2 is now called Bruno" in ada.screen.text)
            assert [line for line in ada.screen.lines if "now called" in line] == [
                "Table: Player 2 is now called Bruno"
            ]
            assert ada.session.names[0] == "Ada"
            seats.cancel_scope.cancel()
        nursery.cancel_scope.cancel()


async def test_a_name_too_long_is_refused_in_words_never_cut() -> None:
    """`--name` took up to 32 characters but every screen cut a name at 20 without a word
    (ABCDEFGHIJKLMNOPQRSTUVWXYZ showed as ABCDEFGHIJKLMNOPQRST), the table's name lost its
    "'s table", and `name` with 300 Zs said "you are now called ZZZZZZZZZZZZZZZZZZZZ". Now a
    name may be 20 characters, the table's name keeps it whole, and a longer rename is
    refused in one line that says the limit."""
    from dataclasses import replace

    from scopa_net.client.network_session import list_tables

    longest = "ABCDEFGHIJKLMNOPQRST"  # 20: the limit
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01)
        async with trio.open_nursery() as seats:
            named = replace(create(RuleSet.of(3, 11), bots=1), name=f"{longest}'s table")
            opened = TableChoice(create=named)
            cm = open_network_session("127.0.0.1", host.port, opened, name=longest)
            ada = Player(await seats.start(_hold, cm))
            seats.start_soon(ada.pump)
            (listed,) = await list_tables("127.0.0.1", host.port)
            assert listed.name == f"{longest}'s table"

            await ada.controller.handle_line("name " + "Z" * 300)
            assert ada.screen.lines[-1] == (
                "invalid name: a name is at most 20 columns wide (this one takes 300); your name "
                f"stays {longest}"
            )
            await ada.controller.handle_line("name " + "漢" * 11)
            assert ada.screen.lines[-1] == (
                "invalid name: a name is at most 20 columns wide (this one takes 22; a wide "
                "character such as 李 takes two); your name stays ABCDEFGHIJKLMNOPQRST"
            )
            await trio.sleep(0.2)
            assert "now called" not in ada.screen.text
            assert ada.session.names[ada.session.seat] == longest
            seats.cancel_scope.cancel()
        nursery.cancel_scope.cancel()
