"""A client that cannot save (a transcript, the seats' names, a pinned host key, a kept seat)
plays on and says so once, in one line: what could not be saved, where, why, and what that
costs. The whole app over loopback TCP against a real host."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from types import SimpleNamespace

import pytest
import trio
from app_driver import leaving_in_round, playing, run_app
from cheats import leave_out_after_its_receipt
from helpers import unwritable
from hosting import HostThread, create, start_host

from scopa_net.client.network_session import NetworkSession, TableChoice, open_network_session
from scopa_net.client.seat_store import SeatStore
from scopa_net.commands.options import EXIT_DEAL_FAILED
from scopa_net.fair.commitments import fingerprint
from scopa_net.rules import RuleSet


def a_match_saving_in(
    data_dir: Path, *, store: bool = False, rules: RuleSet | None = None, driver=None
) -> tuple[int, str]:
    """One match to 1 point against a computer player at a real host, the person's client
    keeping its files in ``data_dir`` (and its seat, with ``store``); status and screen."""

    @asynccontextmanager
    async def opener() -> AsyncIterator[NetworkSession]:
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0)
            choice = TableChoice(create=create(rules or RuleSet.of(2, 1), bots=1))
            async with open_network_session(
                "127.0.0.1",
                host.port,
                choice,
                name="Ada",
                data_dir=data_dir,
                store=SeatStore(data_dir) if store else None,
            ) as session:
                yield session
            nursery.cancel_scope.cancel()

    status, text, _ = run_app(
        rules or RuleSet.of(2, 1), driver or playing(), opener=opener, plain=True
    )
    return status, text


def lines_with(text: str, words: str) -> list[str]:
    """The screen's lines holding ``words``, without a prompt drawn before them (the prompt
    and the line after it can share a row of the recorded screen)."""
    rows = [line.strip() for line in text.splitlines() if words in line]
    return [row.removeprefix("scopa>").strip() for row in rows]


def test_leaving_part_way_says_where_the_unfinished_transcript_is(tmp_path: Path) -> None:
    """Quitting in round 2 said only "Leaving the table." though round 1's transcript was
    saved: it says where, as the end of a match does."""
    status, text = a_match_saving_in(tmp_path, rules=RuleSet.of(2, 21), driver=leaving_in_round(2))
    assert status == 0, text
    (saved,) = (tmp_path / "transcripts").iterdir()
    assert lines_with(text, "Leaving the table") == ["Leaving the table."]
    assert lines_with(text, "The match so far is saved") == [
        f"The match so far is saved, UNFINISHED: {saved}"
    ]
    # The command on a line of its own, whole, to copy (it ran on after "check its rounds
    # with:", cut between its words on a narrow terminal).
    assert lines_with(text, "Check its rounds with") == ["Check its rounds with:"]
    assert lines_with(text, "scopa-net verify") == [f"scopa-net verify {saved}"]


def test_leaving_for_good_part_way_says_where_the_unfinished_transcript_is(
    tmp_path: Path,
) -> None:
    """`join`'s quit, then `leave`, in round 2 said only "Leaving the table for good; a
    computer player takes your seat." though round 1's transcript was saved: it says where,
    as quitting a game that keeps no seat does."""
    driver = leaving_in_round(2, answer="leave")
    status, text = a_match_saving_in(tmp_path, store=True, rules=RuleSet.of(2, 21), driver=driver)
    assert status == 0, text
    (saved,) = (tmp_path / "transcripts").iterdir()
    assert lines_with(text, "Leaving the table") == [
        "Leaving the table for good; a computer player takes your seat."
    ]
    assert lines_with(text, "The match so far is saved") == [
        f"The match so far is saved, UNFINISHED: {saved}"
    ]
    assert lines_with(text, "scopa-net verify") == [f"scopa-net verify {saved}"]


def test_a_data_folder_that_is_a_file_costs_the_saves_not_the_game(tmp_path: Path) -> None:
    """The first transcript save (the end of round 1) was a NotADirectoryError traceback
    that ended the game; the pinned key's and the kept seat's were logged to stderr."""
    data_dir = tmp_path / "scopa-net"
    data_dir.write_text("not a folder")
    status, text = a_match_saving_in(data_dir, store=True)
    assert status == 0, text
    assert "Traceback" not in text
    assert "The game stopped" not in text
    assert "won the match" in text or "win the match" in text or "wins the match" in text
    why = f"{data_dir} is a file, not a folder"
    pin = lines_with(text, "Could not pin this host's key")
    assert pin == [
        f"Could not pin this host's key: {why}. The game goes on, but the next `scopa-net "
        "join` to this host will meet it as new."
    ]
    seat = lines_with(text, "Could not save your seat")
    assert seat == [
        f"Could not save your seat: {why}. The game goes on, but if this client stops, "
        "`scopa-net join` cannot take the seat back."
    ]
    # Saved after round 1 and again with the match's result: told once.
    transcript = lines_with(text, "Could not save the transcript")
    assert transcript == [
        f"Could not save the transcript: {why}. The game goes on, but `scopa-net verify` "
        "will not have round 1 (nor later rounds while saving fails)."
    ]
    assert "Transcript saved" not in text
    assert data_dir.read_text() == "not a folder"


def test_a_folder_that_cannot_be_written_says_permission_denied(tmp_path: Path) -> None:
    """(As root, a folder under /sys: root writes anywhere else.)"""
    if os.geteuid() == 0:
        data_dir = refused = Path("/sys/scopa-net")
    else:
        data_dir, refused = tmp_path, tmp_path / "transcripts"
        refused.mkdir(mode=0o500)
    status, text = a_match_saving_in(data_dir)
    assert status == 0, text
    assert lines_with(text, "Could not save the transcript") == [
        f"Could not save the transcript: permission denied for {refused}. The game goes on, "
        "but `scopa-net verify` will not have round 1 (nor later rounds while saving fails)."
    ]


def test_the_seats_names_that_cannot_be_saved_leave_the_transcript_saved(
    tmp_path: Path,
) -> None:
    """The transcript is saved; the names beside it cannot be: `verify` shows seats only."""
    (tmp_path / "transcript-names").write_text("in the way")
    status, text = a_match_saving_in(tmp_path)
    assert status == 0, text
    assert lines_with(text, "Could not save the seats' names") == [
        f"Could not save the seats' names beside the transcript: {tmp_path}/transcript-names "
        "is a file, not a folder. `scopa-net verify` will show the seats without names."
    ]
    assert lines_with(text, "Transcript saved: ")
    assert len(list((tmp_path / "transcripts").iterdir())) == 1


def test_evidence_that_cannot_be_saved_is_said_in_the_banner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failed deal check whose evidence could not be saved said nothing of it on screen
    (a log line on stderr, drawn over by the prompt)."""
    leave_out_after_its_receipt(monkeypatch, 0)
    data_dir = tmp_path / "scopa-net"
    data_dir.write_text("not a folder")
    status, text = a_match_saving_in(data_dir)
    assert status == EXIT_DEAL_FAILED
    banner = text[text.index("DEAL CHECK FAILED") :]
    assert "Evidence saved" not in banner
    assert lines_with(banner, "evidence") == [
        f"Could not save the evidence: {data_dir} is a file, not a folder."
    ]


