"""What protocol.md pins about the lobby and a seat's comings and goings, which an outsider
writing a host or a client would otherwise have to guess, checked against our host over
loopback by ``document_hostile``'s peer (written from the document alone): the names the host
settles on for tables and seats (3.3; 3.9 `create_table`, `table_created`), the order and size
of `tables` (1, 3.3), the seat a `join` with seat nil gets and the order a `join` and a
`resume` are checked in (3.3), a password compared as given (3.8), what a connection that
leaves, says `bye`, closes at once after `join`, or is taken over by a `resume` makes the
table send (3.3, 3.4), and a seat stepped away from before the match (3.4)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from document_hostile import Peer, SeatedPeer, create, join, packed
from hosting import HostThread, host_in_thread


@pytest.fixture(scope="module")
def shared() -> Iterator[HostThread]:
    with host_in_thread(bot_delay=0, max_tables_per_address=1000) as running:
        yield running


@pytest.fixture
def port(shared: HostThread) -> int:
    return shared.port


async def in_lobby(port: int) -> SeatedPeer:
    peer = await SeatedPeer.connect(port)
    await peer.hello()
    return peer


async def created(peer: Peer, name: str, players: int = 2) -> dict:
    """The `TableInfo` of `table_created` answering a `create_table` named ``name``."""
    await peer.send(create(name, players))
    return (await peer.reply("table_created"))["table"]


async def test_a_table_name_is_cleaned_and_one_with_nothing_left_is_table_n(port: int) -> None:
    """3.9 `create_table`: cleaned as text, started at a letter, digit or symbol and cut to 32
    columns; `<` and `>` kept, a computer's name allowed; nothing left: `table N`."""
    peer = await in_lobby(port)
    blank = await created(peer, "\u200b \u200b")
    assert blank["name"] == f"table {blank['id']}"
    assert (await created(peer, "  <Kitchen>  ,\u202e"))["name"] == "<Kitchen> ,"
    assert (await created(peer, "- bot 1"))["name"] == "bot 1"
    assert (await created(peer, "\u65e5" * 32))["name"] == "\u65e5" * 16  # 2 columns each
    await peer.aclose()


async def test_a_table_name_taken_gets_the_lowest_number_free_within_32_columns(
    port: int,
) -> None:
    """3.9 `table_created`: `name (2)`, `(3)`... compared without case, the name cut so that
    the whole fits 32 columns: a 32-column name keeps its first 28."""
    peer = await in_lobby(port)
    first = "Q" * 32
    assert (await created(peer, first))["name"] == first
    assert (await created(peer, first.lower()))["name"] == "q" * 28 + " (2)"
    assert (await created(peer, first))["name"] == "Q" * 28 + " (3)"
    assert (await created(peer, "Orto"))["name"] == "Orto"
    assert (await created(peer, "orto"))["name"] == "orto (2)"
    await peer.aclose()


async def test_a_seat_name_taken_gets_the_lowest_number_free_within_20_columns(
    port: int,
) -> None:
    """3.3 Names: `Ada (2)`, `Ada (3)`..., the name cut so that the whole fits 20 columns."""
    owner = await in_lobby(port)
    table = await created(owner, "names", players=4)
    long = "Bartholomew Octavius"  # 20 columns
    await owner.sit(table["id"], name=long)
    names, peers = [long], [owner]
    for wanted, settled in ((long.upper(), "BARTHOLOMEW OCTA (2)"), (long, "Bartholomew Octa (3)"),
                            ("ada", "ada")):  # fmt: skip
        peer = await in_lobby(port)
        peers.append(peer)
        await peer.sit(table["id"], name=wanted)
        snapshot = next(m for m in peer.heard if m["t"] == "snapshot")
        names.append(settled)
        assert [s["name"] for s in snapshot["seats"][: len(names)]] == names
    for peer in peers:
        await peer.aclose()


async def test_tables_are_listed_oldest_first_and_join_with_seat_nil_takes_the_lowest(
    port: int,
) -> None:
    """3.3: `tables` lists the oldest first (at most 64); a `join` with seat nil gets the
    lowest-numbered open seat."""
    peer = await in_lobby(port)
    ids = [(await created(peer, f"order {n}", players=4))["id"] for n in range(3)]
    await peer.send({"t": "list_tables"})
    listed = [t["id"] for t in (await peer.reply("tables"))["tables"]]
    assert listed == sorted(listed)
    assert set(ids) <= set(listed)
    await peer.sit(ids[1], seat=2)
    other = await in_lobby(port)
    await other.send(join(ids[1], None, "Nil"))
    assert (await other.reply("joined"))["seat"] == 0
    await other.aclose()
    await peer.aclose()


