"""Our host, attacked by an outsider: ``document_hostile`` is written from protocol.md alone
(it imports nothing from scopa_net) and sends, row by row, every bad input the document names.
Each row checks the code the document gives, whether the connection ends (the error table's
column, 3.8), the words where the document fixes them, and its time limits; meanwhile an honest
table beside it (``document_client``) plays on at the same host, and its match verifies.

One host serves every row that the document lets share one (in a thread of its own, so that
each test's trio run reaches it over loopback TCP); the limits on connections, tables and time
get a host each, with the short time limits its settings offer."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio
from document_client import DocumentClient
from document_hostile import (
    BEFORE_HELLO_ROWS,
    ENDS,
    LOBBY_ROWS,
    NEWER_KEYS,
    OLDER,
    SEATED_ROWS,
    VERSION,
    Peer,
    SeatedPeer,
    create,
    join,
    packed,
    refused,
    refused_frames,
    version_message,
)
from helpers import imported_modules
from hosting import HostThread, host_in_thread, start_host

pytestmark = pytest.mark.xdist_group("document_hostile")

PLAYER_HELLO = {"t": "hello", "version": VERSION, "client": "document-hostile"}
SHARED = {"bot_delay": 0, "max_tables_per_address": 1000}


class HonestTable:
    """``document_client`` playing a match against a computer player at the shared host, one
    play each time a hostile row is done, so that the table goes on beside the attacks."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.client = DocumentClient("Honest")
        self.steps = threading.Semaphore(0)
        self.failure: list[BaseException] = []
        self.thread = threading.Thread(target=self._run, name="honest", daemon=True)

    def _run(self) -> None:
        try:
            trio.run(self._play)
        except BaseException as exc:  # told to the last test, not lost in the thread
            self.failure.append(exc)

    async def _play(self) -> None:
        client = self.client
        await client.connect("127.0.0.1", self.port)
        await client.join(await client.create_table(target=3))
        assert client.seat is not None
        while not client.seat.match_over:
            await trio.to_thread.run_sync(self.steps.acquire)
            allowed = client.plays_sent + 1
            await client.play(stop=lambda c, n=allowed: c.plays_sent >= n)
        await client.quit()


@pytest.fixture(scope="module")
def shared() -> Iterator[HostThread]:
    with host_in_thread(**SHARED) as running:
        yield running


@pytest.fixture(scope="module")
def honest(shared: HostThread) -> Iterator[HonestTable]:
    table = HonestTable(shared.port)
    table.thread.start()
    yield table
    table.steps.release(10_000)
    table.thread.join(30)


@pytest.fixture
def port(shared: HostThread, honest: HonestTable) -> Iterator[int]:
    """The shared host's port; the honest table makes one more play after the test."""
    yield shared.port
    honest.steps.release()


def test_the_hostile_peer_imports_nothing_of_ours() -> None:
    outsiders = {"document_client", "document_seat", "document_hashes", "document_referee"}
    libraries = {"__future__", "collections", "dataclasses", "json", "os", "pathlib", "re",
                 "msgpack", "trio"}  # fmt: skip
    here = Path(__file__).parent
    assert imported_modules(here / "document_hostile.py") - outsiders - libraries == set()


def test_the_document_lists_sixteen_refused_frames() -> None:
    """The rows below read 8.1 itself: a reading that found none would test nothing."""
    assert len(refused_frames()) == 16


def check_ending(ending: object, code: str) -> None:
    from document_hostile import Ending

    assert isinstance(ending, Ending)
    assert ending.reason == code, (ending.bye, ending.before)
    assert code in ENDS or code == "rate_limited"
    assert ending.closed, "the host sent bye and kept the connection open"
    assert ending.bye is not None
    assert isinstance(ending.bye["message"], str)
    assert len(ending.bye["message"]) <= 200


async def ended_in_lobby(port: int, data: bytes) -> object:
    peer = await Peer.connect(port)
    await peer.hello()
    await peer.send_raw(data)
    ending = await peer.ending()
    await peer.aclose()
    return ending


@pytest.mark.parametrize(("case", "frame", "code"), refused_frames(), ids=lambda v: str(v)[:40])
async def test_each_frame_the_document_refuses_ends_the_connection(
    port: int, case: str, frame: bytes, code: str
) -> None:
    check_ending(await ended_in_lobby(port, frame), code)


