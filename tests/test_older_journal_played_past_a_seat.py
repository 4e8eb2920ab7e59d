"""A host started again on an OLDER copy of its journal, whose computer players then play past
the newest event a seat saw before that seat is back (protocol.md 3.3). The seat's ``resume``
names only ``last_seq``, which the host has again, on another history: the host replayed the
events after it from that history, and the client stopped on its deal checks with "DEAL CHECK
FAILED in round 1: duplicate card: deck position 13 (5s) was played twice" (or "misrouted
card: deal 4: ..."), a false accusation of an honest host worded as a broken deal. Found
under load by test_lan_newcomer_after_an_older_journal (3 of 36 runs with the host's grace at
0.5 s); reproduced here every time, Ada's network held down until the host's events for her
seat pass the newest she saw.

A host knows which tokens it issued since it started: one from an earlier run can have seen
no more of this run's events than the journal it started from held. Past that, the resume is
``stale`` with ``current_seq`` the seat's newest event in that journal, and her client says
in one line that the host lost what came after it, goes back to where her match began and
is caught up again from the host's events, as for any ``stale``."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import trio
from hosting import CutOff, create, start_host
from journal_copies import copy_journal, put_back
from person_screen import plays_the_first_legal_card, sit, until

from scopa_net.rules import RuleSet

LOST = (
    r"The host at 127\.0\.0\.1:{port} has lost what came after event (\d+) of your seat "
    r"\(this client saw (\d+)\): it was started again from an older copy of its journal, it "
    r"seems\. The table goes on from what the host has; what you saw after that did not happen "
    r"there\."
)
"""The line Ada's screen shows when the host lost events of her seat (a regex: ``port``; its
groups, the host's newest event it names and the newest she saw, at least ``seen`` as the test
read it before her network went down: one more may have come meanwhile)."""


async def ada_back_on_an_older_journal(
    tmp_path: Path, *, grace: float, passed: Callable[[int, int, int], bool]
) -> tuple[str, int, int, int]:
    """Ada plays our host's computer; the host's journal is copied at her first hand, she
    plays on at least 12 events past it, and the host is started again on the copy (computers
    standing in for a seat away after ``grace``). Her network stays down until
    ``passed(events, started, seen)``: the host's newest event for her seat, its newest as it
    started, and the newest she saw. Then she is back, and plays 12 more events there. Her
    screen, the port of the host she first played, and ``started`` and ``seen``."""
    db, copy = tmp_path / "host.db", tmp_path / "copy.db"
    async with trio.open_nursery() as nursery:
        first = await start_host(nursery, db=str(db), bot_delay=0, grace=0.5)
        network = CutOff(first.port)
        ada = await sit(
            nursery, first, "Ada", tmp_path, create=create(RuleSet.of(2, 11), bots=1),
            connector=network.connect,
        )  # fmt: skip
        await until(lambda: ada.session.view is not None and ada.session.view.hand, 20)
        table_id = ada.session.table_id
        copy_journal(db, copy)
        assert ada.session.mirror is not None
        copied = ada.session.mirror.seq
        async with trio.open_nursery() as playing:
            playing.start_soon(plays_the_first_legal_card, ada)
            await until(lambda: ada.session.mirror.seq >= copied + 12, 30)
            await until(lambda: not ada.session._unacked, 10)
            playing.cancel_scope.cancel()
        seen = ada.session.mirror.seq
        await first.shutdown()
        first.journal.close()
        await network.cut()
        put_back(copy, db)
        again = await start_host(nursery, db=str(db), bot_delay=0.02, grace=grace)
        task = again.tables[table_id]
        started = task._from_journal[ada.session.seat]
        seat = task.table.seats[ada.session.seat]
        await until(lambda: passed(seat.seq, started, seen), 30)
        network.port = again.port
        network.up = True  # her client comes back by itself
        await until(lambda: "has lost" in ada.text, 30)
        nursery.start_soon(plays_the_first_legal_card, ada)
        back = seat.seq
        await until(lambda: ada.session.mirror.seq >= back + 12, 30)  # and plays on there
        nursery.cancel_scope.cancel()
    assert "DEAL CHECK FAILED" not in ada.text, ada.text
    assert ada.session.deal_failure is None
    return ada.text, first.port, started, seen


async def test_a_host_on_an_older_journal_that_played_past_a_seat_says_it_lost_events(
    tmp_path: Path,
) -> None:
    """Her network stays down until a computer playing for her, and the host's own, have
    taken the host's events for her seat past the newest she saw."""
    text, port, started, seen = await ada_back_on_an_older_journal(
        tmp_path, grace=0.5, passed=lambda events, _, seen: events > seen + 4
    )
    (lost,) = [line for line in text.splitlines() if "has lost" in line]
    said = re.fullmatch(LOST.format(port=port), lost)
    assert said, lost
    assert int(said[1]) == started < seen <= int(said[2])


async def test_a_host_on_an_older_journal_not_yet_past_a_seat_names_its_newest_as_it_started(
    tmp_path: Path,
) -> None:
    """The host started again on the copy has numbered events of its own for her seat (her
    seat_status, the computer's card) past the copy's newest, but fewer than she saw: her
    ``resume`` is past its newest now too, and ``current_seq`` must still be its newest as it
    started (3.3, 3.8), the last event both have. Before the fix it was the host's newest now,
    an event of this run that she took for one she had seen: a move of hers chosen there
    would have gone again on another board."""
    text, port, started, seen = await ada_back_on_an_older_journal(
        tmp_path, grace=600, passed=lambda events, started, seen: started < events < seen
    )
    (lost,) = [line for line in text.splitlines() if "has lost" in line]
    said = re.fullmatch(LOST.format(port=port), lost)
    assert said, lost
    assert int(said[1]) == started, (said[1], started, seen)
    assert seen <= int(said[2])
