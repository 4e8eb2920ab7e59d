"""The host stops while a person chooses from what it (or the LAN) just listed: the words say
the host stopped, and what to do; not "start one with `scopa-net host`" (the advice for a
mistyped port), nor trio's "all attempts to connect to ... failed"."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

import pytest
from hosting import host_in_thread

from scopa_net.commands.main import main
from scopa_net.commands.options import EXIT_UNREACHABLE
from scopa_net.rules import RuleSet


def _at_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))


def _stop_then(stop: Callable[[], None], answer: str) -> Callable[[str], str]:
    """``input`` that stops the host while the person reads the question, then answers."""

    def ask(prompt: str = "") -> str:
        print(prompt)
        stop()
        return answer

    return ask


def test_the_host_stopped_while_a_table_was_chosen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _at_home(tmp_path, monkeypatch)
    with contextlib.ExitStack() as stack:
        running = stack.enter_context(host_in_thread())
        running.call(running.host.create_table, "club", RuleSet.of(2), None, 1, 1)
        where = running.address
        monkeypatch.setattr("builtins.input", _stop_then(stack.close, "1"))
        status = main(["join", where])
    out, err = capsys.readouterr()
    assert "table number (1; Enter to stop): " in out
    assert status == EXIT_UNREACHABLE
    assert err == (
        f"scopa-net: the host at {where} has stopped: it listed its tables a moment ago, and "
        "now refuses the connection. Ask whoever runs it to start it again, then run "
        f"`scopa-net join {where}` again.\n"
    )


def test_the_host_stopped_while_it_was_picked_from_the_lan_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from scopa_net.server import discovery
    from scopa_net.wire.messages import PROTOCOL_VERSION

    _at_home(tmp_path, monkeypatch)
    with contextlib.ExitStack() as stack:
        running = stack.enter_context(host_in_thread())
        found = discovery.HostAdvert(
            "kitchen", running.port, PROTOCOL_VERSION, 1, password=False, addresses=("127.0.0.1",)
        )
        monkeypatch.setattr(discovery, "browse_hosts", lambda seconds, interfaces: [found])
        monkeypatch.setattr(discovery, "browse_interfaces", lambda: ["192.0.2.1"])
        where = running.address
        monkeypatch.setattr("builtins.input", _stop_then(stack.close, "1"))
        status = main(["join"])
    out, err = capsys.readouterr()
    assert "host number (1, Enter to stop): " in out
    assert status == EXIT_UNREACHABLE
    assert err == (
        f"scopa-net: the host at {where} has stopped: it was on the LAN's list a moment ago, "
        "and now refuses the connection. Ask whoever runs it to start it again, then run "
        "`scopa-net join` again.\n"
    )
