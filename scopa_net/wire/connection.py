"""Sans-IO connections: bytes in, messages out; messages in, bytes out. No sockets, no clock.

One state machine describes a connection, seen the same way by both ends; a
:class:`HostConnection` and a :class:`PlayerConnection` differ only in which side they are.
Every message moves the connection along :data:`TRANSITIONS`, keyed by (state, sender,
message type). A message with no entry is out of order: sending one raises
:class:`LocalProtocolError` (nothing is sent, nothing changes); receiving one raises
:class:`RemoteProtocolError` and breaks the connection.

    state       sender  message                          next state
    HELLO       player  hello                            WELCOME
    WELCOME     host    welcome                          LOBBY
    LOBBY       player  list_tables / create_table       LISTING / CREATING
                player  join / resume                    JOINING / RESUMING
    LISTING     host    tables                           LOBBY
    CREATING    host    table_created                    LOBBY
    JOINING     host    joined                           SYNCING
    RESUMING    host    resumed                          SYNCING (snapshot) or SEATED (replay)
    SYNCING     host    snapshot                         SEATED
    SEATED      player  play, say, rename, seed_commit,  SEATED
                        seed_reveal, rematch
                player  blind_key, blind_shuffle, blind_shares,  SEATED
                        blind_reveal
                player  leave                            LEAVING
                host    any table event, ack, reject     SEATED
    LEAVING     host    any table event, ack, reject     LEAVING
                host    left                             LOBBY
                host    error refusing the leave         SEATED
    any but HELLO, WELCOME: host `error` answers the pending request (back to LOBBY from
                LISTING, CREATING, JOINING, RESUMING) or stays where it is
    any but HELLO, WELCOME: `ping` and `pong` from either side, state unchanged
    any open state: `bye` from either side              CLOSED

Beyond the table, the machine checks: the host speaks the client's protocol version (any from
``OLDEST_VERSION`` to ``PROTOCOL_VERSION``; an optional key newer than the connection's version,
``NEWER_KEYS``, is left out of what this end sends and refused in what it reads); table
events arrive numbered ``seq`` = previous + 1 (a snapshot may jump forward, never back); a
``pong`` answers a ``ping`` still unanswered; at most :data:`MAX_PINGS` pings are unanswered;
``joined`` and ``resumed`` name the table and seat asked for; a ``play`` is not chosen ``after``
an event newer than any the connection carried.
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, replace

from scopa_net.text_limits import CONTROL_CHARACTERS
from scopa_net.version_words import hello_refusal
from scopa_net.wire import messages as m
from scopa_net.wire.codec import decode, encode
from scopa_net.wire.errors import (
    ErrorCode,
    LocalProtocolError,
    ProtocolError,
    RemoteProtocolError,
)
from scopa_net.wire.framing import END_OF_STREAM, MAX_FRAME, FrameReader
from scopa_net.wire.records import CATALOGUE, Message, Sender

MAX_PINGS = 4
"""Unanswered pings allowed in each direction."""
PING_INTERVAL = 10
"""Seconds: either side pings when it has sent nothing for this long."""
SILENCE_TIMEOUT = 30
"""Seconds: a peer heard nothing from for this long is gone (close with ``timeout``)."""


Fault = type[ProtocolError]
"""The error to raise for a refused message: local when sending, remote when receiving."""


class State(enum.Enum):
    HELLO = "hello"
    WELCOME = "welcome"
    LOBBY = "lobby"
    LISTING = "listing"
    CREATING = "creating"
    JOINING = "joining"
    RESUMING = "resuming"
    SYNCING = "syncing"
    SEATED = "seated"
    LEAVING = "leaving"
    CLOSED = "closed"


class Role(enum.Enum):
    HOST = "host"
    PLAYER = "player"


H, P = Role.HOST, Role.PLAYER
S = State
TABLE_EVENTS = tuple(name for name, cls in CATALOGUE.items() if cls.SEQUENCED)
_STREAM_EVENTS = (*(e for e in TABLE_EVENTS if e != "snapshot"), "ack", "reject", "snapshot")

TRANSITIONS: dict[tuple[State, Role, str], State] = {
    (S.HELLO, P, "hello"): S.WELCOME,
    (S.WELCOME, H, "welcome"): S.LOBBY,
    (S.LOBBY, P, "list_tables"): S.LISTING,
    (S.LOBBY, P, "create_table"): S.CREATING,
    (S.LOBBY, P, "join"): S.JOINING,
    (S.LOBBY, P, "resume"): S.RESUMING,
    (S.LISTING, H, "tables"): S.LOBBY,
    (S.CREATING, H, "table_created"): S.LOBBY,
    (S.JOINING, H, "joined"): S.SYNCING,
    (S.RESUMING, H, "resumed"): S.SYNCING,  # or SEATED: see Connection._advance
    (S.SYNCING, H, "snapshot"): S.SEATED,
    (S.SEATED, P, "leave"): S.LEAVING,
    (S.LEAVING, H, "left"): S.LOBBY,
    (S.SEATED, H, "left"): S.LOBBY,  # the table closed (3.11), or the seat was forfeit (5.4)
    **{
        (S.SEATED, P, name): S.SEATED
        for name in (
            "play",
            "say",
            "rename",
            "seed_commit",
            "seed_reveal",
            "rematch",
            "blind_key",
            "blind_shuffle",
            "blind_shares",
            "blind_reveal",
        )
    },
    **{(S.SEATED, H, name): S.SEATED for name in _STREAM_EVENTS},
    **{(S.LEAVING, H, name): S.LEAVING for name in _STREAM_EVENTS},
    **{(s, H, "error"): s for s in (S.LOBBY, S.SYNCING, S.SEATED, S.LEAVING)},
    **{(s, H, "error"): S.LOBBY for s in (S.LISTING, S.CREATING, S.JOINING, S.RESUMING)},
    **{
        (s, role, name): s
        for s in State
        if s not in (S.HELLO, S.WELCOME, S.CLOSED)
        for role in Role
        for name in ("ping", "pong")
    },
    **{(s, role, "bye"): S.CLOSED for s in State if s is not S.CLOSED for role in Role},
}


@dataclass(frozen=True, slots=True)
class _Moves:
    """The moves out of one state, by message type, for each sender (looked up by type
    alone: hashing the state and the sender, enums, for every message cost more)."""

    state: State
    host: dict[str, State]
    player: dict[str, State]


def _moves_out_of(state: State, role: Role) -> dict[str, State]:
    """What each message type ``role`` sends in ``state`` moves to (:data:`TRANSITIONS`)."""
    return {name: to for (s, r, name), to in TRANSITIONS.items() if s is state and r is role}


_MOVES: dict[State, _Moves] = {
    state: _Moves(state, _moves_out_of(state, Role.HOST), _moves_out_of(state, Role.PLAYER))
    for state in State
}
""":data:`TRANSITIONS` split by state, made once."""


def _check_catalogue() -> None:
    """Every message sender in the table agrees with the catalogue."""
    for _, role, name in TRANSITIONS:
        sender = CATALOGUE[name].SENDER
        assert sender is Sender.EITHER or sender.value == role.value, name


_check_catalogue()


class NeedData:
    """Returned by :meth:`Connection.next_event` when no whole message has arrived."""

    def __repr__(self) -> str:
        return "NEED_DATA"


NEED_DATA = NeedData()


@dataclass(frozen=True, slots=True)
class ConnectionClosed:
    """The peer closed its side at a frame boundary; ``clean`` if it said ``bye`` first."""

    clean: bool


class Connection:
    """One end of a connection. Use :class:`HostConnection` or :class:`PlayerConnection`."""

    role: Role

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        self._reader = FrameReader(max_frame)
        self.state = State.HELLO
        self.last_seq: int | None = None
        """Newest table event seq sent (host) or received (player); None until known."""
        self.version: int | None = None
        self._request: Message | None = None
        self._pings: dict[Role, Counter[int]] = {Role.HOST: Counter(), Role.PLAYER: Counter()}
        """Each side's unanswered pings by nonce, counted: two pings may share a nonce, and
        each is answered (and counted against :data:`MAX_PINGS`) on its own."""
        self._unanswered_moves: Counter[int] = Counter()
        """The ``move_id`` of each ``play`` this connection carried that no ``ack`` or
        ``reject`` has answered yet (protocol.md 3.1: an answer naming another is refused)."""
        self._error: RemoteProtocolError | None = None
        self._moves = _MOVES[self.state]
        """The moves out of ``state`` (looked up again whenever the state is another)."""

    @property
    def peer_role(self) -> Role:
        return Role.PLAYER if self.role is Role.HOST else Role.HOST

    @property
    def buffered(self) -> int:
        """Bytes held for a frame still arriving."""
        return self._reader.buffered

    @property
    def mid_frame(self) -> bool:
        """A frame from the peer has begun (even only its length) and is not complete."""
        return self._reader.mid_frame

    @property
    def broken(self) -> bool:
        """The peer broke the protocol: nothing more is read; what is owed, then ``bye``, may
        still be sent."""
        return self._error is not None

    # --- receiving -----------------------------------------------------------------------

    def receive_data(self, data: bytes) -> None:
        """Feed bytes from the peer; ``b""`` means the peer closed its side."""
        self._reader.receive_data(data)

    def next_event(self) -> Message | NeedData | ConnectionClosed:
        """The next message from the peer, :data:`NEED_DATA`, or :class:`ConnectionClosed`."""
        if self._error is not None:
            raise RemoteProtocolError(self._error.code, self._error.message)
        try:
            payload = self._reader.next_frame()
            if payload is None:
                return NEED_DATA
            if payload is END_OF_STREAM:
                return ConnectionClosed(clean=self.state is State.CLOSED)
            assert isinstance(payload, bytes)
            if self.state is State.CLOSED:
                raise RemoteProtocolError(ErrorCode.OUT_OF_ORDER, "a message after bye")
            msg = decode(payload)
            self._advance(msg, self.peer_role, RemoteProtocolError)
        except RemoteProtocolError as e:
            # A copy is kept, not the error raised: that one's traceback holds the frames it
            # went through, this connection's among them, which would make a cycle that only a
            # garbage collection frees (the host leaves those rare: server/collector.py).
            self._error = RemoteProtocolError(e.code, e.message)
            raise
        return msg

    # --- sending ---------------------------------------------------------------------------

    def send(self, msg: Message, frame: bytes | None = None) -> bytes:
        """The bytes to write for ``msg``; :class:`LocalProtocolError` if it is out of order.
        ``frame``: those bytes, already made (an event encoded once for every seat).

        Once the peer broke the protocol (:attr:`broken`), this end still may send what its
        state allows: the answers owed to the peer's frames before the bad one, then ``bye``."""
        if msg.TYPE in m.NEWER_KEYS:
            older = _without_newer_keys(msg, _version_of(self, msg))
            if older is not msg:  # a peer of an older version: none of the keys it lacks
                msg, frame = older, None
        data = encode(msg) if frame is None else frame
        self._advance(msg, self.role, LocalProtocolError)
        return data

    # --- the machine -----------------------------------------------------------------------

    def _advance(self, msg: Message, sender: Role, fault: Fault) -> None:
        kind = msg.TYPE
        moves = self._moves
        if moves.state is not self.state:
            moves = self._moves = _MOVES[self.state]
        target = (moves.host if sender is Role.HOST else moves.player).get(kind)
        if target is None:
            raise fault(
                ErrorCode.OUT_OF_ORDER,
                f"{sender.value} may not send {kind!r} in state {self.state.value}",
            )
        if kind in m.NEWER_KEYS:
            self._keys_of_its_version(msg, fault)
        check = _CHECKS.get(kind)
        if check is not None:
            target = check(self, msg, sender, fault, target)
        if kind in _REQUESTS:
            self._request = msg
        self.state = target

    def _ping(self, msg: Message, sender: Role, fault: Fault, target: State) -> State:
        assert isinstance(msg, m.Ping)
        pending = self._pings[sender]
        if pending.total() >= MAX_PINGS:
            raise fault(ErrorCode.RATE_LIMITED, f"more than {MAX_PINGS} pings unanswered")
        pending[msg.nonce] += 1
        return target

    def _pong(self, msg: Message, sender: Role, fault: Fault, target: State) -> State:
        assert isinstance(msg, m.Pong)
        asker = Role.PLAYER if sender is Role.HOST else Role.HOST
        pending = self._pings[asker]
        if msg.nonce not in pending:
            raise fault(ErrorCode.OUT_OF_ORDER, f"pong {msg.nonce} answers no ping")
        pending[msg.nonce] -= 1
        if not pending[msg.nonce]:
            del pending[msg.nonce]
        return target

    def _hello(self, msg: Message, sender: Role, fault: Fault, target: State) -> State:
        assert isinstance(msg, m.Hello)
        if not m.OLDEST_VERSION <= msg.version <= m.PROTOCOL_VERSION:
            raise fault(ErrorCode.BAD_VERSION, hello_refusal(msg.version, m.PROTOCOL_VERSION))
        self.version = msg.version
        return target

    def _keys_of_its_version(self, msg: Message, fault: Fault) -> None:
        """Refuse an optional key the connection's version does not have (``bad_field``)."""
        version = _version_of(self, msg)
        newer = _keys_after(msg, version)
        if newer:
            raise fault(
                ErrorCode.BAD_FIELD,
                f"{msg.TYPE}: key {newer[0]!r} is not in protocol version {version}",
            )

    def _welcome(self, msg: Message, sender: Role, fault: Fault, target: State) -> State:
        assert isinstance(msg, m.Welcome)
        if msg.version != self.version:
            raise fault(
                ErrorCode.BAD_VERSION,
                f"host answered with protocol version {msg.version}; "
                f"the client asked for version {self.version}",
            )
        return target

    def _seated(self, msg: Message, sender: Role, fault: Fault, target: State) -> State:
        assert isinstance(msg, m.Joined | m.Resumed)
        asked = self._request
        assert isinstance(asked, m.Join | m.Resume)
        seat_asked = asked.seat
        if msg.table_id != asked.table_id or seat_asked not in (None, msg.seat):
            raise fault(
                ErrorCode.OUT_OF_ORDER,
                f"{msg.TYPE} gives table {msg.table_id} seat {msg.seat}; "
                f"asked for table {asked.table_id} seat {seat_asked}",
            )
        if isinstance(msg, m.Resumed):
            assert isinstance(asked, m.Resume)
            self.last_seq = asked.last_seq
            if msg.catch_up == "replay":
                return State.SEATED
        else:
            self.last_seq = None
        return target

    def _play(self, msg: Message, sender: Role, fault: Fault, target: State) -> State:
        assert isinstance(msg, m.Play)
        newest = self.last_seq or 0
        if msg.after > newest:
            raise fault(
                ErrorCode.OUT_OF_ORDER,
                f"play chosen after seq {msg.after}, but the newest event sent is {newest}",
            )
        self._unanswered_moves[msg.move_id] += 1
        return target

    def _answer(self, msg: Message, sender: Role, fault: Fault, target: State) -> State:
        """An ``ack`` or ``reject`` answers a ``play`` this connection carried and that has
        had no answer yet: the host answers each once, on the connection that sent it."""
        assert isinstance(msg, m.Ack | m.Reject)
        if self._unanswered_moves[msg.move_id] <= 0:
            raise fault(
                ErrorCode.OUT_OF_ORDER,
                f"{msg.TYPE} of move {msg.move_id}, which this connection did not send or "
                "was answered already",
            )
        self._unanswered_moves[msg.move_id] -= 1
        if not self._unanswered_moves[msg.move_id]:
            del self._unanswered_moves[msg.move_id]
        return target

    def _refused(self, msg: Message, sender: Role, fault: Fault, target: State) -> State:
        """An ``error`` that refuses the ``leave`` (its ``ref``): the seat is still held, so
        back to ``seated``, where the player may play on or send ``leave`` again (3.1)."""
        assert isinstance(msg, m.Error)
        if self.state is State.LEAVING and msg.ref == "leave":
            return State.SEATED
        return target

    def _left(self, msg: Message, sender: Role, fault: Fault, target: State) -> State:
        """Back in the lobby: a move still unanswered gets no answer now (3.5)."""
        self._unanswered_moves.clear()
        return target

    def _event(self, msg: Message, sender: Role, fault: Fault, target: State) -> State:
        seq = msg.seq  # type: ignore[attr-defined]
        last = self.last_seq
        if isinstance(msg, m.Snapshot):
            if last is not None and seq < last:
                raise fault(ErrorCode.BAD_SEQ, f"snapshot at seq {seq} goes back from {last}")
        elif last is None or seq != last + 1:
            raise fault(ErrorCode.BAD_SEQ, f"{msg.TYPE} has seq {seq}; expected {_next(last)}")
        self.last_seq = seq
        return target