async def test_a_connection_that_leaves_gets_left_and_no_event_of_its_own_leaving(
    port: int,
) -> None:
    """3.3: the seat's `seat_status` goes to the other seats; the leaver gets `left` alone.
    After stepping away, a `resume` replays it before the return's; a newcomer at a seat given
    up goes on from the seat's epoch (3.9 `joined`)."""
    stays = await in_lobby(port)
    table = await created(stays, "leaving")
    await stays.sit(table["id"], name="Stays")
    goes = await Peer.connect(port)  # reads events without taking part in the round
    await goes.hello()
    await goes.send(join(table["id"], None, "Goes"))
    joined = await goes.reply("joined")
    assert (joined["seat"], joined["epoch"]) == (1, 1)
    last_seq = (await goes.reply("snapshot"))["seq"]
    await goes.send({"t": "leave", "away": True})
    await goes.reply("left")
    await goes.send({"t": "resume", "table_id": table["id"], "seat": 1,
                     "token": joined["token"], "last_seq": last_seq})  # fmt: skip
    assert (await goes.reply("resumed"))["epoch"] == 2
    statuses = [await goes.reply("seat_status") for _ in range(2)]
    assert [(s["seat"], s["away"], s["connected"]) for s in statuses] == [
        (1, True, False), (1, False, True)]  # fmt: skip
    before = len(goes.heard)
    await goes.send({"t": "leave", "away": False})
    left = await goes.reply("left")
    assert left == {"t": "left", "table_id": table["id"], "seat": 1}
    assert not [m for m in goes.heard[before:] if m["t"] == "seat_status"]
    await stays.follow(lambda p: any(e["t"] == "seat_status" and e["kind"] == "open"
                                     for e in p.tracked.events))  # fmt: skip
    await goes.send(join(table["id"], 1, "Next"))
    assert (await goes.reply("joined"))["epoch"] == 3
    await goes.aclose()
    await stays.aclose()


async def test_a_bye_quit_from_a_seated_player_keeps_the_seat_as_a_drop_does() -> None:
    """3.3: `bye {reason: "quit"}` is no `leave`: the others see the seat away (`connected`
    false, `away` false, `grace` the seconds left), then a computer standing in (`grace` 0),
    and the player's token still takes it back."""
    with host_in_thread(bot_delay=0, grace=1.0) as running:
        stays = await in_lobby(running.port)
        table = await created(stays, "bye")
        await stays.sit(table["id"], name="Stays")
        goes = await in_lobby(running.port)
        await goes.sit(table["id"], name="Goes")
        await goes.send({"t": "bye", "reason": "quit", "message": "see you"})
        await goes.aclose()

        def statuses(p: SeatedPeer) -> list[dict]:
            return [e for e in p.tracked.events if e["t"] == "seat_status" and e["seat"] == 1]

        await stays.follow(lambda p: len(statuses(p)) >= 3, timeout=10)
        arrived, gone, standing_in = statuses(stays)[:3]
        assert arrived["connected"]
        assert (gone["kind"], gone["name"], gone["connected"], gone["away"]) == (
            "human", "Goes", False, False)  # fmt: skip
        assert (gone["stand_in"], gone["grace"]) == (False, 1)
        assert (standing_in["kind"], standing_in["connected"]) == ("human", False)
        assert (standing_in["stand_in"], standing_in["grace"]) == (True, 0)
        await goes.take_back(running.port)
        await stays.follow(lambda p: statuses(p)[-1]["connected"], timeout=10)
        await goes.aclose()
        await stays.aclose()


async def test_a_join_and_a_resume_are_refused_for_the_first_check_they_fail(port: int) -> None:
    """3.3: a `join` is checked for the password before the seat, a `resume` for the token
    before its `last_seq`."""
    owner = await in_lobby(port)
    await owner.send(create("checked", password="sesame"))
    table_id = (await owner.reply("table_created"))["table"]["id"]
    await owner.sit(table_id, password="sesame")
    other = await in_lobby(port)
    await other.sit(table_id, password="sesame")  # the table is full now
    peer = await in_lobby(port)
    for seat, password, code in ((None, "open", "bad_password"), (0, None, "bad_password"),
                                 (5, "open", "bad_password"), (None, "sesame", "table_full"),
                                 (0, "sesame", "seat_taken")):  # fmt: skip
        await peer.send(join(table_id, seat, "Late", password))
        answer = await peer.reply("error")
        assert (answer["code"], answer["ref"]) == (code, "join"), (seat, password, answer)
    resume = {"t": "resume", "table_id": table_id, "seat": 0, "last_seq": owner.last_seq + 9}
    for token, code in ((bytes(16), "bad_token"), (owner.token, "stale")):
        await peer.send({**resume, "token": token})
        answer = await peer.reply("error")
        assert (answer["code"], answer["ref"]) == (code, "resume"), answer
    for p in (owner, other, peer):
        await p.aclose()


