"""One round of Scopa: deals, plays, sweeps, the last capture, the score.

A :class:`Round` is dealt from a deck order given from outside (see :mod:`scopa_net.dealing`)
and then moved forward one checked :meth:`Round.play` at a time. The state is kept as card
indices and 40-bit masks so that the computer players can simulate many rounds a second;
:meth:`legal_codes` and :meth:`push_code` are that fast path, and everything else is built on
them.

A turn, as the rules put it:

1. Rank: if table cards have the value of the card played, it takes exactly one of them.
2. Sum: otherwise, if two or more table cards add up to its value, it takes one such group.
3. Otherwise it stays on the table.

A card that can capture must. Variants change step 1-2: *asso piglia tutto* (an ace takes the
whole table unless an ace lies there) and *quindici* (take cards that, with the card played,
make 15).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence

from scopa_net.cards import (
    ACES_MASK,
    BIT,
    CARDS,
    FULL_MASK,
    KINGS_MASK,
    VALUE,
    VALUE_MASK,
    Card,
    cards_of,
)
from scopa_net.dealing import TABLE, deal_plan
from scopa_net.errors import (
    AmbiguousPlayError,
    IllegalPlayError,
    IllegalReason,
)
from scopa_net.plays import CARD_BITS, CARD_FIELD, Play, PlayRecord, play_code
from scopa_net.rules import RuleSet, Variant
from scopa_net.scoring import RoundScore, score_round

QUINDICI_TOTAL = 15


def check_deck(deck: Sequence[Card]) -> tuple[int, ...]:
    """Card indices of a deck order; ValueError unless it holds each of the 40 cards once."""
    indices = tuple(c.index for c in deck)
    if len(indices) != 40 or len(set(indices)) != 40:
        raise ValueError("a deck must hold each of the 40 cards exactly once")
    return indices


def is_void_opening(table_mask: int) -> bool:
    """Three or four kings among the opening table cards void the deal."""
    return (table_mask & KINGS_MASK).bit_count() >= 3


class Round:
    """The state of one round, from the first deal to the last capture."""

    __slots__ = (
        "_apt",
        "_deals",
        "_group_limit",
        "_quindici",
        "_side_of",
        "_sweep_on_last",
        "dealer",
        "deck",
        "groups",
        "hands",
        "history",
        "last_capturer",
        "leftover",
        "next_deal",
        "piles",
        "plays_left",
        "rules",
        "sweeps",
        "table",
        "table_mask",
        "turn",
        "void",
    )

    def __init__(self, rules: RuleSet, dealer: int, deck: Sequence[Card]) -> None:
        self._configure(rules, dealer)
        self.deck = check_deck(deck)
        self.hands: list[list[int]] = [[] for _ in range(rules.players)]
        self.piles = [0] * rules.side_count
        self.sweeps = [0] * rules.side_count
        self.history: list[tuple[int, int, bool]] = []  # (seat, code, sweep)
        self.last_capturer: int | None = None
        self.leftover = 0
        self.next_deal = 0
        self.plays_left = 40 - rules.opening_table_cards
        self.turn = (dealer + 1) % rules.players
        self._deal()
        self.void = rules.opening_table_cards > 0 and is_void_opening(self.table_mask)

    @classmethod
    def from_position(
        cls,
        rules: RuleSet,
        *,
        dealer: int,
        turn: int,
        hands: Sequence[Sequence[int]],
        table: Sequence[int],
        stock: Sequence[int],
        piles: Sequence[int],
        sweeps: Sequence[int],
        last_capturer: int | None,
        history: Sequence[tuple[int, int, bool]] = (),
    ) -> Round:
        """A round rebuilt mid-play from where every card is (fast-path form: card indices
        and pile masks). Computer players use it to play out guesses about hidden hands.

        ``stock`` is the undealt cards in the order they will be dealt. The hands must be a
        legal moment of play: seats after ``turn`` in this deal hold one card more than those
        before it. Raises ValueError unless all 40 cards are placed exactly once.
        """
        placed = [*stock, *table]
        for h in hands:
            placed += h
        pile_mask = 0
        for p in piles:
            if pile_mask & p:
                raise ValueError("a card is in two piles")
            pile_mask |= p
        seen = 0
        for c in placed:
            seen |= BIT[c]
        if len(set(placed)) != len(placed) or seen & pile_mask or seen | pile_mask != FULL_MASK:
            raise ValueError("a position must place each of the 40 cards exactly once")
        deals = deal_plan(rules, dealer)
        stock_start = 40 - len(stock)
        starts = [d.start for d in deals] + [40]
        if stock_start not in starts[1:]:
            raise ValueError(f"a stock of {len(stock)} cards is not left after any deal")
        dealt = [c for c in range(40) if not BIT[c] & seen] + placed[len(stock) :]
        rnd = cls.__new__(cls)
        rnd._configure(rules, dealer)
        rnd.deck = (*dealt[:stock_start], *stock)
        rnd.hands = [list(h) for h in hands]
        for c in table:
            rnd._lay(c)
        rnd.piles = list(piles)
        rnd.sweeps = list(sweeps)
        rnd.history = list(history)
        rnd.last_capturer = last_capturer
        rnd.leftover = 0
        rnd.next_deal = starts.index(stock_start)
        rnd.plays_left = len(stock) + sum(len(h) for h in hands)
        rnd.turn = turn
        rnd.void = False
        return rnd

    def _configure(self, rules: RuleSet, dealer: int) -> None:
        """What every round of these rules needs, and an empty table."""
        self.rules = rules
        self.dealer = dealer
        self._deals = deal_plan(rules, dealer)
        self._side_of = tuple(rules.side_of(s) for s in range(rules.players))
        self._apt = rules.has(Variant.ASSO_PIGLIA_TUTTO)
        self._quindici = rules.has(Variant.QUINDICI)
        self._sweep_on_last = rules.sweep_on_last_play
        self._group_limit = QUINDICI_TOTAL - 1 if self._quindici else 10
        self.table: list[int] = []
        self.table_mask = 0
        # Every group of table cards (the empty one included) as (total, mask), for totals up
        # to the most any played card can want. Kept up to date as cards come and go.
        self.groups: list[tuple[int, int]] = [(0, 0)]

    # --- dealing --------------------------------------------------------------------------

    def _deal(self) -> None:
        deal = self._deals[self.next_deal]
        for position, target in enumerate(deal.targets, deal.start):
            c = self.deck[position]
            if target == TABLE:
                self._lay(c)
            else:
                self.hands[target].append(c)
        self.next_deal += 1

    @property
    def stock_count(self) -> int:
        if self.next_deal >= len(self._deals):
            return 0
        return 40 - self._deals[self.next_deal].start

    # --- state ----------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.plays_left == 0 or self.void

    @property
    def to_move(self) -> int | None:
        """The seat whose turn it is, or None once the round is over (or void)."""
        return None if self.finished else self.turn

    def side_of(self, seat: int) -> int:
        return self._side_of[seat]

    def hand(self, seat: int) -> tuple[Card, ...]:
        return tuple(CARDS[i] for i in sorted(self.hands[seat]))

    @property
    def table_cards(self) -> tuple[Card, ...]:
        return tuple(CARDS[i] for i in self.table)

    @property
    def plays(self) -> tuple[PlayRecord, ...]:
        return tuple(
            PlayRecord(seat, Play.from_code(code), sweep) for seat, code, sweep in self.history
        )

    def copy(self) -> Round:
        """An independent copy (for search and for trying plays)."""
        other = Round.__new__(Round)
        for name in Round.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = [h.copy() for h in self.hands]
        other.table = self.table.copy()
        other.groups = self.groups.copy()
        other.piles = self.piles.copy()
        other.sweeps = self.sweeps.copy()
        other.history = self.history.copy()
        return other

    # --- legal plays ----------------------------------------------------------------------

    def legal_codes(self) -> list[int]:
        """Every legal play for the seat to move, as play codes (see :mod:`scopa_net.plays`)."""
        if self.plays_left == 0 or self.void:
            return []
        return self._codes_of(self.hands[self.turn])

    def _codes_of(self, cards: Sequence[int]) -> list[int]:
        """Every legal play of each of ``cards`` on the current table, as play codes."""
        table_mask = self.table_mask
        if not table_mask:
            return list(cards)
        if self._quindici:
            return self._quindici_codes(cards)
        codes: list[int] = []
        for c in cards:
            v = VALUE[c]
            # Rank: a table card of the same value; the player picks which one.
            same = table_mask & VALUE_MASK[v]
            if same:
                while same:
                    low = same & -same
                    codes.append(c | (low << CARD_BITS))
                    same ^= low
                continue
            # Asso piglia tutto: with no ace on the table, an ace takes the whole table.
            if v == 1 and self._apt:
                codes.append(c | (table_mask << CARD_BITS))
                continue
            # Sum: any group of two or more table cards adding up to the card's value.
            takes = [m for s, m in self.groups if s == v]
            if takes:
                codes += [c | (m << CARD_BITS) for m in takes]
            else:
                codes.append(c)
        return codes

    def _lay(self, c: int) -> None:
        """Put card ``c`` face up on the table."""
        insort(self.table, c)
        self.table_mask |= BIT[c]
        v = VALUE[c]
        room = self._group_limit - v
        if room >= 0:
            b = BIT[c]
            self.groups += [(s + v, m | b) for s, m in self.groups if s <= room]

    def _quindici_codes(self, cards: Sequence[int]) -> list[int]:
        """Quindici: take one or more table cards that make 15 with the card played."""
        codes: list[int] = []
        for c in cards:
            want = QUINDICI_TOTAL - VALUE[c]
            takes = [m for s, m in self.groups if s == want]
            if takes:
                codes += [c | (m << CARD_BITS) for m in takes]
            else:
                codes.append(c)
        return codes

    def legal_plays(self) -> list[Play]:
        from_code = Play.from_code
        return [from_code(code) for code in self.legal_codes()]

    # --- making a play --------------------------------------------------------------------

    def push_code(self, code: int) -> bool:
        """Apply a code from :meth:`legal_codes` without checking it; True if it swept."""
        c = code & CARD_FIELD
        taken = code >> CARD_BITS
        seat = self.turn
        self.hands[seat].remove(c)
        self.plays_left -= 1
        sweep = False
        if taken:
            side = self._side_of[seat]
            self.table = [t for t in self.table if not BIT[t] & taken]
            self.table_mask &= ~taken
            self.groups = [g for g in self.groups if not g[1] & taken]
            self.piles[side] |= taken | BIT[c]
            self.last_capturer = side
            # A sweep counts, except on the very last play (unless scopone scientifico).
            if not self.table and (self.plays_left or self._sweep_on_last):
                self.sweeps[side] += 1
                sweep = True
        else:
            self._lay(c)
        self.history.append((seat, code, sweep))
        if self.plays_left == 0:
            self._end()
        else:
            self.turn = (seat + 1) % len(self.hands)
            if not self.hands[self.turn]:
                self._deal()
        return sweep

    def _end(self) -> None:
        """The side that captured last takes what is left; that is never a sweep."""
        if self.last_capturer is not None and self.table_mask:
            self.leftover = self.table_mask
            self.piles[self.last_capturer] |= self.table_mask
            self.table = []
            self.table_mask = 0
            self.groups = [(0, 0)]

    def play(
        self, play: Play | Card, seat: int | None = None, *, exact: bool = False
    ) -> PlayRecord:
        """Make one checked play; any refusal leaves the round exactly as it was.

        With ``exact`` the play is taken literally, as from the wire: no captures means the
        card goes to the table. Otherwise (typed input) a bare card is enough when it has only
        one legal outcome, and :class:`AmbiguousPlayError` lists the outcomes when it has more.
        """
        code = self.resolve(play, seat, exact=exact)
        sweep = self.push_code(code)
        return PlayRecord(self.history[-1][0], Play.from_code(code), sweep)

    def resolve(self, play: Play | Card, seat: int | None = None, *, exact: bool = False) -> int:
        """The legal code for ``play``, or the error saying why there is none."""
        if isinstance(play, Card):
            play = Play(play)
        if self.finished:
            raise IllegalPlayError(IllegalReason.ROUND_OVER, str(play))
        if seat is not None and seat != self.turn:
            raise IllegalPlayError(IllegalReason.NOT_YOUR_TURN, str(play))
        c = play.card.index
        if c not in self.hands[self.turn]:
            raise IllegalPlayError(IllegalReason.NOT_IN_HAND, str(play))
        options = self._codes_of((c,))
        wanted = play.captured_mask
        if not wanted:
            if exact and c not in options:
                raise IllegalPlayError(IllegalReason.MUST_CAPTURE, str(play))
            if len(options) == 1:
                return options[0]
            raise AmbiguousPlayError(str(play), [Play.from_code(o) for o in options])
        code = play_code(c, wanted)
        if code in options:
            return code
        raise IllegalPlayError(self._why_not(c, wanted, options), str(play))

    def _why_not(self, c: int, wanted: int, options: list[int]) -> IllegalReason:
        if wanted & ~self.table_mask:
            return IllegalReason.NOT_ON_TABLE
        if options == [c]:
            return IllegalReason.WRONG_SUM  # the card captures nothing; the group is not a take
        if self._apt and VALUE[c] == 1 and not self.table_mask & ACES_MASK:
            return IllegalReason.ACE_TAKES_ALL
        if not self._quindici and wanted & (wanted - 1):
            singles = [o for o in options if not (o >> CARD_BITS) & ((o >> CARD_BITS) - 1)]
            if singles:
                return IllegalReason.SINGLE_CARD_MATCHES
        return IllegalReason.WRONG_SUM

    # --- the end --------------------------------------------------------------------------

    def score(self) -> RoundScore:
        if not self.finished or self.void:
            raise ValueError("the round is not over")
        return score_round(self.rules, self.piles, self.sweeps)

    @property
    def leftover_cards(self) -> tuple[Card, ...]:
        return cards_of(self.leftover)
