"""The one task that owns a table: it takes requests from an inbox, journals, then replies.

Everything that happens at a table goes through :meth:`TableTask.run`, one request at a time:
the table checks and applies it, the entries it produced are written to the journal, and only
then are the replies queued and the seats' connections told that their logs grew. Timers (the
grace period of a seat whose player dropped, the deadline for seeds) and the computer players
(bot seats, and bots standing in) act from the same loop, so nothing else ever touches the
table's state. One shortcut, for what a table does most: a person's move that finds the task
idle is applied in the reader's turn of the loop (:meth:`TableTask.take_now`) and answered from
the journal's answer, in the same order and under the same rule; the task then takes nothing
else until that move is answered.
"""

from __future__ import annotations

import contextlib
import hmac
import logging
import math
import secrets
import time
from dataclasses import dataclass

import trio

from scopa_net.fair.blind.record import VOID_ABSENT, VOID_FAILED_CHECK
from scopa_net.fair.transcript import VOID_KINGS
from scopa_net.names import clean_chat, clean_name, seat_named, table_label
from scopa_net.score_line import score_line
from scopa_net.server.blind_table import BlindTable
from scopa_net.server.config import HostConfig
from scopa_net.server.journal_writer import JournalWriter
from scopa_net.server.outbox import Outbox
from scopa_net.server.round_start import RoundStart
from scopa_net.server.seat_changes import SeatChanges
from scopa_net.server.table import (
    Phase,
    SeatKind,
    Table,
    TableError,
    token_hash,
)
from scopa_net.server.thinking import choose_off_loop, table_player
from scopa_net.version_words import older_player
from scopa_net.wire import messages as m
from scopa_net.wire.codec import SharedFrames
from scopa_net.wire.errors import ErrorCode, RefusalWhy

log = logging.getLogger("scopa_net.host")

BLIND_REQUESTS = (m.BlindKey, m.BlindShuffle, m.BlindShares, m.BlindReveal)
SEEDS = (m.SeedCommit, m.SeedReveal)
PACED_BY_THE_GAME = (m.Play, *SEEDS, *BLIND_REQUESTS)
"""Messages that take no token of a connection's request limit: the game itself paces them (a
move is taken only on the seat's turn, a seed once a round, a blind message once a stage), and
a fast bot must not be slowed. Each one refused counts all the same, against the request limit
and against a limit of their own that gates them (protocol.md 3.6)."""

LINGER = 60.0
"""How long a finished table stays up for its players to read the end."""
BOT_LEVELS = {1: "random", 2: "greedy", 3: "strong", 4: "expert", 5: "strong"}
"""The computer player behind each wire ``bot_level`` (protocol.md): 4 is ``expert``, which
thinks ``HostConfig.think`` seconds a move on a worker thread (:mod:`.thinking`)."""
TOKEN_BYTES = 16
RENAMES = 3
RENAME_WINDOW = 60.0
"""A seat may change its name this many times in this many seconds."""
OUTAGE = 1.0
OWNER_WAIT = 2.0
"""Seconds the owner's ``left`` waits at most for the others' to be on their way."""
"""A journal write that kept the table waiting this long (seconds) extends its timers."""
ROOM_AFTER_AN_OUTAGE = 10.0
"""Seconds a seed or blind message refused ``storage`` has at least, once the journal is
back, before its deadline: a client sends one refused so again after a pause of up to 5 s
(protocol.md 3.5, 5.4, 9.5)."""


@dataclass(frozen=True, slots=True)
class Notice:
    """A line the host itself says at the table (in its chat, seat nil); ``outage``: the
    journal could not be written for that many seconds, ending now (its timers move on)."""

    text: str
    outage: float = 0.0


@dataclass(frozen=True, slots=True)
class Request:
    """A message from a connection for this table (or ``msg=None``: the connection is gone),
    or a :class:`Notice` from the host (``outbox=None``)."""

    outbox: Outbox | None
    msg: m.Message | Notice | None


WAKE = Request(None, None)
"""Sent to a table's task to have it look at the table again (after a request handled in a
reader's turn of the loop left something for it to do: :meth:`TableTask.take_now`)."""


def refusal_at_a_closed_table(
    table_id: int, msg: m.Message, why: str | None = None
) -> tuple[ErrorCode, str, RefusalWhy | None]:
    """What a request gets when its table has closed or stopped (protocol.md 3.8): a ``join``
    or ``resume`` names a table that does not exist (``no_such_table``; ``why``: the host
    closed it as it restarted, for that reason); anything a seated player sends is a table
    request from a connection that holds no seat there any more (``wrong_phase``, a
    ``reject`` for a ``play``: the move was not played)."""
    if isinstance(msg, (m.Join, m.Resume)):
        if why is not None:
            return (
                ErrorCode.NO_SUCH_TABLE,
                f"the host closed table {table_id} as it restarted: {why}",
                RefusalWhy.TABLE_CLOSED_ON_RESTART,
            )
        return ErrorCode.NO_SUCH_TABLE, f"there is no table {table_id}", None
    return ErrorCode.WRONG_PHASE, f"table {table_id} has closed; nothing was done", None


def _older(outbox: Outbox) -> str:
    """The words the log adds for a seat whose connection speaks an older protocol than this
    host's newest (``version_words.older_player``); none for the newest."""
    theirs = outbox.protocol
    if theirs is None or theirs >= m.PROTOCOL_VERSION:
        return ""
    return older_player(theirs, m.PROTOCOL_VERSION)


def password_hash(password: str) -> bytes:
    return hmac.new(b"scopa-net/table-password", password.encode(), "sha256").digest()


def void_words(reason: str, offender: str | None) -> str:
    """Why a round is void, as the host's log says it (``offender``: the seat it names)."""
    if reason == VOID_KINGS:
        return "three or more kings on the opening table; dealt again"
    if reason == VOID_ABSENT:
        return f"{offender or 'a player'} was away past the grace time"
    if reason == VOID_FAILED_CHECK:
        if offender is None:
            return "the host's own check of the deal failed"
        return f"the deal check failed at {offender}"
    return reason


