"""People who drop together at a blind table (protocol.md 9.7), in virtual time.

Real host, real client sessions over memory streams, trio's autojump clock: the grace period
is the default 60 s and passes in no time.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
import trio
import trio.testing
from blind_people import People, Plug, play_one_card_then_hang
from helpers import no_kings_void
from hosting import Through, start_memory_host

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import (
    NetworkSession,
    TableChoice,
)
from scopa_net.commands.main import main as cli_main
from scopa_net.fair.blind.verifier import verify_any
from scopa_net.fair.commitments import fingerprint
from scopa_net.rules import RuleSet
from scopa_net.server.table import Phase


@pytest.mark.parametrize("apart", [0.0, 10.0])
async def test_two_people_who_drop_together_void_the_round_and_nobody_blames_the_host(
    autojump_clock: trio.testing.MockClock,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    apart: float,
) -> None:
    """Ada, Bruno and Carla at a 3-player blind table; mid round 1 Bruno's and Carla's
    clients die at the same moment (in the redeal after a deal void for its kings, about 1
    in 600). Past their grace period round 1 is void ``absent``
    naming one of them, and neither of their seeds can come: the reveal has both missing.
    That is what an honest host can do, and every client must accept it: Ada's at once,
    Bruno's and Carla's when they come back (their seats and round seeds kept on disk) and
    read the void round's reveal. Before the fix every one of them stopped with DEAL CHECK
    FAILED against the host (an absent void "with the seeds of parties [2, 3] missing";
    Carla's "own seed relayed altered"). ``apart``: Carla's client dies that many seconds
    after Bruno's (her grace period then ends while the void round's seeds are collected)."""
    rules = RuleSet.of(3, 4)
    people = People(tmp_path)

    async with trio.open_nursery() as nursery:
        host, net = await start_memory_host(nursery, grace=60.0)
        plugs = {name: Plug(net) for name in ("Bruno", "Carla")}

        run = people.runner(net.connect)

        async def person(name: str, choice: TableChoice, **options: object) -> None:
            plug = plugs.get(name)
            await run(name, choice, None if plug is None else plug.connect, **options)

        played_once = {name: trio.Event() for name in ("Bruno", "Carla")}

        async def plays_once_then_dies(name: str, scope: trio.CancelScope) -> None:
            """Plays one card of round 1, then nothing more until the client is killed."""
            with scope:
                choice = TableChoice(table_id=table_id)
                async with people.session(name, choice, plugs[name].connect) as session:
                    people.sessions[name] = session
                    player = make_player("random", len(name))
                    await play_one_card_then_hang(session, player, played_once[name])

        table_id = await people.ada_opens(nursery, person, rules)
        table = host.tables[table_id].table
        scopes = {name: trio.CancelScope() for name in ("Bruno", "Carla")}
        for name in ("Bruno", "Carla"):
            nursery.start_soon(plays_once_then_dies, name, scopes[name])

        # Mid round 1: every person has played a card, and the table waits on Bruno or Carla.
        with trio.fail_after(600):
            for event in played_once.values():
                await event.wait()
            while not (table.phase is Phase.PLAY and table.to_act()[0][0] in (1, 2)):
                await trio.sleep(0.01)
        assert table.blind_round is not None
        cut_in = table.blind_round.round_no  # 1, or the redeal of a deal void for its kings
        # kill -9, both at once (or ``apart``): the sessions end without a word, their
        # streams cut.
        killed_at = trio.current_time()
        for name in ("Bruno", "Carla"):
            scopes[name].cancel()
            await plugs[name].pull()
            await trio.sleep(apart)

        # Past the grace period the round is void; Ada reads its reveal.
        with trio.fail_after(600):
            while len(table.blind_history) < cut_in:
                await trio.sleep(0.5)
            assert trio.current_time() - killed_at >= 60
            ada = people.sessions["Ada"].witness
            while len(ada.rounds) < cut_in and not people.done["Ada"].is_set():  # type: ignore[union-attr]
                await trio.sleep(0.5)
        assert "Ada" not in people.failed, people.failed["Ada"].banner
        first = table.blind_history[cut_in - 1]
        assert first.void is not None
        assert first.void.reason == "absent"
        assert first.void.offender in (1, 2)
        assert first.seeds is not None
        assert first.seeds[0] is not None
        assert first.seeds[1] is not None
        assert first.seeds[2] is None
        assert first.seeds[3] is None

        # Bruno and Carla run their clients again, their seats and seeds kept on disk.
        for name in ("Bruno", "Carla"):
            people.take_back(nursery, person, name)
        with trio.fail_after(3600):
            for name in ("Ada", "Bruno", "Carla"):
                await people.done[name].wait()
        nursery.cancel_scope.cancel()

    assert not people.failed, "\n".join(exc.banner for exc in people.failed.values())
    for name in ("Ada", "Bruno", "Carla"):
        session = people.sessions[name]
        assert session.verdict_failures == [], (name, session.verdict_failures)
        transcript = session.witness.transcript()  # type: ignore[union-attr]
        assert transcript.rounds[cut_in - 1].void == first.void, name
        assert transcript.result.winner is not None, name
        verdict = verify_any(transcript)
        assert verdict.ok, (name, verdict.lines())
        note = verdict.rounds[cut_in - 1].note
        assert note.startswith(f"void: seat {first.void.offender} absent"), note
        other = 3 - first.void.offender
        assert f"(seat {other} absent too" in note
    # scopa-net verify, given the three files: both counted absent in that round.
    files = sorted(str(f) for f in tmp_path.glob("*/transcripts/*.scopa"))
    assert len(files) == 3, files
    assert not any("FAILED" in f for f in files), files
    fp = fingerprint(people.sessions["Ada"].host_key)  # type: ignore[arg-type]
    assert cli_main(["verify", "--pin", fp, *files]) == 0
    out = capsys.readouterr().out
    named = {people.sessions[name].seat: name for name in ("Bruno", "Carla")}
    counts = ", ".join(f"{named[seat]} (seat {seat}): 1" for seat in sorted(named))
    assert f"blind rounds void for an absent player: 1 ({counts})" in out, out


class CutAtSeed(Through):
    """A client's connection that dies (``kill -9`` of the client) the moment the client
    sends its first ``blind_reveal``: the seed never leaves."""

    def __init__(self, inner: trio.abc.Stream, cut: Callable[[], Awaitable[None]]) -> None:
        super().__init__(inner)
        self.cut = cut

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        if b"blind_reveal" in bytes(data):
            await self.cut()
        await self.inner.send_all(data)


async def test_a_person_gone_after_the_last_play_leaves_the_round_standing(
    autojump_clock: trio.testing.MockClock,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ada, Bruno and Carla at a 3-player blind table. Round 1 is played out; Bruno's client
    dies as it is about to send its seed, and Bruno stays away past the grace period. The
    host reveals with Bruno's seed nil (it can do nothing else); the round stands with its
    score (every card was played in the open, 9.7), Ada and Carla are told in plain words
    that Bruno was gone, and nobody blames the host; Bruno comes back with his seat and the
    round's seed kept on disk, is told he is counted absent, and plays on. Every transcript
    verifies and ``scopa-net verify`` counts Bruno absent at round 1's reveal. Before the fix
    Ada and Carla stopped with DEAL CHECK FAILED (*not revealed*: "the seeds of parties [2]
    are missing"), and Bruno with "own seed was relayed altered"."""
    rules = RuleSet.of(3, 4)
    people = People(tmp_path)
    said = people.record_what_each_is_told(monkeypatch)
    no_kings_void(monkeypatch)  # round 1 is played out

    async with trio.open_nursery() as nursery:
        host, net = await start_memory_host(nursery, grace=60.0)
        plug = Plug(net)
        bruno_scope = trio.CancelScope()
        cut_at: list[float] = []

        async def cut() -> None:
            cut_at.append(trio.current_time())
            bruno_scope.cancel()
            await plug.pull()
            await trio.sleep_forever()  # cancelled: the seed is never sent

        async def cut_connect() -> trio.abc.Stream:
            return CutAtSeed(await plug.connect(), cut)

        person = people.runner(net.connect)

        async def bruno_until_his_seed() -> None:
            with bruno_scope:
                await person("Bruno", TableChoice(table_id=table_id), cut_connect)

        table_id = await people.ada_opens(nursery, person, rules)
        table = host.tables[table_id].table
        nursery.start_soon(bruno_until_his_seed)
        nursery.start_soon(person, "Carla", TableChoice(table_id=table_id))

        # Round 1 is played out and revealed without Bruno's seed, past his grace period.
        with trio.fail_after(3600):
            while not table.blind_history:
                await trio.sleep(0.5)
        assert cut_at, "Bruno's client never sent a seed"
        assert trio.current_time() - cut_at[0] >= 60
        first = table.blind_history[0]
        assert first.void is None
        assert first.score is not None
        assert first.seeds is not None
        bruno = people.sessions["Bruno"].seat
        party = first.people.index(bruno) + 1
        assert [p for p, s in enumerate(first.seeds) if s is None] == [party]
        with trio.fail_after(600):
            for name in ("Ada", "Carla"):
                witness = people.sessions[name].witness
                while not (witness.rounds or people.done[name].is_set()):  # type: ignore[union-attr]
                    await trio.sleep(0.5)
        assert not people.failed, "\n".join(exc.banner for exc in people.failed.values())
        for name in ("Ada", "Carla"):
            gone = [t for t in said[name] if t.startswith("Round 1: Bruno was gone")]
            assert gone, said[name]
            assert "The round counts all the same" in gone[0]

        # Bruno runs his client again, his seat and the round's seed kept on disk.
        people.take_back(nursery, person, "Bruno")
        with trio.fail_after(3600 * 4):
            for name in ("Ada", "Bruno", "Carla"):
                await people.done[name].wait()
        nursery.cancel_scope.cancel()

    assert not people.failed, "\n".join(exc.banner for exc in people.failed.values())
    assert any("your seed is not in the round's reveal" in t for t in said["Bruno"]), said["Bruno"]
    for name in ("Ada", "Bruno", "Carla"):
        session = people.sessions[name]
        assert session.verdict_failures == [], (name, session.verdict_failures)
        transcript = session.witness.transcript()  # type: ignore[union-attr]
        assert transcript.rounds[0].score == first.score, name
        assert transcript.result.winner is not None, name
        verdict = verify_any(transcript)
        assert verdict.ok, (name, verdict.lines())
        assert verdict.rounds[0].note.startswith("verified"), verdict.rounds[0].note
        assert verdict.rounds[0].note.endswith(
            f"seat {bruno} absent at the reveal (its seed never came)"
        )
    files = sorted(str(f) for f in tmp_path.glob("*/transcripts/*.scopa"))
    assert len(files) == 3, files
    fp = fingerprint(people.sessions["Ada"].host_key)  # type: ignore[arg-type]
    assert cli_main(["verify", "--pin", fp, *files]) == 0
    out = capsys.readouterr().out
    counted = (
        "blind rounds whose reveal counts a player absent (their seed never came, so their "
        "shuffle is unchecked): "
        f"1 (Bruno (seat {bruno}): 1)"
    )
    assert counted in out, out


