"""A hostile peer written from protocol.md alone: it imports nothing from scopa_net, only the
outsider's own modules (``document_seat`` to keep a seat's hand and turn, ``document_referee``
for legal plays). It speaks section 1's framing by hand, so that it can write what an honest
writer never does: a length of 0, a frame cut short, a repeated key, a float, a message its
state forbids.

``Peer`` is one TCP connection to a host: it writes frames (``send``) or raw bytes
(``send_raw``), reads what comes back, answering pings (``next``), and tells how a connection
ended (``ending``: the `bye` and whether the host then closed) or that it goes on
(``stays_open``: a `ping` answered by its `pong`). ``SeatedPeer`` holds a seat: it takes the
events in order, exchanges its seeds honestly (5.4), and tracks its hand and turn, so that a
test can send a bad move at a known moment.

The rows a test drives come from the document: ``refused_frames`` reads section 8.1's refused
frames, and ``LOBBY_ROWS`` lists what a peer in the lobby may send wrong and what section 1,
3.1 and 3.9 say must follow: the code, and (the error table's column, 3.8) that it ends the
connection. Where the document left a choice to the implementer, the guess is marked GUESS.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import msgpack
import trio
from document_referee import Table, legal_takes, value
from document_seat import Seat

VERSION = 5
OLDER = 4  # 3.2: a host of version 5 also speaks 4, which has no `why` in `error` (3.8)
WHYS = {  # 3.8: each `why` and the one code it goes with
    "table_closed_on_restart": "no_such_table", "seat_taken_while_away": "bad_token",
}  # fmt: skip
NEWER_KEYS = {  # 3.2, 3.9: the keys version 5 added; a connection in 4 never carries them
    "error": {"why", "current_seq"}, "snapshot": {"stand_ins", "redeal", "makers"},
    "seat_status": {"closed"},
}  # fmt: skip
LIMIT = 65536  # section 1: a payload of 1..65536 bytes
ENDS = {  # 3.8: the codes that always travel in `bye`
    "bad_version", "bad_frame", "unknown_type", "bad_field", "out_of_order", "bad_seq",
    "too_many_connections", "timeout", "superseded", "shutting_down", "quit", "internal",
    "deal_failed",
}  # fmt: skip
TABLE_EVENTS = {  # 3.4, ordinary tables
    "seat_status", "chat", "round_commit", "seed_commits", "seed_receipt", "seed_reveals", "deal",
    "played", "round_reveal", "round_void", "round_end", "match_end", "rematch_status", "snapshot",
}  # fmt: skip
REPLIES = {  # 3.6: the replies' lane
    "welcome", "tables", "table_created", "joined", "resumed", "left", "ack", "reject", "error",
    "pong",
}  # fmt: skip
DOCUMENT = Path(__file__).resolve().parent.parent / "protocol.md"


def newer_key_wrong(message: dict, version: int) -> str | None:
    """What breaks 3.2 and 3.9 in a message the host sent on a connection in ``version``: a key
    of version 5 in 4, or a `why` with another code than its own; None if nothing."""
    newer = set(message) & NEWER_KEYS.get(message["t"], set())
    if version < 5 and newer:
        return f"{message['t']} carries {sorted(newer)} on a connection in version {version}"
    if message["t"] == "error" and "why" in message and WHYS.get(message["why"]) != message["code"]:
        return f"error {message['code']} with why {message['why']!r}"
    return None


def framed(payload: bytes) -> bytes:
    """Section 1: four length bytes, big-endian, then the payload."""
    return len(payload).to_bytes(4, "big") + payload


def packed(message: object) -> bytes:
    return framed(msgpack.packb(message, use_bin_type=True))


def raw_map(*pairs: tuple[object, object]) -> bytes:
    """A msgpack map written pair by pair, so that a key may repeat or be of any type."""
    assert len(pairs) < 16
    body = b"".join(msgpack.packb(k, use_bin_type=True) + msgpack.packb(v, use_bin_type=True)
                    for k, v in pairs)  # fmt: skip
    return bytes([0x80 | len(pairs)]) + body


def refused_frames(text: str | None = None) -> list[tuple[str, bytes, str]]:
    """8.1's frames that "must be refused with the code given": (case, frame, code)."""
    text = DOCUMENT.read_text(encoding="utf-8") if text is None else text
    section = text.split("### 8.1", 1)[1].split("### 8.2", 1)[0]
    block = section.split("must be refused with the code given", 1)[1]
    rows = []
    for chunk in re.split(r"\n\s*\n", block):
        case = re.search(r"^case: (.+)$", chunk, re.M)
        hex_lines = re.search(r"^frame: ([0-9a-f\s]+?)\nrefused: (\w+)", chunk, re.M)
        if case and hex_lines:
            frame = bytes.fromhex("".join(hex_lines.group(1).split()))
            rows.append((case.group(1), frame, hex_lines.group(2)))
    return rows