@pytest.mark.parametrize(("case", "data", "code"), LOBBY_ROWS, ids=[r[0] for r in LOBBY_ROWS])
async def test_a_broken_or_misplaced_message_in_the_lobby_ends_the_connection(
    port: int, case: str, data: bytes, code: str
) -> None:
    check_ending(await ended_in_lobby(port, data), code)


@pytest.mark.parametrize(
    ("case", "data", "code"), BEFORE_HELLO_ROWS, ids=[r[0] for r in BEFORE_HELLO_ROWS]
)
async def test_anything_but_hello_first_ends_the_connection(
    port: int, case: str, data: bytes, code: str
) -> None:
    peer = await Peer.connect(port)
    await peer.send_raw(data)
    ending = await peer.ending()
    check_ending(ending, code)
    assert ending.before == []  # no welcome came first


@pytest.mark.parametrize("version", [1, 3, 6, 65535])
async def test_another_version_is_refused_in_the_documents_words(port: int, version: int) -> None:
    """3.2: `bye bad_version` whose message is exactly the document's sentence."""
    peer = await Peer.connect(port)
    await peer.send({"t": "hello", "version": version, "client": "old"})
    ending = await peer.ending()
    check_ending(ending, "bad_version")
    assert ending.bye is not None
    assert ending.bye["message"] == version_message(version)
    assert ending.before == []


async def seated(port: int, **table: object) -> SeatedPeer:
    """A fresh table of its own (two seats, no computer player) with this peer in seat 0."""
    peer = await SeatedPeer.connect(port)
    await peer.hello()
    await peer.send(create(**table))  # type: ignore[arg-type]
    table_id = (await peer.reply("table_created"))["table"]["id"]
    await peer.sit(table_id, password=table.get("password"))  # type: ignore[arg-type]
    return peer


@pytest.mark.parametrize(("case", "data", "code"), SEATED_ROWS, ids=[r[0] for r in SEATED_ROWS])
async def test_a_misplaced_message_at_the_table_ends_the_connection(
    port: int, case: str, data: bytes, code: str
) -> None:
    peer = await seated(port)
    await peer.send_raw(data)
    check_ending(await peer.ending(), code)


async def test_five_pings_at_once_get_four_pongs_then_rate_limited(port: int) -> None:
    """3.1: "Our host then writes the four pongs it owes, then bye {reason: rate_limited}"."""
    peer = await Peer.connect(port)
    await peer.hello()
    await peer.send_raw(b"".join(packed({"t": "ping", "nonce": n}) for n in range(5)))
    ending = await peer.ending()
    check_ending(ending, "rate_limited")
    assert [(m["t"], m["nonce"]) for m in ending.before] == [("pong", n) for n in range(4)]


async def test_four_pings_at_once_are_all_answered(port: int) -> None:
    peer = await Peer.connect(port)
    await peer.hello()
    await peer.send_raw(b"".join(packed({"t": "ping", "nonce": n}) for n in range(4)))
    assert [(await peer.reply("pong"))["nonce"] for _ in range(4)] == [0, 1, 2, 3]
    assert await peer.stays_open()
    await peer.aclose()


@pytest.mark.parametrize(
    "cut",
    [b"\0\0", b"\0\0\0", b"\0\0\0\x0f", packed({"t": "ping", "nonce": 1})[:9]],
    ids=["2 length bytes", "3 length bytes", "4 length bytes", "half a body"],
)
async def test_a_stream_cut_inside_a_frame_is_bad_frame(port: int, cut: bytes) -> None:
    """Section 1: the receiver answers `bye bad_frame`, which a peer that only shut down its
    writing side still reads, and closes."""
    peer = await Peer.connect(port)
    await peer.hello()
    await peer.send_raw(cut)
    await peer.shut_write()
    check_ending(await peer.ending(), "bad_frame")


async def test_closed_between_frames_the_host_says_quit(port: int) -> None:
    """Section 1: no error; "our host still writes bye {reason: quit}, for a peer that reads on"."""
    peer = await Peer.connect(port)
    await peer.hello()
    await peer.shut_write()
    check_ending(await peer.ending(), "quit")