async def test_a_seat_stepped_away_from_before_the_match_still_holds_it(port: int) -> None:
    """3.4: the match begins when every seat is held, a person stepped away included: the
    newcomer who fills the table gets the first `round_commit`, the seat away shown as
    `stand_ins` (3.9) and its person's name, not connected."""
    away = await in_lobby(port)
    table = await created(away, "early")
    await away.sit(table["id"], name="Early")
    await away.send({"t": "leave", "away": True})
    await away.reply("left")
    late = await in_lobby(port)
    await late.sit(table["id"], name="Late")
    snapshot = next(m for m in late.heard if m["t"] == "snapshot")
    assert snapshot["round_no"] == 0
    assert snapshot["seats"][0] == {"kind": "human", "name": "Early", "connected": False}
    assert snapshot["stand_ins"] == [0]
    await late.follow(lambda p: any(e["t"] == "round_commit" for e in p.tracked.events))
    await away.aclose()
    await late.aclose()


def widest(n: int) -> str:
    """A name as long as the wire takes, every code point four bytes in UTF-8: bold letters
    (one column each, from the ``n``-th) with two combining marks each, which 3.3 keeps."""
    return "".join(chr(0x1D400 + n + i) + "\U0001d167" * 2 for i in range(11))[:32]


SIX_VARIANTS = ["asso_piglia_tutto", "cappotto", "court_prime=0", "napola", "primiera=sum",
                "re_bello", "six_as_three_pairs"]  # fmt: skip


async def test_a_listing_is_never_more_than_one_frame_holds() -> None:
    """1, 3.3: 64 six-seat tables with every variant they take and five people each, every
    name as many bytes as a name can be, make more than 65536 bytes of `tables`: the host
    lists the oldest that fit, in one frame, instead of failing the request."""
    roomy = {"max_tables_per_address": 1000, "request_burst": 1000, "grace": 3600}
    with host_in_thread(bot_delay=0, **roomy) as running:
        maker = await in_lobby(running.port)
        tables = []
        for _ in range(64):
            await maker.send(create(widest(0), 6, variants=SIX_VARIANTS))
            tables.append((await maker.reply("table_created"))["table"]["id"])
        for table_id in tables:
            for seat in range(5):
                person = await in_lobby(running.port)
                await person.send(join(table_id, seat, widest(seat)))
                await person.reply("joined")
                await person.aclose()  # the seat is held for its grace period (3.3)
        await maker.send({"t": "list_tables"})
        listed = [t["id"] for t in (await maker.reply("tables", "bye"))["tables"]]
        assert 56 <= len(listed) < 64
        assert listed == tables[: len(listed)]
        await maker.aclose()


async def test_a_join_whose_connection_closes_at_once_leaves_the_seat_open(port: int) -> None:
    """3.3: a `join` the host read is applied, but when the connection ends before its
    `joined` is written (here a `bye` in the same write: the answers owed are dropped, 3.1)
    nobody has the seat's token: the seat is given up at once, as `leave`
    gives it up (`seat_status` with `kind: "open"`), and the next person takes it."""
    owner = await in_lobby(port)
    table = await created(owner, "ghost", players=3)
    await owner.sit(table["id"], name="Owner")
    gone = await in_lobby(port)  # says bye with the join, so the host writes no joined (3.1)
    await gone.send_raw(
        packed(join(table["id"], 1, "Gone"))
        + packed({"t": "bye", "reason": "quit", "message": "bye"})
    )
    await gone.aclose()

    def seat_1(p: SeatedPeer) -> list[tuple[str, str | None]]:
        return [(e["kind"], e["name"]) for e in p.tracked.events
                if e["t"] == "seat_status" and e["seat"] == 1]  # fmt: skip

    await owner.follow(lambda p: ("open", None) in seat_1(p))
    assert seat_1(owner) == [("human", "Gone"), ("open", None)]
    late = await in_lobby(port)
    await late.send(join(table["id"], 1, "Late"))
    assert (await late.reply("joined"))["seat"] == 1
    for p in (owner, late):
        await p.aclose()


async def test_a_password_is_compared_exactly_as_given(port: int) -> None:
    """3.8 `bad_password`: no cleaning, trimming or normalizing on either side."""
    owner = await in_lobby(port)
    await owner.send(create("exact", 3, password=" caf\u00e9 "))
    table_id = (await owner.reply("table_created"))["table"]["id"]
    peer = await in_lobby(port)
    for wrong in ("caf\u00e9", " cafe\u0301 ", " CAF\u00c9 "):
        await peer.send(join(table_id, None, "Guest", wrong))
        assert (await peer.reply("error"))["code"] == "bad_password"
    await peer.sit(table_id, password=" caf\u00e9 ")
    for p in (owner, peer):
        await p.aclose()


