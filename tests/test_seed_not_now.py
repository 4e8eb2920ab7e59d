"""A ``seed_commit`` or ``seed_reveal`` the host refused "not now" (protocol.md 5.4, 3.6:
``error storage``, its journal cannot be written just now, or ``error rate_limited``) was not
taken: our client sends the same message again, the same seed, after client/not_now.py's
pauses, while the round waits for it, and says so in one line if the wait is long enough to
notice. Before, it logged the refusal and never sent the seed again: the round was dealt
without it (``no_commit`` / ``no_reveal``), and Ada read that her seed was left out.

Over real loopback with a real host whose journal really refuses writes (SQLite's page limit,
as a full disk does) at the moment Ada's seed message reaches it, and is freed after."""

from __future__ import annotations

from pathlib import Path

import trio
from full_journal import FirstFrameHeld, free_the_journal, until_the_journal_fails
from hosting import create, start_host
from person_screen import Player, plays_the_first_legal_card, sit, until
from rawplayer import close_links

from scopa_net.client.deal_words import ordinary_meaning
from scopa_net.client.not_now import FIRST_PAUSE, LONGEST_PAUSE, SAID_AFTER
from scopa_net.client.seeds_not_now import SeedsNotNow, seed_goes_again
from scopa_net.fair.commitments import seat_commitment
from scopa_net.fair.transcript import decode
from scopa_net.rules import RuleSet
from scopa_net.wire import messages as m
from scopa_net.wire.codec import decode as decode_frame

SEED_COMMIT = b"\xabseed_commit"
SEED_REVEAL = b"\xabseed_reveal"
"""The bytes of a ``seed_commit`` / ``seed_reveal`` frame's type, as msgpack writes them."""

SAID = (
    "Your random seed for the coming shuffle goes to the host again in a moment, by itself: "
    "the host cannot save just now (its disk)."
)


async def seed_refused_for_the_host_s_disk(
    tmp_path: Path, kind: bytes
) -> tuple[Player, FirstFrameHeld]:
    """Ada, against a computer player, to 1 point: her first ``kind`` reaches the host just
    after its journal fails; the journal is freed once she has been told her seed waits, and
    she plays the round out (its deal check said)."""
    async with trio.open_nursery() as nursery:
        host = await start_host(
            nursery, db=str(tmp_path / "host.db"), bot_delay=0.01, chat_lines=10_000
        )
        net = FirstFrameHeld(host.port, kind)
        ada = await sit(
            nursery, host, "Ada", tmp_path, create=create(RuleSet.of(2, 1), bots=1),
            connector=net.network.connect,
        )  # fmt: skip
        with trio.fail_after(20):
            await net.held.wait()
        chatter = await until_the_journal_fails(host)
        net.let_go.set()
        await until(lambda: SAID in ada.lines, 15)
        free_the_journal(host)
        nursery.start_soon(plays_the_first_legal_card, ada)
        await until(lambda: "Deal check:" in ada.text, 60)
        await close_links()
        del chatter
        nursery.cancel_scope.cancel()
    return ada, net


def sent_as(frame: bytes) -> m.Message:
    """The message a frame Ada's client sent holds (past its 4 length bytes)."""
    return decode_frame(frame[4:])


def first_round_frames(net: FirstFrameHeld) -> list[bytes]:
    """The frames Ada's client sent for the first round it sent one for: a match to 1 point
    may go on to a round 2 (no point scored) before the test stops, whose own commitment or
    seed is another message."""
    first = sent_as(net.sent[0])
    assert isinstance(first, m.SeedCommit | m.SeedReveal), first
    return [f for f in net.sent if getattr(sent_as(f), "round_id", None) == first.round_id]


def her_seed_counted(ada: Player) -> bytes:
    """What Ada read and what her transcript keeps say round 1 was fair-checked with her seed;
    that seed."""
    checks = [line for line in ada.lines if line.startswith("Deal check:")]
    assert len(checks) == 1, ada.lines
    assert "verified" in checks[0], ada.lines
    assert "left out" not in ada.text, ada.text
    assert ordinary_meaning(None, True, ())[1] in ada.lines, ada.lines  # "your own random seed"
    saved = ada.session._transcripts.saved
    assert saved is not None
    (first, *_) = decode(saved[1].read_bytes()).rounds
    seat = ada.session.seat
    assert first.excluded is not None
    assert first.excluded[seat] is None
    assert first.seeds is not None
    assert first.commits is not None
    seed = first.seeds[seat]
    assert seed is not None
    assert first.commits[seat] == seat_commitment(first.round_id, seat, seed)
    assert first.receipt is not None  # the host signed for the seed it took
    return seed


async def test_a_commitment_refused_for_the_host_s_disk_goes_again_and_her_seed_counts(
    tmp_path: Path,
) -> None:
    """Ada's ``seed_commit`` reaches a host whose disk refuses writes (``error storage``). Her
    client sends the very same commitment again after a pause, and again, says once, calmly,
    that her seed goes again by itself, and once the host can save her commitment is taken:
    round 1 is dealt with her seed, and her deal check line says so. Before, the commitment
    went once: she read "your seed was left out this round (no commitment of yours reached
    the host in time)" (fails before this change: the line never comes)."""
    ada, net = await seed_refused_for_the_host_s_disk(tmp_path, SEED_COMMIT)
    seed = her_seed_counted(ada)
    frames = first_round_frames(net)
    assert len(frames) >= 2, net.sent  # refused, then sent again
    sent = {sent_as(frame) for frame in frames}
    assert len(set(frames)) == 1, net.sent  # the same message, byte for byte
    (commit,) = sent
    assert isinstance(commit, m.SeedCommit)
    assert commit.commit == seat_commitment(commit.round_id, ada.session.seat, seed)
    assert ada.lines.count(SAID) == 1, ada.lines
    assert not [line for line in ada.lines if "receipt" in line], ada.lines


