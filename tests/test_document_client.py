"""Our host, played by an outsider: ``document_client`` is written from protocol.md and RULES.md
alone (it imports nothing from scopa_net) and checks every event a seat checks on arrival
(5.10). It plays whole matches against the real host over loopback TCP, drops and resumes its
seat, and refuses a round commitment whose signature was altered."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from pathlib import Path

import pytest
import trio
from document_client import (
    DocumentClient,
    HostMisbehavedError,
    OtherVersionError,
    SeatLostError,
    unlisted,
)
from document_hashes import cases
from document_host import DocumentHost
from document_referee import Table
from document_seat import CheckFailedError, Seat, host_list
from helpers import imported_modules
from hosting import start_host

OUTSIDERS = (
    "document_client",
    "document_own_plays",
    "document_seat",
    "document_host",
    "document_hashes",
    "document_referee",
)
OUTSIDE_LIBRARIES = {
    "__future__", "collections", "contextlib", "dataclasses", "functools", "hashlib", "hmac",
    "itertools", "re", "os", "pathlib", "struct", "msgpack", "trio", "cryptography",
}  # fmt: skip


def test_the_client_imports_nothing_of_ours() -> None:
    """The client, the host and the modules they are built from import no scopa_net module."""
    here = Path(__file__).parent
    for name in OUTSIDERS:
        extra = imported_modules(here / f"{name}.py") - {*OUTSIDERS, *OUTSIDE_LIBRARIES}
        assert not extra, f"{name} imports {extra}"


async def seated_client(port: int, target: int) -> DocumentClient:
    client = DocumentClient("Ada")
    await client.connect("127.0.0.1", port)
    await client.join(await client.create_table(target=target))
    return client


async def test_a_client_from_the_document_plays_a_whole_match() -> None:
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0)
            client = await seated_client(host.port, target=1)
            await client.play()
            seat = client.seat
            assert seat is not None
            assert seat.match_over
            assert seat.rounds_checked >= 1
            assert max(seat.scores) >= 1
            assert client.plays_sent == len(client.acks)  # every play taken, none refused
            assert not any(a["duplicate"] for a in client.acks)
            for deal in (e for e in client.events if e["t"] == "deal"):  # in deck order (3.9)
                for cards in (deal["hand"], deal["table"]):
                    assert [c["pos"] for c in cards] == sorted(c["pos"] for c in cards)
            await client.quit()
            nursery.cancel_scope.cancel()


async def test_it_drops_mid_round_and_resumes_its_seat_with_its_token() -> None:
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0, grace=600)
            client = await seated_client(host.port, target=1)
            await client.play(stop=lambda c: c.plays_sent == 3)  # a play on its way
            assert client.pending is not None
            in_flight = client.pending.card
            assert client.seat is not None
            assert in_flight in client.seat.hand
            dropped_in = client.seat.rounds[-1]
            token = client.token
            await client.drop()

            await client.connect("127.0.0.1", host.port)
            await client.resume()
            assert client.token != token
            await client.play()
            seat = client.seat
            assert seat is not None
            assert seat.match_over
            assert seat.rounds_checked >= 1
            # The play sent before the drop was played once, from the hand held then.
            mine = [code & 63 for s, code, _, _ in dropped_in.plays if s == client.seat_no]
            assert in_flight in mine
            assert 3 in [a["move_id"] for a in client.acks]
            await client.quit()
            nursery.cancel_scope.cancel()


def commitment_on_its_way(client: DocumentClient) -> bool:
    r = client.seat.round if client.seat else None
    return r is not None and r.commit is not None and r.commits is None


def seed_on_its_way(client: DocumentClient) -> bool:
    r = client.seat.round if client.seat else None
    return r is not None and r.commits is not None and r.seeds is None and r.receipt is None


@pytest.mark.parametrize("drop_when", [commitment_on_its_way, seed_on_its_way])
async def test_it_drops_during_the_seed_exchange_and_sends_its_seed_again(
    drop_when: Callable[[DocumentClient], bool],
) -> None:
    """5.4 "Resending": after the resume it sends again what the host may lack; the host refuses
    a repeat it already has (`error wrong_phase`), and the round is dealt from its seed."""
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0, grace=600)
            client = await seated_client(host.port, target=1)
            await client.play(stop=drop_when)
            await client.drop()
            await client.connect("127.0.0.1", host.port)
            await client.resume()
            assert client.resent  # sent again
            await client.play()
            seat = client.seat
            assert seat is not None
            assert seat.match_over
            first = seat.rounds[0]
            assert first.seeds is not None
            assert first.seeds[client.seat_no] == first.seed  # its seed counted
            assert first.excluded is not None
            assert first.excluded[client.seat_no] is None
            await client.quit()
            nursery.cancel_scope.cancel()


def test_it_refuses_a_round_commitment_whose_signature_was_altered() -> None:
    """The commitment of protocol.md 8.2 (case `signature`) is taken as it is, and refused
    with any one bit of its signature flipped."""
    vectors = cases()
    sig, host = vectors["signature"], vectors["host"]
    round_id, host_seed = bytes.fromhex(host["round_id"]), bytes.fromhex(host["host_seed"])
    event = {
        "t": "round_commit",
        "seq": 1,
        "round_id": round_id,
        "round_no": 1,
        "prev": bytes(32),
        "card_hashes": host_list(round_id, host_seed)[2],
        "digest": bytes.fromhex(sig["digest"]),
        "sig": bytes.fromhex(sig["commit_sig"]),
    }
    key = bytes.fromhex(sig["host_public_key"])
    Seat(key, Table(2, 11, frozenset()), 0).take(event)  # the document's own commitment holds
    tampered = bytearray(event["sig"])
    tampered[7] ^= 0x10
    with pytest.raises(CheckFailedError, match="round 1: round_commit signature"):
        Seat(key, Table(2, 11, frozenset()), 0).take({**event, "sig": bytes(tampered)})


def replay(client: DocumentClient, events: list[dict]) -> Seat:
    """The events of the client's match taken again by a fresh seat, with the client's seeds."""
    assert client.seat is not None
    assert client.pinned is not None
    seat = Seat(client.pinned, client.seat.table, client.seat_no)
    rounds = iter(client.seat.rounds)
    for event in events:
        seat.take(event)
        if event["t"] == "round_commit":
            played = next(rounds)
            seat.seed_to_commit(played.seed)
    return seat


def flip(data: bytes) -> bytes:
    return bytes([data[0] ^ 1]) + data[1:]


def other_seat(client: DocumentClient) -> Callable[[dict], bool]:
    return lambda e: e["seat"] != client.seat_no


TAMPERED = [
    # (event, what is changed, the check that refuses it)
    ("round_commit", lambda e: e.update(digest=flip(e["digest"])), "digest"),
    ("round_commit", lambda e: e.update(prev=flip(e["prev"])), "round_commit signature"),
    ("seed_commits", lambda e: e.update(commits=[c and flip(c) for c in e["commits"]]),
     "changed this seat's commitment"),
    ("seed_receipt", lambda e: e.update(sig=flip(e["sig"])), "seed_receipt signature"),
    ("seed_reveals", lambda e: e.update(seeds=[x and flip(x) for x in e["seeds"]]),
     "changed this seat's seed"),
    ("seed_reveals", lambda e: e.update(excluded=[x or "no_reveal" for x in e["excluded"]]),
     "not as its record"),
    ("deal", lambda e: e["hand"][0].update(salt=flip(e["hand"][0]["salt"])), "committed hash"),
    ("deal", lambda e: e["hand"][0].update(pos=e["hand"][0]["pos"] + 1), "positions dealt"),
    ("played", lambda e: e.update(sweep=not e["sweep"]), "the rules say"),
    ("round_end", lambda e: e.update(scores=[x + 1 for x in e["scores"]]), "do not add up"),
    ("round_reveal", lambda e: e.update(host_seed=flip(e["host_seed"])), "host seed"),
    ("round_reveal", lambda e: e.update(sig=flip(e["sig"])), "round_reveal signature"),
    ("match_end", lambda e: e.update(winner=1 - e["winner"]), "match_end signature"),
]  # fmt: skip


async def test_every_event_of_a_real_match_it_checks_is_refused_when_tampered_with() -> None:
    """One real match, recorded; taken again, it passes; each event altered in a way the
    document forbids is refused by the check that names it (5.10)."""
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0)
            client = await seated_client(host.port, target=1)
            await client.play()
            await client.quit()
            nursery.cancel_scope.cancel()
    assert replay(client, client.events).match_over
    for kind, change, check in TAMPERED:
        events = copy.deepcopy(client.events)
        change(next(e for e in events if e["t"] == kind))
        with pytest.raises(CheckFailedError, match=check):
            replay(client, events)


# --- protocol 5 (3.2, 3.4, 3.8): versions, makers, why -------------------------------------------


async def plays_a_match_to_1(client: DocumentClient) -> None:
    """The connected ``client`` opens a table to 1, plays its match to the end and quits."""
    await client.join(await client.create_table(target=1))
    await client.play()
    assert client.seat is not None
    assert client.seat.match_over
    await client.quit()


@pytest.mark.parametrize("version", [5, 4])
async def test_at_our_host_in_either_version_it_plays_a_whole_match(version: int) -> None:
    """3.2: our host speaks 5 and 4 and answers a `hello` in the version it was said in; in 4
    it never sends a key of 5 (the client refuses one with `bad_field`)."""
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0)
            client = DocumentClient("Ada")
            await client.connect("127.0.0.1", host.port, version)
            assert client.version == version
            await plays_a_match_to_1(client)
            nursery.cancel_scope.cancel()


@pytest.mark.parametrize(("spoken", "refused"), [((4,), [5]), ((4, 5), [])])
async def test_refused_in_5_by_a_host_of_4_it_says_hello_again_in_4(
    spoken: tuple[int, ...], refused: list[int]
) -> None:
    """3.2: a host that speaks only 4 refuses `hello` in 5 naming 4; the client opens a new
    connection and plays in 4. A host that speaks both takes 5 at once."""
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            host = DocumentHost(versions=spoken)
            await host.start(nursery)
            host.bot_delay = 0
            client = DocumentClient("Ada")
            await client.connect("127.0.0.1", host.port)
            assert (client.refused_versions, client.version) == (refused, max(spoken))
            await plays_a_match_to_1(client)
            nursery.cancel_scope.cancel()


async def test_a_host_of_an_older_version_only_is_named_in_the_person_s_words() -> None:
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            host = DocumentHost(versions=(3,))
            await host.start(nursery)
            client = DocumentClient("Ada")
            with pytest.raises(OtherVersionError) as refused:
                await client.connect("127.0.0.1", host.port)
            assert client.refused_versions == [5]
            assert refused.value.words == (
                "the host at 127.0.0.1 runs an older scopa-net than yours (protocol 3, this one "
                "5): you can play there once whoever runs it updates it"
            )
            nursery.cancel_scope.cancel()


@pytest.mark.parametrize("cheat", ["why_wrong_code", "v5_keys_in_4"])
async def test_it_refuses_a_why_with_another_code_and_a_key_of_5_in_4(cheat: str) -> None:
    """3.9: `why` goes with its one code; a key of version 5 on a connection in 4 is unknown
    there. Either is `bad_field`: the client says so in `bye` and stops."""
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            host = DocumentHost(cheat=cheat)
            await host.start(nursery)
            client = DocumentClient("Ada")
            await client.connect("127.0.0.1", host.port, 4 if cheat == "v5_keys_in_4" else 5)
            client.table_id, client.seat_no, client.token = 9, 0, bytes(16)
            with pytest.raises(HostMisbehavedError, match="bad_field"):
                await client.resume()  # at a table that does not exist: `no_such_table`
            with trio.fail_after(2):
                while not host.byes:
                    await trio.sleep(0.01)
            assert [reason for _, reason, _ in host.byes] == ["bad_field"]
            nursery.cancel_scope.cancel()


async def a_host(nursery: trio.Nursery, kind: str) -> int:
    """The port of our host, or of the outsider host (``document_host``), both of version 5."""
    if kind == "ours":
        return (await start_host(nursery, bot_delay=0)).port
    host = DocumentHost()
    await host.start(nursery)
    host.bot_delay = 0
    return host.port


async def two_people_two_plays(port: int) -> tuple[DocumentClient, DocumentClient]:
    """Ivo (seat 0) and Ada (seat 1) at a 2-player table to 4 of our host, both playing until
    the first round holds two plays: one each."""
    ivo, ada = DocumentClient("Ivo"), DocumentClient("Ada")
    await ivo.connect("127.0.0.1", port)
    await ivo.join(await ivo.create_table(target=4, bots=0))
    await ada.connect("127.0.0.1", port)
    await ada.join(ivo.table_id)
    async with trio.open_nursery() as both:
        for c in (ivo, ada):
            both.start_soon(c.play, lambda c: len(c.made_by) >= 2)
    return ivo, ada


@pytest.mark.parametrize(("kind", "version"), [("ours", 5), ("ours", 4), ("outsider", 5)])
async def test_a_newcomer_mid_round_names_each_play_as_a_seat_that_saw_it_from_makers(
    kind: str, version: int
) -> None:
    """3.3, 3.9 `makers`: Ivo gives his seat up after his first play and a computer plays the
    open seat; Lea takes it mid-round. In version 5 her snapshot names Ivo's play as his and
    the computer's as `bot 0`, exactly as Ada, who saw the events, names them; in version 4
    the key is not there. She plays on (the round in play unchecked, 5.10) to the match's
    end, which Ada checks whole."""
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            port = await a_host(nursery, kind)
            ivo, ada = await two_people_two_plays(port)
            await ivo.leave(away=False)
            await ivo.quit()
            lea = DocumentClient("Lea")
            await lea.connect("127.0.0.1", port, version)
            await lea.join(ivo.table_id, midway=True)
            assert lea.seat_no == 0
            assert lea.snapshot is not None
            plays = lea.snapshot["plays"]
            assert len(plays) >= 2
            if version == 4:
                assert "makers" not in lea.snapshot
            else:
                makers = lea.snapshot["makers"]
                assert lea.made_by == makers
                seat0 = [m for m, p in zip(makers, plays, strict=True) if p["seat"] == 0]
                assert seat0[0] == "Ivo"
                assert set(seat0[1:]) <= {"bot 0"}
                assert "Ivo played" in lea.play_lines()
                # Ada saw every event: she names the plays alike, once she has read them.
                await ada.play(lambda c: any(
                    e["t"] == "seat_status" and e["name"] == "Lea" for e in c.events
                ))  # fmt: skip
                assert ada.made_by[: len(makers)] == makers
            async with trio.open_nursery() as both:
                for c in (lea, ada):
                    both.start_soon(c.play)
            assert lea.seat is not None
            assert ada.seat is not None
            assert lea.seat.match_over
            assert ada.seat.match_over
            for c in (lea, ada):
                await c.quit()
            nursery.cancel_scope.cancel()


@pytest.mark.parametrize("version", [5, 4])
async def test_a_seat_taken_while_away_is_told_in_the_client_s_own_words(version: int) -> None:
    """3.3, 3.8: Ivo steps away; past the host's away limit Lea takes his seat. His resume is
    refused `bad_token`, which the client reads as `seat_taken_while_away` from `why` in
    version 5 and from the host's words in 4, and tells Ivo in its own words. Lea's snapshot
    names the plays a computer made for Ivo while he was away as his (`makers`), a computer's
    (`computer_plays`)."""
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0, grace=0.2, away_limit=0.5)
            ivo, ada = await two_people_two_plays(host.port)
            await ivo.leave(away=True)
            await ivo.quit()
            await trio.sleep(1.0)  # past the away limit
            lea = DocumentClient("Lea")
            await lea.connect("127.0.0.1", host.port)
            await lea.join(ivo.table_id, midway=True)
            assert lea.seat_no == 0
            assert lea.snapshot is not None
            taken = lea.snapshot
            ivo.conn = None
            await ivo.connect("127.0.0.1", host.port, version)
            with pytest.raises(SeatLostError) as lost:
                await ivo.resume()
            assert (lost.value.code, lost.value.why) == ("bad_token", "seat_taken_while_away")
            assert lost.value.words.startswith("Your seat is someone else's now (")
            assert "Lea" in lost.value.message
            assert lost.value.words.endswith("ask for the list of tables.")
            await ivo.quit()
            plays = taken["plays"]
            for k, play in enumerate(plays):
                if play["seat"] == 0:
                    assert taken["makers"][k] == "Ivo"
            # The first is Ivo's own; any later one of seat 0 a computer's, made for him.
            ivos = [k for k, play in enumerate(plays) if play["seat"] == 0]
            assert ivos[1:] == taken.get("computer_plays", [])
            for c in (lea, ada):
                await c.quit()
            nursery.cancel_scope.cancel()


def document_snapshots() -> dict[str, dict]:
    """protocol.md 8.1's snapshot vectors, by the start of their case line."""
    import json

    text = (Path(__file__).resolve().parent.parent / "protocol.md").read_text(encoding="utf-8")
    found = re.findall(r"^case: (snapshot[^\n]*)\nmessage: (\{[^\n]+\})$", text, re.M)
    return {case.split(":", 1)[1].strip()[:30]: json.loads(message) for case, message in found}


