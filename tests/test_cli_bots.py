"""``scopa-net bots`` at a table with a password: the same ``--password`` and ``--table`` as
``join``, the same question when a table has one, and one line when it cannot sit down. Each
case runs the real command against a real host on loopback."""

from __future__ import annotations

import re

import pytest
import trio
from hosting import HostThread

from scopa_net.commands import join_password
from scopa_net.commands.main import main
from scopa_net.commands.options import EXIT_REFUSED


def test_bots_with_the_password_sit_at_a_table_that_has_one(
    locked_table: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["bots", locked_table, "--count", "1", "--table", "1", "--password", "pw"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "bot-1: seated at table 1 seat 0" in out
    assert re.search(r"^1 bot sent, 1 match finished, in \d+ s$", out, re.M)


def test_bots_without_the_password_say_which_flag_gives_it(
    locked_table: str, capfd: pytest.CaptureFixture[str]
) -> None:
    assert main(["bots", locked_table, "--count", "1"]) == EXIT_REFUSED
    err = capfd.readouterr().err
    assert err.splitlines() == [
        f"scopa-net: no table at {locked_table} has an open seat without a password; give the "
        f"table's --password (and --table N), or `scopa-net bots {locked_table} --create` "
        "opens tables for the bots"
    ]


def test_bots_at_a_table_with_a_password_ask_for_it_as_join_does(
    locked_table: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[str] = []

    def typed(prompt: str) -> str:
        asked.append(prompt)
        return "pw"

    monkeypatch.setattr(join_password, "terminal_to_type_at", lambda: True)
    monkeypatch.setattr("getpass.getpass", typed)
    assert main(["bots", locked_table, "--table", "1"]) == 0
    assert asked == ["password for table 1: "]
    assert "1 bot sent, 1 match finished" in capsys.readouterr().out


def test_bots_refuse_a_table_that_is_not_there_in_join_s_words(
    locked_table: str, capfd: pytest.CaptureFixture[str]
) -> None:
    assert main(["bots", locked_table, "--table", "7", "--password", "pw"]) == EXIT_REFUSED
    (line,) = capfd.readouterr().err.splitlines()
    assert line == (
        f"scopa-net: {locked_table} has no table 7; tables with an open seat now: 1 "
        f"(`scopa-net join {locked_table}` lists them)"
    )


def test_bots_runs_one_after_another_reuse_the_names_of_tables_closed_for_good(
    threaded_host: HostThread, capsys: pytest.CaptureFixture[str]
) -> None:
    """Four `bots --create` runs in a minute opened 'bots 1', then 'bots 1 (2)', 'bots 1
    (3)', 'bots 1 (4)', though each earlier 'bots 1' had closed (its computers said no to
    playing again) and could never be in play again: each run's table is 'bots 1'."""
    for _ in range(3):
        assert main(["bots", threaded_host.address, "--create", "--target", "1", "--quiet"]) == 0
        threaded_host.call(_all_closed_for_good, threaded_host.host)  # as the next run finds
    records = threaded_host.call(_tables, threaded_host.host)
    assert [r.settings["name"] for r in records] == ["bots 1", "bots 1", "bots 1"]
    capsys.readouterr()


async def _all_closed_for_good(host: object) -> None:
    """Until every table of the host is closed for good (the computers' "no" is journalled
    as they leave: a person's next command comes later still)."""
    with trio.fail_after(10):
        while not all(t.closed_for_good for t in host.tables.values()):  # type: ignore[attr-defined]
            await trio.sleep(0.02)


async def _tables(host: object) -> list:
    return list(host.journal.tables())  # type: ignore[attr-defined]


def test_bots_the_host_will_not_seat_say_why_in_joins_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`bots --create --count 40` at a host that opens 16 tables for one address printed
    "failure: bot-4: too_many_tables: at most 16 tables from one address; ...": the wire's
    code, where join says "the host will open no more tables"."""
    from hosting import host_in_thread

    with host_in_thread(max_tables_per_address=1) as host:
        status = main(["bots", host.address, "--create", "--count", "4", "--target", "1"])
    assert status == 1
    said = capsys.readouterr()
    err = said.err.splitlines()
    assert err, said
    for line in err:
        assert re.fullmatch(
            r"failure: bot-\d: not seated: the host will open no more tables: at most 1 table "
            r"from one address; .*",
            line,
        ), err


def test_bots_ask_the_host_for_its_tables_once(
    locked_table: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`bots` asked the host for its tables, checked them, and once started asked for them
    again and checked them again (a second connection, a listing that could differ): the
    bots take their seats from the one listing the command read first."""
    from scopa_net.client import network_session

    asked: list[tuple[str, int]] = []
    real = network_session.list_tables

    async def counted(host: str, port: int, *args: object, **kwargs: object) -> object:
        asked.append((host, port))
        return await real(host, port, *args, **kwargs)

    monkeypatch.setattr(network_session, "list_tables", counted)
    argv = ["bots", locked_table, "--count", "1", "--table", "1", "--password", "pw"]
    assert main(argv) == 0
    assert "bot-1: seated at table 1 seat 0" in capsys.readouterr().out
    assert asked == []
