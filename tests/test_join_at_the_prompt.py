"""`scopa-net join` on a busy club night: what a person at the table-number prompt reads
when the host says no, and what to do next. Each test runs the real command against a real
host on loopback, the person's answers typed through ``input`` and ``getpass``."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hosting import HostThread, host_in_thread
from rawseat import RawSeat

from scopa_net.commands import join_host, join_password, join_tables
from scopa_net.commands.main import main
from scopa_net.commands.options import EXIT_CANCELLED, EXIT_REFUSED
from scopa_net.rules import RuleSet
from scopa_net.wire import messages as m


@pytest.fixture
def host() -> Iterator[HostThread]:
    with host_in_thread() as running:
        yield running


@pytest.fixture(autouse=True)
def private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setattr(join_password, "terminal_to_type_at", lambda: True)


def typing(*answers: str | type[BaseException] | Callable[[], str]) -> Callable[..., str]:
    """``input`` (or ``getpass``) that types these answers in turn: a string, a key pressed
    (Ctrl-C, Ctrl-D: the exception), or what a function returns (after doing something)."""
    queue = list(answers)

    def ask(prompt: str = "") -> str:
        answer = queue.pop(0)
        if isinstance(answer, str):
            return answer
        if isinstance(answer, type):
            raise answer
        return answer()

    return ask


def test_with_every_table_full_the_person_reads_what_they_can_do(
    host: HostThread, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """It said only "no table has an open seat; open one with ...": not that waiting and
    running the same command again finds a seat that opens."""
    monkeypatch.setattr(builtins, "input", typing())  # nothing to choose from
    assert main(["join", host.address]) == EXIT_REFUSED
    err = capfd.readouterr().err
    assert err.splitlines() == [
        f"scopa-net: no table has an open seat; wait a little and run `scopa-net join "
        f"{host.address}` again (a seat opens when someone leaves or a table is opened), or "
        f"open one with: scopa-net join --create {host.address}"
    ]


def test_join_create_names_its_table_with_the_flag_host_uses(
    host: HostThread, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """`join --create` could not name its table: every one was "Bruno's table". It takes
    `host`'s --table-name, checked the same way, and the lobby lists the name."""
    import trio

    from scopa_net.client.network_session import open_network_session
    from scopa_net.client.seat_store import SeatStore
    from scopa_net.commands.main import build_parser

    flags = ["--create", "--players", "2", "--table-name", "Club night, back room"]
    args = build_parser().parse_args(["join", host.address, *flags])
    choice = join_tables.table_choice(args, "127.0.0.1", host.port, typing(), player="Dino")
    assert choice is not None

    async def sit_and_list() -> list[str]:
        data = tmp_path / "seat"
        async with open_network_session(
            "127.0.0.1", host.port, choice, name="Dino", data_dir=data, store=SeatStore(data)
        ):
            tables = await trio.to_thread.run_sync(join_host.probe, "127.0.0.1", host.port)
        return [join_tables.describe_table(t) for t in tables]

    (listed,) = trio.run(sit_and_list)
    assert listed.startswith("table 1 'Club night, back room': 2 players"), listed
    capfd.readouterr()

    # The same checks and words as `host --table-name`; without --create, said where it belongs.
    for name in ("", "n" * 33, "a\tb"):
        assert main(["host", "--table-name", name]) == 2
        said_by_host = capfd.readouterr().err
        assert main(["join", host.address, "--create", "--table-name", name]) == 2
        assert capfd.readouterr().err == said_by_host.replace("host --help", "join --help")
    assert main(["join", host.address, "--table-name", "Club night"]) == 2
    assert capfd.readouterr().err == (
        "scopa-net: --table-name is for a table you open with --create; without it you join a "
        "table that is there, with its own rules\n"
    )


def club_night(host: HostThread) -> None:
    """Table 1: one seat open beside a computer; table 2 the same, behind password "pw"."""
    host.call(host.host.create_table, "back room", RuleSet.of(2), None, 1, 1)
    host.call(host.host.create_table, "locked", RuleSet.of(2), "pw", 1, 1)


class Carla:
    """Carla on a raw connection, from the test's thread: she takes the open seat of a club
    night's table (:meth:`sits`) and goes (:meth:`goes`)."""

    def __init__(self, host: HostThread) -> None:
        self.host = host
        self.seat: RawSeat | None = None

    def sits(self, table_id: int, password: str | None = None) -> None:
        async def sitting() -> None:
            self.seat = await RawSeat.connect(self.host.port)
            join = m.Join(table_id=table_id, seat=None, name="Carla", password=password)
            await self.seat.send(join)
            await self.seat.until(lambda msg: isinstance(msg, m.Snapshot))

        self.host.call(sitting)

    def goes(self) -> None:
        if self.seat is not None:
            self.host.call(self.seat.aclose)


