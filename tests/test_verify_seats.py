"""``scopa-net verify`` knows, from a seat's transcript alone, who could send each seat's seed
(protocol.md 6.1 ``seated``, 6.2 step 3): a real host's honest match with a computer player and
a person who stepped away verifies, and says nothing is left unchecked; the host's own export
of it (a version 2 file, without ``seated``) verifies as before, with one line saying what could
not be checked."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import trio
from hosting import ada_plays_a_match_with_bruno, create

from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.client.session import RoundStarted
from scopa_net.commands.main import main
from scopa_net.commands.verify_gaps import UNSEATED_WORDS
from scopa_net.fair.commitments import fingerprint
from scopa_net.fair.transcript import FORMAT_VERSION, SEATED_FORMAT_VERSION, decode
from scopa_net.rules import RuleSet

PLAYERS = 3
TARGET = 11
"""Three players to 11 points: a match of several rounds, so that the rounds after Bruno stepped
away are dealt without him."""


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The client's data directory (pinned keys, transcripts), never the real one."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "scopa-net"


async def bruno_steps_away(port: int, table_id: int) -> None:
    """Bruno sits at the table, and steps away for good once round 1 is dealt: a computer
    stands in for him, and his seat sends no seed from then on."""
    async with open_network_session(
        "127.0.0.1", port, TableChoice(table_id=table_id), name="Bruno"
    ) as session:
        async for event in session.events:
            if isinstance(event, RoundStarted):
                break
        await session.leave(away=True)


async def honest_match(data: Path) -> tuple[bytes, bytes, bytes]:
    """Ada plays a whole match at a real host (loopback TCP) with the host's computer player
    and Bruno, who steps away in round 1. Ada's saved transcript, and the host's export of
    her seat's (the same match)."""
    table = create(RuleSet.of(PLAYERS, TARGET), bots=1)
    return await ada_plays_a_match_with_bruno(data, table, bruno_steps_away, 120)


def verified(capsys: pytest.CaptureFixture[str], path: Path, key: bytes) -> list[str]:
    capsys.readouterr()
    status = main(["verify", "--quiet", "--pin", fingerprint(key), str(path)])
    out = capsys.readouterr().out.splitlines()
    assert status == 0, out
    return out


def test_an_honest_match_with_a_computer_and_a_seat_stepped_away_verifies(
    data_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved, exported, key = trio.run(honest_match, data_home)
    mine = decode(saved)
    assert mine.plain_version == SEATED_FORMAT_VERSION
    seated = [r.seated for r in mine.rounds]
    computer = {s for r in seated for s, k in enumerate(r) if k == "computer"}
    assert len(computer) == 1  # the host's computer player, every round
    assert all(r[s] == "computer" for r in seated for s in computer)
    assert seated[0].count("person") == 2  # round 1: Ada and Bruno, both at the table
    assert len(seated) >= 2
    assert all(r.count("absent") == 1 for r in seated[1:])  # Bruno, away from round 2
    for r in mine.rounds:  # no commitment came for a seat no person's client held
        assert all(c is None for c, k in zip(r.commits, r.seated, strict=True) if k != "person")
    path = tmp_path / "ada.scopa"
    path.write_bytes(saved)
    out = verified(capsys, path, key)
    assert out[-1] == "VERIFIED"
    assert not [line for line in out if line.startswith("not checked")]

    old = decode(exported)  # the host's export: no seated
    assert old.plain_version == FORMAT_VERSION
    path = tmp_path / "exported.scopa"
    path.write_bytes(exported)
    out = verified(capsys, path, key)
    older = tmp_path / "older-client.scopa"  # Ada's file as a client before version 5 wrote it
    older.write_bytes(dataclasses.replace(mine, plain_version=FORMAT_VERSION).encode())
    assert verified(capsys, older, key)[-2:] == out[-2:]
    assert out[-2:] == [
        "not checked: this file (a host's export, or an older client's: transcript version 2) "
        "does not record which seats were computer players or away, so a seed the host "
        "slipped in for one of them cannot be refused here; the file the seat's own client "
        "saved records it",
        "VERIFIED",
    ]
    assert out[-2] == UNSEATED_WORDS