def test_the_document_s_snapshots_read_as_a_seat_that_saw_the_events_would_show_them() -> None:
    """3.4, 3.9: from the two snapshots of version 5 in 8.1 the client names each play's maker
    (`makers`), a computer's for a person as such (`computer_plays`), and the round as the
    redeal it is (`redeal`), with the rounds played out (`voids`)."""
    snapshots = document_snapshots()
    blind = next(s for case, s in snapshots.items() if case.startswith("Bruno (seat 1)"))
    ordinary = next(s for case, s in snapshots.items() if case.startswith("Ada (seat 0)"))
    for snapshot in (blind, ordinary):
        assert unlisted(snapshot, 5) is None
        assert unlisted(snapshot, 4) is not None  # version 5's keys, unknown in 4
    for broken in (  # 3.9's rules over several fields: each is bad_field
        {**ordinary, "makers": ["Ada"]},
        {**ordinary, "stand_ins": [2, 1]},
        {**ordinary, "stand_ins": [3]},
        {**blind, "round_no": 1},  # a redeal of round 0
        {**ordinary, "redeal": False},  # an optional key written with its default
    ):
        assert unlisted(broken, 5) is not None, broken
    client = DocumentClient("Bruno")
    client._board_from(blind)
    assert client.play_lines() == ["a computer played for Bruno", "Ada played"]
    assert client.round_words() == "Round 2 (round 1 dealt again); 1 round played out"
    client._board_from(ordinary)
    assert client.play_lines() == ["Ada played", "a computer played for Bruno", "bot 2 played"]
    assert client.holders == ["Ada", "Bruno", "bot 2"]
    assert client.computer == [False, True, True]
    assert client.round_words() == "Round 3; 3 rounds played out"


