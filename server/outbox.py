"""What one connection has yet to send: direct replies, then its seat's log from a cursor.

Only the part of the log already in the journal is sent (``Seat.committed``): nothing reaches a
player that a crash could take back.

Table events are never copied into per-connection queues: a connection reads its seat's log
(owned by the table) from its own cursor, so a broadcast cannot be dropped and a slow reader
cannot stall the table. A connection that falls more than ``max_lag`` events behind, or lets
``max_replies`` replies pile up, is marked overflowed; its writer closes it and the player
resumes from its last sequence number. The connection's reader keeps the replies below that:
it reads no further request while half of ``max_replies`` answers are owed (queued, or
requests still at the table), and goes on once the writer has taken them
(:meth:`Outbox.room_for_answers`), so a peer that reads gets every answer however many
requests it writes at once. The events a resume replays are not counted as lag:
only what the table added since the connection attached and it has not yet sent.

A connection may also give its outbox a *sink*: a function that writes a batch at once,
without waiting. While the connection's writer task is idle, :meth:`Outbox.push` hands what
is ready straight to the sink, so a table's move reaches its seats without waking one writer
task per seat; the writer takes over whenever the sink cannot finish a write.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

import trio

from scopa_net.server.table import Seat
from scopa_net.wire import messages as m
from scopa_net.wire.codec import SharedFrames


class Outbox:
    def __init__(self, *, max_replies: int, max_lag: int) -> None:
        self.max_replies = max_replies
        self.max_lag = max_lag
        self._replies: deque[m.Message] = deque()
        self._seat: Seat | None = None
        self._cursor = 0
        self._backlog_end = 0
        self._wake = trio.Event()
        self.overflowed = False
        self.refused_paced = 0
        """Game-paced requests (play, seeds, blind_*) that the table refused since the
        connection's reader last looked: each counts against its request limits (3.6)."""
        self.paced_in_flight = 0
        """Game-paced requests handed to the table and not yet handled: each may still be
        refused, so the limit counts it until the table has (3.6)."""
        self.at_table = 0
        """Requests handed to the table and not yet answered (each may still get a reply)."""
        self._room: trio.Event | None = None
        """Set when the answers owed fall below half of ``max_replies`` (the reader waits)."""
        self.closing: m.Bye | None = None
        self._last_word: m.Message | None = None
        self._last_seq: int | None = None
        """With a last word: the seq of the seat's last event to send before it (None: all
        that is committed)."""
        self.seat: int | None = None
        self.epoch = 0
        self.protocol: int | None = None
        """The protocol version its connection speaks, once welcomed (protocol.md 3.2)."""
        self.sink: Callable[[list[m.Message], SharedFrames | None], None] | None = None
        """Writes a batch at once (see the module's docstring), encoding the events the seats
        share through the frames given, if any; it calls :meth:`kick` when it could not write
        all of it."""
        self.said_bye = False
        """The player said ``bye`` (reason ``quit``) before its connection ended: its client
        closed in order, and the table tells the others so (``seat_status`` ``closed``)."""
        self.joined_unsent = False
        """A ``joined`` is owed that no write has handed whole to the socket yet: should the
        connection end so, nobody has the seat's token, and the table gives the seat up
        (protocol.md 3.3)."""
        self._parked = False
        """Whether the writer task waits for something to send (and holds nothing)."""
        self._kicked = False

    @property
    def cursor(self) -> int:
        """The seq of the last log event this connection has taken to send."""
        return self._cursor

    # --- the table side (sync) ----------------------------------------------------------

    def reply(self, msg: m.Message, *, push: bool = True) -> None:
        """Queue a direct reply; ``push=False`` leaves sending it to a later :meth:`push`
        (so that a reply and the events it goes with leave together)."""
        if len(self._replies) >= self.max_replies:
            self.overflowed = True
        else:
            self._replies.append(msg)
        if push:
            self._wake.set()

    @property
    def owed(self) -> int:
        """Answers owed: replies queued and not yet taken by the writer, and requests still
        at the table."""
        return len(self._replies) + self.at_table

    def answered(self) -> None:
        """The table has handled a request handed to it (its reply, if any, is queued)."""
        self.at_table -= 1
        self._make_room()

    @property
    def owes_many(self) -> bool:
        """Whether half of ``max_replies`` answers or more are owed: the reader then reads no
        further request until there is room (:meth:`room_for_answers`)."""
        return self.owed >= self.max_replies // 2

    @property
    def crowded(self) -> bool:
        """:attr:`owes_many`, and the connection is not closing (then nothing is waited for)."""
        return self.owes_many and self.closing is None

    async def room_for_answers(self) -> None:
        """Wait while :attr:`crowded`: the reader's back-pressure on a peer that writes many
        requests."""
        while self.crowded:
            self._room = trio.Event()
            await self._room.wait()

    def stop_waiting(self) -> None:
        """The writer has stopped: a reader waiting for room reads on (and finds it closed)."""
        self._make_room(force=True)

    def _make_room(self, *, force: bool = False) -> None:
        room = self._room
        if room is not None and (force or not self.crowded):
            self._room = None
            room.set()

    def attach(self, seat_state: Seat, cursor: int, seat: int, epoch: int) -> None:
        """Follow a seat's log from ``cursor`` (the last seq the player has)."""
        self._seat, self._cursor, self.seat, self.epoch = seat_state, cursor, seat, epoch
        self._last_seq = None
        self._backlog_end = seat_state.committed
        self._wake.set()

    def detach(self) -> None:
        self._seat, self.seat = None, None

    def notify(self, frames: SharedFrames | None = None) -> None:
        """More of the seat's log is committed to the journal and may be sent (``frames``:
        the encodings the table's other seats share, see :meth:`push`)."""
        seat = self._seat
        if (
            seat is not None
            and self._last_seq is None  # (else what follows the last word is not for it)
            and seat.committed - max(self._cursor, self._backlog_end) > self.max_lag
        ):
            self.overflowed = True
        self.push(frames)

    def push(self, frames: SharedFrames | None = None) -> None:
        """Send what is ready: through the sink while the writer is idle, else by waking it.
        ``frames``: where the events every seat gets alike are encoded once for all of them
        (one per flush of the table)."""
        if (
            self._parked
            and self.sink is not None
            and self.closing is None
            and self._last_word is None
            and not self.overflowed
        ):
            batch = self._take(64)
            if batch:
                self.sink(batch, frames)
            if not self._ready_more():
                return
        self._wake.set()

    def kick(self) -> None:
        """The sink could not finish: the writer task takes over (its next batch may be
        empty, with bytes of the sink's still to write)."""
        self._kicked = True
        self._wake.set()

    def _ready_more(self) -> bool:
        seat = self._seat
        return bool(
            self._replies
            or self.overflowed
            or self._kicked
            or (seat is not None and self._cursor < self._sendable(seat))
        )

    def _sendable(self, seat: Seat) -> int:
        """The seq up to which the seat's log may be sent (committed, and not past the last
        event before a last word)."""
        last = self._last_seq
        return seat.committed if last is None or last > seat.committed else last

    @property
    def finishing(self) -> bool:
        """Whether a last word (:meth:`finish`) is still to be handed to the writer."""
        return self._last_word is not None

    def finish(self, last_word: m.Message, *, upto: int | None = None) -> None:
        """Send ``last_word`` after the seat's log (what is committed of it, up to seq
        ``upto`` if given), then stop following the seat: a ``left`` when the table closes,
        or when the seat is forfeit (up to the event that says so)."""
        self._last_word, self._last_seq = last_word, upto
        self.seat = None
        self._wake.set()

    def close(self, bye: m.Bye) -> None:
        """Send ``bye`` after what is queued, then end the connection."""
        self.closing = bye
        self._wake.set()
        self._make_room()

    # --- the writer side ----------------------------------------------------------------

    async def next_batch(self, limit: int = 64) -> list[m.Message]:
        """Replies first, then log events; waits until there is something (or a close, or a
        :meth:`kick`)."""
        while True:
            batch = self._take(limit)
            if batch or self.closing is not None or self.overflowed or self._kicked:
                self._kicked = False
                return batch
            self._wake = trio.Event()
            self._parked = True
            try:
                await self._wake.wait()
            finally:
                self._parked = False

    def _take(self, limit: int) -> list[m.Message]:
        batch: list[m.Message] = []
        while self._replies and len(batch) < limit:
            batch.append(self._replies.popleft())
        if batch:
            self._make_room()
        seat = self._seat
        sendable = 0 if seat is None else self._sendable(seat)
        if seat is not None and self._cursor < seat.base:
            self.overflowed = True  # what it still needs is no longer kept: resume
        elif seat is not None and self._cursor < sendable:
            end = min(sendable, self._cursor + limit - len(batch))
            take = seat.log[self._cursor - seat.base : end - seat.base]
            self._cursor += len(take)
            batch += take
        caught_up = seat is None or self._cursor >= sendable
        if self._last_word is not None and caught_up and len(batch) < limit:
            batch.append(self._last_word)
            self._last_word, self._last_seq, self._seat = None, None, None
        return batch