async def test_everyone_gone_at_once_voids_and_reveals_when_the_grace_periods_end(
    autojump_clock: trio.testing.MockClock, tmp_path: Path
) -> None:
    """Ada and Bruno, the only people at a 2-player blind table, are both gone at the same
    moment mid round 1. 9.7: when their grace periods end (60 s) the round is void
    ``absent``, and since no person is then awaited the host reveals it at once (nobody is
    waited for past their grace period). Before the fix the host waited for the seed
    deadline too: the void round's reveal came 30 s after the grace periods ended."""
    rules = RuleSet.of(2, 4)
    names = ("Ada", "Bruno")
    people = People(tmp_path, names)
    async with trio.open_nursery() as nursery:
        host, net = await start_memory_host(nursery, grace=60.0)
        plugs = {name: Plug(net) for name in names}
        scopes = {name: trio.CancelScope() for name in names}
        run = people.runner(net.connect)

        async def person(name: str, choice: TableChoice) -> None:
            with scopes[name]:
                await run(name, choice, plugs[name].connect)

        table_id = await people.ada_opens(nursery, person, rules)
        table = host.tables[table_id].table
        nursery.start_soon(person, "Bruno", TableChoice(table_id=table_id))
        with trio.fail_after(600):
            while not (table.phase is Phase.PLAY and table.blind_round is not None):
                await trio.sleep(0)
        b = table.blind_round  # round 1, or the redeal of a deal void for its kings
        gone_at = trio.current_time()
        for name in names:  # kill -9 of both clients at once
            scopes[name].cancel()
            await plugs[name].pull()
        with trio.fail_after(600):
            while b.party.void_notice is None:
                await trio.sleep(0.5)
            voided = trio.current_time() - gone_at
            while len(table.blind_history) < b.round_no:
                await trio.sleep(0.5)
            revealed = trio.current_time() - gone_at
        nursery.cancel_scope.cancel()
    assert not people.failed
    assert 60 <= voided < 61
    assert revealed < 61, f"void at {voided:g} s, revealed only at {revealed:g} s"
    first = table.blind_history[b.round_no - 1]
    assert first.void is not None
    assert first.void.reason == "absent"
    assert first.seeds is not None
    assert first.seeds[1:] == (None, None)
    assert first.reveal_sig is not None