async def test_the_host_answers_a_bye_with_nothing(port: int) -> None:
    """3.1: after `bye` nothing more may be sent; the answer owed to the ping before it is
    dropped (ours drops them)."""
    peer = await Peer.connect(port)
    await peer.hello()
    await peer.send_raw(
        packed({"t": "ping", "nonce": 9}) + packed({"t": "bye", "reason": "quit", "message": ""})
    )
    ending = await peer.ending()
    assert ending.bye is None
    assert ending.closed


async def test_answers_owed_before_a_broken_frame_come_first(port: int) -> None:
    """3.1: `list_tables` followed in the same burst by a broken frame gets `tables`, then
    `bye {reason: "bad_frame"}`."""
    peer = await Peer.connect(port)
    await peer.hello()
    await peer.send_raw(packed({"t": "list_tables"}) + b"\0\0\0\0")
    ending = await peer.ending()
    check_ending(ending, "bad_frame")
    assert [m["t"] for m in ending.before] == ["tables"]


async def table_of_two(port: int, **table: object) -> tuple[SeatedPeer, SeatedPeer]:
    """Two hostile seats at a table of their own, the first round dealt (their seeds sent)."""
    a = await seated(port, **table)
    b = await SeatedPeer.connect(port)
    await b.hello()
    await b.sit(a.table_id)
    async with trio.open_nursery() as nursery:
        for peer in (a, b):
            nursery.start_soon(peer.follow, lambda p: p.dealt, 10)
    return a, b


def expect(answer: object, code: str, ref: str | None, why: str | None = None) -> None:
    """3.8: an `error` with this code and `ref`, the connection open after it; `why` (3.8)
    only where given, else its key left out (3.9: an optional key is written only when it
    holds another value than nil)."""
    from document_hostile import WHYS, Refusal

    assert isinstance(answer, Refusal)
    assert answer.message["t"] == "error", answer.message
    assert (answer.code, answer.message["ref"]) == (code, ref), answer.message
    assert answer.message.get("why", "left out") == (why or "left out"), answer.message
    assert why is None or WHYS[why] == code
    assert answer.open, "an error that the document says leaves the connection open ended it"
    assert len(answer.message["message"]) <= 200


async def test_lobby_refusals_leave_the_connection_in_the_lobby(port: int) -> None:
    """3.3, 3.8: each lobby request the host refuses gets `error` with `ref` naming it, and the
    connection goes on in the lobby (the next request is taken)."""
    owner = await seated(port, password="sesame")
    await owner.follow(lambda p: True)
    peer = await SeatedPeer.connect(port)
    await peer.hello()
    missing = 4294967295
    expect(await refused(peer, join(missing)), "no_such_table", "join")
    resume = {"t": "resume", "table_id": missing, "seat": 0, "token": bytes(16), "last_seq": 0}
    expect(await refused(peer, resume), "no_such_table", "resume")
    expect(await refused(peer, join(owner.table_id, seat=0, password="sesame")),
           "seat_taken", "join")  # fmt: skip
    expect(await refused(peer, join(owner.table_id, seat=5, password="sesame")),
           "seat_taken", "join")  # fmt: skip
    expect(await refused(peer, join(owner.table_id)), "bad_password", "join")
    expect(await refused(peer, join(owner.table_id, password="open")), "bad_password", "join")
    for token in (bytes(16), owner.token[:-1] + bytes([owner.token[-1] ^ 1]), bytes(32)):
        forged = {**resume, "table_id": owner.table_id, "token": token}
        expect(await refused(peer, forged), "bad_token", "resume")
    seat5 = {**resume, "table_id": owner.table_id, "seat": 5, "token": owner.token}
    expect(await refused(peer, seat5), "bad_token", "resume")  # 3.3: not seat_taken
    ahead = {**resume, "table_id": owner.table_id, "token": owner.token,
             "last_seq": owner.last_seq + 1}  # fmt: skip
    expect(await refused(peer, ahead), "stale", "resume")
    await peer.sit(owner.table_id, password="sesame")  # the last seat: the table is now full
    third = await Peer.connect(port)
    await third.hello()
    expect(await refused(third, join(owner.table_id, password="sesame")), "table_full", "join")
    for p in (owner, peer, third):
        await p.aclose()