@dataclass
class Ending:
    """How a connection ended: the `bye` the host sent (None: none), whether it then closed the
    connection, what came before the `bye`, and how long after ``since`` the `bye` came."""

    bye: dict | None
    closed: bool
    before: list[dict]
    after: float

    @property
    def reason(self) -> str | None:
        return None if self.bye is None else self.bye["reason"]


class HostClosedError(Exception):
    """The host closed the connection where the test expected a message."""


class Peer:
    """One connection to a host, written to and read frame by frame (section 1)."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.buffer = bytearray()
        self.heard: list[dict] = []
        self.answer_pings = True
        self.nonce = 1000
        self.opened = trio.current_time()
        self.host_key = b""
        self.version = VERSION  # the version of the `welcome` (3.2)

    @classmethod
    async def connect(cls, port: int, host: str = "127.0.0.1") -> Peer:
        return cls(await trio.open_tcp_stream(host, port))

    async def send_raw(self, data: bytes) -> None:
        await self.stream.send_all(data)

    async def send(self, message: dict) -> None:
        await self.stream.send_all(packed(message))

    async def shut_write(self) -> None:
        """Close our writing side only: the host's last words can still be read (section 1)."""
        await self.stream.send_eof()

    async def aclose(self) -> None:
        await trio.aclose_forcefully(self.stream)

    async def _frame(self) -> dict | None:
        while True:
            if len(self.buffer) >= 4:
                length = int.from_bytes(self.buffer[:4], "big")
                assert 1 <= length <= LIMIT, f"the host wrote a frame of {length} bytes"
                if len(self.buffer) >= 4 + length:
                    payload = bytes(self.buffer[4 : 4 + length])
                    del self.buffer[: 4 + length]
                    message = msgpack.unpackb(payload, raw=False, strict_map_key=True)
                    assert isinstance(message, dict)
                    assert isinstance(message.get("t"), str)
                    return message
            try:
                data = await self.stream.receive_some(LIMIT + 4)
            except trio.BrokenResourceError:  # reset by the host: closed all the same
                data = b""
            if not data:
                assert not self.buffer, "the host closed in the middle of a frame"
                return None
            self.buffer += data

    async def next(self, timeout: float = 5.0) -> dict | None:
        """The next message (pings answered, unless ``answer_pings`` is off), or None once the
        host has closed the connection."""
        with trio.fail_after(timeout):
            while True:
                message = await self._frame()
                if message is None:
                    return None
                self.heard.append(message)
                wrong = newer_key_wrong(message, self.version)
                assert wrong is None, wrong  # every message of every test is checked so
                if message["t"] == "ping" and self.answer_pings:
                    await self.send({"t": "pong", "nonce": message["nonce"]})
                    continue
                return message

    async def reply(self, *kinds: str, timeout: float = 5.0) -> dict:
        """The next message of one of ``kinds``, anything else passed to ``other``."""
        while True:
            message = await self.next(timeout)
            if message is None:
                raise HostClosedError(f"the host closed where {kinds} was due: {self.heard[-3:]}")
            if message["t"] in kinds:
                return message
            self.other(message)

    def other(self, message: dict) -> None:
        """A message the caller was not waiting for (a table event, mostly)."""

    async def hello(self, version: int = VERSION) -> dict:
        await self.send({"t": "hello", "version": version, "client": "document-hostile"})
        welcome = await self.reply("welcome", "bye")
        assert welcome["t"] == "welcome", welcome
        assert welcome["version"] == version, welcome  # 3.2: answered in the version asked
        self.host_key, self.version = welcome["host_key"], version
        return welcome

    async def ending(self, timeout: float = 5.0) -> Ending:
        """Read until the host's `bye`, then check that it closes the connection (3.1: "the
        sender closes the connection"); our end is closed then too."""
        try:
            return await self._ending(timeout)
        finally:
            await self.aclose()

    async def _ending(self, timeout: float) -> Ending:
        start, before = trio.current_time(), []
        while True:
            message = await self.next(timeout)
            if message is None:
                return Ending(None, True, before, trio.current_time() - start)
            if message["t"] == "bye":
                after = trio.current_time() - start
                rest = await self.next(timeout)
                return Ending(message, rest is None, before, after)
            before.append(message)
            self.other(message)

    async def stays_open(self, timeout: float = 5.0) -> bool:
        """A `ping` answered by its `pong`: the connection carries on (3.6)."""
        self.nonce += 1
        await self.send({"t": "ping", "nonce": self.nonce})
        while True:
            message = await self.next(timeout)
            if message is None or message["t"] == "bye":
                return False
            if message["t"] == "pong" and message["nonce"] == self.nonce:
                return True
            self.other(message)


