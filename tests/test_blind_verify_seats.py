"""``scopa-net verify`` knows, from a seat's blind transcript alone, which seats a computer held
when each round's parties were fixed (protocol.md 9.8 ``seated``, version 6; 9.9 step 1): a
round whose ``people`` name the host's own computer player is refused from the file, with the
client's "stopped" note taken out; an honest blind match with a computer player and a person who
stepped away verifies and says nothing is left unchecked; the host's export of it, and an older
client's file (version 4), verify as before with one line saying what could not be checked."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import trio
from blind_document_verifier import verify as document_verify
from hosting import ada_plays_a_match_with_bruno, create, start_host

from scopa_net.bots.levels import make_player
from scopa_net.client.network_session import (
    DealCheckFailedError,
    TableChoice,
    open_network_session,
)
from scopa_net.commands.main import main
from scopa_net.commands.verify_gaps import unseated_blind_words
from scopa_net.fair.blind.wire import decode_any
from scopa_net.fair.commitments import fingerprint
from scopa_net.fair.transcript import BLIND_FORMAT_VERSION, BLIND_SEATED_FORMAT_VERSION
from scopa_net.rules import RuleSet
from scopa_net.server.blind_table import BlindTable

BRUNO, COMPUTER = 1, 2
"""Ada opens a table for three at seat 0 with one computer player, who takes the last seat;
Bruno joins at seat 1."""


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The client's data directory (pinned keys, transcripts), never the real one."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "scopa-net"


def verify(capsys: pytest.CaptureFixture[str], key: bytes, *args: str | Path) -> list[str]:
    """What ``scopa-net verify --pin KEY ARGS`` prints, line by line."""
    capsys.readouterr()
    main(["verify", "--quiet", "--pin", fingerprint(key), *map(str, args)])
    return capsys.readouterr().out.splitlines()


async def bruno_plays_round_1_then_steps_away(port: int, table_id: int) -> None:
    """Bruno plays round 1 at random and steps away once it is scored: a computer plays his
    seat for the host from round 2, and his client is an observer of those rounds."""
    async with open_network_session(
        "127.0.0.1", port, TableChoice(table_id=table_id), name="Bruno"
    ) as session:
        player = make_player("random", 3)
        while True:
            view = session.view
            if view is not None and view.round_score is not None:
                await session.leave(away=True)
                return
            if view is not None and view.my_turn and not view.round_over:
                await session.submit(player.choose(view))
            await session.events.receive()


async def honest_blind_match(data: Path) -> tuple[bytes, bytes, bytes]:
    """Ada plays a whole blind match at a real host (loopback TCP) with the host's computer
    player and Bruno, who steps away after round 1. Ada's saved transcript, the host's export
    of her seat's, and the host's key."""
    table = create(RuleSet.of(3, 11), bots=1, blind=True)
    return await ada_plays_a_match_with_bruno(data, table, bruno_plays_round_1_then_steps_away, 600)


def test_an_honest_blind_match_with_a_computer_and_a_seat_stepped_away_verifies(
    data_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved, exported, key = trio.run(honest_blind_match, data_home)
    mine = decode_any(saved)
    assert mine.blind
    assert mine.blind_version == BLIND_SEATED_FORMAT_VERSION
    assert len(mine.rounds) >= 2
    for r in mine.rounds:  # Bruno's seat stays a person's while a computer plays it
        assert r.seated == ("person", "person", "computer")
    assert mine.rounds[0].people == (0, BRUNO)
    assert mine.rounds[-1].people == (0,)  # Bruno away: a computer plays his seat
    path = tmp_path / "ada.scopa"
    path.write_bytes(saved)
    out = verify(capsys, key, path)
    assert out[-1] == "VERIFIED", out
    assert document_verify(saved).ok  # an outsider's verifier, from protocol.md 9.8 and 9.9
    assert not [line for line in out if line.startswith("not checked")], out

    gap = unseated_blind_words(BLIND_FORMAT_VERSION)
    assert gap == (
        "not checked: this file (a host's export, or an older client's: blind transcript "
        "version 4) does not record which seats a computer held, so a round that made a "
        "computer's seat a party (a party the host plays itself) cannot be refused here; the "
        "file the seat's own client saved records it"
    )
    export = tmp_path / "exported.scopa"
    export.write_bytes(exported)
    assert decode_any(exported).blind_version == BLIND_FORMAT_VERSION
    assert verify(capsys, key, export)[-2:] == [gap, "VERIFIED"]
    older = tmp_path / "older-client.scopa"  # Ada's file as a client before version 6 wrote it
    older.write_bytes(dataclasses.replace(mine, blind_version=BLIND_FORMAT_VERSION).encode())
    assert verify(capsys, key, older)[-2:] == [gap, "VERIFIED"]

    (line,) = verify(capsys, key, "--brief", export)
    assert line.startswith(f"{export}: VERIFIED: "), line
    assert line.endswith(
        "; not checked: whether a computer's seat was made a party (blind transcript version 4)"
    )
    (line,) = verify(capsys, key, "--brief", path)
    assert line.startswith(f"{path}: VERIFIED: "), line
    assert "not checked" not in line


async def reads_until_it_ends(port: int, choice: TableChoice, data: Path) -> None:
    """Ada's client at the table ``choice``, reading every event until her session ends."""
    async with open_network_session("127.0.0.1", port, choice, name="Ada", data_dir=data) as ada:
        async for _ in ada.events:
            pass