async def test_a_seat_taken_while_away_is_refused_saying_why_in_version_5_only() -> None:
    """3.3, 3.8: Ivo is away past the host's away limit and Lea takes his seat; his token then
    gets `bad_token` with `why: "seat_taken_while_away"` from a connection in version 5, and
    without the key from one in version 4 (3.2: the host speaks both, and says `why` only in
    5). A wrong token gets no `why`."""
    with host_in_thread(**SHARED, grace=0.2, away_limit=1.0) as running:
        ada = await seated(running.port)
        ivo = await SeatedPeer.connect(running.port)
        await ivo.hello()
        await ivo.sit(ada.table_id, seat=1, name="Ivo")
        async with trio.open_nursery() as nursery:
            for peer in (ada, ivo):
                nursery.start_soon(peer.follow, lambda p: p.dealt, 10)
        await ivo.aclose()
        lobby = await Peer.connect(running.port)
        await lobby.hello()
        with trio.fail_after(10):
            while True:  # 3.3: listed as `Ivo <away>` once past the limit
                await lobby.send({"t": "list_tables"})
                listed = (await lobby.reply("tables"))["tables"]
                if any(s["name"] == "Ivo <away>" for t in listed for s in t["seats"]):
                    break
                await trio.sleep(0.05)
        await lobby.aclose()
        lea = await SeatedPeer.connect(running.port)
        await lea.hello()
        await lea.sit(ada.table_id, name="Lea")
        assert lea.seat_no == 1
        await ada.follow(lambda p: any(e["t"] == "chat" and e["seat"] is None
                                       for e in p.tracked.events))  # fmt: skip
        ivo_seat = [(e["kind"], e["name"]) for e in ada.tracked.events
                    if e["t"] == "seat_status" and e["seat"] == 1]  # fmt: skip
        assert ivo_seat[-2:] == [("open", None), ("human", "Lea")]  # 3.3 Names: open first
        back = {"t": "resume", "table_id": ada.table_id, "seat": 1, "token": ivo.token,
                "last_seq": 0}  # fmt: skip
        newest = await Peer.connect(running.port)
        assert (await newest.hello())["version"] == VERSION
        expect(await refused(newest, back), "bad_token", "resume", "seat_taken_while_away")
        expect(await refused(newest, {**back, "token": bytes(16)}), "bad_token", "resume")
        older = await Peer.connect(running.port)
        assert (await older.hello(OLDER))["version"] == OLDER
        expect(await refused(older, back), "bad_token", "resume")
        for peer in (ada, lea, newest, older):
            await peer.aclose()


@pytest.mark.parametrize("version", [VERSION, OLDER])
async def test_a_newcomer_s_snapshot_carries_version_5_s_keys_in_5_only(
    port: int, version: int
) -> None:
    """3.2, 3.9: at a three-seat table Ivo steps away (a computer stands in, `stand_in` true)
    and Bea gives her seat up once the round is dealt; Lea takes Bea's seat. In version 5 her
    snapshot names where a computer plays now (`stand_ins`: Ivo's seat, hers being hers again)
    and who made each play (`makers`, one name per play); in version 4 it carries neither (the
    peer checks every message it reads for a key of 5 on a connection in 4)."""
    ada = await seated(port, players=3)
    others = []
    for name in ("Ivo", "Bea"):
        peer = await SeatedPeer.connect(port)
        await peer.hello()
        await peer.sit(ada.table_id, name=name)
        others.append(peer)
    ivo, bea = others
    async with trio.open_nursery() as nursery:
        for peer in (ada, ivo, bea):
            nursery.start_soon(peer.follow, lambda p: p.dealt, 10)
    await ivo.send({"t": "leave", "away": True})
    await ivo.reply("left")
    await bea.send({"t": "leave", "away": False})
    await bea.reply("left")
    lea = await SeatedPeer.connect(port)
    await lea.hello(version)
    await lea.send(join(ada.table_id, bea.seat_no, "Lea"))
    await lea.reply("joined")
    snapshot = await lea.reply("snapshot")
    assert snapshot["round_no"] == 1
    if version == OLDER:
        assert not NEWER_KEYS["snapshot"] & set(snapshot), snapshot
    else:
        assert snapshot["stand_ins"] == [ivo.seat_no], snapshot
        assert len(snapshot.get("makers", [])) == len(snapshot["plays"]), snapshot
        assert "redeal" not in snapshot  # round 1 deals nothing again
    for peer in (ada, ivo, bea, lea):
        await peer.aclose()


