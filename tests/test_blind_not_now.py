"""A blind table's ``blind_key``, ``blind_shuffle``, ``blind_shares`` or ``blind_reveal`` the
host refused "not now" (protocol.md 9.5, 3.6: ``error storage``, its journal cannot be written
just now, or ``error rate_limited``) was not taken: our client sends the same message again,
byte for byte, after client/not_now.py's pauses, until its stage is over, and says so in one
line if the wait is long enough to notice. Before, it logged the refusal and sent nothing: the
round waited for it to its deadline and was void, ``absent`` naming Ada's seat (she read that
she was absent and sat the next round out), or, for her seed, she read it was left out.

Over real loopback with a real host whose journal really refuses writes (SQLite's page limit,
as a full disk does) at the moment Ada's blind message reaches it, and is freed after."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from full_journal import FirstFrameHeld, free_the_journal, until_the_journal_fails
from helpers import no_kings_void, one_wrong_share, protocol_section
from hosting import create, start_host
from person_screen import Player, plays_the_first_legal_card, sit, until
from rawplayer import close_links

from scopa_net.bots.levels import make_player
from scopa_net.client.blind_not_now import BLIND_SENDS, WHAT_GOES, BlindNotNow, blind_goes_again
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import (
    DealCheckFailedError,
    TableChoice,
    open_network_session,
)
from scopa_net.client.not_now import FIRST_PAUSE
from scopa_net.client.seeds_not_now import SAID_AFTER
from scopa_net.fair.blind.verifier import verify_any
from scopa_net.fair.blind.wire import decode_any
from scopa_net.rules import RuleSet
from scopa_net.server import blind_table
from scopa_net.server.table_task import ROOM_AFTER_AN_OUTAGE
from scopa_net.wire import messages as m
from scopa_net.wire.codec import decode as decode_frame

SAID = {
    "blind_key": "Your key for the coming shuffle goes to the host again in a moment, by itself: "
    "the host cannot save just now (its disk).",
    "blind_shuffle": "Your shuffle of the deck goes to the host again in a moment, by itself: "
    "the host cannot save just now (its disk).",
    "blind_shares": "Your part in opening the cards just dealt goes to the host again in a "
    "moment, by itself: the host cannot save just now (its disk).",
    "blind_reveal": "Your random seed for the round just over goes to the host again in a "
    "moment, by itself: the host cannot save just now (its disk).",
}
"""What Ada reads while her message waits, by its type."""


def frame_type(kind: str) -> bytes:
    """The bytes of a frame's type ``kind`` as msgpack writes it (a short str)."""
    return bytes([0xA0 | len(kind)]) + kind.encode()


async def refused_for_the_host_s_disk(
    tmp_path: Path, kind: str, *, seed_timeout: float = 30.0, told_for: float = 0.0
) -> tuple[Player, FirstFrameHeld]:
    """Ada, at a blind table against a computer player, to 1 point: her first ``kind``
    reaches the host just after its journal fails; the journal is freed ``told_for`` seconds
    after she has been told it goes again (each stage due ``seed_timeout`` after it begins),
    and she plays round 1 out to its deal check."""
    seated: list[Player] = []
    async with trio.open_nursery() as nursery:
        host = await start_host(
            nursery,
            db=str(tmp_path / "host.db"),
            bot_delay=0.01,
            chat_lines=10_000,
            seed_timeout=seed_timeout,
        )
        net = FirstFrameHeld(host.port, frame_type(kind))

        async def ada_plays() -> None:  # (she sits while her key may be held)
            ada = await sit(
                nursery, host, "Ada", tmp_path, connector=net.network.connect,
                create=create(RuleSet.of(2, 1), bots=1, blind=True),
            )  # fmt: skip
            seated.append(ada)
            await plays_the_first_legal_card(ada)

        nursery.start_soon(ada_plays)
        with trio.fail_after(60):
            await net.held.wait()
        chatter = await until_the_journal_fails(host)
        net.let_go.set()
        await until(lambda: seated and SAID[kind] in seated[0].lines, 15)
        await trio.sleep(told_for)
        free_the_journal(host)
        await until(lambda: "Deal check:" in seated[0].text, 60)
        await close_links()
        del chatter
        nursery.cancel_scope.cancel()
    return seated[0], net


def sent_as(frame: bytes) -> m.Message:
    """The message a frame Ada's client sent holds (past its 4 length bytes)."""
    return decode_frame(frame[4:])


