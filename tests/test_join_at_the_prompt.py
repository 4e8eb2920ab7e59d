"""`scopa-net join` on a busy club night: what a person at the table-number prompt reads
when the host says no, and what to do next. Each test runs the real command against a real
host on loopback, the person's answers typed through ``input`` and ``getpass``."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hosting import HostThread, host_in_thread

from scopa_net.commands import join as join_command
from scopa_net.commands.main import main
from scopa_net.commands.options import EXIT_REFUSED


@pytest.fixture
def host() -> Iterator[HostThread]:
    with host_in_thread() as running:
        yield running


@pytest.fixture(autouse=True)
def private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setattr(join_command, "terminal_to_type_at", lambda: True)


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