@dataclass
class Refusal:
    """An `error` or `reject` that answered a request, and whether the connection went on."""

    message: dict
    open: bool

    @property
    def code(self) -> str:
        return self.message["code"]


async def refused(peer: Peer, request: dict, *, kind: str = "error") -> Refusal:
    """Send ``request``; the `error` (or `reject`) that answers it, and whether the connection
    carries on after it."""
    await peer.send(request)
    answer = await peer.reply(kind, "bye", "table_created", "joined", "resumed", "tables", "ack")
    return Refusal(answer, await peer.stays_open() if answer["t"] != "bye" else False)


def create(name: str = "hostile", players: int = 2, *, bots: int = 0, password: str | None = None,
           variants: list[str] | None = None, target: int = 11) -> dict:  # fmt: skip
    rules = {"players": players, "target": target, "variants": variants or []}
    return {"t": "create_table", "name": name, "rules": rules, "password": password,
            "bots": bots, "bot_level": 1}  # fmt: skip


def join(table_id: int, seat: int | None = None, name: str = "Mallory",
         password: str | None = None) -> dict:  # fmt: skip
    return {"t": "join", "table_id": table_id, "seat": seat, "name": name, "password": password}


@dataclass
class Tracked:
    """What a seat learnt: the table events in order, and the replies that came between."""

    events: list[dict] = field(default_factory=list)
    replies: list[dict] = field(default_factory=list)


