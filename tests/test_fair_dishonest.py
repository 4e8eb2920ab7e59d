"""A dishonest host and dishonest seats, over real loopback TCP.

The host is the real one with one method of its table replaced by a cheat (what a host built
from protocol.md could send); the seats are real network clients. Every trick must be caught
where the issue says: on arrival, by the seat that holds proof, or by ``scopa-net verify``; and
a client that catches one stops with one banner, its evidence saved and a distinct status.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import trio
from cheats import leave_out_after_its_receipt
from helpers import no_kings_void
from hosting import create, start_host

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import (
    EXIT_DEAL_FAILED,
    DealCheckFailedError,
    NetworkSession,
    TableChoice,
    connect,
    open_network_session,
)
from scopa_net.client.session import Message
from scopa_net.commands.main import main
from scopa_net.fair.commitments import (
    end_message,
    fingerprint,
    seat_commitment,
    sign,
)
from scopa_net.fair.simulate import reseal, simulate_match
from scopa_net.fair.transcript import MatchResult, decode
from scopa_net.fair.verifier import verify_transcript
from scopa_net.rules import RuleSet
from scopa_net.server.host import Host
from scopa_net.server.table import Phase, Table
from scopa_net.wire import messages as m

LIMIT = 60
"""A bound so that a broken flow fails the test instead of hanging it (not a speed check)."""


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The client's data directory (pinned keys, transcripts), never the real one."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "scopa-net"


# --- the cheats ---------------------------------------------------------------------------


def cheat_after(monkeypatch: pytest.MonkeyPatch, name: str, after: Callable[[Table], None]) -> None:
    """Replace ``Table.name`` by the original followed by ``after`` (the cheat)."""
    original = getattr(Table, name)

    def cheating(self: Table, *args: object, **kwargs: object) -> None:
        original(self, *args, **kwargs)
        after(self)

    monkeypatch.setattr(Table, name, cheating)


def void_after_the_seeds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The host sees the deal it got and throws it away, calling it a kings void. The rounds
    it did so in: round 1, or round 2 when round 1's deal was a true kings void (about one
    deal in 600: the host's seed is random), which a cheat acting on a deal in play skips."""
    cheated: list[int] = []

    def after(self: Table) -> None:
        if self.phase is not Phase.PLAY or self.round is None:
            return
        cheated.append(self.round_no)
        round_id = self.round.record.round_id
        self._broadcast(lambda seq, _: m.RoundVoid(seq=seq, round_id=round_id, reason="kings"))
        self._reveal()
        self.phase = Phase.BETWEEN

    cheat_after(monkeypatch, "_deal_round", after)
    return cheated