async def test_a_seed_refused_for_the_host_s_disk_goes_again_and_counts(tmp_path: Path) -> None:
    """Ada's ``seed_reveal`` reaches a host whose disk refuses writes. Her client sends the
    same seed again until the host takes it (and signs its receipt); round 1 is dealt with it.
    Before, the seed went once: the host relayed ``no_reveal`` for her and she read "you
    revealed your seed, but the host says it never came", an honest host accused."""
    ada, net = await seed_refused_for_the_host_s_disk(tmp_path, SEED_REVEAL)
    seed = her_seed_counted(ada)
    frames = first_round_frames(net)
    assert len(frames) >= 2, net.sent  # refused, then sent again
    assert len(set(frames)) == 1, net.sent  # the same seed, byte for byte
    (reveal,) = {sent_as(frame) for frame in frames}
    assert isinstance(reveal, m.SeedReveal)
    assert reveal.seed == seed
    assert ada.lines.count(SAID) == 1, ada.lines
    assert not [line for line in ada.lines if "never came" in line or "receipt" in line]


def sent_commit(round_id: bytes = b"r" * 16) -> m.SeedCommit:
    return m.SeedCommit(round_id=round_id, commit=b"c" * 32)


def test_a_seed_refused_for_now_goes_again_after_the_moves_pauses_and_is_said_once() -> None:
    """The same message goes again at 0.5 s, then after pauses doubling to 5 s; the line is
    said at the first refusal at least SAID_AFTER seconds after the first, and only then."""
    seeds = SeedsNotNow()
    commit = sent_commit()
    seeds.sent(commit)
    now, said, pauses = 0.0, [], []
    for _ in range(8):
        line = seeds.refused("seed_commit", "storage", now)
        said.append((now, line))
        pauses.append(seeds.next_due - now)
        assert seeds.due(seeds.next_due - 0.01) == []
        now = seeds.next_due
        assert seeds.due(now) == [commit]
    assert pauses == [FIRST_PAUSE, 1.0, 2.0, 4.0, LONGEST_PAUSE, 5.0, 5.0, 5.0]
    lines = [(at, line) for at, line in said if line is not None]
    assert lines == [(3.5, seed_goes_again("storage"))]
    assert 3.5 >= SAID_AFTER > 1.5  # (a wait of two short pauses goes unsaid)


def test_a_seed_refused_for_the_rate_limit_reads_as_such() -> None:
    seeds = SeedsNotNow()
    seeds.sent(m.SeedReveal(round_id=b"r" * 16, seed=b"s" * 32))
    lines = [seeds.refused("seed_reveal", "rate_limited", at) for at in (0.0, 0.5, 1.5, 3.5)]
    assert lines == [None, None, None, seed_goes_again("rate_limited")]
    assert lines[-1] == (
        "Your random seed for the coming shuffle goes to the host again in a moment, by "
        "itself: the host asks this client to slow down."
    )


def test_wrong_phase_ends_the_wait_silently_and_an_old_answer_leaves_what_was_sent() -> None:
    """``wrong_phase`` (the stage is over) stops a held seed, saying nothing; a refusal for now
    that comes after still names the message last sent (an answer to an older one went
    first: answers come in the order the host read the messages)."""
    seeds = SeedsNotNow()
    commit = sent_commit()
    seeds.sent(commit)
    assert seeds.refused("seed_commit", "storage", 0.0) is None
    assert seeds.refused("seed_commit", "wrong_phase", 0.2) is None
    assert seeds.due(100.0) == []
    assert seeds.next_due == float("inf")
    assert not seeds.waiting("seed_commit")
    seeds.refused("seed_commit", "storage", 1.0)
    assert seeds.due(1.5) == [commit]


def test_the_round_moving_on_ends_the_wait() -> None:
    """The commitments relayed end a held commitment's wait; the seed taken (receipt) or the
    seeds relayed, a held seed's; a new round, both. A late refusal of a message whose stage
    is over sends nothing."""
    seeds = SeedsNotNow()
    commit, reveal = sent_commit(), m.SeedReveal(round_id=b"r" * 16, seed=b"s" * 32)
    seeds.sent(commit)
    seeds.refused("seed_commit", "storage", 0.0)
    seeds.moved_on(m.SeedCommits(seq=3, round_id=b"r" * 16, commits=[None, b"c" * 32]))
    assert seeds.due(100.0) == []
    seeds.refused("seed_commit", "storage", 100.0)  # late: that stage is over
    assert seeds.due(200.0) == []
    seeds.sent(reveal)
    seeds.refused("seed_reveal", "storage", 200.0)
    assert seeds.waiting("seed_reveal")
    seeds.moved_on(
        m.SeedReveals(seq=4, round_id=b"r" * 16, seeds=[None, None], excluded=[None, "no_reveal"])
    )
    assert not seeds.waiting("seed_reveal")
    assert seeds.due(300.0) == []