class SeatedPeer(Peer):
    """A peer holding a seat: events taken in order by ``document_seat.Seat`` (5.10), its seed
    committed and revealed honestly (5.4), so that the round is dealt and its turn known."""

    def __init__(self, stream: trio.SocketStream) -> None:
        super().__init__(stream)
        self.seat: Seat | None = None
        self.table_id = 0
        self.seat_no = 0
        self.token = b""
        self.last_seq = 0
        self.tracked = Tracked()
        self.outbox: list[dict] = []

    async def sit(self, table_id: int, seat: int | None = None, name: str = "Mallory",
                  password: str | None = None) -> None:  # fmt: skip
        await self.send(join(table_id, seat, name, password))
        joined = await self.reply("joined")
        snapshot = await self.reply("snapshot")
        self.table_id, self.seat_no, self.token = table_id, joined["seat"], joined["token"]
        rules = snapshot["rules"]
        table = Table(rules["players"], rules["target"], frozenset(rules["variants"]))
        self.seat = Seat(self.host_key, table, self.seat_no)
        self.last_seq = snapshot["seq"]

    async def take_back(self, port: int) -> None:
        """A new connection to the same seat (3.3): `resume` with the token and `last_seq`."""
        self.stream = await trio.open_tcp_stream("127.0.0.1", port)
        self.buffer = bytearray()
        await self.hello()
        await self.send({"t": "resume", "table_id": self.table_id, "seat": self.seat_no,
                         "token": self.token, "last_seq": self.last_seq})  # fmt: skip
        resumed = await self.reply("resumed")
        self.token = resumed["token"]
        assert resumed["catch_up"] == "replay", resumed

    def other(self, message: dict) -> None:
        if message["t"] not in TABLE_EVENTS:
            self.tracked.replies.append(message)
            return
        assert self.seat is not None
        assert message["seq"] == self.last_seq + 1, (message, self.last_seq)
        self.last_seq = message["seq"]
        self.tracked.events.append(message)
        self.seat.take(message)
        r = self.seat.round
        if message["t"] == "round_commit":
            commit = self.seat.seed_to_commit(os.urandom(32))
            self.outbox.append({"t": "seed_commit", "round_id": r.round_id, "commit": commit})
        elif message["t"] == "seed_commits" and r is not None and r.commit is not None:  # noqa: SIM102
            if message["commits"][self.seat_no] == r.commit:  # 5.4 step 3: ours was relayed
                self.outbox.append({"t": "seed_reveal", "round_id": r.round_id, "seed": r.seed})

    async def follow(self, until: Callable[[SeatedPeer], bool], timeout: float = 5.0) -> None:
        """Take events, sending the seeds they call for, until ``until`` holds."""
        with trio.fail_after(timeout):
            while True:
                while self.outbox:
                    await self.send(self.outbox.pop(0))
                if until(self):
                    return
                message = await self.next(timeout)
                if message is None:
                    raise HostClosedError(f"closed while following: {self.heard[-3:]}")
                self.other(message)

    @property
    def dealt(self) -> bool:
        return bool(self.seat and self.seat.round and self.seat.hand)

    @property
    def my_turn(self) -> bool:
        return bool(self.seat and self.seat.my_turn)

    def position_changed_since(self) -> int:
        """The `seq` of the newest event that changes the position (3.5 step 2)."""
        moving = {"round_commit", "seed_commits", "seed_reveals", "deal", "played",
                  "round_void", "round_reveal", "round_end", "match_end"}  # fmt: skip
        return max(e["seq"] for e in self.tracked.events if e["t"] in moving)

    def legal(self) -> tuple[int, int]:
        assert self.seat is not None
        for card in sorted(self.seat.hand):
            takes = legal_takes(card, self.seat.on_table, self.seat.table.variants)
            return card, takes[0]
        raise AssertionError("no card in hand")

    def illegal(self) -> dict[str, tuple[int, int]]:
        """Plays the rules refuse, by the reason 3.5 names, where this position has one."""
        assert self.seat is not None
        hand, on_table = sorted(self.seat.hand), list(self.seat.on_table)
        variants = self.seat.table.variants
        plays: dict[str, tuple[int, int]] = {}
        elsewhere = [c for c in range(40) if c not in hand and c not in on_table]
        plays["not_in_hand"] = (elsewhere[0], 0)
        card = hand[0]
        plays["not_on_table"] = (card, 1 << next(c for c in elsewhere if c != card))
        for card in hand:
            takes = legal_takes(card, on_table, variants)
            if takes != [0] and "must_capture" not in plays:
                plays["must_capture"] = (card, 0)
            single = next((t for t in on_table if value(t) != value(card)), None)
            if single is not None and "wrong_sum" not in plays:
                plays["wrong_sum"] = (card, 1 << single)  # a single card of another value
        return plays


# --- the rows: what a peer sends wrong, and what the document says follows ---------------------