async def test_a_resume_from_a_connection_still_open_sends_no_seat_status(port: int) -> None:
    """3.4: the seat was connected and stays so: the connection taken over hears `bye
    superseded`, and no `seat_status` goes to anyone (a chat said after the resume is the next
    event both seats get)."""
    stays = await in_lobby(port)
    table = await created(stays, "taken over")
    await stays.sit(table["id"], name="Stays")
    moves = await in_lobby(port)
    await moves.sit(table["id"], name="Moves")
    for p in (stays, moves):
        await p.follow(lambda p: any(e["t"] == "round_commit" for e in p.tracked.events))
    before = {id(p): len(p.tracked.events) for p in (stays, moves)}
    old = Peer(moves.stream)
    await moves.take_back(port)
    assert (await old.ending()).reason == "superseded"
    await stays.send({"t": "say", "text": "after"})
    for p in (stays, moves):
        await p.follow(lambda p: any(e["t"] == "chat" for e in p.tracked.events))
        later = [e["t"] for e in p.tracked.events[before[id(p)] :]]
        assert "seat_status" not in later[: later.index("chat")], later
    for p in (stays, moves):
        await p.aclose()


async def test_a_seat_keeps_eight_good_tokens_the_presented_one_and_the_newest_seven(
    port: int,
) -> None:
    """3.3: T1 presented again and again (its answers lost) issues T2..T10; the host keeps T1
    and the newest seven issued after it (T4..T10): T2 and T3 are dead, T4 still good."""
    peer = await in_lobby(port)
    table = await created(peer, "tokens")
    await peer.sit(table["id"], name="Keeper")
    first = {"t": "resume", "table_id": table["id"], "seat": 0, "token": peer.token,
             "last_seq": peer.last_seq}  # fmt: skip
    issued = [peer.token]
    lost = [peer]
    for _ in range(9):  # T2..T10, each answer as good as lost: T1 is presented every time
        again = await in_lobby(port)
        await again.send(first)
        issued.append((await again.reply("resumed"))["token"])
        lost.append(again)
    for dead in (issued[1], issued[2]):
        probe = await in_lobby(port)
        await probe.send({**first, "token": dead})
        assert (await probe.reply("error"))["code"] == "bad_token"
        lost.append(probe)
    probe = await in_lobby(port)
    await probe.send({**first, "token": issued[3]})
    assert (await probe.reply("resumed", "error"))["t"] == "resumed"
    for p in [*lost, probe]:
        await p.aclose()


async def test_a_return_caught_up_by_snapshot_comes_after_the_latest_rounds_events() -> None:
    """3.4: a resume far behind (our host's past 1000 missed events, here past 1) gets the
    snapshot from just before the latest round's `round_commit` (here round 1's: `round_no`
    0, the seat connected as it was then), then every event since with no gap: that
    `round_commit` first, the seat's drop, and last its return (`seat_status` connected), in
    its own log as in the others'."""
    with host_in_thread(bot_delay=0, grace=30, replay_limit=1) as running:
        stays = await in_lobby(running.port)
        table = await created(stays, "snapshot")
        await stays.sit(table["id"], name="Stays")
        back = await in_lobby(running.port)
        await back.sit(table["id"], name="Back")
        for p in (stays, back):
            await p.follow(lambda p: any(e["t"] == "round_commit" for e in p.tracked.events))
        await back.aclose()
        await stays.follow(lambda p: [e["connected"] for e in p.tracked.events
                                      if e["t"] == "seat_status"][-1:] == [False])  # fmt: skip
        again = await Peer.connect(running.port)
        await again.hello()
        await again.send({"t": "resume", "table_id": table["id"], "seat": 1, "token": back.token,
                          "last_seq": 0})  # fmt: skip
        assert (await again.reply("resumed"))["catch_up"] == "snapshot"
        snapshot = await again.reply("snapshot")
        assert snapshot["round_no"] == 0
        assert snapshot["seats"][1] == {"kind": "human", "name": "Back", "connected": True}
        events: list[dict] = []
        while not (events and events[-1]["t"] == "seat_status" and events[-1]["seat"] == 1
                   and events[-1]["connected"]):  # fmt: skip
            event = await again.next()
            assert event is not None
            events.append(event)
            assert len(events) < 50, events
        assert [e["seq"] for e in events] == list(
            range(snapshot["seq"] + 1, snapshot["seq"] + 1 + len(events))
        )
        assert events[0]["t"] == "round_commit"
        assert [e["connected"] for e in events if e["t"] == "seat_status"] == [False, True]
        await stays.follow(lambda p: [e["connected"] for e in p.tracked.events
                                      if e["t"] == "seat_status"][-1:] == [True])  # fmt: skip
        for p in (stays, again):
            await p.aclose()
