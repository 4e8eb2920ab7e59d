"""This seat's own plays as the host records them (protocol.md 3.5): the ``played`` event an
``ack`` names must be this seat's, with the card and the capture the move sent, and a play
for this seat that its client did not send must be a computer's that the host announced.

Nothing proves a play's capture (at a blind table the proof binds only the card and its deck
position, 9.10; at an ordinary table the host is the referee): a host could otherwise relay
another legal capture than the person chose, or play a card for them, and every check of the
deal would pass. Sans-IO: :class:`OwnPlays` is told what was sent, answered and read, and
returns the mismatch, if any, as a :class:`~scopa_net.fair.errors.ChangedPlayError`.
"""

from __future__ import annotations

from collections.abc import Iterable

from scopa_net.cards import CARDS, cards_of
from scopa_net.client.seat_store import AckedPlay
from scopa_net.fair.errors import ChangedPlayError
from scopa_net.notation import format_card
from scopa_net.wire import messages as m

KEEP = 512
"""How many events back this seat remembers what it read at each ``seq``: an ``ack`` names
an event near the newest (a repeat after a resume names the original one, a few events
back); one older than that, or covered by a snapshot, is not compared."""


def taking(captured: int) -> str:
    """What a capture mask does, in words: ``taking 3s and 4s``, or ``laying it down``."""
    cards = [format_card(c) for c in cards_of(captured)]
    if not cards:
        return "laying it on the table"
    if len(cards) == 1:
        return f"taking {cards[0]}"
    return f"taking {', '.join(cards[:-1])} and {cards[-1]}"


def play_words(card: int, captured: int) -> str:
    """``7d taking 7s``: a play, in words."""
    return f"{format_card(CARDS[card])} {taking(captured)}"


def changed(sent: m.Play, seat: int, seq: int, read: m.Played | None) -> ChangedPlayError | None:
    """The mismatch between the move ``sent`` from ``seat`` and the event ``read`` at the
    ``seq`` its ``ack`` named (None: that event is no ``played``), or None when they agree."""
    card = format_card(CARDS[sent.card])
    yours = f"your play of {card} {taking(sent.captured)}"
    if read is None:
        return ChangedPlayError(
            f"the host acknowledged {yours} as event {seq}, which is not a play"
        )
    if read.seat != seat:
        return ChangedPlayError(
            f"the host acknowledged {yours} as event {seq}, where it recorded seat "
            f"{read.seat} playing {play_words(read.card, read.captured)}"
        )
    if read.card != sent.card:
        return ChangedPlayError(
            f"the host recorded your play of {card} as "
            f"{play_words(read.card, read.captured)}; you sent {card} {taking(sent.captured)}"
        )
    if read.captured != sent.captured:
        return ChangedPlayError(
            f"the host recorded your play of {card} as {taking(read.captured)}; you sent it "
            f"{taking(sent.captured)}"
        )
    return None


AS_THE_CONNECTION_CAME_BACK = "as the connection came back"
AFTER_IT_WAS_PUT_OFF = "after the host put it off (storage or rate_limited)"
"""When a move went again exactly as first sent: after a resume, or after a "not now"."""


def taken_otherwise(sent: m.Play, when: str = AS_THE_CONNECTION_CAME_BACK) -> ChangedPlayError:
    """The host refused ``sent``, a move sent again ``when``, as ``move_id_taken``: it applied
    that move (this seat's, sent as it is now) as another play."""
    return ChangedPlayError(
        f"the host answered your play of {play_words(sent.card, sent.captured)}, sent again "
        f"{when}, that it had applied that move as another play (move_id_taken): it recorded "
        "another play than the one you sent"
    )


def unsent(read: m.Played) -> ChangedPlayError:
    """A play recorded for this seat that its client never sent, with no computer announced
    standing in for its person."""
    return ChangedPlayError(
        f"the host recorded a play for your seat, {play_words(read.card, read.captured)}, "
        "that you did not make: no move this client sent was that play, and the host announced "
        "no computer playing for you"
    )