async def ada_at_a_host_that_names_its_computer_a_party(data: Path) -> tuple[str, bytes]:
    """Ada's real client at our real host, made to count its own computer player's seat as a
    person's: its ``blind_round`` names that seat among the people. The first line of the
    banner Ada reads, and the host's key."""
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0)
            choice = TableChoice(create=create(RuleSet.of(2, 16), bots=1, blind=True))
            with pytest.raises(DealCheckFailedError) as stopped:
                await reads_until_it_ends(host.port, choice, data)
            nursery.cancel_scope.cancel()
    return stopped.value.banner.splitlines()[0], host.public_key


def test_a_blind_round_naming_the_hosts_computer_a_party_is_refused_by_verify_alone(
    data_home: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(BlindTable, "_person", lambda self, seat: True)
    banner, key = trio.run(ada_at_a_host_that_names_its_computer_a_party, data_home)
    assert banner.startswith("DEAL CHECK FAILED in round 1: computer party"), banner
    (saved,) = (data_home / "transcripts").glob("*.scopa")
    evidence = decode_any(saved.read_bytes())
    assert evidence.stopped is not None
    assert evidence.stopped.round_no == 1
    (kept,) = evidence.rounds  # the round Ada refused, as the host signed it
    assert kept.people == (0, 1)  # seat 1: the host's computer player
    assert kept.seated == ("person", "computer")
    bare = tmp_path / "no-note.scopa"  # the "stopped" note taken out: the file alone
    bare.write_bytes(dataclasses.replace(evidence, stopped=None).encode())
    out = verify(capsys, key, bare)
    meaning = (
        "round 1: the host made a seat a computer holds a party of the round, with a key of its "
        "own choosing, as if a person played it: it could then say that person dropped, to "
        "call off a deal it dislikes once it has seen its first cards"
    )
    assert out[2:] == [
        meaning,
        "  round 1: FAILED: computer party: round 1: the host named seat 1 among the "
        "round's people, a seat a computer holds; only a seat a person plays is a party",
        "match result: not checked (round 1 failed)",
        "NOT VERIFIED",
    ], out
    outsider = document_verify(bare.read_bytes()).rounds[0].error
    assert outsider is not None
    assert outsider.check == "computer party"
    (line,) = verify(capsys, key, "--brief", bare)
    assert line == f"{bare}: NOT VERIFIED: {meaning}", line
