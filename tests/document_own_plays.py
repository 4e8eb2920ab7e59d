"""What a client checks of its own plays, written from protocol.md 3.5 alone ("A client checks
its own plays"): the `played` an `ack` names is the move sent; a `move_id_taken` for a move
sent again exactly as first sent says the host applied another play; a `played` of the seat
that no `ack` names, while no computer plays for its person, is a play the person never made.
After a `resume` refused `stale` (3.3) the events after `current_seq` did not happen at the host
(``rewound``), and a client started afresh that takes a seat back from disk knows only the plays
an `ack` named to an earlier client of the seat (``taken_back``): a replayed play of the seat is
the person's where it is one of those, at that `seq`, as sent, until the host answers a new
move of the seat (3.5). Sans-IO: each method returns the words of a mismatch (*changed play*),
or None."""

from __future__ import annotations

from dataclasses import dataclass, field

VALUES = ("ace", "two", "three", "four", "five", "six", "seven", "knave", "knight", "king")
SUITS = ("coins", "cups", "swords", "clubs")  # section 2


def card_words(card: int) -> str:
    """Section 2: index = (value - 1) * 4 + suit."""
    return f"the {VALUES[card // 4]} of {SUITS[card % 4]}"


def take_words(captured: int) -> str:
    if not captured:
        return "laying it on the table"
    cards = [card_words(c) for c in range(40) if captured >> c & 1]
    return "taking " + " and ".join(cards)