async def test_a_password_given_to_a_table_without_one_is_ignored(port: int) -> None:
    owner = await seated(port)
    peer = await SeatedPeer.connect(port)
    await peer.hello()
    await peer.sit(owner.table_id, password="anything")
    assert peer.seat_no == 1
    await owner.aclose()
    await peer.aclose()


async def test_a_token_dies_once_its_successor_is_used_and_a_stale_resume_keeps_it(
    port: int,
) -> None:
    """3.3's token rule: T1 resumed gives T2; a `last_seq` too far gets `stale` and T2 stays
    good; T2 used kills T1, and the connection it superseded hears `superseded`."""
    peer = await seated(port)
    first = peer.token
    old = peer.stream
    await peer.take_back(port)  # T1 -> T2
    superseded = Peer(old)
    check_ending(await superseded.ending(), "superseded")
    second, old = peer.token, peer.stream
    await peer.take_back(port)  # T2 used: T1 is dead
    check_ending(await Peer(old).ending(), "superseded")
    other = await Peer.connect(port)
    await other.hello()
    dead = {"t": "resume", "table_id": peer.table_id, "seat": 0, "token": first, "last_seq": 0}
    expect(await refused(other, dead), "bad_token", "resume")
    assert second != peer.token
    await other.aclose()
    await peer.aclose()


async def test_requests_past_the_rate_are_refused_and_the_connection_stays(port: int) -> None:
    """3.6: past 20 a second in bursts of 60, `error rate_limited` with `ref` naming it. (One
    lobby request at a time, 3.1: the burst is of `rematch`es at a table, each refused
    `wrong_phase` before the match is over, until the rate refuses them instead.)"""
    peer = await seated(port)
    await peer.send_raw(packed({"t": "rematch", "agree": True}) * 80)
    answers = [await peer.reply("error") for _ in range(80)]
    codes = [(a["code"], a["ref"]) for a in answers]
    assert set(codes) == {("wrong_phase", "rematch"), ("rate_limited", "rematch")}
    assert 58 <= codes.count(("wrong_phase", "rematch")) < 80  # its create and join counted
    assert await peer.stays_open()
    await peer.aclose()


async def test_chat_refusals_and_limits_at_the_table(port: int) -> None:
    """3.7: too long once cleaned, nothing left ("say something"), and past 5 lines in 5 s:
    `error` with `ref: "say"`, the connection open."""
    peer = await seated(port)
    expect(await refused(peer, {"t": "say", "text": "a" * 201}), "chat_too_long", "say")
    blank = await refused(peer, {"t": "say", "text": "   "})
    expect(blank, "chat_too_long", "say")
    assert "say something" in blank.message["message"]
    for n in range(5):
        await peer.send({"t": "say", "text": f"line {n}" + "!" * 190})
    expect(await refused(peer, {"t": "say", "text": "one too many"}), "rate_limited", "say")
    await peer.follow(lambda p: sum(e["t"] == "chat" for e in p.tracked.events) == 5)
    await peer.aclose()


async def test_renames_past_three_a_minute_are_refused(port: int) -> None:
    """3.3: more than 3 renames that change the name within 60 s: `error rate_limited`. One
    that changes nothing (the name the seat has, or a computer's) gets no answer at all, past
    the limit too: only the next that would change the name is refused."""
    peer = await seated(port)
    for name in ("Eve", "Ivy", "Oda", "Oda", "bot 3"):
        await peer.send({"t": "rename", "name": name})
    expect(await refused(peer, {"t": "rename", "name": "Uma"}), "rate_limited", "rename")
    await peer.send({"t": "say", "text": "after"})  # its chat comes after every answer owed
    await peer.follow(lambda p: any(e["t"] == "chat" for e in p.tracked.events))
    assert [e["name"] for e in peer.tracked.events if e["t"] == "seat_status"] == [
        "Eve", "Ivy", "Oda"]  # fmt: skip
    assert [r for r in peer.tracked.replies if r["t"] == "error"] == []  # Uma's was read above
    await peer.aclose()


