"""Our client and bots against a host written from protocol.md and RULES.md alone
(``document_host``: it imports nothing of ours), over loopback TCP: a whole match whose every
round checks and whose transcript verifies, a drop mid-round resumed by token, a rematch after
a person left during the match, and a host that deals a card it did not commit to, which our
client refuses by name."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

import pytest
import trio
from app_driver import playing, run_app
from document_client import DocumentClient
from document_host import DocumentHost
from document_referee import Table
from helpers import kept_seat, verify_pinned
from hosting import bruno_leaves_once_dealt
from session_watch import said_into, until

from scopa_net.bots.levels import make_player
from scopa_net.cards import Card
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.launch import session_failure
from scopa_net.client.network_session import (
    HostBrokeProtocolError,
    NetworkSession,
    SeatLostError,
    TableChoice,
    open_network_session,
)
from scopa_net.client.seat_store import SeatRecord, SeatStore
from scopa_net.client.session import Message, RoundStarted
from scopa_net.client.session_errors import VersionMismatchError
from scopa_net.commands.main import main
from scopa_net.commands.options import EXIT_DEAL_FAILED, EXIT_FAILED
from scopa_net.fair.commitments import fingerprint
from scopa_net.plays import Play, PlayRecord
from scopa_net.rules import RuleSet
from scopa_net.wire.errors import RemoteProtocolError


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The client's data directory (pinned keys, transcripts), never the real one."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "scopa-net"


@asynccontextmanager
async def a_document_host(target: int, **options: object) -> AsyncIterator[DocumentHost]:
    """The outsider host, with one 2-player table to ``target`` already open (table 1)."""
    async with trio.open_nursery() as nursery:
        host = DocumentHost(**options)
        await host.start(nursery)
        host.open_table(Table(2, target, frozenset()))
        yield host
        nursery.cancel_scope.cancel()


async def our_bot(host: DocumentHost, seed: int = 3) -> None:
    """One of our computer players, sent by our bots code over a real client, in seat 1."""
    async with open_network_session(
        "127.0.0.1", host.port, TableChoice(table_id=1, seat=1), name="Bruno"
    ) as session:
        await play_as_bot(session, make_player("greedy", seed))


def a_person_against_our_bot(
    data_dir: Path, target: int, seen: list[DocumentHost] | None = None, **options: object
) -> tuple[int, str, DocumentHost]:
    """Our whole client app, in seat 0, plays a match against our bot; status, screen, host
    (also put in ``seen``, for a run that raises)."""
    hosts: list[DocumentHost] = [] if seen is None else seen

    @asynccontextmanager
    async def opener() -> AsyncIterator[NetworkSession]:
        async with a_document_host(target, **options) as host, trio.open_nursery() as bots:
            hosts.append(host)
            bots.start_soon(our_bot, host)
            choice = TableChoice(table_id=1, seat=0)
            async with open_network_session(
                "127.0.0.1", host.port, choice, name="Ada", data_dir=data_dir
            ) as session:
                yield session
            bots.cancel_scope.cancel()

    status, text, _ = run_app(RuleSet.of(2, target), playing(), opener=opener, plain=True)
    return status, text, hosts[0]


def test_our_client_plays_a_whole_match_and_its_transcript_verifies(
    data_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, text, host = a_person_against_our_bot(data_home, target=6)
    assert status == 0, text
    assert "DEAL CHECK FAILED" not in text
    table = host.tables[1]
    assert table.over
    assert table.round_no >= 1
    checks = [line.strip() for line in text.splitlines() if "Deal check" in line]
    assert len(checks) == table.round_no, text  # one line a round, each verified
    assert all(line.startswith("Deal check: verified (dealer ") for line in checks), checks
    (saved,) = (data_home / "transcripts").iterdir()
    status, out = verify_pinned(host.key, saved, capsys)
    assert status == 0, out
    assert out.rstrip().endswith("VERIFIED"), out
    rounds = [line for line in out.splitlines() if line.startswith("round ")]
    assert len(rounds) == table.round_no, out
    assert all(": verified" in line for line in rounds), out


async def test_a_drop_mid_round_resumes_by_token_with_the_same_hand(data_home: Path) -> None:
    """The host cuts Ada's connection before her second play of round 1; our client comes back
    with its token, holds the same hand, plays it, and the match's transcript verifies."""
    hands: list[set[Card]] = []
    async with a_document_host(target=1) as host:
        table = host.tables[1]
        with trio.fail_after(20):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(our_bot, host)
                async with open_network_session(
                    "127.0.0.1", host.port, TableChoice(table_id=1, seat=0), name="Ada",
                    data_dir=data_home,
                ) as ada:  # fmt: skip
                    submit, submitted = ada.submit, [0]

                    async def cut_before_the_second(play: Play) -> PlayRecord:
                        submitted[0] += 1
                        if submitted[0] == 2:
                            hands.append(set(ada.view.hand))
                            host.drop(table, 0)
                            while table.seats[0].epoch < 2 or table.seats[0].conn is None:
                                await trio.sleep(0.01)
                            await trio.sleep(0.05)  # the replay (nothing missed) is in
                            hands.append(set(ada.view.hand))
                        return await submit(play)

                    ada.submit = cut_before_the_second  # type: ignore[method-assign]
                    await play_as_bot(ada, make_player("random", 1))
                nursery.cancel_scope.cancel()
    before, after = hands
    assert len(before) == 2  # mid-round: one card of the first deal played
    assert after == before
    assert table.over
    assert table.seats[0].epoch == 2  # joined, then resumed once
    (saved,) = (data_home / "transcripts").iterdir()
    assert main(["verify", "--pin", fingerprint(host.key), str(saved)]) == 0