def recorded_over(read: m.Played, acked: tuple[int, int]) -> ChangedPlayError:
    """A play recorded for this seat where the host had acknowledged another of its plays
    (``acked``: card, captured), none of its moves since that play, with no computer
    announced standing in for its person."""
    return ChangedPlayError(
        f"the host recorded a play for your seat, {play_words(read.card, read.captured)}, as "
        f"event {read.seq}, where it had acknowledged your play of {play_words(*acked)}: you "
        "did not make that play, and the host announced no computer playing for you"
    )


class OwnPlays:
    """The moves this seat's host acknowledged, until their ``played`` events are read, what
    this seat read at each recent ``seq``, and every play of the seat in its match that the host
    acknowledged: the one copy of those (the seat's record on disk is written from it,
    :meth:`~scopa_net.client.kept_seat.KeptSeat.save_record`)."""

    def __init__(self) -> None:
        self._acked: dict[int, m.Play] = {}
        """``seq`` named by an ``ack`` -> the move it answered, its event not read yet."""
        self._earlier: dict[int, tuple[int, int]] | None = {}
        """``seq`` -> (card, captured) of every play of this seat in its match that the host
        acknowledged, to this client or an earlier one of the seat, and still has (None: not
        known, a seat record kept before they were: then its session exempts the plays up to
        the newest one acknowledged)."""
        self._live = False
        """Whether the host has answered a new move of this seat since it began replaying
        its events (taken back from disk, or after a ``stale`` resume): that answer comes
        after every event it replays, so a play read since is none of them, and no play
        acknowledged before (by another client, or before the events it lost) is taken as
        it any more: its seq may be an earlier play's, its cards the same."""
        self._read: dict[int, m.Played | None] = {}
        """``seq`` -> the ``played`` event read there (None: another event), the last
        :data:`KEEP` events read."""
        self._unclaimed: dict[int, m.Played] = {}
        """Plays for this seat read while a move of its was unanswered, that no ``ack`` has
        named yet: each must be one of those moves (a computer's announced is not kept)."""
        self.last_played = 0
        """The seq of the newest ``played`` event an ``ack`` named for a move of this seat, of
        those the host still has (kept with the seat as its record's ``last_played``)."""

    @property
    def knows_earlier(self) -> bool:
        """Whether every play of this seat acknowledged in its match is known here (else
        its session exempts the plays an earlier client may have had answered)."""
        return self._earlier is not None

    @property
    def holding(self) -> bool:
        """Whether a play of this seat read while a move of its was unanswered waits for an
        answer to judge it (its session shows nothing of it meanwhile)."""
        return bool(self._unclaimed)

    @property
    def acked_plays(self) -> tuple[AckedPlay, ...] | None:
        """Every play of this seat in its match that the host acknowledged and still has,
        oldest first, as the seat's record keeps them (None: not known)."""
        if self._earlier is None:
            return None
        return tuple(AckedPlay(seq, *play) for seq, play in sorted(self._earlier.items()))

    def known(self, plays: Iterable[AckedPlay] | None, last_played: int = 0) -> None:
        """A seat taken back from disk: ``plays`` are its plays the host acknowledged to an
        earlier client (None: not known, a record kept before they were), the newest of them
        ``last_played``."""
        self._earlier = None if plays is None else {p.seq: (p.card, p.captured) for p in plays}
        self.last_played = last_played
        self._live = False

    def new_match(self) -> None:
        """A rematch began: no play of the match before is this one's."""
        self._earlier = {}

    def forget(self, newest: int | None, *, start: int) -> None:
        """The host's events are read again from an earlier point (its journal put back, 3.3):
        its numbers after its ``newest`` event are not the ones read, and what it acknowledged
        there, it lost (None: not said, so which acknowledged plays it still has is not known,
        and none after ``start``, where the seat's match began here, is kept as the newest).
        Not every event up to ``newest`` is one read before (a host started again numbers what
        it says then, a seat_status, after the events it kept): a play of this seat read again
        is checked as any, against those acknowledged up to ``newest``."""
        self._acked.clear()
        self._read.clear()
        self._unclaimed.clear()
        self._live = False
        self.last_played = min(self.last_played, start if newest is None else newest)
        if self._earlier is None or newest is None:
            self._earlier = None
            return
        self._earlier = {seq: p for seq, p in self._earlier.items() if seq <= newest}

    def kept(self, seq: int, sent: m.Play) -> None:
        """The host acknowledged ``sent`` as its ``played`` event ``seq``, whether or not the
        session checks it (:meth:`acknowledged` does): a client taking the seat back knows it
        as this seat's (one acknowledged at ``seq`` before, lost with the host's later
        events, is replaced)."""
        if self._earlier is not None:
            self._earlier[seq] = (sent.card, sent.captured)
        self.last_played = max(self.last_played, seq)

    def acknowledged(
        self, sent: m.Play, ack: m.Ack, *, seat: int, newest: int
    ) -> ChangedPlayError | None:
        """The host's ``ack`` of ``sent`` from ``seat``, when this seat has read up to event
        ``newest``: the mismatch if the event it names was read already and is not this move."""
        self._unclaimed.pop(ack.seq, None)
        self.kept(ack.seq, sent)
        self._live = self._live or not ack.duplicate
        if ack.seq in self._read:
            return changed(sent, seat, ack.seq, self._read[ack.seq])
        if ack.seq > newest:
            self._acked[ack.seq] = sent
        return None  # covered by a snapshot (or long gone): nothing here to compare with

    def all_answered(self, *, closing: bool = False) -> ChangedPlayError | None:
        """Every move of this seat is answered now: a play for it read meanwhile that no
        ``ack`` named was none of them (the host played for its person). ``closing``: the last
        answer was ``wrong_phase``, which a table that has closed gives even a move it applied
        (protocol.md 3.5, 3.11): it judges nothing, and those plays wait for the next answer
        that leaves every move answered (none comes once the ``left`` that follows ends the
        session: they go unjudged)."""
        if closing:
            return None
        unclaimed = sorted(self._unclaimed.items())
        self._unclaimed.clear()
        return unsent(unclaimed[0][1]) if unclaimed else None

    def read(
        self, event: m.Message, *, seat: int, mine: bool, pending: bool
    ) -> ChangedPlayError | None:
        """A numbered event as it arrives at ``seat``, before it is shown: the mismatch if it
        is the event an ``ack`` named and does not match, or if it is a play for this seat
        that no ``ack`` of this client named while ``mine`` (no computer plays for its person,
        as the events have it). Such a play is the person's only if it is one of this seat's
        plays acknowledged before (to an earlier client of the seat, say) at that ``seq``,
        read before the host answered a new move of the seat; any other is judged at once,
        or, while a move of this seat is unanswered (``pending``), once every move is
        answered and none named it."""
        seq: int = event.seq  # type: ignore[attr-defined]
        played = event if isinstance(event, m.Played) else None
        self._read[seq] = played
        if len(self._read) > KEEP:
            for old in [s for s in self._read if s <= seq - KEEP]:
                del self._read[old]
        for old in [s for s in self._acked if s < seq]:
            del self._acked[old]  # its event was never read (a snapshot covered it)
        sent = self._acked.pop(seq, None)
        if sent is not None:
            return changed(sent, seat, seq, played)
        if played is None or played.seat != seat or not mine:
            return None
        acked = None if self._earlier is None else self._earlier.get(seq)
        if acked == (played.card, played.captured) and not self._live:
            return None  # acknowledged before (to an earlier client, say), replayed
        if pending:
            self._unclaimed[seq] = played
            return None
        if acked is None or acked == (played.card, played.captured):
            return unsent(played)
        return recorded_over(played, acked)