def duration_words(seconds: float) -> str:
    """A host setting as people read it: ``10 minutes``, ``90 seconds``, ``1 second``."""
    if seconds >= 60 and seconds % 60 == 0:
        count, unit = int(seconds // 60), "minute"
    else:
        count, unit = max(1, round(seconds)), "second"
    return f"{count} {unit}" if count == 1 else f"{count} {unit}s"


class TableTask:
    def __init__(
        self,
        table: Table,
        config: HostConfig,
        writer: JournalWriter,
        *,
        password_digest: bytes | None = None,
        expires: bool = True,
    ) -> None:
        """``expires``: the table closes when left alone (see :meth:`_abandoned`); the host's
        own tables (opened at its start) stay."""
        self.table = table
        self.expires = expires
        self.config = config
        self.writer = writer
        self.password_digest = password_digest
        self.send, self._inbox = trio.open_memory_channel[Request](config.max_inbox)
        self.attached: dict[int, Outbox] = {}
        self._grace_until: dict[int, float] = {}
        self._away_since: dict[int, float] = {}
        """Since when each seat's player has been away (a dropped connection or a step away):
        past the host's away limit, a newcomer may take the seat (protocol.md 3.3)."""
        self._taken: dict[tuple[int, bytes], tuple[str, str]] = {}
        """(seat, token hash) -> why the token died, its seat taken by a newcomer while its
        player was away too long: what a ``resume`` with it is told, and the host's log."""
        self._from_journal = [seat.seq for seat in table.seats]
        """Each seat's newest event as this host started (its journal replayed; 0 for a new
        table): all a client holding a token of an earlier run of the host can have seen of
        what this run has (protocol.md 3.3). The host's events after it are this run's, and,
        on a journal put back from an older copy, another history than the one it saw."""
        self._issued: set[tuple[int, bytes]] = set()
        """(seat, token hash) of each live token this run issued: its holder saw this run's
        events (a token dead is dropped as the seat's next is issued)."""
        self._seed_deadline = math.inf
        self._stage: object = None
        self._bot_due: float | None = None
        self._round_at: tuple[int, float] = (-1, 0.0)
        """(round_no, when the round after it may start): the table's pause between rounds."""
        level = BOT_LEVELS.get(table.bot_level or 1, "random")
        self._players = {
            seat: table_player(level, 1000 + seat, config.think)
            for seat in range(table.rules.players)
        }
        self.finished = trio.Event()
        self._over_time: float | None = None
        self._attaching: list[tuple[Outbox, int, int]] = []
        self._chat_times: dict[int, list[float]] = {}
        self._chat_lines = 0
        self.journal_entries = 0
        """Journal entries this table has written (reported when it finishes)."""
        self._resume_times: dict[int, list[float]] = {}
        self._rename_times: dict[int, list[float]] = {}
        self._changes = SeatChanges(config.seat_changes)
        """Seat changes (arrivals, returns, new names) per seat in the round in play: a
        round that never ends must not grow every seat's log without end (protocol.md 3.6)."""
        self._left: dict[int, str] = {}
        """Seats left for good, each with the name of who left it (``Carla``), for the log."""
        self._unattended_since: float | None = trio.current_time()
        """Since when no connection has held a seat here (None: someone is here)."""
        self._paused_at: float | None = None
        self._outages_seen = 0
        """The journal's outages this table's timers were moved on for (:meth:`_journal_back`)."""
        self._closed = False
        """Closed because its owner left it for good: the task ends."""
        self.owner: int | None = None
        """The seat of the person whose terminal runs this host (``play --lan`` with friends):
        their leaving for good ends the table for everyone."""
        self._owner_left: tuple[str, Outbox, int] | None = None
        """Once the owner left for good: their name, connection and seat (the table then
        closes)."""
        self.stopping = False
        """The host is shutting down: the table is frozen (:meth:`_frozen`), and its players
        going away is not news for the log."""
        self._voids_told = table.voids
        """Void rounds of this match already logged."""
        self._in_hand: tuple[Outbox, list[tuple[Outbox, m.Message]], int, float] | None = None
        """A request handled in a reader's turn (:meth:`take_now`), waiting for its commit:
        its connection, its replies, its journal entries and when they went to the journal."""
        self._settled: trio.Event | None = None
        """Set when the request in hand is done (the table's task waits for it, if woken)."""
        self._fault: BaseException | None = None
        """What went wrong finishing a request in hand: the table's task raises it."""
        self._end_unrecorded = False
        """The match ended with a request in hand: the table's task records it."""
        self._closed_for_good = False
        """The journal says this table is closed (a "no" to playing again, or the linger's
        end): it lingers, if at all, only for players to read the end."""
        self._held: Request | None = None
        """A request taken from the inbox while gathering seeds (:meth:`_more_seeds`) that is
        not one: the next the task handles, before the inbox."""

    @property
    def closed_for_good(self) -> bool:
        """No match will be played here again (a "no" to playing again, the minute to play
        again over, or its owner gone): it lingers, if at all, only for players to read the
        end, and its name is free for a new table."""
        return self._closed_for_good or self._closed

    # --- the loop -----------------------------------------------------------------------

    async def run(self) -> None:
        """Serve the table until its match is over and the linger time has passed (or it
        closes otherwise); whatever is still in its inbox then is answered, not dropped."""
        async with self._inbox:
            try:
                await self._serve()
            finally:
                self._turn_away_the_waiting()

    async def _serve(self) -> None:
        while True:
            if self.stopping:
                await self._frozen()
                return
            now = trio.current_time()
            if self._abandoned(now):
                await self._close_abandoned(now)
                return
            if self._over_time is not None and self.table.phase is not Phase.OVER:
                await self._rematch_begins()
            if (
                self._over_time is not None
                and self.table.rematch_state == "declined"
                and not self._closed_for_good
            ):
                await self._close_for_good(self._declined_by())
            if self._paused_at is None:
                await self._act()
                deadline = self._next_deadline()
            else:
                deadline = math.inf
            deadline = min(deadline, self._attendance_deadline())
            if self._over_time is not None:
                closes_at = self._over_time + LINGER
                if trio.current_time() >= closes_at:
                    await self._close()
                    return
                deadline = min(deadline, closes_at)
            # Only the wait is cut short by a timer: a request once taken is handled to
            # the end (applied, journaled, answered) before any timer is looked at.
            request: Request | None = None
            if self._held is not None:  # taken while gathering seeds: next in line
                request, self._held = self._held, None
            elif deadline == math.inf:  # nothing is due: no cancel scope to set up
                request = await self._inbox.receive()
            else:
                with trio.move_on_at(deadline):
                    request = await self._inbox.receive()
            await self._settle()
            if self.stopping:
                if request is not None:
                    self._set_aside(request)
                continue
            if request is not None and request is not WAKE:
                await self._handle(request)
                if self._closed:
                    return

    async def _frozen(self) -> None:
        """The host is stopping: nothing new happens here (no round dealt, no computer's
        move, no request applied, no seat's status changed) until the host has said goodbye
        and is gone, so that the journal holds exactly what the players were told, and a
        restart resumes from there. Requests are read and set aside, so that no connection
        waits on a full inbox: a player's move not acknowledged is sent again on resuming."""
        while True:
            request = await self._inbox.receive()
            await self._settle()
            self._set_aside(request)

    def _set_aside(self, request: Request) -> None:
        """A request the stopping host does not apply: its connection's counts kept right."""
        outbox, msg = request.outbox, request.msg
        if outbox is None or msg is None or isinstance(msg, Notice):
            return
        if isinstance(msg, PACED_BY_THE_GAME):
            outbox.paced_in_flight -= 1
        outbox.answered()

    def _turn_away_the_waiting(self) -> None:
        """The table is closing (or stopped on a fault): answer each request still waiting in
        its inbox as the host answers one that comes after (:func:`refusal_at_a_closed_table`),
        so that no ``play`` goes unanswered and no ``join`` waits for ever."""
        while True:
            if self._held is not None:
                request, self._held = self._held, None
            else:
                try:
                    request = self._inbox.receive_nowait()
                except (trio.WouldBlock, trio.EndOfChannel):
                    return
            outbox, msg = request.outbox, request.msg
            if outbox is not None and isinstance(msg, PACED_BY_THE_GAME):
                outbox.paced_in_flight -= 1
            if outbox is not None and msg is not None and not isinstance(msg, Notice):
                outbox.answered()
            if outbox is None or msg is None or isinstance(msg, (Notice, m.Bye)):
                continue  # a notice, a connection gone, a player's last word: nothing owed
            code, text, why = refusal_at_a_closed_table(self.table.table_id, msg)
            outbox.reply(self._refusal(msg, TableError(code, text, why=why)))

    # --- nobody here: pause, then close -------------------------------------------------

    def _abandoned(self, now: float) -> bool:
        """Keep track of whether anyone is here; True when the table has been left alone
        too long and should close. After ``pause_after`` alone its computer players pause
        (nobody watches them), and play picks up with the clocks moved on when someone is
        back."""
        if self.attached or self.table.phase is Phase.OVER:
            if self._paused_at is not None:
                self._shift_timers(now - self._paused_at)
                log.info("table %s: a player is back; play goes on", self.table.table_id)
                self._paused_at = None
            self._unattended_since = None
            return False
        if self._unattended_since is None:
            self._unattended_since = now
        alone = now - self._unattended_since
        if alone >= self._close_after():
            return True
        if self._paused_at is None and alone >= self.config.pause_after:
            self._paused_at = now
            computers = any(s.kind is SeatKind.BOT or s.stand_in for s in self.table.seats)
            log.info(
                "table %s: nobody here for %.0f s%s",
                self.table.table_id,
                alone,
                "; its computer players pause" if computers else "",
            )
        return False

    def _close_after(self) -> float:
        """A table with no player seated closes sooner than one whose players are away."""
        if not self.expires:
            return math.inf
        if any(s.kind is SeatKind.HUMAN for s in self.table.seats):
            return self.config.abandon_after
        return self.config.pause_after

    def _attendance_deadline(self) -> float:
        since = self._unattended_since
        if since is None:
            return math.inf
        close = since + self._close_after()
        return close if self._paused_at is not None else min(close, since + self.config.pause_after)

    async def _close_abandoned(self, now: float) -> None:
        assert self._unattended_since is not None
        log.info(
            "table %s: nobody here for %.0f s; closing it",
            self.table.table_id,
            now - self._unattended_since,
        )
        await self._record_finish(abandoned=True)
        self.finished.set()

    def notice(self, text: str, *, outage: float = 0.0) -> None:
        """Say ``text`` at the table as the host (dropped if the table's inbox is full);
        ``outage``: the journal is writable again after that many seconds (see :class:`Notice`)."""
        with contextlib.suppress(trio.WouldBlock, trio.ClosedResourceError):
            self.send.send_nowait(Request(None, Notice(text, outage)))

    async def _close_for_the_owner(self, name: str, owner: Outbox, seat: int) -> None:
        """The person whose terminal runs this host left the table for good: the match ends
        where it stands. The others are told why, it is recorded unfinished, and every seated
        connection gets ``left`` after the events it has yet to read, so no client waits for
        a host that is about to go. The owner's own ``left`` comes last: their game closes,
        and this host with it, as soon as it arrives."""
        self.table.say(
            None,
            f"{name} left their own table for good, and its host ran in their terminal: this "
            "match ends here.",
        )
        await self._flush([])
        if self.table.phase is not Phase.OVER:  # a match over is recorded as it ended
            await self._record_finish(abandoned=True, closed="its owner left it for good")
        others = list(self.attached.items())
        for other, outbox in others:
            outbox.finish(m.Left(table_id=self.table.table_id, seat=other))
        self.attached.clear()
        with trio.move_on_after(OWNER_WAIT):  # their last words taken by their writers
            while any(outbox.finishing for _, outbox in others):
                await trio.sleep(0.02)
        owner.reply(m.Left(table_id=self.table.table_id, seat=seat))
        self._closed = True
        await self._record_closed()
        log.info("table %s closed by its owner", self.table.table_id)

    async def start_after_restart(self, *, finish_recorded: bool) -> None:
        """Every player is away after a restart: hold their seats for the grace period.

        ``finish_recorded``: the journal already marks the match finished."""
        now = trio.current_time()
        over = self.table.phase is Phase.OVER and self._over_time is None
        if over:  # linger so that late players can resume and read the end
            self._over_time = now  # (and the flush below does not take the end for news)
        for seat, s in enumerate(self.table.seats):
            if s.kind is not SeatKind.HUMAN:
                continue
            if self.table.phase is Phase.OVER:  # nothing left to play: no grace, no stand-in
                self.table.set_status(seat, connected=False, stand_in=False, grace=0)
            elif s.connected or not s.stand_in:
                grace = math.ceil(self.config.grace)  # as after a drop: 0.5 s shows as 1
                self.table.set_status(seat, connected=False, stand_in=False, grace=grace)
                self._grace_until[seat] = now + self.config.grace
            if self.table.phase is not Phase.OVER:  # the clock restarts with the host
                self._away_since[seat] = now
        await self._flush([])
        if self.table.waits_on_seats:
            self._seed_deadline = now + self.config.seed_timeout
        if over:
            if not finish_recorded:  # ended before the restart: not news to log again
                await self._record_finish(news=False)
            self.finished.set()

    async def _flush(self, replies: list[tuple[Outbox, m.Message]]) -> None:
        """Journal what changed, then queue the replies, then tell every connection.

        Replies go first so that an ``ack`` reaches its player before the events it caused,
        and a connection starts following its seat's log only after its ``joined`` or
        ``resumed`` is queued. The connections that asked are written to before the others:
        a player's own move comes back before the table hears of it, rather than after up to
        three other seats' writes (each about 0.1 ms when the reader is asleep).

        A move the table takes in a reader's turn (:meth:`take_now`) is journaled, then
        answered the same way, in the same order, from the journal's answer
        (:meth:`_done_in_hand`).
        """
        pending = self.table.take_pending()
        if pending:
            began = trio.current_time()
            await self.writer.append(self.table.table_id, pending)
            self._committed(len(pending), began)
        self._deliver(replies, news=bool(pending))
        if pending and self.table.phase is Phase.OVER and self._over_time is None:
            await self._record_the_end()

    def _committed(self, entries: int, began: float) -> None:
        """``entries`` handed to the journal at ``began`` are on disk: the seats' logs may be
        sent (what the journal's thread did meanwhile is logged and acted on)."""
        self.table.mark_committed()
        self._tell_voids()
        self._let_go_of_forfeits()
        self.journal_entries += entries
        waited = trio.current_time() - began
        if waited >= OUTAGE and self.writer.outages == self._outages_seen:
            self._shift_timers(waited)  # (a slow write; an outage is made up for as it ends)
        self._trim_logs()

    def _deliver(self, replies: list[tuple[Outbox, m.Message]], *, news: bool) -> None:
        """Queue the replies, let the connections joining follow their seats, and send: the
        connections that asked first, then (``news``: the seats' logs grew) every seat."""
        for outbox, msg in replies:
            outbox.reply(msg, push=False)
        if self._attaching:
            attaching, self._attaching = self._attaching, []
            for outbox, seat, cursor in attaching:
                if self.attached.get(seat) is outbox:
                    s = self.table.seats[seat]
                    outbox.attach(s, cursor, seat, s.epoch)
        frames = SharedFrames() if news else None  # an event every seat gets is encoded once
        for outbox, _ in replies:
            outbox.push(frames)  # a reply leaves with the events it goes with, if any
        if news:
            for outbox in self.attached.values():
                outbox.notify(frames)

    async def _record_the_end(self) -> None:
        """The match is over: its end is recorded and the linger time begins."""
        self._over_time = trio.current_time()
        await self._record_finish()
        self.finished.set()

    def _let_go_of_forfeits(self) -> None:
        """A seat forfeit to a computer player (protocol.md 5.4) is no longer its player's: the
        connection that held it reads the seat's events up to the ``seat_status`` saying so,
        then ``left``, and nothing of the seat after that (its cards included). Called before
        the connections hear that the log grew."""
        for seat, last_seq in self.table.take_forfeits():
            self._grace_until.pop(seat, None)
            outbox = self.attached.pop(seat, None)
            if outbox is not None:
                outbox.finish(m.Left(table_id=self.table.table_id, seat=seat), upto=last_seq)
            log.info(
                "table %s: %s forfeits the seat after three bad seeds",
                self.table.table_id,
                self._who(seat),
            )

    def _trim_logs(self) -> None:
        """Keep of each seat's log what a resume may still be replayed (``replay_limit``),
        what its connection has yet to send, and for a person's seat at a blind round in play
        every event since that round began (9.7); older events live on in the journal."""
        limit = self.config.replay_limit
        for seat, s in enumerate(self.table.seats):
            if len(s.log) > 2 * limit:
                outbox = self.attached.get(seat)
                unsent = 0 if outbox is None else s.seq - outbox.cursor
                start = self._kept_from(seat)  # the latest round, all of it
                s.trim(max(limit, unsent, 0 if start is None else s.seq - start.seq))

    def _catch_up_point(self, seat: int) -> tuple[int, m.Snapshot] | None:
        """The table's :meth:`~Table.catch_up_point`, unless the host is set to send a snapshot
        of the present instead (``round_start_catch_up``; a blind table's rule stands)."""
        return self.table.catch_up_point(seat) if self._from_round_start else None

    def _kept_from(self, seat: int) -> RoundStart | None:
        """The table's :meth:`~Table.kept_from`, as :meth:`_catch_up_point` says."""
        return self.table.kept_from(seat) if self._from_round_start else None

    @property
    def _round_key(self) -> tuple[int, int] | None:
        """The round in play (the latest opened), for counting seat changes; None before
        the match's first round."""
        table = self.table
        return None if table.round_no == 0 else (table.match_no, table.round_no)

    @property
    def _from_round_start(self) -> bool:
        return self.config.round_start_catch_up or isinstance(self.table, BlindTable)

    def _journal_back(self, outage: float) -> None:
        """The journal could not be written for ``outage`` seconds: every request that would
        change the table was refused ``storage`` meanwhile (protocol.md 3.6), so the timers
        that ran move on by it, whether or not a write of this table waited, and what the
        round waits on has :data:`ROOM_AFTER_AN_OUTAGE` at least to come again."""
        self._outages_seen = self.writer.outages
        self._shift_timers(outage)
        if self.table.waits_on_seats:
            room = trio.current_time() + ROOM_AFTER_AN_OUTAGE
            self._seed_deadline = max(self._seed_deadline, room)

    def _shift_timers(self, by: float) -> None:
        """The table was held (a journal write the disk refused for a while, or a pause):
        players could not act meanwhile, so grace periods and the seed deadline move on."""
        self._seed_deadline += by
        for seat in self._grace_until:
            self._grace_until[seat] += by
        for seat in self._away_since:
            self._away_since[seat] += by

    async def _rematch_begins(self) -> None:
        """Everyone agreed to play again: the table is in play once more."""
        self._over_time = None
        self.finished = trio.Event()
        self._grace_until.clear()
        self._away_since.clear()
        now = trio.current_time()
        for seat, s in enumerate(self.table.seats):
            if s.kind is SeatKind.HUMAN and seat not in self.attached:
                # Agreed, then dropped before the new match: away, with a grace period.
                grace = self.config.grace
                self.table.set_status(seat, connected=False, stand_in=False, grace=math.ceil(grace))
                self._grace_until[seat] = now + grace
                self._away_since[seat] = now
        table_id = str(self.table.table_id)
        await self.writer.call(lambda j: j.reopen_table(table_id))
        log.info("table %s: rematch agreed, match %s", table_id, self.table.match_no)

    async def _close(self) -> None:
        """The match is over and no rematch is coming: every seated connection gets ``left``
        (after the events it has yet to read) and goes back to the lobby. The journal marks
        the table closed before the log says so: a restart leaves it closed."""
        self.table.rematch_expire()
        await self._flush([])
        for seat, outbox in list(self.attached.items()):
            outbox.finish(m.Left(table_id=self.table.table_id, seat=seat))
        self.attached.clear()
        if not self._closed_for_good:
            await self._close_for_good("the minute to play again ran out with no rematch agreed")

    async def _close_for_good(self, why: str) -> None:
        """No match will be played here again: the journal marks the table closed (a restart
        leaves it closed) and the log says so. A "no" to playing again does this at once; the
        table still lingers the rest of its minute, so that a player who dropped can resume
        and read the end (protocol.md 3.11)."""
        self._closed_for_good = True
        await self._record_closed()
        log.info("table %s closed: %s", self.table.table_id, why)

    def _declined_by(self) -> str:
        """Why a declined rematch closes the table, for the log: who said no (a seat that
        left counts as a no, 3.11)."""
        votes = self.table.votes or ()
        said_no = [self._who(seat) for seat, vote in enumerate(votes) if vote == "no"]
        return f"no rematch ({' and '.join(said_no)} said no)" if said_no else "no rematch"

    async def _record_began(self) -> None:
        """Say in the journal when the match began (its first deal), for ``history``."""
        table_id, began = str(self.table.table_id), time.time()
        await self.writer.call(lambda j: j.match_began(table_id, began))

    async def _record_closed(self) -> None:
        """Say in the journal that the table closed, so that a restart leaves it closed."""
        table_id = str(self.table.table_id)
        await self.writer.call(lambda j: j.close_table(table_id))

    def _rematch_seconds(self) -> int:
        """Seconds left to answer a rematch (the rest of the linger time)."""
        if self._over_time is None:
            return 0
        left = self._over_time + LINGER - trio.current_time()
        return max(0, min(m.GRACE_MAX, math.ceil(left)))

    async def _record_finish(
        self, *, abandoned: bool = False, closed: str | None = None, news: bool = True
    ) -> None:
        match = self.table.match
        summary = {
            "name": self.table.name,
            "players": [s.name for s in self.table.seats],
            # Everyone who played each seat ("Dino, then Ivo"): a seat can change hands.
            **({"holders": self.table.holders.match_names()} if self.table.holders.began() else {}),
            # The rounds a computer played for each seat's person (away, or sitting one out).
            "computer": self.table.holders.computer_rounds(),
            # Whom it played for in each of those rounds (the seat may have changed hands).
            "computer_for": self.table.holders.computer_people(),
            "scores": list(match.scores) if match else [],
            "winner": match.winner if match else None,
            "rules": self.table.rules.describe(),
            "events": sum(s.seq for s in self.table.seats),
            "journal_entries": self.journal_entries,
        }
        if abandoned:
            summary["abandoned"] = True
        if closed is not None:
            summary["closed"] = closed  # why it closed unfinished, for history
        table_id = str(self.table.table_id)
        now = time.time()
        summary["finished"] = now  # for history, beside the matches a rematch followed
        await self.writer.call(lambda j: j.finish_table(table_id, now, summary))
        log.log(
            logging.INFO if news else logging.DEBUG,
            "table %s: match %s %s (%s)",
            table_id,
            self.table.match_no,
            "closed unfinished" if abandoned else f"finished: {self._result_words()}",
            self.table.rules.describe(),
        )

    def _result_words(self) -> str:
        """A match over, for the log: ``Ada 11 - Bruno 4; Ada won``, each seat by everyone
        who held it in the match, as the players' screens and ``history`` name it
        (``Carla, then a computer``)."""
        match = self.table.match
        if match is None:
            return "no score"
        held = self.table.holders.match_names() if self.table.holders.began() else []
        names = [
            (held[n] if n < len(held) else "") or self._seat_name(n)
            for n in range(len(self.table.seats))
        ]
        words = self._score_words(list(match.scores), names)
        if match.winner is None:
            return words
        sides = len(match.scores)
        return f"{words}; {' & '.join(names[match.winner :: sides])} won"

    def _who(self, seat: int) -> str:
        """A seat as the log names it: ``Fabio (seat 1)``; ``seat 1`` while nobody has it."""
        name = self.table.seats[seat].name
        return seat_named(seat, name)

    def _seat_name(self, seat: int) -> str:
        """A seat as the log's line on a match beginning names it: its player's name,
        ``seat 1 (open, a computer plays it)`` once its person left for good (as a
        player's ``who`` says it), ``seat 1`` if nobody ever held it."""
        name = self.table.seats[seat].name
        if name:
            return name
        return (
            seat_named(seat, "", "open, a computer plays it")
            if seat in self._left
            else (seat_named(seat))
        )

    def _match_words(self) -> tuple[object, int, str]:
        """The table, its match number and who plays whom: ``Ada & Carla against Bruno &
        bot 3``, for the line saying a match begins."""
        rules = self.table.rules
        names = [self._seat_name(n) for n in range(len(self.table.seats))]
        teams = [
            " & ".join(names[seat] for seat in rules.seats_of(side))
            for side in range(rules.side_count)
        ]
        return self.table.table_id, self.table.match_no, " against ".join(teams)

    def _tell_voids(self) -> None:
        """Log a round just void (protocol.md 5.8, 9.6, 9.7), saying why in words."""
        voids, void = self.table.voids, self.table.last_void
        if voids < self._voids_told:  # a new match: its voids count from 0
            self._voids_told = 0
        if voids == self._voids_told or void is None:
            return
        self._voids_told = voids
        offender = void.offender
        if void.reason == VOID_ABSENT and offender in self._left:
            why = f"{seat_named(offender, self._left[offender])} left the table"  # not away
        elif (
            void.reason == VOID_ABSENT and offender is not None and self.table.seats[offender].away
        ):
            why = f"{self._who(offender)} stepped away"  # on purpose: no grace time ran out
        elif (
            void.reason == VOID_ABSENT
            and offender is not None
            and self.table.seats[offender].connected
        ):
            # Silent past a stage's deadline (a client suspended, a laptop asleep): not away.
            why = (
                f"{self._who(offender)} was connected but sent nothing in time "
                f"(the deadline is {self.config.seed_timeout:g} s)"
            )
        else:
            why = void_words(void.reason, None if offender is None else self._who(offender))
        round_no = self.table.last_void_round  # the round dealt next may have begun
        log.info("table %s: round %s void: %s", self.table.table_id, round_no, why)

    def _score_words(self, scores: list[int], names: list[str]) -> str:
        """A match's scores as the log says them: ``Ada 11 - Bruno 4`` (partners joined by
        ``&``), each seat by ``names``."""
        sides = len(scores)
        return score_line([(" & ".join(names[side::sides]), p) for side, p in enumerate(scores)])

    # --- automatic actions: rounds, bots, deadlines --------------------------------------

    def _next_deadline(self) -> float:
        """The next moment something is due: a grace period's end, the seed deadline (while
        seeds are awaited), a computer player's move (while a round is played)."""
        phase = self.table.phase
        deadlines = list(self._grace_until.values())
        deadlines += [self._open_at(seat) for seat in self._away_since]
        if self.table.waits_on_seats and self.writer.failing is None:
            deadlines.append(self._seed_deadline)  # (else: the journal's return wakes it)
        if phase is Phase.PLAY and self._bot_due is not None:
            deadlines.append(self._bot_due)
        if self.table.needs_round:
            deadlines.append(self._round_at[1])
        return min(deadlines, default=math.inf)

    async def _act(self) -> None:
        """Do everything that is due now, until nothing is."""
        table = self.table
        while not self.stopping:
            now = trio.current_time()
            for seat, until in list(self._grace_until.items()):
                if now >= until:
                    del self._grace_until[seat]
                    s = table.seats[seat]
                    if s.kind is not SeatKind.HUMAN or s.connected:
                        continue
                    if table.phase is Phase.OVER:  # nothing left to play (protocol.md 3.11)
                        table.set_status(seat, connected=False, stand_in=False, grace=0)
                        continue
                    table.set_status(seat, connected=False, stand_in=True, grace=0)
                    log.info(
                        "table %s: a bot stands in for %s, away past the grace time",
                        table.table_id,
                        self._who(seat),
                    )
            self._open_long_away_seats(now)
            stage = table.wait_stage
            if stage is not None and table.waits_on_seats and stage != self._stage:
                self._stage = stage  # a blind table waits on seats for something new
                self._seed_deadline = now + self.config.seed_timeout
            if table.needs_round and self._round_due(now):
                phase_before = table.phase
                table.start_round(secrets.token_bytes(16), secrets.token_bytes(32))
                self._seed_deadline = now + self.config.seed_timeout
                log.debug("table %s: round %s (%s)", table.table_id, table.round_no, phase_before)
                if table.round_no == 1:
                    log.info("table %s: match %s begins: %s", *self._match_words())
                    await self._record_began()
            elif (
                table.waits_on_seats
                and now >= self._seed_deadline
                and self.writer.failing is None  # (what they sent was refused: 3.6)
            ):
                self._close_seeds(now)
            elif not await self._bots_act(now):
                await self._flush([])
                return
            await self._flush([])

    def _open_at(self, seat: int) -> float:
        """When a newcomer may take ``seat``: its player away past the host's limit, and a
        computer standing in for them (so never within their grace period)."""
        since = self._away_since[seat] + self.config.away_limit
        return max(since, self._grace_until.get(seat, since))

    def _open_long_away_seats(self, now: float) -> None:
        """Seats whose players have been away past the host's limit are open to newcomers."""
        for seat in list(self._away_since):
            if now >= self._open_at(seat):
                del self._away_since[seat]
                if self.table.open_to_newcomers(seat):
                    log.info(
                        "table %s: %s away for more than %s; a newcomer may take the seat",
                        self.table.table_id,
                        self._who(seat),
                        duration_words(self.config.away_limit),
                    )

    def _round_due(self, now: float) -> bool:
        """Whether the next round may start: at once, or after the table's pause."""
        if self._round_at[0] != self.table.round_no:
            self._round_at = (self.table.round_no, now + self.table.pause_before_round)
        return now >= self._round_at[1]

    def _close_seeds(self, now: float) -> None:
        """The seed deadline passed: go on without the seeds that did not come (never a void:
        the host may already know some seeds, so a fresh shuffle would be its choice)."""
        waiting = [seat for seat, _ in self.table.to_act()]
        # A seat whose player is away within its grace period holds the deadline open.
        held = [s for s in waiting if s in self._grace_until]
        if held:
            self._seed_deadline = max(self._grace_until[s] for s in held)
            return
        phase = self.table.phase
        self.table.close_seeds()
        log.info(
            "table %s: %s closed without %s",
            self.table.table_id,
            phase.value,
            ", ".join(self._who(seat) for seat in waiting),
        )
        self._seed_deadline = (
            now + self.config.seed_timeout if self.table.waits_on_seats else math.inf
        )

    def _automatic(self, seat: int) -> bool:
        return self.table.host_plays(seat)

    async def _bots_act(self, now: float) -> bool:
        """Let one computer seat act if it is due; True if something was done."""
        table = self.table
        for seat, what in table.to_act():
            if what != "play":
                continue  # computer players send no seed; people send their own
            if not self._automatic(seat):
                # A person has the turn (perhaps back from a stand-in that was about to
                # move): no computer move is due.
                self._bot_due = None
                continue
            if self._bot_due is None:
                # A thinking player's thought is part of the pause people follow it by.
                thinking = self._players[seat][1] is not None
                delay = self.config.bot_delay
                self._bot_due = now + (max(0.0, delay - self.config.think) if thinking else delay)
            if now < self._bot_due:
                return False
            self._bot_due = None
            view = table.view_for(seat)
            assert view is not None
            player, clock = self._players[seat]
            # A thinking level decides on a worker thread: other tables go on meanwhile.
            # Nothing else touches this table until it is back (this task owns it).
            play = await choose_off_loop(player, view, clock)
            if self.stopping:  # the host began to stop while it thought: frozen
                return False
            table.play(seat, None, table.seats[seat].seq, play.card.index, play.captured_mask)
            return True
        if table.phase is Phase.PLAY:
            self._seed_deadline = math.inf
        return False

    # --- requests -----------------------------------------------------------------------

    async def _handle(self, request: Request) -> None:
        replies: list[tuple[Outbox, m.Message]] = []
        outbox, msg = request.outbox, request.msg
        if isinstance(msg, Notice):
            if msg.outage:
                self._journal_back(msg.outage)
            self.table.say(None, msg.text)
            await self._flush(replies)
            return
        assert outbox is not None
        self._apply(outbox, msg, replies)
        handled = [outbox]
        if isinstance(msg, SEEDS) and not replies and not self.table.blind:
            handled += await self._more_seeds()
        await self._flush(replies)
        if msg is not None:
            for asked in handled:
                asked.answered()  # (its reply, if any, is queued now)
        if self._owner_left is not None:
            await self._close_for_the_owner(*self._owner_left)

    async def _more_seeds(self) -> list[Outbox]:
        """After a seed applied: apply the seeds waiting behind it in the inbox too, so that
        one journal commit and one round of writes serve them all (a round's four seats send
        their seeds at once; each used to wait for a commit of its own). Returns the
        connections whose seeds were applied and not yet answered (their flush is the
        caller's). Each seed is applied in turn as it would have been alone; the first request
        that is not a seed is held for the task's next turn (:attr:`_held`). A seed refused
        (it changed nothing) ends the gathering: what came before it is sent first, then its
        answer, in the order they would have gone one by one."""
        gathered: list[Outbox] = []
        while True:
            try:
                request = self._inbox.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel):
                return gathered
            outbox, msg = request.outbox, request.msg
            if outbox is None or not isinstance(msg, SEEDS):
                self._held = request
                return gathered
            refused: list[tuple[Outbox, m.Message]] = []
            self._apply(outbox, msg, refused)
            if not refused:
                gathered.append(outbox)
                continue
            await self._flush([])  # the seeds before it, committed and sent
            for asked in gathered:
                asked.answered()
            await self._flush(refused)  # (nothing to journal: only its answer)
            outbox.answered()
            return []

    def take_now(self, outbox: Outbox, msg: m.Play) -> bool:
        """Handle a move at once, in the turn of the loop that read it, when the table's task
        is idle (waiting for requests, none in its inbox, none in hand): the table applies it,
        its entries go to the journal, and the ack and the events go out from the journal's
        answer (:meth:`_done_in_hand`), exactly as the table's task would send them, without
        waking that task, unless the move leaves it something to do (a computer's turn, the
        round's or the match's end). False: nothing was done; the move goes to the inbox.

        Until the move's commit is back the table takes nothing else at once: later requests
        wait in the inbox, and the table's task, if woken, waits for the move first
        (:meth:`_settle`), so requests are applied, committed and answered in order."""
        table = self.table
        if (
            self._in_hand is not None
            or self.stopping
            or msg.pos is not None  # (refused, and the connection ended: the inbox's way)
            or table.blind
            or self._paused_at is not None
            or self._over_time is not None
            or self._inbox.statistics().tasks_waiting_receive == 0  # busy, or has requests
        ):
            return False
        replies: list[tuple[Outbox, m.Message]] = []
        try:
            self._apply(outbox, msg, replies)
        except Exception as exc:  # a fault of the host's: the table's task stops on it
            self._fault = exc
            self._wake_if_needed()
            return True
        pending = table.take_pending()
        if not pending:  # refused (or a repeat): nothing changed, nothing to write
            self._deliver(replies, news=False)
            outbox.answered()
            return True
        self._in_hand = (outbox, replies, len(pending), trio.current_time())
        self.writer.append_soon(table.table_id, pending, self._done_in_hand)
        return True

    def _done_in_hand(self, error: BaseException | None) -> None:
        """The journal's answer for the request in hand (:meth:`take_now`): send what it
        caused, as :meth:`_flush` does. Never raises (it runs in the journal's callback): a
        failure is left for the table's task to raise, which stops the table as a fault in
        its own loop would."""
        assert self._in_hand is not None
        outbox, replies, entries, began = self._in_hand
        try:
            if error is not None:
                raise error
            self._committed(entries, began)
            self._deliver(replies, news=True)
            outbox.answered()
            if self.table.phase is Phase.OVER and self._over_time is None:
                self._end_unrecorded = True
        except Exception as exc:
            self._fault = exc
        self._in_hand = None
        if self._settled is not None:
            self._settled.set()
            self._settled = None
        self._wake_if_needed()

    def _wake_if_needed(self) -> None:
        """After a request handled in a reader's turn: wake the table's task unless nothing
        is new for it (a round in play, a person to move next, nothing to record)."""
        table = self.table
        if (
            self._fault is None
            and not self._end_unrecorded
            and table.phase is Phase.PLAY
            and not any(table.host_plays(seat) for seat, _ in table.to_act())
        ):
            return
        # (A full inbox wakes the task anyway; a closed one: the task has ended.)
        with contextlib.suppress(
            trio.WouldBlock, trio.BrokenResourceError, trio.ClosedResourceError
        ):
            self.send.send_nowait(WAKE)

    async def _settle(self) -> None:
        """Before the table's task does anything: wait for the request in hand to be done,
        and raise what went wrong with it, if anything; record a match it ended."""
        if self._in_hand is not None:
            self._settled = settled = trio.Event()
            await settled.wait()  # (bounded by the journal, as a flush of the task's own is)
        if self._fault is not None:
            fault, self._fault = self._fault, None
            raise fault
        if self._end_unrecorded:
            self._end_unrecorded = False
            if self._over_time is None:
                await self._record_the_end()

    def _apply(
        self, outbox: Outbox, msg: m.Message | None, replies: list[tuple[Outbox, m.Message]]
    ) -> None:
        """Apply a connection's request (``None``: the connection is gone) to the table,
        adding its answer to ``replies``; a refusal is an answer too."""
        if isinstance(msg, PACED_BY_THE_GAME):
            outbox.paced_in_flight -= 1  # handled now: refused or not, it is known below
        try:
            if msg is None:
                self._gone(outbox, ended=True)
            elif isinstance(msg, m.Join):
                self._join(outbox, msg, replies)
            elif isinstance(msg, m.Resume):
                self._resume(outbox, msg, replies)
            else:
                seat = outbox.seat
                if seat is None or self.attached.get(seat) is not outbox:
                    raise TableError(ErrorCode.WRONG_PHASE, "this connection holds no seat here")
                self._seated(outbox, seat, msg, replies)
        except TableError as exc:
            if exc.code.fatal:  # a field this table cannot take (pos at an ordinary table...)
                self._end_connection(outbox, exc)
            elif isinstance(msg, m.Bye):
                pass  # a bye from a seat not held here (any longer): nothing answers a bye
            else:
                if isinstance(msg, PACED_BY_THE_GAME):  # counts against the limits (3.6)
                    outbox.refused_paced += 1
                replies.append((outbox, self._refusal(msg, exc)))

    def _end_connection(self, outbox: Outbox, exc: TableError) -> None:
        """Close a connection that sent what ends it (protocol.md 3.8: ``bye`` with the
        code): the seat is held for it as for any connection lost, so it may resume."""
        log.info("table %s: closing a connection: %s", self.table.table_id, exc)
        self._gone(outbox)
        outbox.close(m.Bye(reason=exc.code.value, message=exc.message[: m.TEXT_LEN]))

    def stopped_by_a_fault(self) -> None:
        """The table stopped on a host error: every seated connection is told, so its client
        does not wait for events that will not come (the journal brings the table back when
        the host starts again)."""
        for outbox in list(self.attached.values()):
            outbox.close(
                m.Bye(
                    reason=ErrorCode.INTERNAL.value,
                    message="this table stopped on a host error; it is back when the host restarts",
                )
            )
        self.attached.clear()

    def _refusal(self, msg: m.Message | None, exc: TableError) -> m.Message:
        if isinstance(msg, m.Play):
            return m.Reject(
                move_id=msg.move_id,
                code=exc.code.value,
                reason=exc.reason,
                message=exc.message[: m.TEXT_LEN],
                current_seq=exc.current_seq,
            )
        ref = None if msg is None else type(msg).TYPE
        why = None if exc.why is None else exc.why.value
        return m.Error(
            code=exc.code.value,
            message=exc.message[: m.TEXT_LEN],
            ref=ref,
            why=why,
            current_seq=exc.current_seq,
        )

    def _join(self, outbox: Outbox, msg: m.Join, replies: list) -> None:
        try:
            self._take_seat(outbox, msg, replies)
        except TableError as exc:  # the organiser sees who was turned away, and why
            log.info(
                "%s: %s was turned away: %s",
                table_label(self.table.table_id, self.table.name),
                clean_name(msg.name) or "a player with no name",
                self._refused_join_words(msg, exc),
            )
            raise

    def _refused_join_words(self, msg: m.Join, exc: TableError) -> str:
        """Why a join was refused, as the organiser reads it."""
        if exc.code is ErrorCode.BAD_PASSWORD:
            return "wrong password" if msg.password is not None else "no password given"
        seats = self.table.seats
        if exc.code is ErrorCode.SEAT_TAKEN and msg.seat is not None and msg.seat < len(seats):
            holder = seats[msg.seat].name
            return f"seat {msg.seat} is taken" + (f" (by {holder})" if holder else "")
        if exc.code is ErrorCode.TABLE_FULL and self.table.phase is not Phase.OVER:
            return "the table is full"
        return exc.message

    def _take_seat(self, outbox: Outbox, msg: m.Join, replies: list) -> None:
        if self.password_digest is not None and (
            msg.password is None
            or not hmac.compare_digest(password_hash(msg.password), self.password_digest)
        ):
            raise TableError(ErrorCode.BAD_PASSWORD, "wrong or missing password for this table")
        token = secrets.token_bytes(TOKEN_BYTES)
        long_away = {
            i: (s.name, (*s.older_tokens, s.token_hash))
            for i, s in enumerate(self.table.seats)
            if s.open_to_newcomer
        }
        wanted = self.table.seat_to_join(msg.seat)
        self._changes.check(self._round_key, wanted, "join")
        seat = self.table.join(wanted, msg.name, token_hash(token))
        self._changes.count(self._round_key, seat)
        self._keep_issued(seat, token_hash(token))
        s = self.table.seats[seat]
        outbox.joined_unsent = True  # until its writer hands the joined to the socket
        replies.append(
            (outbox, m.Joined(table_id=self.table.table_id, seat=seat, token=token, epoch=s.epoch))
        )
        start = self.table.join_point(seat)  # a blind round being set up: from its start
        if start is None:
            replies.append((outbox, self.table.snapshot(seat)))
            self._attach(outbox, seat, s.seq)
        else:
            replies.append((outbox, start[1]))
            self._attach(outbox, seat, start[0])
        if seat in long_away:  # after the snapshot: the newcomer reads why too
            self._take_over(seat, *long_away[seat])
        self._grace_until.pop(seat, None)
        self._away_since.pop(seat, None)
        self._left.pop(seat, None)
        log.info("table %s: %s joined%s", self.table.table_id, self._who(seat), _older(outbox))

    def _take_over(self, seat: int, away: str | None, tokens: tuple[bytes | None, ...]) -> None:
        """A newcomer took ``seat`` from ``away``, its player away too long: the table reads
        why, and the absent player's tokens, now dead, say so to a ``resume``."""
        new = self.table.seats[seat].name
        limit = duration_words(self.config.away_limit)
        self.table.say(None, f"{new} takes {away}'s seat: {away} was away for more than {limit}")
        why = (
            f"your seat at table {self.table.table_id} was taken by {new} after you were away "
            f"for more than {limit}; `scopa-net join` lists the open seats"
        )
        logged = f"{away} was turned away from seat {seat}: {new} took it after {away} was away "
        logged += f"for more than {limit}"
        for h in tokens:
            if h is not None:
                self._taken[(seat, h)] = (why, logged)
        log.info(
            "table %s: %s takes seat %s of %s, away for more than %s",
            self.table.table_id,
            new,
            seat,
            away,
            limit,
        )

    def _resume(self, outbox: Outbox, msg: m.Resume, replies: list) -> None:
        try:
            self._take_back(outbox, msg, replies)
        except TableError as exc:  # the organiser sees who was turned away, and why
            taken = self._taken.get((msg.seat, token_hash(msg.token)))
            if taken is not None and exc.code is ErrorCode.BAD_TOKEN:
                words = taken[1]
            else:
                words = f"a resume of seat {msg.seat} was turned away: {exc.message}"
            log.info("%s: %s", table_label(self.table.table_id, self.table.name), words)
            raise

    def _take_back(self, outbox: Outbox, msg: m.Resume, replies: list) -> None:
        """``msg``'s seat back on this connection (protocol.md 3.3), or TableError."""
        table = self.table
        try:
            presented = table.check_token(msg.seat, msg.token)
        except TableError as exc:
            taken = self._taken.get((msg.seat, token_hash(msg.token)))
            if taken is None or exc.code is not ErrorCode.BAD_TOKEN:
                raise
            raise TableError(
                ErrorCode.BAD_TOKEN, taken[0], why=RefusalWhy.SEAT_TAKEN_WHILE_AWAY
            ) from None
        s = table.seats[msg.seat]
        now = trio.current_time()
        recent = [
            t for t in self._resume_times.get(msg.seat, []) if now - t < self.config.resume_window
        ]
        if len(recent) >= self.config.resume_burst:
            raise TableError(
                ErrorCode.RATE_LIMITED,
                f"at most {self.config.resume_burst} resumes of a seat in "
                f"{self.config.resume_window:.0f} s; wait a moment",
            )
        back = not s.connected or s.stand_in or s.grace or s.away  # a seat_status (3.4)
        if back:
            self._changes.check(self._round_key, msg.seat, "resume")
        # All checked before a token is issued: a refused resume burns nothing.
        started = self._from_journal[msg.seat]
        if msg.last_seq > started and (msg.seat, token_hash(msg.token)) not in self._issued:
            # A token of an earlier run: what its holder saw past the journal this run
            # started from, this run never sent (its journal was put back from an older
            # copy, or lost its last writes); the events here since are another history,
            # however many there are by now (first: the last event both have is `started`).
            raise TableError(
                ErrorCode.STALE,
                f"last_seq {msg.last_seq} is beyond this seat's newest event {started} in the "
                "journal the host started again from; resume from where this seat's match began",
                current_seq=started,
            )
        if msg.last_seq > s.seq:
            raise TableError(
                ErrorCode.STALE,
                f"last_seq {msg.last_seq} is beyond this seat's newest event {s.seq}; "
                "resume with the newest seq received",
                current_seq=s.seq,
            )
        self._resume_times[msg.seat] = [*recent, now]
        if back:
            self._changes.count(self._round_key, msg.seat)
        token = secrets.token_bytes(TOKEN_BYTES)
        epoch = table.resume(msg.seat, token_hash(token), presented=presented)
        self._keep_issued(msg.seat, token_hash(token))
        replay = msg.last_seq >= s.base and s.seq - msg.last_seq <= self.config.replay_limit
        start = None if replay else self._catch_up_point(msg.seat)
        kept = None if replay else self._kept_from(msg.seat)
        if kept is not None and s.base <= kept.seq <= msg.last_seq:
            # Every event of the latest round (at a blind table, the round in play) is
            # kept, and the seat saw its start (a newcomer's too, who sat down during it):
            # replayed however far behind (protocol.md 3.4).
            replay, start = True, None
        elif start is not None and start[0] < s.base:
            start = None  # the round's events are no longer kept (ours keeps them: no case)
        old = self.attached.get(msg.seat)
        if old is not None and old is not outbox:
            old.detach()
            old.close(
                m.Bye(reason=ErrorCode.SUPERSEDED.value, message="this seat resumed elsewhere")
            )
        replies.append(
            (
                outbox,
                m.Resumed(
                    table_id=table.table_id,
                    seat=msg.seat,
                    token=token,
                    epoch=epoch,
                    catch_up="replay" if replay else "snapshot",
                ),
            )
        )
        if replay:
            cursor = msg.last_seq
        elif start is not None:  # from the latest round's start (blind: the round in play)
            replies.append((outbox, start[1]))
            cursor = start[0]
        else:
            replies.append((outbox, table.snapshot(msg.seat)))
            cursor = s.seq
        self._attach(outbox, msg.seat, cursor)
        self._grace_until.pop(msg.seat, None)
        self._away_since.pop(msg.seat, None)
        log.info("table %s: %s resumed%s", table.table_id, self._who(msg.seat), _older(outbox))
        log.debug("table %s seat %s: epoch %s", table.table_id, msg.seat, epoch)

    def _keep_issued(self, seat: int, issued: bytes) -> None:
        """Remember ``issued`` as a token of this run for ``seat``, and forget the seat's
        tokens that no longer hold it: a player joining and leaving again and again must not
        grow this set without end."""
        s = self.table.seats[seat]
        live = {(seat, h) for h in (*s.older_tokens, s.token_hash)}
        self._issued = {t for t in self._issued if t[0] != seat or t in live}
        self._issued.add((seat, issued))

    def _attach(self, outbox: Outbox, seat: int, cursor: int) -> None:
        """Give the seat to this connection; it follows the log once its reply is queued."""
        self.attached[seat] = outbox
        outbox.seat = seat
        self._attaching.append((outbox, seat, cursor))

    def _gone(self, outbox: Outbox, *, ended: bool = False) -> None:
        """The connection holding a seat ended (``ended``), or is being closed for what it
        sent: the seat waits for its player, who may resume (a drop, protocol.md 3.3)."""
        seat = outbox.seat
        if seat is None or self.attached.get(seat) is not outbox:
            return  # a late close from a connection already replaced: harmless
        del self.attached[seat]
        outbox.detach()
        if ended and outbox.joined_unsent and seat != self.owner:
            self._never_seated(seat)
            return
        s = self.table.seats[seat]
        if s.kind is SeatKind.HUMAN and self.table.phase is not Phase.OVER:
            grace = self.config.grace
            closed = outbox.said_bye
            self.table.set_status(
                seat, connected=False, stand_in=False, grace=math.ceil(grace), closed=closed
            )
            self._grace_until[seat] = trio.current_time() + grace
            self._away_since[seat] = trio.current_time()
            log.log(
                logging.DEBUG if self.stopping else logging.INFO,  # the host's own stop
                "table %s: %s %s; the seat waits %.0f s for them",
                self.table.table_id,
                self._who(seat),
                "closed their client" if closed else "lost the connection",
                grace,
            )
        elif s.kind is SeatKind.HUMAN:
            # After the match: nothing to stand in for, but the others see the player went
            # (it may still resume and answer a rematch, 3.11).
            self.table.set_status(
                seat, connected=False, stand_in=False, grace=0, closed=outbox.said_bye
            )

    def _never_seated(self, seat: int) -> None:
        """The connection that joined ``seat`` ended before its ``joined`` was written: nobody
        has the seat's token, so the seat is given up at once, as ``leave`` gives it up,
        rather than held for a player who cannot come back (protocol.md 3.3)."""
        table = self.table
        who = self._who(seat)
        name = table.seats[seat].name
        if table.rematch_state == "open":
            table.rematch(seat, False, 0)  # as leaving does: a rematch under way declined
        table.leave(seat)
        self._grace_until.pop(seat, None)
        self._away_since.pop(seat, None)
        if name is not None:
            self._left[seat] = name
        log.info(
            "table %s: the connection of %s ended before its joined was sent; the seat is "
            "open again",
            table.table_id,
            who,
        )

    def _chat_full(self, seat: int) -> str | None:
        """Why ``seat`` may say no line at the table now (its rate, or the table's lines all
        said: protocol.md 3.7), or None."""
        now = trio.current_time()
        recent = [t for t in self._chat_times.get(seat, []) if now - t < self.config.chat_window]
        self._chat_times[seat] = recent
        if len(recent) >= self.config.chat_lines:
            return f"at most {self.config.chat_lines} lines in {self.config.chat_window:.0f} s"
        if self._chat_lines >= self.config.max_chat_lines:
            return f"this table has had its {self.config.max_chat_lines} lines of chat"
        return None

    def _count_chat(self, seat: int) -> None:
        """A line of ``seat``'s said at the table (after :meth:`_chat_full`)."""
        self._chat_lines += 1
        self._chat_times[seat] = [*self._chat_times.get(seat, []), trio.current_time()]

    def _blind_request(self, seat: int, msg: m.Message) -> None:
        table = self.table
        if not isinstance(table, BlindTable):
            raise TableError(ErrorCode.WRONG_PHASE, f"{type(msg).TYPE} is for blind tables")
        if isinstance(msg, m.BlindKey):
            table.blind_key(seat, msg.round_id, msg.key)
        elif isinstance(msg, m.BlindShuffle):
            table.blind_shuffle(seat, msg.round_id, msg.deck, msg.proof, msg.sig)
        elif isinstance(msg, m.BlindShares):
            table.blind_shares(seat, msg.round_id, msg.deal, msg.shares, msg.sig)
        elif isinstance(msg, m.BlindReveal):
            table.blind_reveal(seat, msg.round_id, msg.seed)

    def _seated(self, outbox: Outbox, seat: int, msg: m.Message, replies: list) -> None:
        table = self.table
        if isinstance(msg, m.Play):
            if table.blind:
                seq, duplicate = table.play(  # type: ignore[call-arg]
                    seat,
                    msg.move_id,
                    msg.after,
                    msg.card,
                    msg.captured,
                    pos=msg.pos,
                    proof=msg.proof,
                )
            elif msg.pos is not None:
                raise TableError(ErrorCode.BAD_FIELD, "pos and proof are for blind tables")
            else:
                seq, duplicate = table.play(seat, msg.move_id, msg.after, msg.card, msg.captured)
            if duplicate:  # nothing played: the game did not pace it, so it counts (3.6)
                outbox.refused_paced += 1
            replies.append((outbox, m.Ack(move_id=msg.move_id, seq=seq, duplicate=duplicate)))
        elif isinstance(msg, m.Say):
            full = self._chat_full(seat)
            if full is not None:
                raise TableError(ErrorCode.RATE_LIMITED, full)
            table.say(seat, msg.text)
            self._count_chat(seat)
        elif isinstance(msg, m.Rename):
            now = trio.current_time()
            recent = [t for t in self._rename_times.get(seat, []) if now - t < RENAME_WINDOW]
            if table.new_name(seat, msg.name) is None:
                return  # changes nothing: no answer, and it does not count (protocol.md 3.3)
            if len(recent) >= RENAMES:
                raise TableError(
                    ErrorCode.RATE_LIMITED,
                    f"at most {RENAMES} changes of name in {RENAME_WINDOW:.0f} s",
                )
            self._changes.check(self._round_key, seat, "rename")
            who = self._who(seat)
            name = table.rename(seat, msg.name)
            if name is not None:
                self._rename_times[seat] = [*recent, now]
                self._changes.count(self._round_key, seat)
                log.info("table %s: %s is now called %s", table.table_id, who, name)
        elif isinstance(msg, m.SeedCommit):
            table.seed_commit(seat, msg.round_id, msg.commit)
        elif isinstance(msg, m.SeedReveal):
            table.seed_reveal(seat, msg.round_id, msg.seed)
        elif isinstance(msg, BLIND_REQUESTS):
            self._blind_request(seat, msg)
        elif isinstance(msg, m.Bye):
            # The player's client stopped on a failed fair-deal check: tell the table why.
            # The notice carries the player's words: it is a line of theirs for the chat
            # limits (3.6), and past them the table reads only the seat's status.
            who = table.seats[seat].name or f"seat {seat}"
            said = clean_chat(msg.message)  # (the host's log shows it too: made safe first)
            notice = f"{who} left: the deal check failed at their seat ({said})"
            if self._chat_full(seat) is None:
                table.say(None, notice[: m.TEXT_LEN])
                self._count_chat(seat)
            log.warning("table %s: %s", table.table_id, notice)
        elif isinstance(msg, m.Rematch):
            table.rematch(seat, msg.agree, self._rematch_seconds())
        elif isinstance(msg, m.Leave):
            who = self._who(seat)  # (leaving for good opens the seat: its name goes)
            name = table.seats[seat].name
            owner_leaves = seat == self.owner and not msg.away
            if owner_leaves:
                self._owner_left = (table.seats[seat].name or f"seat {seat}", outbox, seat)
            if table.rematch_state == "open":
                table.rematch(seat, False, 0)  # leaving declines a rematch under way
            if msg.away and table.phase is not Phase.OVER:
                table.step_away(seat)
            elif not owner_leaves:  # the owner's table closes: no computer takes the seat
                table.leave(seat)
            del self.attached[seat]
            self._grace_until.pop(seat, None)
            self._away_since.pop(seat, None)
            if msg.away and table.phase is not Phase.OVER:
                self._away_since[seat] = trio.current_time()
            outbox.detach()
            if not owner_leaves:  # the owner's left comes once the others are told
                replies.append((outbox, m.Left(table_id=table.table_id, seat=seat)))
            if not msg.away and not owner_leaves and name is not None:
                self._left[seat] = name
            went = "stepped away" if msg.away else "left"
            log.info("table %s: %s %s", table.table_id, who, went)
        else:
            raise TableError(ErrorCode.WRONG_PHASE, f"{type(msg).TYPE} is not for a table")
