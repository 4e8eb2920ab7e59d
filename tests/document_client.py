"""An honest client written from protocol.md, RULES.md and the README alone: it imports nothing
from scopa_net. It speaks the wire of sections 1 and 3 over TCP, takes part in every fair deal
of section 5, checks every event on arrival with ``document_seat.Seat`` (5.10), and plays legal
cards chosen with ``document_referee``. A failed check ends the connection with
``bye deal_failed`` and raises ``CheckFailedError``; anything else the host does that an honest
client should never see raises ``HostMisbehavedError``. It checks its own plays as 3.5 says
(``document_own_plays``): a play the host recorded otherwise than sent, or made for its seat
while no computer was announced standing in, stops it the same way (``ChangedPlayError``, the
check *changed play*). It tells why a person is away (3.3, ``absent``), `closed` included.

It says ``hello`` in version 5 and, refused by a host that names 4 as its newest (3.2), says
it again in 4 on a new connection. It refuses a key its connection's version does not list
(section 1, 3.9: ``why`` or the snapshot's ``stand_ins``, ``redeal`` and ``makers`` in 4), a
``why`` with another code (3.9), and an optional key that carries its own default. A refused
``resume`` is told to its person in its own words (``SeatLostError``), from ``why`` in 5 and
from the host's words in 4 (3.8). It can take a seat in a match under way (``join(...,
midway=True)``): the round in play is followed unchecked (5.10) and who made each of its plays
is named from the snapshot's ``makers`` (``made_by``), as a seat that saw the events would.

``test_document_client.py`` plays whole matches with it against our host.
"""

from __future__ import annotations

import os
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import msgpack
import trio
from document_own_plays import OwnPlays
from document_referee import Table, legal_takes
from document_seat import CheckFailedError, Seat

VERSION = 5  # 3.2: the newest it speaks, said first
SPOKEN = (5, 4)
WHYS = {  # 3.8: each `why` and the one code it goes with
    "table_closed_on_restart": "no_such_table", "seat_taken_while_away": "bad_token",
}  # fmt: skip
REFUSED_VERSION = re.compile(
    r"client speaks protocol version (\d+); this end speaks version (\d+)"
)  # 3.2: the same sentence in every version
SNAPSHOT_KEYS = {  # 3.9
    "t", "seq", "table_id", "seat", "side", "rules", "dealer", "round_no", "to_move", "hand",
    "table", "hand_counts", "stock", "pile_counts", "sweeps", "scores", "plays", "void_deal",
    "round_over", "leftover", "round_score", "winner", "seats",
}  # fmt: skip
# 3.9: optional keys, by the version that added them, with the value a missing key reads as.
OPTIONAL = {
    "snapshot": {4: {"voids": 0, "computer_plays": [], "people": []},
                 5: {"stand_ins": [], "redeal": False, "makers": []}},
    "error": {5: {"why": None, "current_seq": None}},
    "seat_status": {5: {"closed": False}},
}  # fmt: skip
SEAT_STATUS_KEYS = {"t", "seq", "seat", "kind", "name", "connected", "grace", "stand_in", "away"}
LISTED = {
    "snapshot": SNAPSHOT_KEYS, "error": {"t", "code", "message", "ref"},
    "seat_status": SEAT_STATUS_KEYS,
    "reject": {"t", "move_id", "code", "reason", "message", "current_seq"},
}  # fmt: skip
MAX_PAYLOAD = 65536
PING_AFTER = 10.0  # 3.6: a side that has sent nothing for 10 s pings
GONE_AFTER = 30.0  # 3.6: nothing heard for 30 s, the peer is gone
TABLE_EVENTS = {  # 3.4
    "seat_status", "chat", "round_commit", "seed_commits", "seed_receipt", "seed_reveals", "deal",
    "played", "round_reveal", "round_void", "round_end", "match_end", "rematch_status", "snapshot",
}  # fmt: skip


class HostMisbehavedError(Exception):
    """The host sent what an honest client never expects: a refusal, a `bye`, a broken frame."""


