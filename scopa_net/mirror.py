"""A seat's view, rebuilt on the player's side from the snapshot and the events it receives.

The host sends a seat only what :class:`~scopa_net.view.SeatView` allows; :class:`SeatMirror`
turns that stream back into a ``SeatView``, so the terminal client renders and the computer
players decide from exactly the same value on both sides of the wire.
"""

from __future__ import annotations

from dataclasses import replace

import scopa_net.round as round_module
from scopa_net.cards import BIT, CARDS, cards_of
from scopa_net.dealing import seat_positions
from scopa_net.plays import Play, PlayRecord
from scopa_net.rules import RuleSet
from scopa_net.scoring import RoundScore, ScoreLine
from scopa_net.view import SeatView
from scopa_net.wire import messages as m


def _round_score(lines: tuple[m.ScoreLineInfo, ...]) -> RoundScore:
    return RoundScore(tuple(ScoreLine(x.name, x.figures, x.points, x.winner) for x in lines))


def dealer_from_positions(rules: RuleSet, seat: int, positions: set[int]) -> int:
    """The dealer whose first deal gives ``seat`` these deck positions."""
    for dealer in range(rules.players):
        if positions <= set(seat_positions(rules, dealer, seat, first_deal_only=True)):
            return dealer
    raise ValueError(f"no dealer deals positions {sorted(positions)} to seat {seat}")