async def test_caught_up_by_snapshot_it_names_the_computer_s_plays_for_it_from_makers() -> None:
    """3.4, 3.9: Ivo's connection drops mid-round; past his grace period a computer plays for
    him while Ada plays on, more events than the host replays (here 3). His resume is caught
    up by snapshot: its `makers` name every play of his seat his, those the computer made
    (`computer_plays`) said to be the computer's for him, as Ada, who saw the events, names
    them. He plays on to the match's end (the round in play unchecked, 5.10). The host sends
    the snapshot of the present, as a host of protocol 4 does (``round_start_catch_up``)."""
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            host = await start_host(
                nursery, bot_delay=0, grace=0.2, replay_limit=3, round_start_catch_up=False
            )
            ivo, ada = await two_people_two_plays(host.port)
            await ivo.drop()
            seen = len(ada.events)

            def three_more_plays(c: DocumentClient) -> bool:
                return sum(e["t"] == "played" for e in c.events[seen:]) >= 3

            await ada.play(three_more_plays)
            await ivo.connect("127.0.0.1", host.port)
            await ivo.resume()
            assert ivo.caught_up_by == "snapshot"
            snapshot = ivo.snapshot
            assert snapshot is not None
            plays, makers = snapshot["plays"], snapshot["makers"]
            assert [m for m, p in zip(makers, plays, strict=True) if p["seat"] == 0] == [
                "Ivo" for p in plays if p["seat"] == 0
            ]
            computer = snapshot["computer_plays"]  # at least one: Ivo was away a turn or more
            assert all(plays[k]["seat"] == 0 for k in computer)
            lines = ivo.play_lines()
            assert "a computer played for Ivo" in lines
            # Ada reads on to the snapshot's plays (the computer may have played on for Ivo
            # after her last): she names them alike.
            await ada.play(lambda c: len(c.made_by) >= len(makers))
            assert ada.made_by[: len(makers)] == makers
            assert ada.by_computer[: len(makers)] == ivo.by_computer
            async with trio.open_nursery() as both:
                for c in (ivo, ada):
                    both.start_soon(c.play)
            assert ivo.seat is not None
            assert ivo.seat.match_over
            for c in (ivo, ada):
                await c.quit()
            nursery.cancel_scope.cancel()