async def test_wrong_phase_requests_at_the_table_leave_the_connection_open(port: int) -> None:
    """3.8 `wrong_phase`: a rematch before the match is over, a blind message at an ordinary
    table, a seed for another round, a repeat commitment, a play before the deal."""
    a = await seated(port)
    b = await SeatedPeer.connect(port)
    await b.hello()
    await b.sit(a.table_id)
    await a.follow(lambda p: p.seat is not None and p.seat.round is not None)
    expect(await refused(a, {"t": "rematch", "agree": True}), "wrong_phase", "rematch")
    blind = {"t": "blind_key", "round_id": bytes(16),
             "key": {"point": bytes(32), "proof": bytes(64), "sign_key": bytes(32)}}  # fmt: skip
    expect(await refused(a, blind), "wrong_phase", "blind_key")
    other_round = {"t": "seed_commit", "round_id": bytes(16), "commit": bytes(32)}
    expect(await refused(a, other_round), "wrong_phase", "seed_commit")
    early = {"t": "play", "move_id": 1, "after": a.last_seq, "card": 0, "captured": 0}
    answer = await refused(a, early, kind="reject")
    assert (answer.message["code"], answer.message["reason"]) == ("wrong_phase", None)
    assert answer.open
    await a.follow(lambda p: not p.outbox)  # its commitment sent: a repeat is refused
    assert a.seat is not None
    assert a.seat.round is not None
    again = {"t": "seed_commit", "round_id": a.seat.round.round_id, "commit": bytes(32)}
    expect(await refused(a, again), "wrong_phase", "seed_commit")
    await a.aclose()
    await b.aclose()


def play(peer: SeatedPeer, move_id: int, card: int, captured: int, after: int | None = None
         ) -> dict:  # fmt: skip
    after = peer.last_seq if after is None else after
    return {"t": "play", "move_id": move_id, "after": after, "card": card, "captured": captured}


async def test_moves_refused_by_the_document_get_reject_with_its_code(port: int) -> None:
    """3.5: out of turn (`not_your_turn`, reason nil), against the rules (`illegal_play` and
    the rule), stale (`current_seq`), a move id reused (`move_id_taken`) or repeated
    (`ack duplicate`); none ends the connection."""
    a, b = await table_of_two(port)
    mover, waiter = (a, b) if a.my_turn else (b, a)
    assert mover.my_turn
    assert not waiter.my_turn
    card = min(waiter.seat.hand)  # type: ignore[union-attr]
    out = await refused(waiter, play(waiter, 1, card, 0), kind="reject")
    assert (out.message["code"], out.message["reason"], out.message["current_seq"]) == (
        "not_your_turn", None, None)  # fmt: skip
    assert out.open
    illegal = mover.illegal()
    assert {"not_in_hand", "not_on_table"} <= set(illegal)
    for reason, (card, captured) in illegal.items():
        answer = await refused(mover, play(mover, 1, card, captured), kind="reject")
        assert (answer.message["code"], answer.message["reason"]) == ("illegal_play", reason)
        assert answer.open
    card, captured = mover.legal()
    before = mover.position_changed_since() - 1
    stale = await refused(mover, play(mover, 1, card, captured, after=before), kind="reject")
    assert (stale.message["code"], stale.message["current_seq"]) == ("stale", mover.last_seq)
    assert stale.open
    await mover.send(play(mover, 1, card, captured))
    ack = await mover.reply("ack")
    assert ack["duplicate"] is False
    again = await refused(mover, play(mover, 1, card, captured), kind="ack")
    assert (again.message["duplicate"], again.message["seq"]) == (True, ack["seq"])
    other = next(c for c in range(40) if c != card)
    taken = await refused(mover, play(mover, 1, other, 0), kind="reject")
    assert taken.message["code"] == "move_id_taken"
    assert taken.open
    await a.aclose()
    await b.aclose()


async def test_a_play_after_a_seq_never_sent_is_out_of_order(port: int) -> None:
    a, b = await table_of_two(port)
    await a.send(play(a, 1, min(a.seat.hand), 0, after=a.last_seq + 5))  # type: ignore[union-attr]
    check_ending(await a.ending(), "out_of_order")
    await b.aclose()