def _next(last: int | None) -> str:
    return "a snapshot first" if last is None else str(last + 1)


_REQUESTS = frozenset({"join", "resume"})
_CHECKS = {
    "ping": Connection._ping,
    "pong": Connection._pong,
    "hello": Connection._hello,
    "welcome": Connection._welcome,
    "joined": Connection._seated,
    "resumed": Connection._seated,
    "play": Connection._play,
    "ack": Connection._answer,
    "reject": Connection._answer,
    "left": Connection._left,
    "error": Connection._refused,
    **{name: Connection._event for name in TABLE_EVENTS},
}


def bye_for(error: ProtocolError) -> m.Bye:
    """The ``bye`` that reports ``error`` to the peer before closing."""
    text = CONTROL_CHARACTERS.sub("?", error.message)[: m.TEXT_LEN]
    return m.Bye(reason=error.code.value, message=text)


class HostConnection(Connection):
    """The host's end of one player's connection."""

    role = Role.HOST


class PlayerConnection(Connection):
    """A player's (or bot's, or verifier's) end of its connection to the host."""

    role = Role.PLAYER


def _version_of(conn: Connection, msg: Message) -> int:
    """The protocol version ``msg`` is in: a ``hello``'s own (it sets the connection's), else
    the connection's (0 before any)."""
    if isinstance(msg, m.Hello):
        return msg.version
    return conn.version or 0


def _absent(msg: Message, name: str) -> object:
    """The value an optional key of ``msg`` reads as when left out (protocol.md 3.9)."""
    return type(msg).__dataclass_fields__[name].default  # type: ignore[attr-defined]


def _without_newer_keys(msg: Message, version: int) -> Message:
    """``msg`` as a peer of ``version`` may read it: every optional key added after that
    version left out (:data:`~scopa_net.wire.messages.NEWER_KEYS`); ``msg`` itself when none
    is set."""
    dropped = {name: _absent(msg, name) for name in _keys_after(msg, version)}
    return replace(msg, **dropped) if dropped else msg


def _keys_after(msg: Message, version: int) -> list[str]:
    """The optional keys ``msg`` carries that came after protocol ``version``
    (:data:`~scopa_net.wire.messages.NEWER_KEYS`)."""
    return [
        name
        for name, since in m.NEWER_KEYS[msg.TYPE].items()
        if version < since and getattr(msg, name) != _absent(msg, name)
    ]