@pytest.mark.parametrize("kind", ["ours", "outsider"])
async def test_a_rename_renames_the_plays_made_before_it_in_makers(kind: str) -> None:
    """3.9 `makers`: "a rename in it renames their plays too (the name they go by now)". Ivo
    plays, renames himself Ivan and gives the seat up; Lea, taking it, reads his play as
    Ivan's, as Ada, who saw the rename, names it."""
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            port = await a_host(nursery, kind)
            ivo, ada = await two_people_two_plays(port)
            await ivo.rename("Ivan")
            await ivo.leave(away=False)
            await ivo.quit()
            lea = DocumentClient("Lea")
            await lea.connect("127.0.0.1", port)
            await lea.join(ivo.table_id, midway=True)
            assert lea.snapshot is not None
            makers = lea.snapshot["makers"]
            assert "Ivan" in makers
            assert "Ivo" not in makers
            await ada.play(lambda c: any(
                e["t"] == "seat_status" and e["name"] == "Lea" for e in c.events
            ))  # fmt: skip
            assert ada.made_by[: len(makers)] == makers
            for c in (lea, ada):
                await c.quit()
            nursery.cancel_scope.cancel()


@pytest.mark.parametrize(
    ("how", "version", "words"),
    [
        ("quit", 5, "Ivo's client was closed; a computer plays for them in 60 s"),
        ("drop", 5, "Ivo lost the connection; a computer plays for them in 60 s"),
        ("quit", 4, "Ivo lost the connection; a computer plays for them in 60 s"),
    ],
)
async def test_a_client_closed_in_order_is_told_from_a_lost_connection(
    how: str, version: int, words: str
) -> None:
    """3.3: Ivo's client says `bye quit` as it closes (``quit``) or its connection just ends
    (``drop``); Ada, in version 5, reads `closed` only after the `bye`, and in version 4 never
    (a key of 5 there would stop her with `bad_field`)."""
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            port = (await start_host(nursery, bot_delay=0, grace=60)).port
            ivo, ada = DocumentClient("Ivo"), DocumentClient("Ada")
            await ivo.connect("127.0.0.1", port)
            await ivo.join(await ivo.create_table(target=4, bots=0))
            await ada.connect("127.0.0.1", port, version)
            await ada.join(ivo.table_id)
            await (ivo.quit() if how == "quit" else ivo.drop())
            await ada.play(stop=lambda c: ivo.seat_no in c.absent)
            assert ada.absent == {ivo.seat_no: words}
            (status,) = [e for e in ada.events if e["t"] == "seat_status" and not e["connected"]]
            assert status.get("closed", False) is (how == "quit" and version == 5)
            await ada.quit()
            nursery.cancel_scope.cancel()