def stage(msg: m.Message) -> tuple[object, ...]:
    """The stage a blind message is for: its round, and for shares their deal."""
    return (msg.round_id, getattr(msg, "deal", None))  # type: ignore[attr-defined]


def round_1_checked_with_her_party(ada: Player) -> None:
    """What Ada read and her saved transcript say round 1 was dealt with her party, played
    out, and verified, her seed in its reveal."""
    checks = [line for line in ada.lines if line.startswith("Deal check:")]
    assert checks, ada.lines
    assert "void" not in checks[0], checks
    assert "absent" not in checks[0], checks
    assert "absent" not in ada.text, ada.text
    saved = ada.session._transcripts.saved
    assert saved is not None
    transcript = decode_any(saved[1].read_bytes())
    first = transcript.rounds[0]
    seat = ada.session.seat
    assert first.people == (seat,)
    assert first.void is None
    assert first.seeds is not None
    assert first.seeds[1] is not None  # her party's seed
    assert verify_any(transcript).rounds[0].ok


@pytest.mark.parametrize("kind", ["blind_key", "blind_shuffle", "blind_shares", "blind_reveal"])
async def test_a_blind_message_refused_for_the_host_s_disk_goes_again_the_same(
    tmp_path: Path, kind: str
) -> None:
    """Ada's blind message reaches a host whose disk refuses writes (``error storage``). Her
    client sends the very same message again after a pause, and again, says once, calmly, that
    it goes again by itself, and once the host can save it is taken: round 1 is dealt and
    played with her party and verifies. Before, the message went once and the round waited
    for it to its deadline (fails before this change: the line never comes)."""
    ada, net = await refused_for_the_host_s_disk(tmp_path, kind)
    round_1_checked_with_her_party(ada)
    assert len(net.sent) >= 2, net.sent  # refused, then sent again
    first = net.sent[0]
    again = [frame for frame in net.sent if stage(sent_as(frame)) == stage(sent_as(first))]
    assert len(again) >= 2, again
    assert len(set(again)) == 1, again  # the same, byte for byte
    assert kind == sent_as(first).TYPE
    assert ada.lines.count(SAID[kind]) == 1, ada.lines
    assert not [line for line in ada.lines if "the host refused" in line], ada.lines


async def test_the_stage_s_deadline_waits_out_the_host_s_disk(tmp_path: Path) -> None:
    """The host refuses Ada's key for its disk longer than the stage's deadline (6 s here,
    30 s by default): the deadline moves on by the outage, as 3.6 says, so the key her client
    sends again once the host can save is taken and round 1 is dealt. Before, the deadline
    passed while the host refused her key and she read "Round 1 is void: the host says your
    key did not reach it within its deadline" (fails before this change)."""
    ada, net = await refused_for_the_host_s_disk(
        tmp_path, "blind_key", seed_timeout=6.0, told_for=4.0
    )
    round_1_checked_with_her_party(ada)
    assert "void" not in ada.text, ada.text
    assert len(net.sent) >= 4, net.sent  # refused for some 8 s, longer than the deadline