def test_a_table_filled_while_the_person_chose_is_said_and_the_list_shown_again(
    host: HostThread, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two people typed `1` at once: the slower one was back at the shell ("scopa-net: that
    table is full; ...", status 4) instead of reading why and choosing again."""
    club_night(host)
    carla = Carla(host)

    def carla_first() -> str:
        carla.sits(1)
        return "1"

    monkeypatch.setattr(builtins, "input", typing(carla_first, ""))  # then Enter: stop
    try:
        assert main(["join", host.address, "--name", "Dino"]) == EXIT_CANCELLED
    finally:
        carla.goes()
    out, err = capfd.readouterr()
    said = " ".join(out.split())
    assert (
        "Table 1 is full now: someone took its last seat while you chose. The tables with an "
        "open seat now: table 2 'locked'" in said
    ), out
    assert said.count("table 1 'back room'") == 1, out  # listed again without it
    assert said.count("table 2 'locked'") == 2, out
    assert err.splitlines() == ["scopa-net: stopped; nothing joined"]


def test_a_wrong_password_typed_at_the_prompt_is_asked_for_again_three_times(
    host: HostThread, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wrong password typed at "password for table 2:" ended the program at once."""
    club_night(host)
    monkeypatch.setattr(builtins, "input", typing("2"))
    monkeypatch.setattr("getpass.getpass", typing("nope", "pass", "pw?"))
    assert main(["join", host.address, "--name", "Dino"]) == EXIT_REFUSED
    out, err = capfd.readouterr()
    again = "Wrong password for table 2: type it again (Ctrl-C or Ctrl-D gives up)."
    assert " ".join(out.split()).count(again) == 2, out
    assert err.splitlines() == [
        "scopa-net: wrong password for that table; ask whoever opened the table (or the host) "
        "for it and join again (or give it with --password)"
    ]

    # Ctrl-D at the second try: stopped, in one line.
    monkeypatch.setattr(builtins, "input", typing("2"))
    monkeypatch.setattr("getpass.getpass", typing("nope", EOFError))
    assert main(["join", host.address, "--name", "Dino"]) == EXIT_CANCELLED
    out, err = capfd.readouterr()
    assert " ".join(out.split()).count(again) == 1, out
    assert err.splitlines() == ["scopa-net: stopped; nothing joined"]


@pytest.mark.parametrize("seat", [(), ("--seat", "0")])
def test_a_full_table_given_on_the_command_line_is_said_to_be_full_in_one_line(
    seat: tuple[str, ...],
    host: HostThread,
    capfd: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Dino's friend Carla took the last seat at table 1: `join --table 1` said "has no table
    1 with an open seat", as if there were none (the host lists only tables with an open
    seat). The host's answer to the join says it is full, and what Dino can do. A seat
    asked for and taken is refused only at a table in play (protocol.md 3.3), and the host's
    words for a full table say it is full: "or its match is over", said there too, was not
    true."""
    club_night(host)
    carla = Carla(host)
    monkeypatch.setattr(builtins, "input", typing())
    carla.sits(1)
    try:
        assert main(["join", host.address, "--table", "1", *seat]) == EXIT_REFUSED
    finally:
        carla.goes()
    assert capfd.readouterr().err.splitlines() == [
        f"scopa-net: table 1 on {host.address} is full: run this again once someone leaves it; "
        f"tables with an open seat now: 2 (`scopa-net join {host.address}` lists them)"
    ]


def test_a_full_table_with_a_password_is_said_to_be_full_not_to_want_a_password(
    host: HostThread, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host checks a table's password before its seats (protocol.md 3.3): Dino, given no
    password, would read "wrong password" for a table that was full when it was listed."""
    club_night(host)
    carla = Carla(host)
    monkeypatch.setattr(builtins, "input", typing())
    carla.sits(2, password="pw")
    try:
        assert main(["join", host.address, "--table", "2", "--name", "Dino"]) == EXIT_REFUSED
    finally:
        carla.goes()
    assert capfd.readouterr().err.splitlines() == [
        f"scopa-net: table 2 on {host.address} is full, or its match is over: run this again "
        f"once someone leaves it; tables with an open seat now: 1 (`scopa-net join "
        f"{host.address}` lists them)"
    ]


def test_bots_sent_to_a_full_table_read_that_it_is_full_as_join_says(
    host: HostThread, capfd: pytest.CaptureFixture[str]
) -> None:
    """`bots HOST --table 1` at the table Carla filled said "has no table 1 with an open
    seat", where `join --table 1` says the table is full: both say it in join's words."""
    club_night(host)
    carla = Carla(host)
    carla.sits(1)
    try:
        assert main(["bots", host.address, "--table", "1", "--quiet"]) == EXIT_REFUSED
    finally:
        carla.goes()
    assert capfd.readouterr().err.splitlines() == [
        f"scopa-net: table 1 on {host.address} is full: run this again once someone leaves "
        f"it; tables with an open seat now: 2 (`scopa-net join "
        f"{host.address}` lists them)"
    ]


def test_bots_sent_to_a_table_the_host_has_not_read_that_it_is_not_there(
    host: HostThread, capfd: pytest.CaptureFixture[str]
) -> None:
    """`bots HOST --table 9` where there is no table 9: the host's own no, in join's words."""
    club_night(host)
    assert main(["bots", host.address, "--table", "9", "--quiet"]) == EXIT_REFUSED
    assert capfd.readouterr().err.splitlines() == [
        f"scopa-net: {host.address} has no table 9; tables with an open seat now: 1, 2 "
        f"(`scopa-net join {host.address}` lists them)"
    ]