def test_join_with_a_data_folder_that_is_a_file_plays_and_says_so_once(
    tmp_path: Path, threaded_host: HostThread
) -> None:
    """`join` pinned the host's key before sitting down: a NotADirectoryError traceback and
    status 1, nothing joined."""
    (tmp_path / "scopa-net").write_text("not a folder")
    join = ("join", threaded_host.address, "--create", "--players", "2", "--bots", "1")
    done = from_a_script(tmp_path, *join, "--target", "1", "--name", "Ada", input="who\n")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"First visit to the host at {threaded_host.address}: its key is")
    assert lines[0].endswith("The host prints its key when it starts: compare the two.")
    assert [line for line in lines if "host's key" in line] == [
        f"Could not pin this host's key: {tmp_path}/scopa-net is a file, not a folder. The "
        "game goes on, but the next `scopa-net join` to this host will meet it as new."
    ]
    assert "Seat 0: Ada (you)" in lines or "Seat 1: Ada (you)" in lines


def from_a_script(data_home: Path, *args: str, input: str) -> subprocess.CompletedProcess[str]:
    """``scopa-net ARGS`` from a script typing ``input``, its data under ``data_home`` and no
    settings file."""
    return subprocess.run(
        [sys.executable, "-m", "scopa_net", *args],
        capture_output=True,
        text=True,
        input=input,
        env=dict(os.environ) | {"XDG_DATA_HOME": str(data_home), "XDG_CONFIG_HOME": "/nowhere"},
        timeout=60,
        check=False,
    )