def swap_the_hands_of_seats_0_and_1(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each seat gets the other's genuine cards (every hash checks out)."""

    def after(self: Table) -> None:
        a, b = self.seats[0].log[-1], self.seats[1].log[-1]
        assert isinstance(a, m.Deal)
        assert isinstance(b, m.Deal)
        self.seats[0].log[-1] = dataclasses.replace(a, hand=b.hand)
        self.seats[1].log[-1] = dataclasses.replace(b, hand=a.hand)

    cheat_after(monkeypatch, "_deal_event", after)


def replay_seat_1s_first_card(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """When seat 1 plays its second card, seat 0 is told it played its first one again. The
    round it did so in (a void deal has no plays: the next round after one)."""
    first: list[m.Played] = []
    cheated: list[int] = []

    def after(self: Table) -> None:
        log = self.seats[0].log
        index = max(i for i, e in enumerate(log) if isinstance(e, m.Played))
        played = log[index]
        assert isinstance(played, m.Played)
        if played.seat != 1:
            return
        if not first:
            first.append(played)
        elif len(first) == 1:
            first.append(played)
            log[index] = first[0].with_seq(played.seq)
            cheated.append(self.round_no)

    cheat_after(monkeypatch, "_apply_play", after)
    return cheated


# --- seats --------------------------------------------------------------------------------


async def play_until_stopped(session: NetworkSession, seed: int = 1) -> None:
    await play_as_bot(session, make_player("random", seed))


@asynccontextmanager
async def a_host(**options: object) -> AsyncIterator[Host]:
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, **options)
        yield host
        nursery.cancel_scope.cancel()


async def victim_stops(host: Host, data_home: Path, rules: RuleSet, bots: int) -> Exception:
    """Seat 0 plays (a computer brain over a real client) until a check stops it."""
    choice = TableChoice(create=create(rules, bots=bots))
    with trio.fail_after(LIMIT), pytest.raises(DealCheckFailedError) as info:
        async with open_network_session(
            "127.0.0.1", host.port, choice, name="ann", data_dir=data_home
        ) as session:
            await play_until_stopped(session)
    return info.value


def evidence_of(error: Exception) -> Path:
    assert isinstance(error, DealCheckFailedError)
    assert error.evidence is not None
    assert error.evidence.name.endswith("-FAILED.scopa")
    return error.evidence


# --- the host cheats; the seat that sees it stops -------------------------------------------


async def test_a_seed_left_out_after_its_receipt_is_proof_and_the_others_are_told(
    monkeypatch: pytest.MonkeyPatch, data_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    leave_out_after_its_receipt(monkeypatch, seat=1)
    told: list[str] = []
    stopped: list[DealCheckFailedError] = []
    async with a_host(grace=0.2) as host:
        with trio.fail_after(LIMIT):
            async with open_network_session(
                "127.0.0.1", host.port, TableChoice(create=create(RuleSet.of(2, 1))), name="bob"
            ) as bob:
                choice = TableChoice(table_id=bob.table_id)

                async def ann_plays() -> None:
                    try:
                        async with open_network_session(
                            "127.0.0.1", host.port, choice, name="ann", data_dir=data_home
                        ) as ann:
                            await play_until_stopped(ann)
                    except DealCheckFailedError as exc:
                        stopped.append(exc)

                async with trio.open_nursery() as nursery:
                    nursery.start_soon(ann_plays)
                    async for event in bob.events:
                        if isinstance(event, Message):
                            told.append(event.text)
                            if "deal check failed" in event.text:
                                break
    [error] = stopped
    assert "DEAL CHECK FAILED in round 1: host lied" in error.banner
    assert "receipt" in error.banner
    # Bob's record is consistent (his seed counted), so he plays on, and is told why Ann left.
    assert any("seed is left out (no reveal)" in t for t in told)
    assert any("ann left: the deal check failed" in t and "host lied" in t for t in told)
    # The evidence holds the receipt, and verify finds the lie.
    path = evidence_of(error)
    evidence = decode(path.read_bytes())
    assert evidence.stopped is not None
    assert evidence.stopped.check == "host lied"
    assert evidence.rounds[-1].receipt is not None
    assert evidence.rounds[-1].excluded == (None, "no_reveal")
    capsys.readouterr()
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert "round 1: FAILED: host lied" in out
    assert "saved as evidence when the client stopped: round 1, host lied" in out


async def test_a_void_called_after_the_seeds_stops_the_seat(
    monkeypatch: pytest.MonkeyPatch, data_home: Path
) -> None:
    cheated = void_after_the_seeds(monkeypatch)
    async with a_host() as host:
        error = await victim_stops(host, data_home, RuleSet.of(2, 1), bots=1)
    assert f"DEAL CHECK FAILED in round {cheated[0]}: void mismatch" in str(error)
    # Then what the check means, in the words `verify` uses (the class name alone said little).
    assert str(error).splitlines()[1] == (
        "What this means: the deal is recorded as called off (void) when the rules do not call "
        "it off, or the other way round: the host broke the rule, or the record was changed."
    )
    assert "kings" in str(error)
    evidence = decode(evidence_of(error).read_bytes())
    assert not verify_transcript(evidence).ok


async def test_swapped_hands_are_caught_on_arrival(
    monkeypatch: pytest.MonkeyPatch, data_home: Path
) -> None:
    swap_the_hands_of_seats_0_and_1(monkeypatch)
    async with a_host() as host:
        error = await victim_stops(host, data_home, RuleSet.of(2, 1), bots=1)
    assert "DEAL CHECK FAILED in round 1: misrouted card: deal 1: your hand" in str(error)
    evidence = decode(evidence_of(error).read_bytes())
    assert evidence.rounds[-1].hand == ()  # the bad cards were never taken in
    assert evidence.stopped is not None
    assert evidence.stopped.round_no == 1


async def test_a_card_played_twice_is_caught_on_arrival(
    monkeypatch: pytest.MonkeyPatch, data_home: Path
) -> None:
    cheated = replay_seat_1s_first_card(monkeypatch)
    async with a_host() as host:
        error = await victim_stops(host, data_home, RuleSet.of(2, 1), bots=1)
    assert f"DEAL CHECK FAILED in round {cheated[0]}: duplicate card" in str(error)
    assert "played twice" in str(error)


# --- dishonest seats ------------------------------------------------------------------------


class LyingSeat(NetworkSession):
    """Commits to one seed, then reveals another (in round 1 only)."""

    async def _table_event(self, e: m.Message) -> bool:
        over = await super()._table_event(e)
        if isinstance(e, m.RoundCommit) and e.round_no == 1:
            self._seed = bytes(32)
        return over


async def test_a_bad_seed_is_left_out_published_and_checkable_and_the_round_goes_on(
    data_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    no_kings_void(monkeypatch)  # round 1 is played out
    async with a_host() as host:
        with trio.fail_after(LIMIT):
            choice = TableChoice(create=create(RuleSet.of(2, 1)))
            async with open_network_session(
                "127.0.0.1", host.port, choice, name="ann", data_dir=data_home
            ) as ann:
                table = host.tables[ann.table_id].table
                liar = LyingSeat(
                    "127.0.0.1",
                    host.port,
                    TableChoice(table_id=ann.table_id),
                    name="liar",
                    check_deals=False,
                )
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(liar.run)
                    await liar.connected.wait()
                    nursery.start_soon(play_until_stopped, liar, 2)
                    await play_until_stopped(ann)
                    nursery.cancel_scope.cancel()
    assert ann.verdict_failures == []
    t = ann.witness.transcript()
    first = t.rounds[0]
    assert first.excluded == (None, "bad_reveal")
    assert first.plays
    assert first.seeds is not None
    assert first.seeds[1] == bytes(32)
    assert first.commits is not None
    # Anyone can check the exclusion: the published seed does not open the commitment.
    assert seat_commitment(first.round_id, 1, bytes(32)) != first.commits[1]
    verdict = verify_transcript(t)
    assert verdict.ok, verdict.lines()
    assert (
        "seeds left out: seat 1 sent a seed that does not match the commitment"
        in verdict.rounds[0].note
    )
    assert table.seats[1].offences == 1  # proven by the record: counted


async def test_a_seat_that_drops_after_committing_is_left_out_and_the_round_goes_on(
    data_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    no_kings_void(monkeypatch)  # round 1, the one Bob committed in, is played out
    async with a_host(grace=0.2, seed_timeout=5) as host:
        with trio.fail_after(LIMIT):
            choice = TableChoice(create=create(RuleSet.of(2, 1)))
            async with open_network_session(
                "127.0.0.1", host.port, choice, name="ann", data_dir=data_home
            ) as ann:
                table = host.tables[ann.table_id].table
                # Bob joins over a bare connection, commits, and is gone before revealing.
                link, _ = await connect("127.0.0.1", host.port)
                await link.request(
                    m.Join(table_id=ann.table_id, seat=1, name="bob", password=None), m.Joined
                )
                while True:
                    event = await link.receive()
                    if isinstance(event, m.RoundCommit):
                        break
                commit = seat_commitment(event.round_id, 1, bytes(range(32)))
                await link.send(m.SeedCommit(round_id=event.round_id, commit=commit))
                await link.aclose()
                await play_until_stopped(ann)
    notes = [v.note for v in ann.witness.verdicts]
    t = ann.witness.transcript()
    first = t.rounds[0]
    assert first.excluded == (None, "no_reveal")
    assert first.plays
    assert verify_transcript(t).ok
    assert "seeds left out: seat 1 committed but sent no seed in time" in notes[0]
    assert table.seats[1].offences == 0  # shown, not punished


# --- the record after the match: the host rewrites it ---------------------------------------


async def an_honest_match(data_home: Path) -> tuple[Path, Host]:
    async with a_host() as host:
        choice = TableChoice(create=create(RuleSet.of(2, 11), bots=1))
        with trio.fail_after(LIMIT):
            async with open_network_session(
                "127.0.0.1", host.port, choice, name="ann", data_dir=data_home
            ) as session:
                await play_until_stopped(session)
    files = sorted((data_home / "transcripts").iterdir())
    assert len(files) == 1
    return files[0], host


async def test_a_rewritten_end_or_a_new_key_is_refused(
    data_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, host = await an_honest_match(data_home)
    capsys.readouterr()
    assert main(["verify", str(path)]) == 0  # the client's own pinned key is accepted
    assert capsys.readouterr().out.splitlines()[-1] == "VERIFIED"
    t = decode(path.read_bytes())
    assert len(t.rounds) >= 2
    assert t.result.sig is not None

    def verify(transcript: object, *flags: str) -> tuple[int, str]:
        out = tmp_path / "doctored.scopa"
        out.write_bytes(transcript.encode())  # type: ignore[attr-defined]
        status = main(["verify", *flags, str(out)])
        return status, capsys.readouterr().out

    # The host drops the last round and signs a new end over what is left.
    kept = t.rounds[:-1]
    scores = tuple(sum(r.score[side] for r in kept if r.score) for side in range(2))
    winner = 0 if scores[0] >= scores[1] else 1
    resigned = MatchResult(
        scores, winner, sign(host.key, end_message(kept[-1].chain_hash(), scores, winner))
    )
    status, out = verify(dataclasses.replace(t, rounds=kept, result=resigned))
    assert status == 1
    assert "match result: FAILED: score mismatch" in out
    # ... or leaves the end unsigned: refused, or shown as unfinished (never verified).
    status, out = verify(
        dataclasses.replace(t, rounds=kept, result=MatchResult(scores, winner, None))
    )
    assert status == 1
    assert "FAILED: unfinished match: " in out
    status, out = verify(dataclasses.replace(t, rounds=kept, result=MatchResult(scores, None)))
    assert status == 1
    assert out.splitlines()[-1].startswith("UNFINISHED")
    # A whole file re-signed under another key: refused by the pinned keys and by --pin.
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    other = reseal(t, Ed25519PrivateKey.generate())
    assert verify_transcript(other).ok  # consistent in itself...
    status, out = verify(other)
    assert status == 1
    assert "REFUSED: host key" in out
    assert f"your client knows {fingerprint(t.host_key)} (the host at 127.0.0.1:" in out
    assert out.splitlines()[-1] == "NOT VERIFIED"
    status, out = verify(other, "--pin", fingerprint(t.host_key))
    assert status == 1
    assert "REFUSED" in out
    status, out = verify(t, "--pin", fingerprint(t.host_key).replace("-", ""))
    assert status == 0
    # The same file twice counts once; the summary counts exclusions and unchecked rounds.
    assert main(["verify", str(path), str(path)]) == 0
    out = capsys.readouterr().out
    assert "counted once" in out
    assert "files: 2 given: 1 verified, 1 given twice (counted once)" in out
    assert "rounds not fair-checked (no player seed): 0" in out


async def test_an_empty_transcript_and_a_table_that_never_started_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "host.db"
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, db=str(db))
        link, _ = await connect("127.0.0.1", host.port)
        await link.request(create(RuleSet.of(2), bots=0), m.TableCreated)
        await link.aclose()
        await host.shutdown()
        nursery.cancel_scope.cancel()
    host.journal.close()
    out = tmp_path / "t1.scopa"
    assert main(["history", "--db", str(db), "--export", "1", "--out", str(out)]) == 1
    assert "never finished a round" in capsys.readouterr().err
    assert not out.exists()
    # A file with no rounds, however it was made, is not verified either.
    path = tmp_path / "empty.scopa"
    sample = simulate_match(RuleSet.of(2, 1), 5).transcripts[0]
    empty = dataclasses.replace(sample, rounds=(), result=MatchResult((0, 0), None))
    path.write_bytes(empty.encode())
    assert main(["verify", str(path)]) == 1
    assert "empty transcript" in capsys.readouterr().out


def test_the_exit_status_of_a_failed_check_is_its_own() -> None:
    from scopa_net.commands.options import EXIT_DEAL_FAILED as DOCUMENTED
    from scopa_net.commands.options import EXIT_STATUSES

    assert EXIT_DEAL_FAILED == DOCUMENTED
    assert [code for code, _ in EXIT_STATUSES].count(EXIT_DEAL_FAILED) == 1


# --- what the person at the terminal sees ----------------------------------------------------


@pytest.mark.parametrize(
    ("cheat", "check"),
    [
        (swap_the_hands_of_seats_0_and_1, "misrouted card"),
        (void_after_the_seeds, "void mismatch"),
        (replay_seat_1s_first_card, "duplicate card"),
    ],
)
def test_the_terminal_shows_one_banner_and_exits_with_its_own_status(
    monkeypatch: pytest.MonkeyPatch,
    data_home: Path,
    cheat: Callable[[pytest.MonkeyPatch], None],
    check: str,
) -> None:
    from app_driver import playing, run_app

    cheat(monkeypatch)

    @asynccontextmanager
    async def opener() -> AsyncIterator[NetworkSession]:
        async with a_host() as host:
            choice = TableChoice(create=create(RuleSet.of(2, 1), bots=1))
            async with open_network_session(
                "127.0.0.1", host.port, choice, name="Ada", data_dir=data_home
            ) as session:
                yield session

    status, text, _ = run_app(RuleSet.of(2, 1), playing(), opener=opener)
    assert status == EXIT_DEAL_FAILED
    assert text.count("DEAL CHECK FAILED") == 1
    banner = text[text.index("DEAL CHECK FAILED") :]
    # Round 1 as a rule; round 2 when round 1's own deal was a true kings void (about one
    # deal in 600: the host's seed is random), which a cheat acting on a deal in play skips.
    assert re.match(rf"DEAL CHECK FAILED in round [12]: {check}", banner), banner[:200]
    assert "Evidence saved to" in banner
    assert "-FAILED.scopa" in banner
    assert "Your turn" not in banner  # nothing after the banner asks for a move
    assert "Traceback" not in text
    assert "The game stopped" not in text