async def test_our_client_plays_again_after_a_person_left_during_the_match(
    data_home: Path,
) -> None:
    """Bruno leaves for good once round 1 is dealt; a computer plays his open seat to the end
    and, as protocol.md 3.11 says, agrees to play again. Ada answers yes and the new match
    begins at once, the seat still open with a computer standing in. Before the document
    host followed 3.11 it counted the open seat as ``waiting``, and the vote never ended."""
    said: list[str] = []
    async with a_document_host(target=1) as host:
        table = host.tables[1]
        with trio.fail_after(20):
            async with open_network_session(
                "127.0.0.1", host.port, TableChoice(table_id=1, seat=0), name="Ada",
                data_dir=data_home, offer_rematch=True,
            ) as ada:  # fmt: skip
                await bruno_leaves_once_dealt(host.port)
                assert await play_as_bot(ada, make_player("random", 1)) is not None
                await ada.rematch(True)
                async for event in ada.events:
                    if isinstance(event, Message):
                        said.append(event.text)
                    if isinstance(event, RoundStarted):
                        break
                assert ada.match_no == 2
                assert await play_as_bot(ada, make_player("random", 2)) is not None
    assert "everyone agreed: a new match begins" in said, said
    assert table.match_no == 2
    assert table.over
    assert (table.seats[1].kind, table.seats[1].stand_in) == ("open", True)


