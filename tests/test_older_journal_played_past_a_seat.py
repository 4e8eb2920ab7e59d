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
from pathlib import Path

import trio
from hosting import CutOff, create, start_host
from journal_copies import copy_journal, put_back
from person_screen import plays_the_first_legal_card, sit, until

from scopa_net.rules import RuleSet


async def test_a_host_on_an_older_journal_that_played_past_a_seat_says_it_lost_events(
    tmp_path: Path,
) -> None:
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
        again = await start_host(nursery, db=str(db), bot_delay=0.02, grace=0.5)
        seat = again.tables[table_id].table.seats[ada.session.seat]
        # Her network stays down until a computer playing for her, and the host's own, have
        # taken the host's events for her seat past the newest she saw.
        await until(lambda: seat.seq > seen + 4, 30)
        network.port = again.port
        network.up = True  # her client comes back by itself
        await until(lambda: "has lost" in ada.text, 30)
        nursery.start_soon(plays_the_first_legal_card, ada)
        back = seat.seq
        await until(lambda: ada.session.mirror.seq >= back + 12, 30)  # and plays on there
        nursery.cancel_scope.cancel()
    assert "DEAL CHECK FAILED" not in ada.text, ada.text
    assert ada.session.deal_failure is None
    (lost,) = [line for line in ada.lines if "has lost" in line]
    said = re.fullmatch(
        rf"The host at 127\.0\.0\.1:{first.port} has lost what came after event (\d+) of "
        rf"your seat \(this client saw {seen}\): it was started again from an older copy of its "
        r"journal, it seems\. The table goes on from what the host has; what you saw after that "
        r"did not happen there\.",
        lost,
    )
    assert said, lost
    assert int(said[1]) < seen
