"""`scopa-net verify` on the host's own machine, of the host's own exports: the key file of a
host whose journal is there (``host.key`` beside the default journal) is this machine's host's,
trusted as `play`'s own hosts are. Run there without --pin, an export said "compared with
none" while `history --export` had just printed its --pin. A key a file merely names is never
trusted: another host's export is refused. Real host over loopback TCP, real journals."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import trio
from hosting import play_one_match

from scopa_net.commands.main import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    capsys.readouterr()
    status = main(list(argv))
    return status, capsys.readouterr().out.splitlines()


def test_the_hosts_own_exports_verify_on_its_machine_without_pin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = Path(os.environ["XDG_DATA_HOME"]) / "scopa-net"
    trio.run(lambda: play_one_match(str(data / "host.db"), name="Ada"))  # the default journal
    elsewhere = str(tmp_path / "other" / "host.db")  # another host's journal and key
    trio.run(lambda: play_one_match(elsewhere, name="Bruno"))
    ours, theirs = tmp_path / "ours.scopa", tmp_path / "theirs.scopa"
    status, wrote = run(capsys, "history", "--export", "1", "--out", str(ours))
    assert status == 0, wrote
    pin = re.search(r"--pin ([0-9a-f-]+)", wrote[0])
    assert pin, wrote
    assert run(capsys, "history", "--db", elsewhere, "--export", "1", "--out", str(theirs))[0] == 0

    status, out = run(capsys, "verify", str(ours))
    assert status == 0, out
    assert out[-1] == "VERIFIED", out
    assert not any("compared with none" in line or "no pinned host key" in line for line in out)
    key_file = data / "host.key"
    assert f"host key {pin[1]}: this machine's host (its key {key_file})" in out, out

    status, out = run(capsys, "verify", str(theirs))
    assert status != 0, out
    assert out[-1] == "NOT VERIFIED", out
    refused = next(line for line in out if line.startswith("REFUSED: host key "))
    assert f"your client knows {pin[1]} (this machine's host (its key {key_file}))" in refused