R16, B32, B64 = bytes(16), bytes(32), bytes(64)
PLAYER_MESSAGES = {  # 3.9: one well-formed message of each kind a player sends
    "hello": {"t": "hello", "version": VERSION, "client": "document-hostile"},
    "list_tables": {"t": "list_tables"},
    "create_table": create(),
    "join": join(1),
    "resume": {"t": "resume", "table_id": 1, "seat": 0, "token": R16, "last_seq": 0},
    "leave": {"t": "leave", "away": False},
    "play": {"t": "play", "move_id": 1, "after": 0, "card": 0, "captured": 0},
    "say": {"t": "say", "text": "hi"},
    "rename": {"t": "rename", "name": "Eve"},
    "seed_commit": {"t": "seed_commit", "round_id": R16, "commit": B32},
    "seed_reveal": {"t": "seed_reveal", "round_id": R16, "seed": B32},
    "rematch": {"t": "rematch", "agree": True},
    "blind_key": {"t": "blind_key", "round_id": R16,
                  "key": {"point": B32, "proof": B64, "sign_key": B32}},
    "blind_shuffle": {"t": "blind_shuffle", "round_id": R16, "deck": [B64] * 40,
                      "proof": bytes(5280), "sig": B64},
    "blind_shares": {"t": "blind_shares", "round_id": R16, "deal": 1, "shares": [], "sig": B64},
    "blind_reveal": {"t": "blind_reveal", "round_id": R16, "seed": B32},
}  # fmt: skip


