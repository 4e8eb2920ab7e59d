"""What a person reads while "play again?" is open (protocol.md 3.11), over loopback TCP on a
slow network: a status the host sent before this person's answer reached it does not say the
vote waits for them, and the countdown never goes up."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import trio
from helpers import run_scopa_net
from hosting import Holding, create, start_host

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import NetworkSession, TableChoice, open_network_session
from scopa_net.client.seat_store import SeatStore
from scopa_net.client.session import MatchOver, Message
from scopa_net.commands.options import EXIT_REFUSED
from scopa_net.rules import RuleSet
from scopa_net.server import table_task
from scopa_net.server.host import Host
from scopa_net.wire import messages as m

SHORT = RuleSet.of(2, 1)


async def lines_until(session: NetworkSession, text: str) -> list[str]:
    """The lines the session's person reads, up to the first with ``text`` in it."""
    read = []
    with trio.fail_after(20):
        async for event in session.events:
            if isinstance(event, Message):
                read.append(event.text)
                if text in event.text:
                    return read
    raise AssertionError(f"the session ended before {text!r}: {read}")


async def test_after_answering_a_late_status_does_not_say_the_vote_waits_for_you(
    host: Host,
) -> None:
    """Bea answered y; then read "rematch: waiting for you, Carlo, Dino (59 s left to
    answer)", a status sent before her answer arrived; and the countdown went from 58 s back
    to 59 s."""
    held: list[Holding] = []

    async def slow() -> trio.abc.Stream:
        held.append(Holding(await trio.open_tcp_stream("127.0.0.1", host.port)))
        return held[-1]

    choice = TableChoice(create=create(SHORT))
    async with (
        open_network_session(
            "127.0.0.1", host.port, choice, name="bea", offer_rematch=True, connector=slow
        ) as bea,
        open_network_session(
            "127.0.0.1",
            host.port,
            TableChoice(table_id=bea.table_id),
            name="carlo",
            offer_rematch=True,
        ) as carlo,
    ):
        async with trio.open_nursery() as both:
            for n, session in enumerate((bea, carlo)):
                both.start_soon(play_as_bot, session, make_player("random", n))
        async with trio.open_nursery() as slow_network:
            slow_network.start_soon(held[-1].hold_for, 1.0)  # what the host sends Bea waits
            await carlo.rematch(True)
            await lines_until(carlo, "rematch: waiting for bea;")  # the host sent it to both
            await bea.rematch(True)  # her answer is on its way; Carlo's status is not read yet
        read = await lines_until(bea, "a new match begins")
        assert not [line for line in read if "waiting for you" in line], read
        # A status that says more seconds than one shown before (sent earlier, or by a host
        # restarted in the vote) shows no more than that one; and a line the same as the last
        # is not said again (club night: "rematch: waiting for Dino; 57 s left to answer"
        # twice in a row, once for each of two answers).
        votes = ("waiting", "yes")
        for seconds in (58, 59, 58, 57):
            status = m.RematchStatus(seq=1, match_no=2, state="open", votes=votes, seconds=seconds)
            bea._rematch_status(status)
        read = await lines_until(bea, "; 58 s left to answer")
        read += await lines_until(bea, "s left to answer")
        assert read[-1] == "rematch: waiting for you; 57 s left to answer", read


async def test_a_client_killed_at_play_again_comes_back_with_the_same_join_and_answers(
    host: Host, tmp_path: Path
) -> None:
    """Bea's client was killed at "Play again? y/n": the same `join` said "has no table 1
    with an open seat", and the others read nothing until "no rematch (Bea did not answer in
    time)" a minute later. Now the others read that she lost the connection, her seat is kept
    while the vote is open, and the same command takes it back, asks again, and her answer
    counts."""
    data = tmp_path / "scopa-net"
    choice = TableChoice(create=create(SHORT))
    async with open_network_session(
        "127.0.0.1", host.port, choice, name="ada", offer_rematch=True
    ) as ada:
        table = TableChoice(table_id=ada.table_id)
        async with open_network_session(
            "127.0.0.1",
            host.port,
            table,
            name="bea",
            offer_rematch=True,
            data_dir=data,
            store=SeatStore(data),
        ) as bea:
            ended: list[MatchOver | None] = []

            async def play(session: NetworkSession, n: int) -> None:
                ended.append(await play_as_bot(session, make_player("random", n)))

            async with trio.open_nursery() as both:
                for n, session in enumerate((ada, bea)):
                    both.start_soon(play, session, n)
            assert bea.store is not None  # the match is over: "play again?" on her screen
        # Bea's client is gone while the vote is open (closed: its session said `bye`, as
        # one stopped by SIGTERM or its window closing does; one killed reads "bea lost the
        # connection", tests/test_closed_client_words.py).
        await ada.rematch(True)
        await lines_until(
            ada, "bea's client was closed; their seat is kept until the rematch vote closes"
        )
        command = ("join", f"127.0.0.1:{host.port}", "--table", str(ada.table_id), "--name", "bea")
        ran: list[subprocess.CompletedProcess[str]] = []

        async def bea_again() -> None:
            ran.append(
                await trio.to_thread.run_sync(
                    lambda: run_scopa_net(*command, home=tmp_path, input="y\n")
                )
            )

        async with trio.open_nursery() as both:
            both.start_soon(bea_again)
            read = await lines_until(ada, "a new match begins")
            await ada.leave()  # a computer plays on for her: Bea's input ends, she steps away
        (done,) = ran
    assert done.stdout.startswith(f"Taking back your seat at table {ada.table_id} "), done.stderr
    # The match's end, replayed to the client taking the seat back, in the words it was
    # said live: the last round counted ("ada wins the match, 0 to 0" for a match to 1 said
    # the scores before the last round, as a snapshot keeps them, protocol.md 3.9).
    result = next(r for r in ended if r is not None)
    high, low = sorted(result.match_scores, reverse=True)
    assert result.match_scores[result.winner] == high >= 1
    winner = "You win" if result.winner == 1 else "ada wins"
    # Every round dealt, a deal void for its kings (about 1 in 600) said apart.
    dealt = result.rounds + result.voids
    rounds = f"{dealt} round{'' if dealt == 1 else 's'}"
    rounds += f" ({result.voids} of them void)" if result.voids else ""
    said = f"{winner} the match, {high} to {low}, after {rounds}.\nPlay again"
    assert said in done.stdout, done.stdout
    assert "Play again with the same players?" in done.stdout, done.stdout
    assert "everyone agreed: a new match begins" in done.stdout, done.stdout
    assert "bea is back at the table" in read