async def test_a_stopped_seat_s_seed_refused_for_the_host_s_disk_goes_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ada's client stops on a failed check (the host's party gave her first card a wrong
    share, 9.6) and sends its seed so that the round's reveal names the party at fault; the
    host refuses that seed for its disk. Her client sends the same seed again until the host
    can save, reads the reveal, and her banner names the host. Before, the seed went once:
    the round was never voided, no reveal came within the 90 s wait, and her banner named
    only the check (fails before this change)."""
    no_kings_void(monkeypatch)  # (the round is not void before her check)
    monkeypatch.setattr(blind_table, "BlindParty", one_wrong_share(0, 0))
    async with trio.open_nursery() as nursery:
        host = await start_host(
            nursery, db=str(tmp_path / "host.db"), bot_delay=0.01, chat_lines=10_000
        )
        net = FirstFrameHeld(host.port, frame_type("blind_reveal"))
        stopped: list[DealCheckFailedError] = []

        async def ada_plays() -> None:
            with pytest.raises(DealCheckFailedError) as info:
                async with open_network_session(
                    "127.0.0.1", host.port, TableChoice(create=create(RuleSet.of(2, 3), bots=1,
                    blind=True)), name="Ada", data_dir=tmp_path / "Ada",
                    connector=net.network.connect,
                ) as session:  # fmt: skip
                    await play_as_bot(session, make_player("random", 1))
            stopped.append(info.value)

        nursery.start_soon(ada_plays)
        with trio.fail_after(60):
            await net.held.wait()
        chatter = await until_the_journal_fails(host)
        net.let_go.set()
        await trio.sleep(4)  # refused, and sent again, a few times
        free_the_journal(host)
        await until(lambda: stopped, 60)
        await close_links()
        del chatter
        nursery.cancel_scope.cancel()
    banner = str(stopped[0])
    assert banner.startswith("DEAL CHECK FAILED in round 1: no card"), banner
    assert "At fault: the host (party 0)." in banner, banner
    assert len(net.sent) >= 3, net.sent  # refused, then sent again
    assert len(set(net.sent)) == 1, net.sent  # the same seed, byte for byte


def test_the_stage_over_ends_the_wait_and_wrong_phase_stops_it_silently() -> None:
    """The keys relayed end a held key's wait; this seat's deck relayed, its shuffle's; the
    deal its shares are for relayed, theirs (another deal's does not); the seeds relayed, the
    seed's; ``wrong_phase`` stops any, unsaid."""
    held = BlindNotNow()
    info = m.KeyInfo(point=b"p" * 32, proof=b"q" * 64, sign_key=b"s" * 32)
    key = m.BlindKey(round_id=b"r" * 16, key=info)
    held.sent(key)
    assert held.refused("blind_key", "storage", 0.0) is None
    assert held.due(FIRST_PAUSE) == [key]
    held.moved_on(m.BlindKeys(seq=3, round_id=b"r" * 16, keys=[info, info], dealer=0))
    assert held.refused("blind_key", "storage", 1.0) is None  # late: that stage is over
    assert held.due(100.0) == []
    shares = m.BlindShares(round_id=b"r" * 16, deal=2, shares=[b"x" * 32], sig=b"g" * 64)
    held.sent(shares)
    held.refused("blind_shares", "rate_limited", 100.0)
    deal_1 = m.BlindDeal(
        seq=9, round_id=b"r" * 16, deal=1, shares=[[], []], sigs=[b"g" * 64] * 2, stock=30
    )
    held.moved_on(deal_1)
    assert held.waiting("blind_shares")
    held.moved_on(
        m.BlindDeal(
            seq=12, round_id=b"r" * 16, deal=2, shares=[[], []], sigs=[b"g" * 64] * 2, stock=24
        )
    )
    assert not held.waiting("blind_shares")
    reveal = m.BlindReveal(round_id=b"r" * 16, seed=b"e" * 32)
    held.sent(reveal)
    held.refused("blind_reveal", "storage", 200.0)
    assert held.refused("blind_reveal", "wrong_phase", 200.5) is None
    assert not held.waiting("blind_reveal")
    assert held.next_due == float("inf")


def test_a_long_wait_is_said_once_in_the_seed_s_words() -> None:
    held = BlindNotNow()
    held.sent(m.BlindReveal(round_id=b"r" * 16, seed=b"e" * 32))
    lines = [held.refused("blind_reveal", "rate_limited", at) for at in (0.0, 0.5, 1.5, 3.5, 8.5)]
    assert lines == [None, None, None, blind_goes_again("blind_reveal", "rate_limited"), None]
    assert SAID_AFTER <= 3.5
    assert lines[3] == (
        "Your random seed for the round just over goes to the host again in a moment, by "
        "itself: the host asks this client to slow down."
    )


def test_protocol_md_9_5_says_what_our_client_does_and_reads() -> None:
    """9.5 quotes the key's line as our client says it, names each other message's words, and
    forbids a message made anew; 3.8 lists the blind messages among those ``storage`` refuses."""
    text = " ".join(protocol_section("### 9.5").split())
    assert f'("{blind_goes_again("blind_key", "storage")}";' in text
    for ref in ("blind_shuffle", "blind_shares", "blind_reveal"):
        assert f'"{WHAT_GOES[ref]} ..."' in text, ref
    assert "exactly as it was (the same bytes), never one made anew" in text
    limits = " ".join(protocol_section("### 3.6").split())
    assert "nor a blind table's stage deadline (9.7), passes while the host cannot write" in limits
    assert f"at least {ROOM_AFTER_AN_OUTAGE:g} seconds away" in limits
    errors = " ".join(protocol_section("### 3.8").split())
    (storage,) = [row for row in errors.split("| `") if row.startswith("storage`")]
    for ref in BLIND_SENDS:
        assert f"`{ref}`" in storage, ref
