"""Host keys and saved files as a person meets them (issue 15): a changed key stops `join`
before any table is chosen and says how to accept it; solo `play` pins nothing; at the end of
a match the client says where the transcript is and how to check it."""

from __future__ import annotations

import builtins
from pathlib import Path
from typing import Any

import pytest
import trio
from hosting import HostThread

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.embedded import open_embedded_game
from scopa_net.client.session import MatchOver, Message
from scopa_net.commands.main import main
from scopa_net.commands.options import EXIT_CANCELLED, EXIT_KEY_CHANGED
from scopa_net.fair.commitments import fingerprint
from scopa_net.rules import RuleSet


@pytest.fixture
def host_address(threaded_host: HostThread) -> tuple[str, bytes]:
    """A host with one open table: its address and its public key."""
    threaded_host.call(threaded_host.host.create_table, "one", RuleSet.of(2), None, 0, 1)
    return threaded_host.address, threaded_host.host.public_key


def ctrl_d(prompt: str = "") -> str:
    """Ctrl-D at a question."""
    raise EOFError


def known_hosts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lines: str) -> Path:
    """A data folder in ``tmp_path`` whose known_hosts holds ``lines``; the first question
    asked is answered with Ctrl-D (the tables listed, nothing joined)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    pins = tmp_path / "scopa-net" / "known_hosts"
    pins.parent.mkdir(parents=True)
    pins.write_text(lines)
    monkeypatch.setattr(builtins, "input", ctrl_d)
    return pins


def test_a_changed_key_stops_join_before_any_table_is_chosen(
    host_address: tuple[str, bytes],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
) -> None:
    address, key = host_address
    old = bytes(32)
    pins = known_hosts(
        tmp_path, monkeypatch, f"other:7311 {bytes(range(32)).hex()}\n{address} {old.hex()}\n"
    )

    def no_question(prompt: str = "") -> str:
        raise AssertionError(f"asked {prompt!r} before the key warning")

    monkeypatch.setattr(builtins, "input", no_question)
    assert main(["join", address]) == EXIT_KEY_CHANGED
    err = capfd.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert f"now has key {fingerprint(key)}" in err
    assert fingerprint(old) in err
    assert str(pins) in err
    assert f"scopa-net join {address} --accept-new-key" in err

    monkeypatch.setattr(builtins, "input", ctrl_d)
    assert main(["join", address, "--accept-new-key"]) == EXIT_CANCELLED
    out = capfd.readouterr().out
    assert f"pinned the new key {fingerprint(key)} for {address}" in out
    assert "table 1 'one'" in out  # the tables come after the key is settled
    assert pins.read_text().splitlines() == [
        f"other:7311 {bytes(range(32)).hex()}",
        f"{address} {key.hex()}",
    ]


def test_solo_play_pins_nothing_and_says_where_the_transcript_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Solo play pins no address, but notes its own host's key (own_hosts): the client says
    "Check it any time with: scopa-net verify FILE", and once this client had pinned any
    other host, that command said "REFUSED: host key ... is not a key pinned"."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    tmp_path = tmp_path / "scopa-net"  # the data directory, as the commands find it
    notices: list[str] = []

    class Watched:
        """The session, with its notices noted as the bot reads its events."""

        def __init__(self, session: Any) -> None:
            self._session = session
            self.events = self

        def __getattr__(self, name: str) -> Any:
            return getattr(self._session, name)

        async def receive(self) -> object:
            event = await self._session.events.receive()
            if isinstance(event, Message) and event.local:
                notices.append(event.text)
            elif isinstance(event, MatchOver):
                notices.append("(the match's result)")
            return event

    async def play() -> None:
        rules = RuleSet.of(2, target=1)
        game = open_embedded_game(rules, name="Ada", level="random", delay=0, data_dir=tmp_path)
        async with game as session:
            watched = Watched(session)
            await play_as_bot(watched, make_player("random", 5))

    trio.run(play)
    assert not (tmp_path / "known_hosts").exists()
    saved = list((tmp_path / "transcripts").iterdir())
    assert len(saved) == 1
    # Where the transcript is comes before the match's result, so the result (and a rematch
    # question after it) is what stands just above the prompt.
    assert notices[-4:] == [
        f"Transcript saved: {saved[0]}",
        "Check it any time with:",
        f"  scopa-net verify {saved[0]}",
        "(the match's result)",
    ]
    assert any(n.startswith("Deal check: verified") for n in notices)
    assert main(["verify", str(saved[0])]) == 0
    (own,) = (tmp_path / "own_hosts").read_text().split()
    assert saved[0].name.startswith(fingerprint(bytes.fromhex(own)).replace("-", "")[:12])
    # A friend's host pinned since: the file is still trusted, its host being this client's own.
    (tmp_path / "known_hosts").write_text(f"other:7311 {bytes(range(32)).hex()}\n")
    capsys.readouterr()
    assert main(["verify", str(saved[0])]) == 0
    assert "REFUSED" not in capsys.readouterr().out


def test_a_saved_file_is_shown_as_it_can_be_pasted(monkeypatch: pytest.MonkeyPatch) -> None:
    from scopa_net.client.files import shown_path as _shown_path

    monkeypatch.setenv("HOME", "/home/ada")
    assert _shown_path(Path("/home/ada/.local/share/t.scopa")) == "~/.local/share/t.scopa"
    assert _shown_path(Path("/home/ada/my files/t.scopa")) == "'/home/ada/my files/t.scopa'"
    assert _shown_path(Path("/srv/t.scopa")) == "/srv/t.scopa"


def test_a_host_met_for_the_first_time_shows_its_fingerprint(
    host_address: tuple[str, bytes],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
) -> None:
    """protocol.md 5.3: the client pins a new host's key and shows its fingerprint, for the
    person to compare with the one the host prints; it was pinned without a word."""
    address, key = host_address
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(builtins, "input", ctrl_d)
    assert main(["join", address]) == EXIT_CANCELLED
    out = capfd.readouterr().out
    assert f"First visit to the host at {address}: its key is {fingerprint(key)}." in out
    assert main(["join", address]) == EXIT_CANCELLED
    assert "First visit" not in capfd.readouterr().out  # once is enough


def test_a_key_met_at_another_address_is_joined_with_a_note_and_both_pins_kept(
    host_address: tuple[str, bytes],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
) -> None:
    """Two hosts taking turns at one address (DHCP gave Olga's address to Ugo's machine the
    next evening): Ugo's key, met at his old address, is joined at Olga's with one line saying
    so, and neither pin changes, so Olga's host is still known at her address."""
    address, key = host_address
    olga = bytes(range(32))
    before = f"192.0.2.2:42970 {key.hex()}\n{address} {olga.hex()}\n"
    pins = known_hosts(tmp_path, monkeypatch, before)
    assert main(["join", address]) == EXIT_CANCELLED  # the tables listed, then Ctrl-D
    out = capfd.readouterr().out
    assert (
        f"The host at {address} now signs with key {fingerprint(key)}, the key of the host you "
        f"met at 192.0.2.2:42970, not {fingerprint(olga)}, the one you met here: joining that "
        "host." in " ".join(out.split())
    )
    assert "table 1 'one'" in out
    assert pins.read_text() == before


def test_a_first_visit_to_a_key_met_elsewhere_says_it_is_the_same_host(
    host_address: tuple[str, bytes],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
) -> None:
    address, key = host_address
    pins = known_hosts(tmp_path, monkeypatch, f"192.0.2.2:42970 {key.hex()}\n")
    assert main(["join", address]) == EXIT_CANCELLED
    out = " ".join(capfd.readouterr().out.split())
    assert (
        f"The host at {address} signs with key {fingerprint(key)}, the key of the host you met "
        "at 192.0.2.2:42970: the same host, at another address." in out
    )
    assert "First visit" not in out
    assert pins.read_text().splitlines()[-1] == f"{address} {key.hex()}"