async def test_a_seat_whose_match_ended_while_away_is_told_where_its_transcript_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ada's client stopped mid-match; a computer played her seat to the end and the table
    closed. Taking the seat back said only "no longer holds seat 0 at table 1 for you (the
    match there is over)": no transcript, and no word of where one is. It now names the
    host's `history --export` command, and the file that command writes verifies."""
    monkeypatch.setattr(table_task, "LINGER", 0.2)
    db = tmp_path / "host.db"
    data = tmp_path / "scopa-net"
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, db=str(db), bot_delay=0, grace=0.1)
        choice = TableChoice(create=create(SHORT, bots=1))
        async with open_network_session(
            "127.0.0.1", host.port, choice, name="ada", data_dir=data, store=SeatStore(data)
        ) as ada:
            table, seat = ada.table_id, ada.seat
        with trio.fail_after(20):  # a computer plays for her to the end; the table closes
            while host.tables:
                await trio.sleep(0.05)
        join = ("join", f"127.0.0.1:{host.port}")
        done = await trio.to_thread.run_sync(lambda: run_scopa_net(*join, home=tmp_path))
        command = f"scopa-net history --export {table} --seat {seat}"
        # Said in one line, and `join` goes on (no table has an open seat here).
        assert done.returncode == EXIT_REFUSED
        assert (
            f"The host at 127.0.0.1:{host.port} no longer holds seat {seat} at table "
            f"{table} for you (the match there is over). Its transcript is in the host's "
            f"journal: whoever runs the host can write it with `{command}`, for you to check "
            "with `scopa-net verify FILE`.\n"
        ) in done.stdout
        assert done.stderr.startswith("scopa-net: no table has an open seat"), done.stderr
        args = [*command.split()[1:], "--db", str(db)]
        exported = await trio.to_thread.run_sync(
            lambda: run_scopa_net(*args, home=tmp_path / "host", cwd=tmp_path)
        )
        nursery.cancel_scope.cancel()
    assert exported.returncode == 0, exported.stderr
    (written,) = tmp_path.glob("*.scopa")
    checked = run_scopa_net("verify", str(written), home=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "VERIFIED" in checked.stdout


async def _host_until(
    db: Path,
    port: int,
    stop: trio.Event,
    closed: trio.Event,
    *,
    task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
) -> None:
    """A host over ``db`` on 127.0.0.1:``port`` until ``stop``, stopped as Ctrl-C stops it;
    ``closed`` once its journal is closed."""
    from scopa_net.server.config import HostConfig
    from scopa_net.server.journal import Journal

    config = HostConfig(
        bind="127.0.0.1", port=port, advertise=False, db=str(db), bot_delay=0, grace=0.1
    )
    host = Host(config, Journal(str(db)))
    async with trio.open_nursery() as nursery:
        await nursery.start(host.serve)
        task_status.started()
        await stop.wait()
        await host.shutdown()
        nursery.cancel_scope.cancel()
    host.journal.close()
    closed.set()


async def test_a_match_seen_to_its_end_then_closed_by_a_restart_names_the_file_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lea saw her match to its end ("Transcript saved: PATH"); the host stopped during the
    minute to play again and started after it, closing the table. Her client, back, read
    "Its transcript is in the host's journal: whoever runs the host can write it with
    `scopa-net history --export ...`": it sent her to the organiser for a file she had. It
    now names that file."""
    from helpers import free_port

    monkeypatch.setattr(table_task, "LINGER", 0.2)
    db, data, port = tmp_path / "host.db", tmp_path / "scopa-net", free_port()
    said: list[str] = []
    async with trio.open_nursery() as nursery:
        first, first_closed = trio.Event(), trio.Event()
        await nursery.start(_host_until, db, port, first, first_closed)
        again, again_closed = trio.Event(), trio.Event()
        choice = TableChoice(create=create(SHORT, bots=1))
        async with open_network_session(
            "127.0.0.1",
            port,
            choice,
            name="Lea",
            data_dir=data,
            store=SeatStore(data),
            offer_rematch=True,
        ) as lea:
            assert await play_as_bot(lea, make_player("random", 1)) is not None
            first.set()
            await first_closed.wait()
            await trio.sleep(0.5)  # past the minute (LINGER) to play again
            await nursery.start(_host_until, db, port, again, again_closed)
            with trio.fail_after(30):
                async for event in lea.events:
                    if isinstance(event, Message) and event.local:
                        said.append(event.text)
        again.set()
    (saved,) = (data / "transcripts").glob("*.scopa")
    assert said[-1] == (
        f"The host at 127.0.0.1:{port} no longer holds seat {lea.seat} at table "
        f"{lea.table_id} for you (the match there is over). Your transcript of it is {saved}: "
        f"`scopa-net verify {saved}` checks it."
    ), said
