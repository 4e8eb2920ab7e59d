"""Transcripts of a host whose key this client pinned, after `join --accept-new-key` at that
address. A club's evening: the host machine's journal was started afresh (a new key), each
player accepted the new key, and `scopa-net verify` on the evening's earlier transcripts, which
their client had checked and saved under the key it trusted then, said "REFUSED: host key ...
is not a key you trust" and NOT VERIFIED for every one. A key replaced stays trusted for what
it signed."""

from __future__ import annotations

from pathlib import Path

import pytest

from scopa_net.client.known_hosts import KnownHosts
from scopa_net.commands.main import main
from scopa_net.fair.simulate import simulate_match
from scopa_net.fair.transcript import decode
from scopa_net.rules import RuleSet


@pytest.fixture(autouse=True)
def no_real_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """verify reads the client's pinned keys: never the real ones."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def test_a_file_signed_under_a_key_replaced_by_accept_new_key_still_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = simulate_match(RuleSet.of(2, 1), 4).transcripts[0].encode()
    known = KnownHosts(tmp_path / "data" / "scopa-net" / "known_hosts")
    assert known.check("127.0.0.1:43900", decode(saved).host_key) is None  # first met
    known.pin("127.0.0.1:43900", bytes(range(32)))  # --accept-new-key, later that evening
    path = tmp_path / "earlier.scopa"
    path.write_bytes(saved)
    status = main(["verify", "--quiet", str(path)])
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "VERIFIED", out
    assert status == 0
    assert known.pinned("127.0.0.1:43900") == bytes(range(32))  # the new key is the one met