class SeatMirror:
    """The latest :class:`SeatView` of one seat, kept up to date event by event."""

    def __init__(self, snapshot: m.Snapshot) -> None:
        # A seat taken during a blind round that its people began without it (9.7): a
        # computer finishes that round for the seat.
        people = snapshot.people
        sitting_out = bool(people) and snapshot.seat not in people
        self.view = replace(
            self._from_snapshot(snapshot),
            blind=bool(people),
            sitting_out=sitting_out,
            new_seat=sitting_out,
        )
        self.seq = snapshot.seq
        self._last_capturer = self._capturer_of(self.view)
        self._first_deal_next = False
        self._round_no_next = snapshot.round_no
        """The number of the round the next first deal starts (from its ``round_commit``)."""
        self._blind_dealer: int | None = None
        """A blind round's dealer, from ``blind_keys`` (9.5.3)."""
        self._sitting_out_next = sitting_out
        """The blind round opened last has no party for this seat (9.7)."""
        self._redeal_next = False
        """The round in play was void: the next first deal deals it again."""
        self.started_round = False
        """Whether the last event applied was the first deal of a round."""

    @staticmethod
    def _capturer_of(view: SeatView) -> int | None:
        """The side that captured last in the round so far."""
        for record in reversed(view.plays):
            if record.play.captured:
                return view.rules.side_of(record.seat)
        return None

    @staticmethod
    def _from_snapshot(s: m.Snapshot) -> SeatView:
        rules = s.rules.to_rules()
        return SeatView(
            seat=s.seat,
            side=s.side,
            rules=rules,
            dealer=s.dealer,
            round_number=s.round_no,
            to_move=s.to_move,
            hand=tuple(sorted((CARDS[i] for i in s.hand), key=lambda c: c.index)),
            table=tuple(sorted((CARDS[i] for i in s.table), key=lambda c: c.index)),
            hand_counts=s.hand_counts,
            stock_count=s.stock,
            pile_counts=s.pile_counts,
            sweeps=s.sweeps,
            scores=s.scores,
            plays=tuple(
                PlayRecord(p.seat, Play(CARDS[p.card], cards_of(p.captured)), p.sweep)
                for p in s.plays
            ),
            void_deal=s.void_deal,
            round_over=s.round_over,
            leftover=tuple(CARDS[i] for i in s.leftover),
            round_score=None if s.round_score is None else _round_score(s.round_score),
            winner=s.winner,
            redeal=s.redeal,
        )

    def apply(self, event: m.Message) -> SeatView:
        """Take one event (or a fresh snapshot) into the view; returns the new view."""
        self.started_round = False
        if isinstance(event, m.Snapshot):
            # A blind round's people (a host that does not say them leaves what was known).
            people = event.people
            sitting_out = event.seat not in people if people else self.view.sitting_out
            self._sitting_out_next = sitting_out
            self.view = replace(
                self._from_snapshot(event),
                blind=self.view.blind or bool(people),
                sitting_out=sitting_out,
                new_seat=sitting_out
                and self.view.new_seat
                and event.round_no == self.view.round_number,
                # A host that does not say it (no ``redeal`` key) leaves what the events said.
                redeal=event.redeal
                or (self.view.redeal and event.round_no == self.view.round_number),
            )
            self._first_deal_next = False
            self._last_capturer = self._capturer_of(self.view)
        else:
            handler = getattr(self, f"_on_{type(event).__name__}", None)
            if handler is not None:
                handler(event)
        self.seq = getattr(event, "seq", self.seq)
        return self.view

    @property
    def match_begun(self) -> bool:
        """Whether the match has begun: a round opened (its ``round_commit`` or
        ``blind_round`` seen, or a snapshot past round 0), even with nothing dealt yet.
        Until then the table waits for players (protocol.md 3.3)."""
        return self._round_no_next > 0

    # --- events -------------------------------------------------------------------------

    def _on_RoundCommit(self, e: m.RoundCommit) -> None:  # noqa: N802
        self._round_no_next = e.round_no

    def _on_SeedReveals(self, e: m.SeedReveals) -> None:  # noqa: N802
        self._first_deal_next = True

    def _on_BlindRound(self, e: m.BlindRound) -> None:  # noqa: N802
        self._round_no_next = e.round_no
        self._sitting_out_next = self.view.seat not in e.people
        self.view = replace(self.view, blind=True)

    def _on_BlindKeys(self, e: m.BlindKeys) -> None:  # noqa: N802
        self._first_deal_next = True  # a blind table's next deal is the round's first
        self._blind_dealer = e.dealer

    def _on_Deal(self, e: m.Deal) -> None:  # noqa: N802
        v = self.view
        rules = v.rules
        hand = tuple(sorted((CARDS[c.card] for c in e.hand), key=lambda c: c.index))
        if not self._first_deal_next:
            self.view = replace(
                v,
                to_move=(v.dealer + 1) % rules.players,
                hand=hand,
                hand_counts=(rules.hand_size,) * rules.players,
                stock_count=e.stock,
            )
            return
        self._first_deal_next = False
        self.started_round = True
        if self._blind_dealer is not None:
            dealer = self._blind_dealer  # also when the seat sits out, with no hand to tell
        else:
            dealer = dealer_from_positions(rules, v.seat, {c.pos for c in e.hand})
        self._last_capturer = None
        # Kings on the opening table void the deal (protocol.md 5.8): the seat sees it as the
        # host does and plays nothing, though the host's round_void may come a moment later
        # (at a blind table, once the host has opened the table too); a play made meanwhile
        # would only be refused as stale.
        table_mask = sum(BIT[c.card] for c in e.table)
        void = round_module.is_void_opening(table_mask)
        self.view = replace(
            v,
            dealer=dealer,
            round_number=self._round_no_next,
            to_move=None if void else (dealer + 1) % rules.players,
            hand=hand,
            table=tuple(sorted((CARDS[c.card] for c in e.table), key=lambda c: c.index)),
            hand_counts=(rules.hand_size,) * rules.players,
            stock_count=e.stock,
            pile_counts=(0,) * rules.side_count,
            sweeps=(0,) * rules.side_count,
            scores=v.scores_now,
            plays=(),
            void_deal=False,
            round_over=False,
            leftover=(),
            round_score=None,
            sitting_out=self._sitting_out_next,
            new_seat=False,
            redeal=self._redeal_next,
        )
        self._redeal_next = False

    def _on_BlindDeal(self, e: m.BlindDeal) -> None:  # noqa: N802
        """A blind deal this seat could not open: it sits the round out (9.7), its hand the
        host's party's. The others are dealt all the same, and the stock shrinks; a round's
        first deal (its table unknown here) is left to the next snapshot."""
        if self._first_deal_next:
            return
        v = self.view
        players = v.rules.players
        self.view = replace(
            v,
            to_move=(v.dealer + 1) % players,
            hand_counts=(v.rules.hand_size,) * players,
            stock_count=e.stock,
        )

    def _on_Played(self, e: m.Played) -> None:  # noqa: N802
        v = self.view
        rules = v.rules
        card = CARDS[e.card]
        taken = cards_of(e.captured)
        hand = tuple(c for c in v.hand if c != card) if e.seat == v.seat else v.hand
        pile_counts = v.pile_counts
        if taken:
            table = tuple(c for c in v.table if c not in taken)
            side = rules.side_of(e.seat)
            piles = list(v.pile_counts)
            piles[side] += len(taken) + 1
            pile_counts = tuple(piles)
            self._last_capturer = side
        else:
            table = tuple(sorted((*v.table, card), key=lambda c: c.index))
        sweeps = list(v.sweeps)
        if e.sweep:
            sweeps[rules.side_of(e.seat)] += 1
        counts = list(v.hand_counts)
        counts[e.seat] -= 1
        self.view = replace(
            v,
            hand=hand,
            table=table,
            pile_counts=pile_counts,
            sweeps=tuple(sweeps),
            hand_counts=tuple(counts),
            plays=(*v.plays, PlayRecord(e.seat, Play(card, taken), e.sweep)),
            to_move=None if not any(counts) else (e.seat + 1) % rules.players,
        )

    def _on_RoundVoid(self, e: m.RoundVoid) -> None:  # noqa: N802
        self._redeal_next = True
        if e.reason == "kings" or not self._first_deal_next:
            # Kings, or a blind table's round abandoned once dealt (protocol.md 9.6, 9.7):
            # nothing more to play, and the round shown is void (3.9 `void_deal`).
            self.view = replace(self.view, to_move=None, void_deal=True)
        else:  # a blind round void before its first deal: the round shown is the one before
            self.view = replace(self.view, to_move=None)

    def _on_RoundEnd(self, e: m.RoundEnd) -> None:  # noqa: N802
        v = self.view
        leftover = tuple(CARDS[i] for i in e.leftover)
        piles = list(v.pile_counts)
        table = v.table
        if leftover and self._last_capturer is not None:
            piles[self._last_capturer] += len(leftover)
            table = ()
        self.view = replace(
            v,
            to_move=None,
            table=table,
            pile_counts=tuple(piles),
            round_over=True,
            leftover=leftover,
            round_score=_round_score(e.lines),
        )

    def _on_MatchEnd(self, e: m.MatchEnd) -> None:  # noqa: N802
        self.view = replace(self.view, winner=e.winner, to_move=None)