async def test_people_who_leave_together_are_said_to_have_left(
    autojump_clock: trio.testing.MockClock,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ada, Bruno, Carla and Dario at a 4-player blind table; mid round 1 Bruno and Carla
    type ``leave`` at the same moment. The void names one of them; the reveal counts the
    other absent too, and Ada reads that they left the table, not a guess that they were
    "away past their grace period, or too slow"."""
    names = ("Ada", "Bruno", "Carla", "Dario")
    people = People(tmp_path, names)
    said = people.record_what_each_is_told(monkeypatch)
    leavers = ("Bruno", "Carla")
    played = {name: trio.Event() for name in leavers}
    leave_now = trio.Event()

    async def plays(session: NetworkSession, name: str) -> None:
        player = make_player("random", len(name))
        if name not in leavers:
            await play_as_bot(session, player)
            return
        async with trio.open_nursery() as inner:
            inner.start_soon(play_one_card_then_hang, session, player, played[name])
            await leave_now.wait()
            inner.cancel_scope.cancel()
        await session.leave()

    async with trio.open_nursery() as nursery:
        host, net = await start_memory_host(nursery, grace=60.0)
        person = people.runner(net.connect, plays)
        table_id = await people.ada_opens(nursery, person, RuleSet.of(4, 1))
        table = host.tables[table_id].table
        for name in names[1:]:
            nursery.start_soon(person, name, TableChoice(table_id=table_id))
        with trio.fail_after(600):
            for event in played.values():
                await event.wait()
            seats = {people.sessions[name].seat for name in leavers}
            while not (table.phase is Phase.PLAY and table.to_act()[0][0] in seats):
                await trio.sleep(0.01)
            left_in = table.round_no  # 1, or the redeal of a deal void for its kings
            leave_now.set()
            ada = people.sessions["Ada"].witness
            while len(ada.rounds) < left_in and not people.done["Ada"].is_set():  # type: ignore[union-attr]
                await trio.sleep(0.5)
        nursery.cancel_scope.cancel()

    assert not people.failed, "\n".join(exc.banner for exc in people.failed.values())
    first = table.blind_history[left_in - 1]
    assert first.void is not None
    assert first.void.reason == "absent"
    named = next(n for n in leavers if people.sessions[n].seat == first.void.offender)
    other = next(n for n in leavers if n != named)
    told = [line for line in said["Ada"] if line.startswith(f"Round {left_in}")]
    assert (
        f"Round {left_in} is void: {named} left the table, and a blind round cannot go on "
        "without them. Nobody saw their cards; the same dealer deals again."
    ) in told, told
    assert (
        f"Round {left_in}: {other} left the table before their seed came, so the round's "
        "reveal counts them absent. They are counted absent too; their cards stay secret."
    ) in told, told