@pytest.mark.parametrize(
    ("change", "version", "wrong"),
    [
        ({"closed": True}, 4, "seat_status with keys ['closed'] in version 4"),
        ({"closed": False}, 5, "seat_status writes its optional key closed as its default"),
        ({"closed": True, "connected": True}, 5, "seat_status closed of a seat not away"),
        ({"closed": True, "away": True}, 5, "seat_status closed of a seat not away"),
    ],
)
def test_it_refuses_closed_where_3_9_does_not_allow_it(
    change: dict, version: int, wrong: str
) -> None:
    away = {"t": "seat_status", "seq": 4, "seat": 1, "kind": "human", "name": "Ivo",
            "connected": False, "grace": 60, "stand_in": False, "away": False}  # fmt: skip
    assert unlisted({**away, "closed": True}, 5) is None
    assert unlisted(away, version) is None
    said = unlisted({**away, **change}, version)
    assert said is not None
    assert said.startswith(wrong)


@pytest.mark.parametrize(
    ("message", "version", "wrong"),
    [
        ({"t": "error", "code": "stale", "message": "", "ref": "resume"}, 5,
         "error stale without current_seq"),
        ({"t": "reject", "move_id": 3, "code": "stale", "reason": None, "message": "",
          "current_seq": None}, 5, "reject stale with current_seq None"),
        ({"t": "reject", "move_id": 3, "code": "not_your_turn", "reason": None, "message": "",
          "current_seq": 9}, 5, "reject not_your_turn with current_seq 9"),
        ({"t": "reject", "move_id": 3, "code": "illegal_play", "reason": None, "message": "",
          "current_seq": None}, 5, "reject illegal_play with reason None"),
        ({"t": "reject", "move_id": 3, "code": "stale", "reason": None, "message": ""}, 5,
         "reject without keys ['current_seq']"),
    ],
)  # fmt: skip
def test_it_refuses_a_stale_without_current_seq_and_a_reject_3_9_does_not_allow(
    message: dict, version: int, wrong: str
) -> None:
    """3.8: a host of 5 says its newest `seq` with every `stale`; 3.9: a `reject` has
    `current_seq` exactly with `stale` and `reason` exactly with `illegal_play`."""
    assert unlisted(message, version) == wrong
    stale_error = {"t": "error", "code": "stale", "message": "", "ref": "resume"}
    assert unlisted(stale_error, 4) is None  # version 4 had no current_seq
    assert unlisted({**stale_error, "current_seq": 41}, 5) is None
    stale = {"t": "reject", "move_id": 3, "code": "stale", "reason": None, "message": "",
             "current_seq": 41}  # fmt: skip
    assert unlisted(stale, 5) is None
