"""An honest client written from protocol.md, RULES.md and the README alone: it imports nothing
from scopa_net. It speaks the wire of sections 1 and 3 over TCP, takes part in every fair deal
of section 5, checks every event on arrival with ``document_seat.Seat`` (5.10), and plays legal
cards chosen with ``document_referee``. A failed check ends the connection with
``bye deal_failed`` and raises ``CheckFailedError``; anything else the host does that an honest
client should never see raises ``HostMisbehavedError``.

``test_document_client.py`` plays whole matches with it against our host.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import msgpack
import trio
from document_referee import Table, legal_takes
from document_seat import CheckFailedError, Seat

VERSION = 4
MAX_PAYLOAD = 65536
PING_AFTER = 10.0  # 3.6: a side that has sent nothing for 10 s pings
GONE_AFTER = 30.0  # 3.6: nothing heard for 30 s, the peer is gone
TABLE_EVENTS = {  # 3.4
    "seat_status", "chat", "round_commit", "seed_commits", "seed_receipt", "seed_reveals", "deal",
    "played", "round_reveal", "round_void", "round_end", "match_end", "rematch_status", "snapshot",
}  # fmt: skip


class HostMisbehavedError(Exception):
    """The host sent what an honest client never expects: a refusal, a `bye`, a broken frame."""


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
        self.resent: set[str] = set()
        self.events: list[dict] = []  # every table event, as it arrived

    # --- 3.2, 3.3: handshake, lobby, seat -------------------------------------------------------

    async def connect(self, host: str, port: int) -> None:
        """Open a connection and shake hands; the host key is pinned on first contact (5.3)."""
        self.conn = Connection(await trio.open_tcp_stream(host, port))
        await self.conn.send({"t": "hello", "version": VERSION, "client": "document-client"})
        welcome = await self._reply("welcome")
        if welcome["version"] != VERSION:
            await self._bye("bad_version", f"this end speaks version {VERSION}")
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

    async def join(self, table_id: int) -> None:
        await self._send(
            {"t": "join", "table_id": table_id, "seat": None, "name": self.name, "password": None}
        )
        joined = await self._reply("joined")
        self.table_id, self.seat_no, self.token = table_id, joined["seat"], joined["token"]
        snapshot = await self._reply("snapshot")
        if snapshot["round_no"] != 0:
            raise HostMisbehavedError("joined a match under way: its round cannot be checked")
        assert self.pinned is not None
        self.seat = Seat(self.pinned, rules_of(snapshot["rules"]), self.seat_no)
        self.last_seq = snapshot["seq"]

    async def resume(self) -> None:
        """Take the seat back with its token (3.3) and send again what the host may lack (5.4)."""
        await self._send({"t": "resume", "table_id": self.table_id, "seat": self.seat_no,
                          "token": self.token, "last_seq": self.last_seq})  # fmt: skip
        resumed = await self._reply("resumed")
        self.token = resumed["token"]
        if resumed["catch_up"] != "replay":
            raise HostMisbehavedError("caught up by snapshot: the round in play cannot be checked")
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
            await self._send(self.pending.message())

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
            if self.seat.my_turn and self.pending is None:
                card, take = choose(list(self.seat.hand), self.seat.on_table, self.seat.table)
                self.move_id += 1
                self.pending = Pending(self.move_id, self.last_seq, card, take)
                self.plays_sent += 1
                await self._send(self.pending.message())

    async def _handle(self, message: dict) -> None:
        kind = message["t"]
        if kind in TABLE_EVENTS:
            await self._event(message)
        elif kind == "ack":
            self.acks.append(message)
        elif kind == "reject" and message["code"] == "stale" and self.pending is not None:
            self.pending = None  # chosen before events on their way: choose again once here
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
        try:
            self.seat.take(event)
        except CheckFailedError as failed:
            await self._bye("deal_failed", str(failed)[:200])
            raise
        self.last_seq = event["seq"]
        r = self.seat.round
        if event["t"] == "round_commit":
            commit = self.seat.seed_to_commit(self.seeds())
            await self._send({"t": "seed_commit", "round_id": event["round_id"], "commit": commit})
        elif event["t"] == "seed_commits" and r is not None:
            if r.commit is not None and event["commits"][self.seat_no] == r.commit:
                await self._send({"t": "seed_reveal", "round_id": r.round_id, "seed": r.seed})
        elif event["t"] == "played" and event["seat"] == self.seat_no:
            self.pending = None

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
        return await self.conn.receive_past_heartbeats(self._send)

    async def _reply(self, kind: str) -> dict:
        message = await self._receive()
        if message["t"] != kind:
            raise HostMisbehavedError(f"{message['t']} where {kind} was due: {message}")
        return message