@dataclass
class OwnPlays:
    """One seat's plays as sent, and what the host answered and recorded of them."""

    sent: dict[int, tuple[int, int]] = field(default_factory=dict)  # move_id: (card, captured)
    unanswered: set[int] = field(default_factory=set)
    again: set[int] = field(default_factory=set)  # sent again, exactly as first sent
    to_come: dict[int, int] = field(default_factory=dict)  # seq an ack named: its move_id
    read: dict[int, tuple[int, int] | None] = field(default_factory=dict)  # seq: own play or None
    held: dict[int, tuple[int, int]] = field(default_factory=dict)  # own plays no ack named yet
    covered_to: int = 0  # events up to this seq came in a snapshot: not read, not compared
    acknowledged: dict[int, tuple[int, int]] = field(default_factory=dict)  # seq an ack named
    earlier: dict[int, tuple[int, int]] = field(default_factory=dict)  # acknowledged before
    unchecked_to: int | None = None  # own plays up to this seq are the person's, unchecked

    @classmethod
    def taken_back(
        cls, acknowledged: dict[int, tuple[int, int]], newest_only: int | None = None
    ) -> OwnPlays:
        """A seat taken back from disk (3.3, 3.5): the plays an `ack` named to an earlier
        client of the seat, by `seq`, as sent; or, kept by an older client that kept only the
        newest such `seq` (``newest_only``), a replay unchecked: every play of the seat up to
        that `seq` the person's, and none after it a mismatch."""
        return cls(earlier=dict(acknowledged), unchecked_to=None if newest_only is None else 2**32)

    def rewound(self, current_seq: int | None, dropped: set[int]) -> None:
        """`error stale` (3.3): what came after ``current_seq`` did not happen at the host; the
        moves ``dropped`` (chosen after it) are not sent again. The plays acknowledged at or
        below it stand as the person's in the replay that follows; with no ``current_seq``
        (a host of 4) the replay is unchecked, no play taken for an earlier client's."""
        to = -1 if current_seq is None else current_seq
        self.unanswered -= dropped
        self.held.clear()
        self.read = {seq: play for seq, play in self.read.items() if seq <= to}
        self.to_come = {seq: m for seq, m in self.to_come.items() if seq <= to}
        self.covered_to = min(self.covered_to, max(to, 0))
        kept = {seq: play for seq, play in self.acknowledged.items() if seq <= to}
        self.acknowledged = kept
        self.earlier = {} if current_seq is None else kept
        self.unchecked_to = 2**32 if current_seq is None else None

    def sending(self, move_id: int, card: int, captured: int) -> None:
        """A `play` goes out; the same one again (after a resume) is marked as sent again."""
        if self.sent.get(move_id) == (card, captured):
            self.again.add(move_id)
        self.sent[move_id] = (card, captured)
        self.unanswered.add(move_id)

    def caught_up_by_snapshot(self, seq: int) -> None:
        """3.4: the events up to ``seq`` were not read; a move not sent again gets no answer."""
        self.covered_to = seq
        self.unanswered.clear()
        self.held.clear()
        self.to_come = {k: v for k, v in self.to_come.items() if k > seq}

    def lost_answers(self) -> None:
        """`left` took the connection back to the lobby: an unanswered move was not played, and
        a play held for it is dropped unjudged (3.5)."""
        self.unanswered.clear()
        self.held.clear()

    def ack(self, ack: dict, last_seq: int) -> str | None:
        """The `played` this `ack` names must be the move sent: compared now if already read."""
        move_id, seq = ack["move_id"], ack["seq"]
        self.unanswered.discard(move_id)
        self.held.pop(seq, None)
        mine = self.sent[move_id]  # the client refuses an answer to a move it never sent
        self.acknowledged[seq] = mine
        self._answered(move_id)
        if seq > last_seq:
            self.to_come[seq] = move_id
        elif seq > self.covered_to:
            wrong = self._compare(mine, self.read.get(seq))
            if wrong is not None:
                return wrong
        return self._held_alone()

    def reject(self, reject: dict) -> str | None:
        """A move answered with a refusal; `move_id_taken` for a move sent again as it was first
        sent says the host applied it as another play (3.5 step 1)."""
        move_id = reject["move_id"]
        if reject["code"] in ("storage", "rate_limited"):
            return None  # no answer to the move (given before any check): it goes again
        self.unanswered.discard(move_id)
        self._answered(move_id)
        if reject["code"] == "move_id_taken" and move_id in self.again:
            card, captured = self.sent[move_id]
            return (
                f"the host says your move {move_id} ({card_words(card)}, "
                f"{take_words(captured)}) was applied as another play"
            )
        if reject["code"] == "wrong_phase":
            return None  # a closed table's answer, even to a move it applied: judges nothing
        return self._held_alone()

    def event(self, event: dict, seat: int, watched: bool) -> str | None:
        """Every table event as it arrives, before it is shown. ``watched``: the seat is a
        person's and no computer plays for them as the events have it (3.5)."""
        seq = event["seq"]
        own = event["t"] == "played" and event["seat"] == seat
        self.read[seq] = (event["card"], event["captured"]) if own else None
        if seq in self.to_come:
            return self._compare(self.sent[self.to_come.pop(seq)], self.read[seq])
        if not own or not watched:
            return None
        if self.earlier.get(seq) == self.read[seq]:
            return None  # acknowledged before, to an earlier client or before a rewind
        if self.unchecked_to is not None and seq <= self.unchecked_to:
            return None  # nothing kept to check it against (3.5)
        if self.unanswered:  # it may be the answer to a move not yet answered
            self.held[seq] = (event["card"], event["captured"])
            return None
        return self._not_made(event["card"], event["captured"])

    def _answered(self, move_id: int) -> None:
        """A new move of the seat answered: the host has replayed every event before it, so
        the plays kept from before stand no more (3.5)."""
        if move_id not in self.again:
            self.earlier.clear()
            self.unchecked_to = None

    def _compare(self, mine: tuple[int, int], recorded: tuple[int, int] | None) -> str | None:
        if recorded is None:
            return "the host acknowledged your play with an event that is not a play of yours"
        if recorded == mine:
            return None
        card, captured = recorded
        sent_card, sent_captured = mine
        if card != sent_card:
            return (
                f"the host recorded your play as {card_words(card)}, {take_words(captured)}; "
                f"you sent {card_words(sent_card)}, {take_words(sent_captured)}"
            )
        return (
            f"the host recorded your play of {card_words(card)} as {take_words(captured)}; "
            f"you sent it {take_words(sent_captured)}"
        )

    def _held_alone(self) -> str | None:
        """Every move answered: a play held that no `ack` named was not the person's."""
        if self.unanswered or not self.held:
            return None
        seq = min(self.held)
        return self._not_made(*self.held.pop(seq))

    @staticmethod
    def _not_made(card: int, captured: int) -> str:
        return (
            f"the host recorded a play for your seat, {card_words(card)} "
            f"{take_words(captured)}, that you did not make"
        )
