"""What one connection has yet to send: direct replies, then its seat's log from a cursor.

Table events are never copied into per-connection queues: a connection reads its seat's log
(owned by the table) from its own cursor, so a broadcast cannot be dropped and a slow reader
cannot stall the table. A connection that falls more than ``max_lag`` events behind, or lets
``max_replies`` replies pile up, is marked overflowed; its writer closes it and the player
resumes from its last sequence number.
"""

from __future__ import annotations

from collections import deque

import trio

from scopa_net.wire import messages as m


class Outbox:
    def __init__(self, *, max_replies: int, max_lag: int) -> None:
        self.max_replies = max_replies
        self.max_lag = max_lag
        self._replies: deque[m.Message] = deque()
        self._log: list[m.Message] | None = None
        self._cursor = 0
        self._wake = trio.Event()
        self.overflowed = False
        self.closing: m.Bye | None = None
        self.seat: int | None = None
        self.epoch = 0

    # --- the table side (sync) ----------------------------------------------------------

    def reply(self, msg: m.Message) -> None:
        if len(self._replies) >= self.max_replies:
            self.overflowed = True
        else:
            self._replies.append(msg)
        self._wake.set()

    def attach(self, log: list[m.Message], cursor: int, seat: int, epoch: int) -> None:
        """Follow a seat's log from ``cursor`` (the last seq the player has)."""
        self._log, self._cursor, self.seat, self.epoch = log, cursor, seat, epoch
        self._wake.set()

    def detach(self) -> None:
        self._log, self.seat = None, None

    def notify(self) -> None:
        """New events may be in the log."""
        if self._log is not None and len(self._log) - self._cursor > self.max_lag:
            self.overflowed = True
        self._wake.set()

    def close(self, bye: m.Bye) -> None:
        """Send ``bye`` after what is queued, then end the connection."""
        self.closing = bye
        self._wake.set()

    # --- the writer side ----------------------------------------------------------------

    async def next_batch(self, limit: int = 64) -> list[m.Message]:
        """Replies first, then log events; waits until there is something (or a close)."""
        while True:
            batch: list[m.Message] = []
            while self._replies and len(batch) < limit:
                batch.append(self._replies.popleft())
            if self._log is not None and self._cursor < len(self._log):
                take = self._log[self._cursor : self._cursor + limit - len(batch)]
                self._cursor += len(take)
                batch += take
            if batch or self.closing is not None or self.overflowed:
                return batch
            self._wake = trio.Event()
            await self._wake.wait()