async def test_a_play_with_a_blind_proof_at_an_ordinary_table_ends_it_and_the_seat_is_held(
    port: int,
) -> None:
    """3.5: `pos` and `proof` at an ordinary table end the connection with `bye bad_field`,
    "and the seat is held as for any connection lost": its token takes it back."""
    a, b = await table_of_two(port)
    card = min(a.seat.hand)  # type: ignore[union-attr]
    await a.send({**play(a, 1, card, 0), "pos": 0, "proof": bytes(64)})
    check_ending(await a.ending(), "bad_field")
    await a.take_back(port)
    assert await a.stays_open()
    await a.aclose()
    await b.aclose()


async def test_refused_moves_past_their_own_limit_are_rate_limited(port: int) -> None:
    """3.6: refused plays count against a second limit; past it `reject rate_limited`."""
    a, b = await table_of_two(port)
    waiter = b if a.my_turn else a
    card = min(waiter.seat.hand)  # type: ignore[union-attr]
    await waiter.send_raw(b"".join(packed(play(waiter, n, card, 0)) for n in range(1, 81)))
    codes = [(await waiter.reply("reject"))["code"] for _ in range(80)]
    assert set(codes) == {"not_your_turn", "rate_limited"}
    assert codes.count("not_your_turn") >= 60
    assert await waiter.stays_open()
    await a.aclose()
    await b.aclose()


async def test_a_seat_that_leaves_with_deal_failed_is_told_to_the_table(port: int) -> None:
    """3.8 `deal_failed`: the host tells the table why (a `chat` from the host, seat nil) and
    treats the seat as away."""
    a, b = await table_of_two(port)
    await a.send({"t": "bye", "reason": "deal_failed", "message": "round 1: digest"})
    await a.aclose()
    await b.follow(lambda p: any(e["t"] == "chat" and e["seat"] is None for e in p.tracked.events)
                   and any(e["t"] == "seat_status" and e["seat"] == a.seat_no
                           and not e["connected"] for e in p.tracked.events))  # fmt: skip
    await b.aclose()


SHORT = 0.4  # the host's settings for 3.6's 10 s, cut short for the test
SILENCE = 1.0  # ... and for its 30 s


async def trickle(peer: Peer, data: bytes) -> None:
    """One byte every fifth of the frame limit, the last never: bytes flow all along."""
    for byte in data[:-1]:
        try:
            await peer.send_raw(bytes([byte]))
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            return
        await trio.sleep(SHORT / 5)


@pytest.mark.parametrize(
    "what", ["no hello", "a half frame then silence", "four length bytes", "a byte at a time"]
)
async def test_a_handshake_or_frame_not_finished_in_time_is_a_timeout(what: str) -> None:
    """3.6 "Time": `bye timeout` once the handshake, or a frame begun, is not done within the
    limit (10 s; the host's setting makes it 0.4 s here), a byte at a time included."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, handshake_timeout=SHORT, frame_timeout=SHORT,
                                silence_timeout=SILENCE, heartbeat_interval=SHORT)  # fmt: skip
        peer = await Peer.connect(host.port)
        if what != "no hello":
            await peer.hello()
        started = trio.current_time()
        hello = packed({"t": "list_tables"})
        if what == "a half frame then silence":
            await peer.send_raw(hello[:7])
        elif what == "four length bytes":
            await peer.send_raw(hello[:4])
        elif what == "a byte at a time":
            nursery.start_soon(trickle, peer, hello)
        ending = await peer.ending()
        check_ending(ending, "timeout")
        assert SHORT * 0.9 <= trio.current_time() - started < SHORT + 0.6
        nursery.cancel_scope.cancel()


async def test_a_silent_peer_is_pinged_then_timed_out_and_one_that_answers_stays() -> None:
    """3.6: a side that has sent nothing pings; nothing received for 30 s (1 s here) and the
    host sends `bye timeout`; any bytes, a `pong` included, count as a sign of life."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, handshake_timeout=SHORT, frame_timeout=SHORT,
                                silence_timeout=SILENCE, heartbeat_interval=SHORT)  # fmt: skip
        silent = await Peer.connect(host.port)
        await silent.hello()
        silent.answer_pings = False
        started = trio.current_time()
        ending = await silent.ending()
        check_ending(ending, "timeout")
        assert [m["t"] for m in ending.before][:1] == ["ping"]
        assert SILENCE * 0.9 <= trio.current_time() - started < SILENCE + 0.6
        lively = await Peer.connect(host.port)
        await lively.hello()
        with trio.move_on_after(SILENCE * 1.5):
            while await lively.next(SILENCE * 2) is not None:  # pings answered, nothing else
                pass
            raise AssertionError("the host closed a peer that answered its pings")
        assert await lively.stays_open()
        await lively.aclose()
        nursery.cancel_scope.cancel()