def with_a_file_for_data_folder(
    tmp_path: Path, *args: str, input: str
) -> subprocess.CompletedProcess[str]:
    """``scopa-net ARGS`` from a script, its data folder (``tmp_path/scopa-net``) a file."""
    (tmp_path / "scopa-net").write_text("not a folder")
    return from_a_script(tmp_path, *args, input=input)


def test_play_with_a_data_folder_that_is_a_file_says_so_on_screen_not_on_stderr(
    tmp_path: Path,
) -> None:
    """`play` notes its own host's key for `verify`: that failing was a log line on stderr
    ("cannot note this host's key: [Errno 20] ..."), drawn over by the prompt."""
    done = with_a_file_for_data_folder(
        tmp_path, "play", "--target", "1", "--bot-delay", "0", input="board\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert lines_with(done.stdout, "host's key") == [
        f"Could not save this host's key: {tmp_path}/scopa-net is a file, not a folder. The "
        "game goes on, but `scopa-net verify` will not know its transcripts as your own host's."
    ]


def test_a_tally_that_cannot_be_saved_is_kept_and_said_once(tmp_path: Path) -> None:
    """`tally Ada Bruno` with its folder unusable refused to start ("cannot save in ...",
    status 2); a save failing later said "Could not save the tally (Not a directory)" at
    every entry, with no place, and leaving said "Saved as ..." all the same. From a script
    what went wrong goes to stderr, the scores to stdout."""
    done = with_a_file_for_data_folder(
        tmp_path, "tally", "Ada", "Bruno", input="+2 Ada\ndone\ny\nBruno 3\ndone\ny\nquit\n"
    )
    assert done.returncode == 0, done.stderr
    assert lines_with(done.stdout, "Could not save") == []
    assert done.stderr.splitlines() == [
        f"Could not save the tally: {tmp_path}/scopa-net is a file, not a folder. Scoring goes "
        "on here, but `scopa-net tally --resume` will not have it while saving fails."
    ]
    assert "  1. Bruno   3   8 to go" in done.stdout.splitlines()
    assert done.stdout.splitlines()[-1] == (
        "Not saved: `scopa-net tally --resume` will not have this tally."
    )


@pytest.mark.parametrize(
    ("where", "error"),
    [
        ("delete", NotADirectoryError(20, "Not a directory")),
        ("save", RuntimeError("the seat store fell over")),
    ],
)
def test_an_error_inside_the_session_ends_the_game_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str, error: Exception
) -> None:
    """A seat store that raised at the match's end (forgetting the seat: NotADirectoryError)
    was taken for a lost connection: the client tried to get back to the host for 5 minutes,
    the app hung. Any error from the session's own code ends the game at once, in one line."""

    def fails(*_: object) -> None:
        raise error

    monkeypatch.setattr(SeatStore, where, fails)
    started = time.monotonic()
    status, text = a_match_saving_in(tmp_path, store=True)
    assert time.monotonic() - started < 10
    assert status == 1, text
    kind = type(error).__name__
    assert lines_with(text, "The game stopped") == [
        f"The game stopped on an internal error ({kind}: {error}). This is a bug in scopa-net: "
        "please report it."
    ]
    assert "Traceback" not in text