def test_our_client_refuses_a_host_that_deals_a_card_it_did_not_commit_to(
    data_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The host deals Ada, as her first card, the next card up from the committed one: her
    client stops at that deal with one banner naming the check, and keeps the evidence."""
    status, text, host = a_person_against_our_bot(data_home, target=1, cheat="swap_hand")
    assert status == EXIT_DEAL_FAILED, text
    (line,) = [line.strip() for line in text.splitlines() if "DEAL CHECK FAILED" in line]
    banner = line[line.index("DEAL CHECK FAILED") :]  # a prompt may stand before it (a stream)
    assert re.fullmatch(
        r"DEAL CHECK FAILED in round 1: card check: deck position [01]: \S+ with salt "
        r"[0-9a-f]{32} does not match committed hash \d+ \([0-9a-f]{64}\)",
        banner,
    ), banner
    assert "a card is not the one the host committed to before the deal" in text
    assert all(seat != 0 for seat, *_ in host.tables[1].round.plays)  # stopped at the deal
    (evidence,) = (data_home / "transcripts").iterdir()
    assert evidence.name.endswith("-FAILED.scopa")
    status, out = verify_pinned(host.key, evidence, capsys)
    assert status == 1, out
    assert "saved as evidence when the client stopped: round 1, card check: deck position" in out
    assert out.rstrip().endswith("NOT VERIFIED"), out


def test_a_host_that_sends_a_broken_deal_is_told_so_and_not_resumed_forever(
    data_home: Path,
) -> None:
    """The host deals Ada one card twice, a ``deal`` protocol.md 3.9 forbids (bad_field).
    Before the fix her client closed without the ``bye {reason: "bad_field"}`` section 1 asks
    for, then resumed, was replayed the same deal, and so on for as long as it ran, its
    screen flapping between "reconnecting" and "connected" (the test hit its hang guard). Now
    it says why in ``bye``, tries once more, and stops when the host sends the same again,
    with one line saying so."""
    hosts: list[DocumentHost] = []
    with pytest.raises(HostBrokeProtocolError) as stopped:
        a_person_against_our_bot(data_home, target=1, cheat="double_card", seen=hosts)
    (host,) = hosts
    assert [reason for seat, reason, _ in host.byes if seat in (0, None)] == ["bad_field"] * 2
    assert host.tables[1].seats[0].epoch == 2  # joined, then resumed once
    failure = session_failure(stopped.value)
    assert failure.status == EXIT_FAILED
    assert re.fullmatch(
        rf"the host at 127\.0\.0\.1:{host.port} sent a message that breaks the protocol "
        r"\(bad_field: deal: .+\) again after the seat was taken back; stopped trying",
        str(failure),
    ), str(failure)


@pytest.mark.parametrize("versions", [(4, 5), (4,)])
def test_our_client_plays_at_a_host_of_5_and_4_and_at_one_of_4_only(
    data_home: Path, versions: tuple[int, ...]
) -> None:
    """protocol.md 3.2: our client says `hello` in 5; a host that speaks 5 and 4 answers in 5,
    and one that speaks 4 only refuses it naming 4, and our client says `hello` again in 4
    on a new connection, then plays the whole match there (a connection in 4 carries no key
    of 5: the outsider host asserts it)."""
    status, text, host = a_person_against_our_bot(data_home, target=2, versions=versions)
    assert status == 0, text
    assert "DEAL CHECK FAILED" not in text
    assert host.tables[1].over
    spoken = [c.version for c in host.connections]
    assert set(spoken) - {0} == {max(versions)}, spoken  # 0: refused at `hello`
    assert spoken.count(0) == (2 if versions == (4,) else 0), spoken  # Ada's and Bruno's


@pytest.mark.parametrize(
    ("cheat", "versions", "reason"),
    [
        ("why_wrong_code", (4, 5), "bad_field"),
        ("v5_keys_in_4", (4,), "bad_field"),
        ("welcome_in_another", (4, 5), "bad_version"),
    ],
)
async def test_our_client_refuses_a_why_with_another_code_and_a_key_of_5_in_4(
    data_home: Path, cheat: str, versions: tuple[int, ...], reason: str
) -> None:
    """protocol.md 3.9: `why` goes with its one code (`table_closed_on_restart` with
    `no_such_table`), and a connection in 4 carries no `why` at all (3.8). The outsider host
    answers a `join` at a table that does not exist with one or the other; our client ends the
    connection with `bye bad_field` instead of reading the refusal. A `welcome` in 4 to its
    `hello` in 5 it ends with `bye bad_version` (3.2: "closes the same way")."""
    async with a_document_host(1, cheat=cheat, versions=versions) as host:
        with trio.fail_after(10), pytest.raises(RemoteProtocolError, match=reason):
            async with open_network_session(
                "127.0.0.1", host.port, TableChoice(table_id=9, seat=0), name="Ada",
                data_dir=data_home,
            ):  # fmt: skip
                pass
        with trio.fail_after(2):
            while not host.byes:
                await trio.sleep(0.01)
        assert [said for _, said, _ in host.byes] == [reason]


async def taking_back(port: int, record: SeatRecord, home: Path) -> str:
    """What the person reads when our client takes the kept seat ``record`` back."""
    store = SeatStore(home)
    store.save(record)
    choice = TableChoice(table_id=record.table_id, seat=record.seat)
    with trio.fail_after(20), pytest.raises(SeatLostError) as lost:
        async with open_network_session(
            "127.0.0.1", port, choice, name=record.name, data_dir=home, store=store,
            resume_from=record,
        ):  # fmt: skip
            pass
    return str(lost.value)


async def test_at_another_host_of_4_a_table_gone_is_not_read_as_closed_on_restart(
    data_home: Path,
) -> None:
    """protocol.md 3.8: at a host of version 4 our client reads why from our older host's
    words. The outsider host of 4 says `no such table` for a table that is not there (any
    words are the host's to choose): our client must not tell Ada that the host closed her
    table as it restarted, with a transcript of its rounds to check; only the words our host
    used for that, `the host closed table N as it restarted: `, say so."""
    async with a_document_host(1, versions=(4,)) as host:
        record = kept_seat(host.port, table_id=9, seat=1, host_key=host.key.hex())
        said = await taking_back(host.port, record, data_home)
    head = f"The host at 127.0.0.1:{host.port} no longer holds seat 1 at table 9 for you"
    assert said.startswith(f"{head} (the match there is over)."), said


@pytest.mark.parametrize("versions", [(4, 5), (4,)])
async def test_our_client_told_its_seat_was_taken_while_away_at_the_outsider_host(
    data_home: Path, versions: tuple[int, ...]
) -> None:
    """protocol.md 3.3, 3.8: Ivo (our client) steps away and, past the outsider host's away
    limit, Lea takes his seat. Taking it back, his client is refused `bad_token`, with `why:
    "seat_taken_while_away"` in 5 and in that host's own words in 4 (which begin `your seat at
    table `), and tells him so in the host's words."""
    async with a_document_host(4, versions=versions, away_limit=0.3) as host:
        table = host.tables[1]
        with trio.fail_after(20):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(our_bot, host)
                async with open_network_session(
                    "127.0.0.1", host.port, TableChoice(table_id=1, seat=0), name="Ivo",
                    data_dir=data_home,
                ) as ivo:  # fmt: skip
                    async for event in ivo.events:
                        if isinstance(event, RoundStarted):
                            break
                    token, key = ivo._token, host.key
                    host.bot_delay = 5.0  # the match goes on while Lea comes
                    await ivo.leave(away=True)
                while not table.seats[0].stand_in:
                    await trio.sleep(0.01)
                await trio.sleep(0.5)  # past the away limit
                assert table.info(listing=True)["seats"][0]["name"] == "Ivo <away>"  # 3.3
                async with open_network_session(
                    "127.0.0.1", host.port, TableChoice(table_id=1, seat=0), name="Lea"
                ) as lea:
                    assert lea.seat == 0
                    record = kept_seat(
                        host.port, table_id=1, seat=0, name="Ivo", host_key=key.hex(), target=4
                    )
                    record = replace(record, tokens=(token.hex(),))
                    said = await taking_back(host.port, record, data_home / "ivo")
                nursery.cancel_scope.cancel()
    assert said == (
        f"The host at 127.0.0.1:{host.port} no longer holds seat 0 at table 1 for you: your "
        "seat at table 1 was taken by Lea after you were away for more than 0.3 seconds."
    ), said


@pytest.mark.parametrize("theirs", [3, 6])
async def test_our_client_at_a_host_of_a_version_it_does_not_speak_says_who_must_update(
    data_home: Path, theirs: int
) -> None:
    """protocol.md 3.2: refused `hello` in 5 by a host that names a version our client does not
    speak (3, older than its 4; or 6), it opens no second connection and tells its person which
    version the host runs and who must update."""
    async with a_document_host(1, versions=(theirs,)) as host:
        with trio.fail_after(10), pytest.raises(VersionMismatchError) as refused:
            async with open_network_session(
                "127.0.0.1", host.port, TableChoice(table_id=1, seat=0), name="Ada",
                data_dir=data_home,
            ):  # fmt: skip
                pass
        assert [c.version for c in host.connections] == [0]  # one hello, refused
    said = str(refused.value)
    assert f"the host at 127.0.0.1:{host.port} runs " in said, said
    if theirs < 5:
        assert f"an older scopa-net than yours (protocol {theirs}, this one 5)" in said, said
    else:
        assert f"a newer scopa-net than yours (protocol {theirs}, this one 5)" in said, said


@pytest.mark.parametrize("versions", [(4, 5), (4,)])
async def test_our_client_sitting_down_mid_round_names_the_plays_before_it_from_makers(
    data_home: Path, versions: tuple[int, ...]
) -> None:
    """protocol.md 3.4, 3.9 `makers`: at the outsider host, Ivo (an outsider client) plays once,
    renames himself Ivan and gives his seat up mid-round; Lea (our client) takes it. From a
    host of 5 her client names his play Ivan's and any the open seat's computer made `bot 0`,
    from the snapshot's `makers`; from a host of 4, which cannot say, it names them the
    seat's before her, never hers."""
    async with a_document_host(4, versions=versions) as host:
        host.bot_delay = 0
        ivo, ada = DocumentClient("Ivo"), DocumentClient("Ada")
        with trio.fail_after(20):
            for c in (ivo, ada):
                await c.connect("127.0.0.1", host.port)
            await ivo.join(await ivo.create_table(target=4, bots=0))
            await ada.join(ivo.table_id)
            async with trio.open_nursery() as both:
                for c in (ivo, ada):
                    both.start_soon(c.play, lambda c: len(c.made_by) >= 2)
            await ivo.rename("Ivan")
            await ivo.leave(away=False)
            await ivo.quit()
            async with open_network_session(
                "127.0.0.1", host.port, TableChoice(table_id=ivo.table_id, seat=ivo.seat_no),
                name="Lea", data_dir=data_home,
            ) as lea:  # fmt: skip
                assert lea.view is not None
                plays = lea.view.plays
                seats = [i for i, p in enumerate(plays) if p.seat == ivo.seat_no]
                named = [lea.play_makers[i] for i in seats]
            await ada.quit()
    # His play first; any later one the computer's that played the open seat before Lea.
    before = f"seat {ivo.seat_no} (before you)"
    if 5 in versions:
        assert named == ["Ivan"] + [f"bot {ivo.seat_no}"] * (len(named) - 1), named
    else:
        assert named == [before] * len(named), named


@pytest.mark.parametrize("versions", [(4, 5), (4,)])
async def test_our_client_sitting_down_in_a_redeal_reads_it_from_the_snapshot(
    data_home: Path, versions: tuple[int, ...]
) -> None:
    """protocol.md 3.9 `redeal`, `voids`: the outsider host, rigged for the outsiders' seeds,
    opens round 1 with three kings (void, 5.8) and deals it again as round 2. Ivo gives his
    seat up in round 2 and Lea (our client) takes it: from a host of 5 her board is the redeal
    (`Round 2 (round 1 dealt again)`) with one round void; from a host of 4, which cannot
    say it, round 2, still with one round void (`voids` is a key of 4)."""
    seeds = [bytes([7]) * 32, bytes([9]) * 32]
    async with a_document_host(4, versions=versions) as host:
        host.bot_delay = 0
        host.void_first_round = seeds
        ivo = DocumentClient("Ivo", seeds=lambda: seeds[0])
        ada = DocumentClient("Ada", seeds=lambda: seeds[1])
        with trio.fail_after(30):
            for c in (ivo, ada):
                await c.connect("127.0.0.1", host.port)
                await c.join(1)
            async with trio.open_nursery() as both:
                for c in (ivo, ada):
                    both.start_soon(c.play, lambda c: bool(c.made_by) and c.round_no == 2)
            assert ivo.voids == 1  # round 1 was void, as rigged
            assert ivo.redeal
            await ivo.leave(away=False)
            await ivo.quit()
            async with open_network_session(
                "127.0.0.1", host.port, TableChoice(table_id=1, seat=ivo.seat_no), name="Lea",
                data_dir=data_home,
            ) as lea:  # fmt: skip
                assert lea.view is not None
                view, voids = lea.view, lea._voids
            await ada.quit()
    assert view.round_number == 2
    assert (view.redeal, voids) == (5 in versions, 1)  # `voids` is version 4's too


@pytest.mark.parametrize("version", [5, 4])
async def test_our_client_names_the_last_event_a_host_that_lost_events_has(
    data_home: Path, version: int
) -> None:
    """protocol.md 3.3, 3.8: Ada's host lost the last events of her seat (as a host started
    again from an older copy of its journal would), and refused her resume `error stale`. Our
    client read the host's newest event from our own host's English ("... newest event N;
    ..."), so at the outsider host, which words it its own way ("the newest event is N"), she
    read that the host "has lost the last events". In version 5 the `error` says it in
    `current_seq`, and she reads which event; in 4 it has no such key, and the words are all
    there is."""
    async with a_document_host(11, versions=(version,)) as host:
        table = host.tables[1]
        with trio.fail_after(20):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(our_bot, host)
                async with open_network_session(
                    "127.0.0.1", host.port, TableChoice(table_id=1, seat=0), name="Ada",
                    data_dir=data_home,
                ) as ada:  # fmt: skip
                    said: list[str] = []
                    nursery.start_soon(said_into, ada, said)
                    await until(lambda: ada.view is not None and ada.view.my_turn)
                    assert ada.mirror is not None
                    assert ada._start is not None
                    seen, kept = ada.mirror.seq, ada._start.seq + 1
                    assert kept < seen
                    seat = table.seats[0]
                    del seat.log[kept:]  # the events after `kept` are lost to the host
                    host.drop(table, 0)  # which logs one more: her seat's connection lost
                    await until(lambda: any("has lost" in t for t in said))
                nursery.cancel_scope.cancel()
    (lost,) = [t for t in said if "has lost" in t]
    what = f"what came after event {kept + 1}" if version == 5 else "the last events"
    assert lost.startswith(
        f"The host at 127.0.0.1:{host.port} has lost {what} of your seat (this client saw "
        f"{seen}): it was started again from an older copy of its journal, it seems."
    ), lost
