"""A seat asked for at a table whose match is over: the host refuses it with `table_full`, as
it refuses one at a full table (protocol.md 3.8, 3.11). The person read "table 1 ... is full,
or its match is over": now the host's words say which, and the person reads the one true
thing and what to do. Each test runs the real command against a real host on loopback."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hosting import HostThread, create, host_in_thread

from scopa_net.commands import join_tables
from scopa_net.commands.main import main
from scopa_net.commands.options import EXIT_CANCELLED, EXIT_REFUSED
from scopa_net.rules import RuleSet


@pytest.fixture
def host() -> Iterator[HostThread]:
    with host_in_thread() as running:
        yield running


@pytest.fixture(autouse=True)
def private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def ann_plays_to_the_end(host: HostThread, table_id: int | None = None) -> None:
    """Ann plays a whole match (to 1 point) against a computer: at a table she opens, or at
    ``table_id``'s open seat. She offers a rematch and never answers, so the table lingers
    with its match over (protocol.md 3.11)."""
    from scopa_net.bots.levels import make_player
    from scopa_net.client.bot_client import play_as_bot
    from scopa_net.client.network_session import TableChoice, open_network_session

    async def playing() -> None:
        choice = (
            TableChoice(create=create(RuleSet.of(2, 1), bots=1))
            if table_id is None
            else TableChoice(table_id=table_id)
        )
        async with open_network_session(
            "127.0.0.1", host.port, choice, name="Ann", offer_rematch=True
        ) as session:
            await play_as_bot(session, make_player("random", 2))

    host.call(playing)


def typing(*answers: str | Callable[[], str]) -> Callable[..., str]:
    """``input`` that types these answers in turn: a string, or what a function returns."""
    queue = list(answers)

    def ask(prompt: str = "") -> str:
        answer = queue.pop(0)
        return answer if isinstance(answer, str) else answer()

    return ask


def test_join_at_a_table_whose_match_is_over_says_so_and_to_open_a_new_table(
    host: HostThread, capfd: pytest.CaptureFixture[str]
) -> None:
    """Dino typed `join --table 1` for the table his friends had just finished playing at."""
    ann_plays_to_the_end(host)
    assert main(["join", host.address, "--table", "1", "--name", "Dino"]) == EXIT_REFUSED
    assert capfd.readouterr().err.splitlines() == [
        f"scopa-net: the match at table 1 on {host.address} is over, so nobody can sit down "
        f"there now; open a new table with `scopa-net join --create {host.address}`"
    ]


def test_bots_sent_to_a_table_whose_match_is_over_read_join_s_words(
    host: HostThread, capfd: pytest.CaptureFixture[str]
) -> None:
    """`bots --table 1` there: the same line, with the table that has an open seat now, and
    the command that opens a table for the bots (not `join --create`, which seats a person)."""
    ann_plays_to_the_end(host)
    host.call(host.host.create_table, "back room", RuleSet.of(2), None, 1, 1)
    assert main(["bots", host.address, "--table", "1", "--quiet"]) == EXIT_REFUSED
    assert capfd.readouterr().err.splitlines() == [
        f"scopa-net: the match at table 1 on {host.address} is over, so nobody can sit down "
        f"there now; open a new table with `scopa-net bots {host.address} --create`, or join "
        f"one with an open seat now: 2 (`scopa-net join {host.address}` lists them)"
    ]


def test_a_match_that_ended_while_the_person_chose_is_said_not_a_seat_taken(
    host: HostThread, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dino typed 1 at the prompt as Ann finished her match there: he read "Table 1 is full
    now: someone took its last seat while you chose", which nobody had."""
    host.call(host.host.create_table, "back room", RuleSet.of(2, 1), None, 1, 1)
    host.call(host.host.create_table, "front room", RuleSet.of(2), None, 1, 1)

    def ann_first() -> str:
        ann_plays_to_the_end(host, 1)
        return "1"

    monkeypatch.setattr(builtins, "input", typing(ann_first, ""))  # then Enter: stop
    assert main(["join", host.address, "--name", "Dino"]) == EXIT_CANCELLED
    said = " ".join(capfd.readouterr().out.split())
    assert (
        "The match at table 1 ended while you chose: nobody can sit down there now. The "
        "tables with an open seat now: table 2 'front room'" in said
    ), said
    assert "someone took its last seat" not in said, said


def test_a_match_that_ended_between_the_list_and_the_join_is_said(
    host: HostThread, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`join --table 1` listed table 1 with an open seat; Ann's match there ended before the
    join reached the host: "that table is full" was not what happened."""
    host.call(host.host.create_table, "back room", RuleSet.of(2, 1), None, 1, 1)
    checked = join_tables.check_host_key

    def then_ann_finishes(*args: object, **kwargs: object) -> object:
        accepted = checked(*args, **kwargs)  # type: ignore[arg-type]
        ann_plays_to_the_end(host, 1)
        return accepted

    monkeypatch.setattr(join_tables, "check_host_key", then_ann_finishes)
    assert main(["join", host.address, "--table", "1", "--name", "Dino"]) == EXIT_REFUSED
    assert capfd.readouterr().err.splitlines() == [
        "scopa-net: the match at that table is over, so nobody can sit down there now; "
        "`scopa-net join --create HOST` opens a new table, `scopa-net join HOST` lists tables "
        "with open seats"
    ]