class ChangedPlayError(CheckFailedError):
    """3.5: the host recorded a play of this seat other than the one sent, or one it did not
    send (*changed play*); ``detail`` says both plays."""

    def __init__(self, round_no: int, detail: str) -> None:
        super().__init__(round_no, "changed play")
        self.detail = detail
        self.args = (f"round {round_no}: changed play: {detail}",)


class OtherVersionError(Exception):
    """3.2: the host speaks no version this client speaks; ``words`` are for its person."""

    def __init__(self, host: str, theirs: int) -> None:
        older = theirs < VERSION
        self.theirs = theirs
        self.words = (
            f"the host at {host} runs an {'older' if older else 'newer'} scopa-net than yours "
            f"(protocol {theirs}, this one {VERSION}): "
            + ("you can play there once whoever runs it updates it" if older
               else "update yours to play there")
        )  # fmt: skip
        super().__init__(self.words)


class SeatLostError(Exception):
    """A `resume` refused: the seat is not this client's any more. ``why`` as 3.8 names it
    (read from the host's words at a host of version 4), ``words`` for its person."""

    def __init__(self, code: str, why: str | None, message: str) -> None:
        self.code, self.why, self.message = code, why, message
        if why == "seat_taken_while_away":
            words = (f"Your seat is someone else's now ({message}). Another seat may be open: "
                     "ask for the list of tables.")  # fmt: skip
        elif why == "table_closed_on_restart":
            words = (f"The host closed the table ({message}). Your own record of the rounds "
                     "played there is yours to check.")  # fmt: skip
        elif code == "no_such_table":
            words = "The table is gone: the match there is over."
        else:
            words = "Your token no longer holds the seat: given up, the match over, or taken."
        self.words = words
        super().__init__(words)


def why_of(error: dict, version: int) -> str | None:
    """3.8: why a request was refused: the key in version 5; at a host of version 4, an older
    scopa-net's words, the only way it said why."""
    if version >= 5:
        return error.get("why")
    if error["code"] == "no_such_table" and not re.fullmatch(
        r"there is no table \d+", error["message"]
    ):
        return "table_closed_on_restart"
    if error["code"] == "bad_token" and error["message"].startswith("your seat at table "):
        return "seat_taken_while_away"
    return None


def unlisted(message: dict, version: int) -> str | None:
    """Section 1, 3.8, 3.9: what is wrong with the keys of an `error`, a `reject`, a
    `seat_status` or a `snapshot` read on a connection in ``version``, or None. A key the
    version does not list is refused like any unknown key, and so is an optional key written
    with the value its absence stands for."""
    kind = message["t"]
    if kind not in LISTED:
        return None
    optional = {
        k: v
        for since, keys in OPTIONAL.get(kind, {}).items()
        if since <= version
        for k, v in keys.items()
    }
    keys = set(message)
    if not LISTED[kind] <= keys:
        return f"{kind} without keys {sorted(LISTED[kind] - keys)}"
    if keys - LISTED[kind] - set(optional):
        return (
            f"{kind} with keys {sorted(keys - LISTED[kind] - set(optional))} in version {version}"
        )
    for key in keys & set(optional):
        if message[key] == optional[key]:
            return f"{kind} writes its optional key {key} as its default"
    if kind == "error" and "why" in message and WHYS.get(message["why"]) != message["code"]:
        return f"error {message['code']} with why {message['why']!r}"
    if kind == "error" and "current_seq" in message and message["code"] != "stale":
        return f"error {message['code']} with current_seq"  # 3.9: only with `stale`
    stale, illegal = message.get("code") == "stale", message.get("code") == "illegal_play"
    if kind == "error" and version >= 5 and stale and "current_seq" not in message:
        return "error stale without current_seq"  # 3.8: a host of 5 sends it with every stale
    if kind == "reject" and (message["current_seq"] is not None) != stale:
        return f"reject {message['code']} with current_seq {message['current_seq']}"  # 3.9
    if kind == "reject" and (message["reason"] is not None) != illegal:
        return f"reject {message['code']} with reason {message['reason']}"  # 3.9
    away = ("human", False, False)  # 3.9: `closed` only of a person away, not by choice
    if (
        kind == "seat_status"
        and message.get("closed")
        and ((message["kind"], message["connected"], message["away"]) != away)
    ):
        return "seat_status closed of a seat not away by a dropped or closed client"
    if kind == "snapshot":  # 3.9's rules that involve several fields
        players = message["rules"]["players"]
        if "makers" in message and len(message["makers"]) != len(message["plays"]):
            return "snapshot makers not one name per play"
        for key in ("stand_ins", "people"):
            seats = message.get(key, [])
            if seats != sorted(set(seats)) or any(not 0 <= s < players for s in seats):
                return f"snapshot {key} {seats} not seats in seat order"
        if message.get("redeal") and message["round_no"] < 2:
            return f"snapshot redeal in round {message['round_no']}"
    return None