def test_join_accepting_a_new_key_it_cannot_pin_plays_and_says_so_once(
    tmp_path: Path, threaded_host: HostThread
) -> None:
    """`join --accept-new-key` with the known hosts file in a folder it could not write
    ended in a PermissionError traceback, nothing joined."""
    data_dir = tmp_path / "scopa-net"
    data_dir.mkdir(mode=0o700)
    address = threaded_host.address
    (data_dir / "known_hosts").write_text(f"{address} {bytes(32).hex()}\n")
    join = ("join", address, "--create", "--players", "2", "--bots", "1", "--target", "1")
    with unwritable(data_dir):
        done = from_a_script(tmp_path, *join, "--name", "Ada", "--accept-new-key", input="who\n")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    new = fingerprint(threaded_host.host.public_key)
    assert "WARNING" not in done.stdout  # accepted: not warned of again in the game
    assert lines_with(done.stdout, "new key") == [
        f"Could not pin the new key {new} for {address}: permission denied for {data_dir}. "
        "The game goes on with it, but the next `scopa-net join` to this host meets the old "
        "key and stops again."
    ]
    assert "Seat 0: Ada (you)" in done.stdout or "Seat 1: Ada (you)" in done.stdout
    assert (data_dir / "known_hosts").read_text() == f"{address} {bytes(32).hex()}\n"


def test_a_refusal_from_the_host_inside_trio_s_group_is_said_as_itself() -> None:
    """What the session raises after sitting down comes out of trio's nurseries in a group: a
    table closed by its owner (a SessionError, said in the command's own sentence, status 1)
    would have been called "an internal error ... a bug in scopa-net"."""
    import asyncio

    import outcome
    from prompt_toolkit.formatted_text import FormattedText

    from scopa_net.client.app import exit_status
    from scopa_net.client.network_session import (
        HostKeyChangedError,
        MoveUnansweredError,
        TableClosedError,
    )

    closed = TableClosedError("the table closed before the match ended")
    done = outcome.Error(ExceptionGroup("nursery", [ExceptionGroup("inner", [closed])]))
    shown: list[FormattedText] = []

    class Printer:
        def show(self, lines: list[FormattedText]) -> None:
            shown.extend(lines)

        def flush(self) -> None:
            pass

    async def idle() -> None:
        pass

    async def finished_prompt() -> asyncio.Task[None]:
        prompt = asyncio.ensure_future(idle())
        await prompt
        return prompt

    prompt = asyncio.run(finished_prompt())
    with pytest.raises(TableClosedError) as raised:
        exit_status(SimpleNamespace(result=lambda: done), prompt, Printer())  # type: ignore[arg-type]
    assert raised.value is closed
    assert shown == []
    # A move waiting for the host when the session stopped fails beside it: the session's
    # error is said, not "an internal error (ExceptionGroup: ... (2 sub-exceptions))".
    changed = HostKeyChangedError("the host at 127.0.0.1:1 now has key ...")
    unanswered = MoveUnansweredError("the session ended before the host answered that move")
    both = ExceptionGroup("nursery", [changed, ExceptionGroup("moves", [unanswered])])
    with pytest.raises(HostKeyChangedError) as raised_too:
        exit_status(SimpleNamespace(result=lambda: outcome.Error(both)), prompt, Printer())  # type: ignore[arg-type]
    assert raised_too.value is changed
    assert shown == []
    bug = outcome.Error(ExceptionGroup("nursery", [RuntimeError("boom")]))
    assert exit_status(SimpleNamespace(result=lambda: bug), prompt, Printer()) == 1  # type: ignore[arg-type]
    assert "internal error (RuntimeError: boom)" in "".join(t for _, t, *_ in shown[0])