def _unbin(value: object) -> object:
    if isinstance(value, dict):
        if set(value) == {"$bin"}:
            return bytes.fromhex(value["$bin"])
        return {k: _unbin(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_unbin(v) for v in value]
    return value


def host_messages(text: str | None = None) -> dict[str, dict]:
    """Well-formed messages only a host sends: 8.1's vectors, and a few written from 3.9."""
    import json

    text = DOCUMENT.read_text(encoding="utf-8") if text is None else text
    section = text.split("### 8.1", 1)[1].split("must be refused with the code given", 1)[0]
    found: dict[str, dict] = {}
    for line in re.findall(r"^message: (.+)$", section, re.M):
        message = _unbin(json.loads(line))
        assert isinstance(message, dict)
        if message["t"] not in PLAYER_MESSAGES and message["t"] not in ("bye", "ping", "pong"):
            found.setdefault(message["t"], message)
    found.setdefault("tables", {"t": "tables", "tables": []})
    found.setdefault("left", {"t": "left", "table_id": 1, "seat": 0})
    found.setdefault("ack", {"t": "ack", "move_id": 1, "seq": 1, "duplicate": False})
    found.setdefault("chat", {"t": "chat", "seq": 1, "seat": None, "text": "hi"})
    found.setdefault("resumed", {"t": "resumed", "table_id": 1, "seat": 0, "token": R16,
                                 "epoch": 2, "catch_up": "replay"})  # fmt: skip
    return found


def _with(kind: str, **changes: object) -> dict:
    message = dict(PLAYER_MESSAGES[kind])
    for key, new in changes.items():
        if new is _DROP:
            del message[key]
        else:
            message[key] = new
    return message


_DROP = object()


def _rules(**changes: object) -> dict:
    return {**create(), "rules": {**create()["rules"], **changes}}


def _deep(depth: int) -> object:
    value: object = 1
    for _ in range(depth - 1):  # the message map is depth 1
        value = [value]
    return value


def _ext_ping() -> bytes:
    return framed(raw_map(("t", "ping"), ("nonce", msgpack.ExtType(5, b"x"))))


def _timestamp_ping() -> bytes:
    return framed(raw_map(("t", "ping"), ("nonce", msgpack.Timestamp(0))))


def _bad_utf8_key() -> bytes:
    return framed(b"\x82" + msgpack.packb("t") + msgpack.packb("ping") + b"\xa2\xff\xfe\x01")


Row = tuple[str, bytes, str]  # what is sent wrong, the bytes, the code of the `bye`

FRAME_ROWS: list[Row] = [  # section 1; all end the connection with `bye bad_frame`
    ("a length of 0", b"\0\0\0\0", "bad_frame"),
    ("a length of 65537, the body never sent", (LIMIT + 1).to_bytes(4, "big"), "bad_frame"),
    ("a length of 2^32 - 1", b"\xff\xff\xff\xff", "bad_frame"),
    ("a byte msgpack never uses", framed(b"\xc1"), "bad_frame"),
    ("bytes left over after the map", framed(msgpack.packb({"t": "list_tables"}) + b"\0"),
     "bad_frame"),
    ("two maps in one frame", framed(msgpack.packb({"t": "list_tables"}) * 2), "bad_frame"),
    ("an int at the top", framed(b"\x01"), "bad_frame"),
    ("nil at the top", framed(b"\xc0"), "bad_frame"),
    ("a str at the top", framed(msgpack.packb("list_tables")), "bad_frame"),
    ("a map without t", framed(raw_map(("nonce", 1))), "bad_frame"),
    ("t an int", framed(raw_map(("t", 1))), "bad_frame"),
    ("t nil", framed(raw_map(("t", None))), "bad_frame"),
    ("t a bin", framed(raw_map(("t", b"list_tables"))), "bad_frame"),
    ("an int key", framed(raw_map(("t", "ping"), ("nonce", 1), (7, 1))), "bad_frame"),
    ("a bin key", framed(raw_map(("t", "ping"), (b"nonce", 1))), "bad_frame"),
    ("a key that is not valid UTF-8", _bad_utf8_key(), "bad_frame"),
    ("a repeated t", framed(raw_map(("t", "list_tables"), ("t", "list_tables"))), "bad_frame"),
    ("an ext value", _ext_ping(), "bad_frame"),
    ("a timestamp", _timestamp_ping(), "bad_frame"),
    ("a str of 4097 bytes", packed(_with("say", text="a" * 4097)), "bad_frame"),
    ("a bin of 5281 bytes", packed(_with("seed_commit", commit=bytes(5281))), "bad_frame"),
    ("an array of 65 items", packed(_rules(variants=["napola"] * 65)), "bad_frame"),
    ("a map of 33 pairs", packed({"t": "ping", "nonce": 1} | {f"k{i}": 0 for i in range(31)}),
     "bad_frame"),
    ("containers nested 6 deep", packed({"t": "ping", "nonce": _deep(6)}), "bad_frame"),
    # ... and one step inside each limit the frame is whole: the fields refuse it instead.
    ("a str of 4096 bytes (past the frame check)", packed(_with("say", text="a" * 4096)),
     "bad_field"),
    ("a bin of 5280 bytes (past the frame check)",
     packed(_with("seed_commit", commit=bytes(5280))), "bad_field"),
    ("an array of 64 items (past the frame check)",
     packed(_rules(variants=["napola"] * 64)), "bad_field"),
    ("a map of 32 pairs (past the frame check)",
     packed({"t": "ping", "nonce": 1} | {f"k{i}": 0 for i in range(30)}), "bad_field"),
    ("containers nested 5 deep (past the frame check)",
     packed({"t": "ping", "nonce": _deep(5)}), "bad_field"),
]  # fmt: skip

TYPE_ROWS: list[Row] = [  # section 1: "a t that names no message is unknown_type"
    ("t names no message", packed({"t": "hola"}), "unknown_type"),
    ("t empty", packed({"t": ""}), "unknown_type"),
    ("t in capitals", packed({"t": "PING", "nonce": 1}), "unknown_type"),
    ("t names no message, with a key out of range", packed({"t": "hola", "x": -1}),
     "unknown_type"),
]  # fmt: skip

FIELD_ROWS: list[Row] = [  # section 1 "Exactly the listed fields", "Types"; 3.9, 3.10
    ("a key missing", packed(_with("join", password=_DROP)), "bad_field"),
    ("a key not listed", packed(_with("list_tables", page=1)), "bad_field"),
    ("nil where nil is not allowed", packed(_with("join", name=None)), "bad_field"),
    ("a str where an int belongs", packed(_with("join", table_id="1")), "bad_field"),
    ("true where an int belongs", packed({"t": "ping", "nonce": True}), "bad_field"),
    ("1 where a bool belongs", packed(_with("create_table", blind=1)), "bad_field"),
    ("a float where an int belongs", packed({"t": "ping", "nonce": 1.0}), "bad_field"),
    ("an int below its range", packed({"t": "ping", "nonce": -1}), "bad_field"),
    ("an int above its range", packed({"t": "ping", "nonce": 2**32}), "bad_field"),
    ("table_id 0", packed(_with("join", table_id=0)), "bad_field"),
    ("seat 6", packed(_with("join", seat=6)), "bad_field"),
    ("a bin where a str belongs", packed(_with("join", name=b"Mallory")), "bad_field"),
    ("a str where a bin belongs", packed(_with("resume", token="0" * 16)), "bad_field"),
    ("a token of 15 bytes", packed(_with("resume", token=bytes(15))), "bad_field"),
    ("an empty token", packed(_with("resume", token=b"")), "bad_field"),
    ("a token of 33 bytes", packed(_with("resume", token=bytes(33))), "bad_field"),
    ("an empty name", packed(_with("join", name="")), "bad_field"),
    ("a name of 33 characters", packed(_with("join", name="a" * 33)), "bad_field"),
    ("33 two-byte characters in a name", packed(_with("join", table_id=4294967295,
                                                                 name="é" * 33)), "bad_field"),
    ("a newline in a name", packed(_with("join", name="Eve\nHost: hi")), "bad_field"),
    ("an escape in a name", packed(_with("join", name="\x1b[2J")), "bad_field"),
    ("a C1 control in a name", packed(_with("join", name="Eve\x85")), "bad_field"),
    ("DEL in a password", packed(_with("join", password="pw\x7f")), "bad_field"),
    ("an empty password", packed(_with("join", password="")), "bad_field"),
    ("a 5-player table", packed(_rules(players=5)), "bad_field"),
    ("a 1-player table", packed(_rules(players=1)), "bad_field"),
    ("scopone at 2 players", packed(_rules(variants=["scopone"])), "bad_field"),
    ("both scopone variants", packed(_rules(players=4,
                                            variants=["scopone", "scopone_scientifico"])),
     "bad_field"),
    ("asso_piglia_tutto with quindici", packed(_rules(variants=["asso_piglia_tutto",
                                                                "quindici"])), "bad_field"),
    ("six_as_three_pairs at 4 players", packed(_rules(players=4,
                                                      variants=["six_as_three_pairs"])),
     "bad_field"),
    ("a variant twice", packed(_rules(variants=["napola", "napola"])), "bad_field"),
    ("a variant no one knows", packed(_rules(variants=["briscola"])), "bad_field"),
    ("a target of 0", packed(_rules(target=0)), "bad_field"),
    ("a target of 100", packed(_rules(target=100)), "bad_field"),
    ("a rules map with a key not listed", packed(_rules(deck="french")), "bad_field"),
    ("bots 6", packed(_with("create_table", bots=6)), "bad_field"),
    ("bots as many as the players", packed(_with("create_table", bots=2)), "bad_field"),
    ("bot_level 0", packed(_with("create_table", bot_level=0)), "bad_field"),
    ("bot_level 6", packed(_with("create_table", bot_level=6)), "bad_field"),
    ("blind written false (an optional key with its default)",
     packed(_with("create_table", blind=False)), "bad_field"),
    ("a table name of 33 characters", packed(_with("create_table", name="t" * 33)),
     "bad_field"),
    ("a hello version 0", packed(_with("hello", version=0)), "bad_field"),
    ("a hello version 65536", packed(_with("hello", version=65536)), "bad_field"),
    ("a client of 65 characters", packed(_with("hello", client="c" * 65)), "bad_field"),
    # 3.1: "a play sent in the lobby with a field out of range is bad_field, not out_of_order"
    ("a play in the lobby with card 40", packed(_with("play", card=40)), "bad_field"),
    ("a play capturing its own card", packed(_with("play", card=3, captured=1 << 3)),
     "bad_field"),
    ("a play with captured 2^40", packed(_with("play", captured=2**40)), "bad_field"),
    ("a play with move_id 0", packed(_with("play", move_id=0)), "bad_field"),
    ("a play with pos but no proof", packed(_with("play", pos=3)), "bad_field"),
    ("a say of nothing", packed(_with("say", text="")), "bad_field"),
    ("a say of 1001 characters", packed(_with("say", text="a" * 1001)), "bad_field"),
    ("an escape in a say", packed(_with("say", text="\x1b[31mred")), "bad_field"),
    ("a rematch with agree nil", packed(_with("rematch", agree=None)), "bad_field"),
    ("leave with away 0", packed(_with("leave", away=0)), "bad_field"),
    ("a seed_commit with a 15-byte round id", packed(_with("seed_commit", round_id=bytes(15))),
     "bad_field"),
    ("a pong with a nonce out of range", packed({"t": "pong", "nonce": 2**32}), "bad_field"),
]  # fmt: skip

LOBBY_ALLOWED = {"list_tables", "create_table", "join", "resume"}
SEATED_ALLOWED = {"play", "say", "rename", "seed_commit", "seed_reveal", "rematch", "leave",
                  "blind_key", "blind_shuffle", "blind_shares", "blind_reveal"}  # fmt: skip


def out_of_order_rows(allowed: set[str]) -> list[Row]:
    """3.1: every well-formed message the state does not allow (a host's included)."""
    rows = [(f"{kind}, well formed", packed(message), "out_of_order")
            for kind, message in PLAYER_MESSAGES.items() if kind not in allowed]  # fmt: skip
    rows += [(f"{kind} (a host's message)", packed(message), "out_of_order")
             for kind, message in host_messages().items()]  # fmt: skip
    rows.append(("a pong for no ping", packed({"t": "pong", "nonce": 77}), "out_of_order"))
    return rows


LOBBY_ROWS: list[Row] = FRAME_ROWS + TYPE_ROWS + FIELD_ROWS + out_of_order_rows(LOBBY_ALLOWED)

BEFORE_HELLO_ROWS: list[Row] = [  # 3.1, state `hello`: only `hello` (or `bye`)
    *(row for row in out_of_order_rows({"hello"}) if row[0] != "hello, well formed"),
    ("a ping before hello", packed({"t": "ping", "nonce": 1}), "out_of_order"),
    ("hello without client", packed(_with("hello", client=_DROP)), "bad_field"),
    ("hello with a key not listed", packed(_with("hello", name="x")), "bad_field"),
    ("hello with a version that is true", packed(_with("hello", version=True)), "bad_field"),
    ("a newline in the client's name", packed(_with("hello", client="a\nb")), "bad_field"),
    # 3.2, 3.9: `challenge` is bin 32, left out when nil, and no key of version 4
    ("hello in 4 with a challenge", packed(_with("hello", version=OLDER, challenge=bytes(32))),
     "bad_field"),
    ("hello with a challenge of 31 bytes", packed(_with("hello", challenge=bytes(31))),
     "bad_field"),
    ("hello with challenge written nil", packed(_with("hello", challenge=None)), "bad_field"),
    ("a length of 0 before hello", b"\0\0\0\0", "bad_frame"),
    ("t names no message before hello", packed({"t": "hola"}), "unknown_type"),
]  # fmt: skip

SEATED_ROWS: list[Row] = out_of_order_rows(SEATED_ALLOWED)  # pong/ping and bye aside


def version_message(client: int) -> str:
    """3.2 fixes these words."""
    return f"client speaks protocol version {client}; this end speaks version {VERSION}"