async def test_past_32_connections_from_one_address_the_next_hears_bye_first() -> None:
    """3.6 "Connections": more than 32 from one address: `bye too_many_connections` as the very
    first frame, before any `welcome`."""
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery)
        peers = [await Peer.connect(host.port) for _ in range(32)]
        for peer in peers:
            await peer.hello()
        extra = await Peer.connect(host.port)
        ending = await extra.ending()
        check_ending(ending, "too_many_connections")
        assert ending.before == []
        await peers.pop().aclose()
        with trio.fail_after(5):
            while True:  # the host has let the closed one go: room for one more
                again = await Peer.connect(host.port)
                await again.send(PLAYER_HELLO)
                first = await again.next()
                if first is not None and first["t"] == "welcome":
                    break
                await again.aclose()
                await trio.sleep(0.02)
        await again.aclose()
        for peer in peers:
            await peer.aclose()
        nursery.cancel_scope.cancel()


async def test_too_many_tables_says_which_limit() -> None:
    """3.6 "Tables": at most 16 created from one address, and as many in all as the host
    holds: past either, `error too_many_tables` saying which; the connection stays."""
    async with trio.open_nursery() as nursery:
        per_address = await start_host(nursery)
        peer = await Peer.connect(per_address.port)
        await peer.hello()
        for n in range(16):
            await peer.send(create(f"t{n}"))
            await peer.reply("table_created")
        mine = await refused(peer, create("t16"))
        expect(mine, "too_many_tables", "create_table")
        await peer.aclose()
        in_all = await start_host(nursery, max_tables=2)
        peer = await Peer.connect(in_all.port)
        await peer.hello()
        for n in range(2):
            await peer.send(create(f"t{n}"))
            await peer.reply("table_created")
        everyone = await refused(peer, create("t2"))
        expect(everyone, "too_many_tables", "create_table")
        assert everyone.message["message"] != mine.message["message"]
        await peer.aclose()
        nursery.cancel_scope.cancel()


async def test_a_host_stopping_says_shutting_down_to_a_seated_peer() -> None:
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery)
        peer = await seated(host.port)
        nursery.start_soon(host.shutdown)
        check_ending(await peer.ending(), "shutting_down")
        nursery.cancel_scope.cancel()


async def test_past_20_resumes_of_a_seat_in_10_seconds_the_next_is_rate_limited(
    port: int,
) -> None:
    """3.6 "Resumes": more than 20 successful `resume`s of one seat in 10 s: `error
    rate_limited`, checked after the token, and the token presented stays good."""
    peer = await seated(port)
    for _ in range(20):
        old = peer.stream
        await peer.take_back(port)
        await trio.aclose_forcefully(old)
    other = await Peer.connect(port)
    await other.hello()
    resume = {"t": "resume", "table_id": peer.table_id, "seat": 0, "token": peer.token,
              "last_seq": 0}  # fmt: skip
    expect(await refused(other, resume), "rate_limited", "resume")
    forged = {**resume, "token": bytes(16)}
    expect(await refused(other, forged), "bad_token", "resume")  # the token comes first
    await other.aclose()
    await peer.aclose()


def test_the_honest_table_beside_the_attacks_played_its_match_and_it_verifies(
    honest: HonestTable,
) -> None:
    """Last in the module: every row above let the honest table make one play meanwhile; now
    it plays to the end, and every round and the signed end check out (5.10, 6.2)."""
    honest.steps.release(10_000)
    honest.thread.join(30)
    assert not honest.thread.is_alive()
    assert honest.failure == []
    seat = honest.client.seat
    assert seat is not None
    assert seat.match_over
    assert seat.rounds_checked >= 1
    assert honest.client.plays_sent == len(honest.client.acks)  # no play refused