def frame(message: dict) -> bytes:
    """Section 1: four length bytes, then one msgpack map (``t`` first, as written)."""
    payload = msgpack.packb(message, use_bin_type=True)
    return len(payload).to_bytes(4, "big") + payload


def read_payload(payload: bytes) -> dict:
    try:
        message = msgpack.unpackb(payload, raw=False, strict_map_key=True)
    except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError) as exc:
        raise HostMisbehavedError(f"a frame that is not one msgpack map: {exc}") from None
    if not isinstance(message, dict) or not isinstance(message.get("t"), str):
        raise HostMisbehavedError(f"a frame without a str t: {message!r:.80}")
    return message


class Connection:
    """One TCP connection, read and written a frame at a time."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.buffer = bytearray()
        self.last_sent = trio.current_time()
        self.pings_sent = 0

    async def send(self, message: dict) -> None:
        await self.stream.send_all(frame(message))
        self.last_sent = trio.current_time()

    async def _fill(self, n: int) -> None:
        while len(self.buffer) < n:
            data = await self.stream.receive_some(65540)
            if not data:
                raise HostMisbehavedError("the host closed the connection without bye")
            self.buffer += data

    async def receive(self) -> dict:
        await self._fill(4)
        length = int.from_bytes(self.buffer[:4], "big")
        if not 1 <= length <= MAX_PAYLOAD:
            raise HostMisbehavedError(f"a frame length of {length}")
        await self._fill(4 + length)
        payload = bytes(self.buffer[4 : 4 + length])
        del self.buffer[: 4 + length]
        return read_payload(payload)

    async def receive_past_heartbeats(self, send: Callable[[dict], Awaitable[None]]) -> dict:
        """The next message that is not a heartbeat (3.6): pings answered and ours sent when
        quiet, through ``send``; a host silent for 30 s is told `bye timeout` and left."""
        heard = trio.current_time()
        while True:
            wait = min(self.last_sent + PING_AFTER, heard + GONE_AFTER) - trio.current_time()
            with trio.move_on_after(max(wait, 0)):
                message = await self.receive()
                if message["t"] == "ping":
                    await send({"t": "pong", "nonce": message["nonce"]})
                elif message["t"] == "bye":
                    raise HostMisbehavedError(f"bye {message['reason']}: {message['message']}")
                elif message["t"] != "pong":
                    return message
                heard = trio.current_time()
                continue
            if trio.current_time() >= heard + GONE_AFTER:
                with trio.move_on_after(1):
                    await send(
                        {"t": "bye", "reason": "timeout", "message": "nothing heard for 30 s"}
                    )
                await trio.aclose_forcefully(self.stream)
                raise HostMisbehavedError("nothing heard from the host for 30 seconds")
            self.pings_sent += 1
            await send({"t": "ping", "nonce": self.pings_sent})


@dataclass
class Pending:
    """A `play` sent whose `played` event has not come yet."""

    move_id: int
    after: int
    card: int
    captured: int

    def message(self) -> dict:
        return {"t": "play", "move_id": self.move_id, "after": self.after, "card": self.card,
                "captured": self.captured}  # fmt: skip


def choose(hand: list[int], on_table: list[int], table: Table) -> tuple[int, int]:
    """A legal play (RULES.md "A turn"): the one taking most cards, the lowest card on a tie."""
    plays = [
        (card, take)
        for card in sorted(hand)
        for take in legal_takes(card, on_table, table.variants)
    ]
    return max(plays, key=lambda p: (bin(p[1]).count("1"), -p[0]))


def rules_of(info: dict) -> Table:
    return Table(info["players"], info["target"], frozenset(info["variants"]))


class DocumentClient:
    """One person's seat, played honestly over the wire."""

    def __init__(self, name: str, seeds: Callable[[], bytes] = lambda: os.urandom(32)) -> None:
        self.name = name
        self.seeds = seeds
        self.pinned: bytes | None = None
        self.conn: Connection | None = None
        self.seat: Seat | None = None
        self.table_id = 0
        self.seat_no = 0
        self.token = b""
        self.last_seq = 0
        self.move_id = 0
        self.pending: Pending | None = None
        self.plays_sent = 0
        self.acks: list[dict] = []
        self.own = OwnPlays()  # 3.5: what it checks of its own plays
        self.resent: set[str] = set()
        self.events: list[dict] = []  # every table event, as it arrived
        self.version = VERSION  # the version of the connection (3.2)
        self.refused_versions: list[int] = []  # hellos a host refused, in order
        # What the person sees beside the board: who holds each seat, whether a computer plays
        # it now, and who made each play of the round (3.4, 3.9 `makers`).
        self.holders: list[str | None] = []
        self.computer: list[bool] = []
        self.made_by: list[str] = []
        self.by_computer: list[bool] = []
        self.play_seats: list[int] = []
        self.kept: list[bool] = []  # the seat's holder is a person who has not left it
        self.absent: dict[int, str] = {}  # 3.3: each seat whose person is away, in words
        self.snapshot: dict | None = None
        self.caught_up_by = ""  # the last `resumed`'s catch_up
        self.round_no = 0  # the round shown, and whether it deals a void one again (3.9)
        self.redeal = False
        self.voids = 0  # rounds of the match void so far
        self._void_last = False

    # --- 3.2, 3.3: handshake, lobby, seat -------------------------------------------------------

    async def connect(self, host: str, port: int, version: int = VERSION) -> None:
        """Open a connection and shake hands in ``version``; refused naming a version this
        client speaks too, open a new one in that (3.2). The host key is pinned on first
        contact (5.3)."""
        self.conn = Connection(await trio.open_tcp_stream(host, port))
        self.version = version
        await self.conn.send({"t": "hello", "version": version, "client": "document-client"})
        first = await self.conn.receive()
        if first["t"] == "bye" and first["reason"] == "bad_version":
            await trio.aclose_forcefully(self.conn.stream)
            self.conn = None
            self.refused_versions.append(version)
            said = REFUSED_VERSION.fullmatch(first["message"])
            if said is None or int(said[1]) != version:
                raise HostMisbehavedError(f"bad_version in other words: {first['message']!r}")
            theirs = int(said[2])
            if theirs in SPOKEN and theirs not in self.refused_versions:
                await self.connect(host, port, theirs)
                return
            raise OtherVersionError(host, theirs)
        if first["t"] != "welcome":
            raise HostMisbehavedError(f"{first['t']} where welcome was due: {first}")
        welcome = first
        if welcome["version"] != version:
            await self._bye("bad_version", f"this end speaks version {version}")
            raise HostMisbehavedError(f"welcome in version {welcome['version']}")
        if self.pinned is not None and welcome["host_key"] != self.pinned:
            await self._bye("quit", "the host key changed")
            raise HostMisbehavedError("the host's key is not the one pinned on first contact")
        self.pinned = welcome["host_key"]

    async def create_table(self, target: int, bots: int = 1, players: int = 2) -> int:
        rules = {"players": players, "target": target, "variants": []}
        await self._send({"t": "create_table", "name": "document table", "rules": rules,
                          "password": None, "bots": bots, "bot_level": 1})  # fmt: skip
        return (await self._reply("table_created"))["table"]["id"]

    async def join(self, table_id: int, seat: int | None = None, *, midway: bool = False) -> None:
        """Sit at the table; ``midway``: a match under way is welcome (5.10)."""
        await self._send(
            {"t": "join", "table_id": table_id, "seat": seat, "name": self.name, "password": None}
        )
        joined = await self._reply("joined")
        self.table_id, self.seat_no, self.token = table_id, joined["seat"], joined["token"]
        snapshot = await self._reply("snapshot")
        if snapshot["round_no"] != 0 and not midway:
            raise HostMisbehavedError("joined a match under way: its round cannot be checked")
        assert self.pinned is not None
        self.seat = Seat(self.pinned, rules_of(snapshot["rules"]), self.seat_no)
        if snapshot["round_no"] != 0:
            self.seat.midway(snapshot)
        self.last_seq = snapshot["seq"]
        self._board_from(snapshot)

    def _board_from(self, snapshot: dict) -> None:
        """3.4, 3.9: who holds each seat and who made each play, as a seat that saw the events
        would show them. Without `makers` (a host of version 4) a play is named by its seat's
        holder now: the best a snapshot of version 4 allows."""
        self.snapshot = snapshot
        self.round_no, self.redeal = snapshot["round_no"], snapshot.get("redeal", False)
        self.voids = snapshot.get("voids", 0)
        self._void_last = snapshot["void_deal"]
        seats = snapshot["seats"]
        n = snapshot["rules"]["players"]
        stand_ins = set(snapshot.get("stand_ins", []))
        self.holders = [
            s["name"] if s["kind"] != "open" else (f"bot {i}" if i in stand_ins else None)
            for i, s in enumerate(seats)
        ] or [None] * n
        self.kept = [s["kind"] == "human" for s in seats] or [False] * n
        self.play_seats = [p["seat"] for p in snapshot["plays"]]
        self.computer = [i in stand_ins or (bool(seats) and seats[i]["kind"] == "bot")
                         for i in range(n)]  # fmt: skip
        plays = snapshot["plays"]
        computer_plays = set(snapshot.get("computer_plays", []))
        self.made_by = list(snapshot.get("makers", [])) or [
            self.holders[p["seat"]] or f"seat {p['seat']}" for p in plays
        ]
        self.by_computer = [
            k in computer_plays or self.made_by[k] == f"bot {p['seat']}"
            or (bool(seats) and seats[p["seat"]]["kind"] == "bot")
            for k, p in enumerate(plays)
        ]  # fmt: skip

    def round_words(self) -> str:
        """The round's title as a seat that saw the events names it (3.9 `redeal`), and how
        many rounds were played out (`voids`)."""
        title = f"Round {self.round_no}"
        if self.redeal:
            title += f" (round {self.round_no - 1} dealt again)"
        played = self.round_no - self.voids
        return f"{title}; {played} round{'s' * (played != 1)} played out"

    def play_lines(self) -> list[str]:
        """The round's plays in the person's words: who made each, a computer's said so."""
        lines = []
        for name, computer in zip(self.made_by, self.by_computer, strict=True):
            if computer and not name.startswith("bot "):
                lines.append(f"a computer played for {name}")
            else:
                lines.append(f"{name} played")
        return lines

    async def resume(self) -> None:
        """Take the seat back with its token (3.3) and send again what the host may lack (5.4)."""
        await self._send({"t": "resume", "table_id": self.table_id, "seat": self.seat_no,
                          "token": self.token, "last_seq": self.last_seq})  # fmt: skip
        resumed = await self._receive()
        if resumed["t"] == "error" and resumed["code"] in ("bad_token", "no_such_table"):
            raise SeatLostError(resumed["code"], why_of(resumed, self.version), resumed["message"])
        if resumed["t"] != "resumed":
            raise HostMisbehavedError(f"{resumed['t']} where resumed was due: {resumed}")
        self.token = resumed["token"]
        self.caught_up_by = resumed["catch_up"]
        if resumed["catch_up"] == "snapshot":  # 3.4: it stands for every event missed
            snapshot = await self._reply("snapshot")
            if snapshot["seq"] < self.last_seq:
                raise HostMisbehavedError(f"a snapshot at {snapshot['seq']} after {self.last_seq}")
            assert self.seat is not None
            self.seat.midway(snapshot)  # 5.10: the round in play can no longer be checked
            self.last_seq, self.pending = snapshot["seq"], None  # played or not, it shows
            self.own.caught_up_by_snapshot(snapshot["seq"])
            self._board_from(snapshot)
            return
        await self._send_again()

    async def _send_again(self) -> None:
        assert self.seat is not None
        r = self.seat.round
        if r is not None and not r.revealed and r.commit is not None:
            if r.commits is None:
                self.resent.add("seed_commit")
                await self._send({"t": "seed_commit", "round_id": r.round_id, "commit": r.commit})
            elif r.commits[self.seat_no] == r.commit and r.receipt is None and r.seeds is None:
                self.resent.add("seed_reveal")
                await self._send({"t": "seed_reveal", "round_id": r.round_id, "seed": r.seed})
        if self.pending is not None:
            await self._send_play(self.pending)

    async def leave(self, away: bool) -> None:
        """3.3: step away (``away``) or give the seat up for good; the connection stays in the
        lobby, events on their way before ``left`` taken as usual."""
        await self._send({"t": "leave", "away": away})
        while (message := await self._receive())["t"] != "left":
            await self._handle(message)
        self.own.lost_answers()

    async def rename(self, name: str) -> None:
        """3.3 Names: go by another name; the host's `seat_status` says the name settled on."""
        await self._send({"t": "rename", "name": name})

    async def drop(self) -> None:
        """Lose the connection without a word, as a cable pulled."""
        assert self.conn is not None
        await trio.aclose_forcefully(self.conn.stream)
        self.conn = None

    async def quit(self) -> None:
        await self._bye("quit", "")
        self.conn = None

    # --- the match --------------------------------------------------------------------------------

    async def play(self, stop: Callable[[DocumentClient], bool] = lambda c: False) -> None:
        """Read and answer until the signed match end has been checked, or ``stop`` says so."""
        assert self.seat is not None
        while not self.seat.match_over and not stop(self):
            await self._handle(await self._receive())
            if self.seat.my_turn and self.pending is None and not stop(self):
                card, take = choose(list(self.seat.hand), self.seat.on_table, self.seat.table)
                self.move_id += 1
                self.pending = Pending(self.move_id, self.last_seq, card, take)
                self.plays_sent += 1
                await self._send_play(self.pending)

    async def _send_play(self, play: Pending) -> None:
        self.own.sending(play.move_id, play.card, play.captured)
        await self._send(play.message())

    async def _changed_play(self, detail: str | None) -> None:
        """3.5: a mismatch stops the seat as a failed check of 5.10 does."""
        if detail is not None:
            failed = ChangedPlayError(self.round_no, detail)
            await self._bye("deal_failed", str(failed)[:200])
            self.conn = None
            raise failed

    async def _handle(self, message: dict) -> None:
        kind = message["t"]
        if kind in TABLE_EVENTS:
            await self._event(message)
        elif kind in ("ack", "reject") and message["move_id"] not in self.own.unanswered:
            # 3.1: an answer to no `play` of this connection still unanswered (never sent, or
            # answered already) is `out_of_order`; its `played`, if any, is then judged as a
            # play no `ack` names (3.5).
            await self._bye("out_of_order", f"{kind} of move {message['move_id']}, never sent")
            self.conn = None
            raise HostMisbehavedError(f"{kind} of a move never sent: {message}")
        elif kind == "ack":
            self.acks.append(message)
            await self._changed_play(self.own.ack(message, self.last_seq))
        elif kind == "reject":
            await self._changed_play(self.own.reject(message))  # 3.5: checked first
            if message["code"] != "stale":
                raise HostMisbehavedError(f"unexpected reject: {message}")
            if self.pending is not None and self.pending.move_id == message["move_id"]:
                self.pending = None  # chosen before events on their way: choose again
        elif kind == "error" and message["code"] == "wrong_phase" and message["ref"] in self.resent:
            self.resent.discard(message["ref"])  # 5.4: a repeat the host already had
        else:
            raise HostMisbehavedError(f"unexpected {kind}: {message}")

    async def _event(self, event: dict) -> None:
        assert self.seat is not None
        self.events.append(event)
        if event["t"] == "snapshot":
            raise HostMisbehavedError("a snapshot in the middle of the match")
        if event["seq"] != self.last_seq + 1:
            await self._bye("bad_seq", f"event {event['seq']} after {self.last_seq}")
            raise HostMisbehavedError(f"event seq {event['seq']} after {self.last_seq}")
        watched = self.kept[self.seat_no] and not self.computer[self.seat_no]
        await self._changed_play(self.own.event(event, self.seat_no, watched))
        try:
            self.seat.take(event)
        except CheckFailedError as failed:
            await self._bye("deal_failed", str(failed)[:200])
            raise
        self.last_seq = event["seq"]
        self._board(event)
        r = self.seat.round
        if event["t"] == "round_commit":
            commit = self.seat.seed_to_commit(self.seeds())
            await self._send({"t": "seed_commit", "round_id": event["round_id"], "commit": commit})
        elif event["t"] == "seed_commits" and r is not None:
            if r.commit is not None and event["commits"][self.seat_no] == r.commit:
                await self._send({"t": "seed_reveal", "round_id": r.round_id, "seed": r.seed})
        elif event["t"] == "played" and event["seat"] == self.seat_no:
            self.pending = None

    def _board(self, e: dict) -> None:
        """Who holds each seat and who made each play, from the events (3.3, 3.4)."""
        if e["t"] == "seat_status" and e["seat"] < len(self.holders):
            seat, was = e["seat"], self.holders[e["seat"]]
            open_ = e["kind"] == "open"
            now = (f"bot {seat}" if e["stand_in"] else None) if open_ else e["name"]
            if e["kind"] == "human" and was not in (None, f"bot {seat}", now) and self.kept[seat]:
                # 3.9 makers: a rename (no `open` between) renames the holder's plays too
                self.made_by = [
                    now if name == was and self.play_seats[k] == seat else name
                    for k, name in enumerate(self.made_by)
                ]
            self.kept[seat] = e["kind"] == "human"
            self._absence(e)
            self.holders[seat] = now
            self.computer[seat] = e["kind"] == "bot" or e["stand_in"]
        elif e["t"] == "round_commit":
            self.made_by, self.by_computer, self.play_seats = [], [], []
            self.round_no, self.redeal, self._void_last = e["round_no"], self._void_last, False
        elif e["t"] == "round_void":
            self.voids, self._void_last = self.voids + 1, True
        elif e["t"] == "played" and e["seat"] < len(self.holders):
            seat = e["seat"]
            self.play_seats.append(seat)
            self.made_by.append(self.holders[seat] or f"seat {seat}")
            self.by_computer.append(self.computer[seat])

    def _absence(self, e: dict) -> None:
        """3.3: why a person is away, in words: a client closed (`closed`), a step away, or a
        lost connection, and whether a computer plays for them yet."""
        if e["kind"] != "human" or e["connected"]:
            self.absent.pop(e["seat"], None)
            return
        name = e["name"]
        if e["away"]:
            why = f"{name} stepped away"
        elif e.get("closed", False):
            why = f"{name}'s client was closed"
        else:
            why = f"{name} lost the connection"
        later = f"a computer plays for them in {e['grace']} s" if e["grace"] else ""
        now = "a computer plays for them" if e["stand_in"] else later
        self.absent[e["seat"]] = f"{why}; {now}" if now else why

    # --- frames ---------------------------------------------------------------------------------

    async def _send(self, message: dict) -> None:
        assert self.conn is not None
        await self.conn.send(message)

    async def _bye(self, reason: str, message: str) -> None:
        if self.conn is not None:
            with trio.move_on_after(1):
                await self._send({"t": "bye", "reason": reason, "message": message})
            await trio.aclose_forcefully(self.conn.stream)

    async def _receive(self) -> dict:
        assert self.conn is not None
        message = await self.conn.receive_past_heartbeats(self._send)
        wrong = unlisted(message, self.version)
        if wrong is not None:
            await self._bye("bad_field", wrong[:200])
            raise HostMisbehavedError(f"bad_field: {wrong}")
        return message

    async def _reply(self, kind: str) -> dict:
        message = await self._receive()
        if message["t"] != kind:
            raise HostMisbehavedError(f"{message['t']} where {kind} was due: {message}")
        return message
