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
make 15). :mod:`scopa_net.captures` holds those rules; the round asks it what a card may take.
"""

from __future__ import annotations

from collections.abc import Sequence

from scopa_net import captures, plays, scoring
from scopa_net.captures import (
    BIT_PAIRS,
    ODD_BITS,
    PAIR_TOTALS,
    QUINDICI_TOTAL,
    AceTakesAll,
    Quindici,
    capture_rule,
    codes_adding_up,
)
from scopa_net.cards import ACES_MASK, BIT, CARDS, FULL_MASK, KINGS_MASK, VALUE, Card, cards_of
from scopa_net.dealing import TABLE, deal_plan
from scopa_net.errors import (
    AmbiguousPlayError,
    IllegalPlayError,
    IllegalReason,
)
from scopa_net.plays import CARD_BITS, CARD_FIELD, Play, PlayRecord, play_of_code, plays_of_codes
from scopa_net.rules import RuleSet, Variant
from scopa_net.scoring import RoundScore, score_round


def check_deck(deck: Sequence[Card]) -> tuple[int, ...]:
    """Card indices of a deck order; ValueError unless it holds each of the 40 cards once."""
    indices = tuple([c.index for c in deck])
    if len(indices) != 40 or len(set(indices)) != 40:
        raise ValueError("a deck must hold each of the 40 cards exactly once")
    return indices


def is_void_opening(table_mask: int) -> bool:
    """Three or four kings among the opening table cards void the deal."""
    return (table_mask & KINGS_MASK).bit_count() >= 3


class _Plan:
    """What every round with the same players, variants and dealer shares: the deals as
    slices of the deck, who sits where, and the capture rule."""

    __slots__ = (
        "deals",
        "first_seat",
        "lookup",
        "next_seat",
        "opening",
        "rule",
        "side_count",
        "side_of",
        "starts",
        "sweep_on_last",
    )

    def __init__(self, rules: RuleSet, dealer: int) -> None:
        plan = deal_plan(rules, dealer)
        #: Per deal: (seat, the deck slice dealt to it) for each seat, and the table's slice.
        self.deals = tuple(
            (
                tuple((seat, _slice_of(d.start, d.targets, seat)) for seat in range(rules.players)),
                _slice_of(d.start, d.targets, TABLE),
            )
            for d in plan
        )
        self.starts = (*(d.start for d in plan), 40)
        self.side_of = tuple(rules.side_of(s) for s in range(rules.players))
        self.next_seat = tuple((s + 1) % rules.players for s in range(rules.players))
        self.first_seat = self.next_seat[dealer]
        self.side_count = rules.side_count
        self.opening = rules.opening_table_cards
        self.sweep_on_last = rules.sweep_on_last_play
        rule = self.rule = capture_rule(rules)
        #: What Round.legal_codes reads of the rule, in one tuple.
        self.lookup = (rule.known, rule.first, rule.second, rule.tag, rule.shapes, rule.sum_total)


def _slice_of(start: int, targets: tuple[int, ...], target: int) -> slice | None:
    """The deck positions of a deal that go to ``target``, as one slice (they are evenly
    spaced: one card each time round the table)."""
    where = [start + i for i, t in enumerate(targets) if t == target]
    if not where:
        return None
    step = where[1] - where[0] if len(where) > 1 else 1
    part = slice(where[0], where[-1] + 1, step)
    assert list(range(40)[part]) == where, "a deal's positions for one target are evenly spaced"
    return part


_PLANS: dict[tuple[int, frozenset[Variant], int], _Plan] = {}
PLANS_LIMIT = 1000


def _plan_of(rules: RuleSet, dealer: int) -> _Plan:
    """The plan for ``rules`` and ``dealer``, found by what a plan depends on: the players and
    the variants (not the target). A rule set hashes slowly, its frozen set of variants
    quickly (it keeps its hash); and by value, every table of the same rules shares its plans,
    where by the rule set's identity each new table (a new rule set from the wire) added its
    own until the memory was full."""
    key = (rules.players, rules.variants, dealer)
    plan = _PLANS.get(key)
    if plan is None:
        if len(_PLANS) >= PLANS_LIMIT:
            _PLANS.clear()
        plan = _PLANS[key] = _Plan(rules, dealer)
    return plan


_TABLE_LISTS: dict[int, tuple[int, ...]] = {}
TABLE_LISTS_LIMIT = 10_000

_RECORDS: dict[tuple[int, int, bool], PlayRecord] = {}
RECORDS_LIMIT = 10_000


def _record_of(entry: tuple[int, int, bool]) -> PlayRecord:
    """The :class:`PlayRecord` of a history entry (records are values: each is built once)."""
    record = _RECORDS.get(entry)
    if record is None:
        if len(_RECORDS) >= RECORDS_LIMIT:
            _RECORDS.clear()
        seat, code, sweep = entry
        record = _RECORDS[entry] = PlayRecord(seat, play_of_code(code), sweep)
    return record


def memory_stats() -> dict[str, tuple[int, int]]:
    """Every memory the rules engine keeps, by name, with the answers it holds and its bound:
    the capture rules' (:func:`scopa_net.captures.memory_stats`), the plays and score lines
    (:mod:`scopa_net.plays`, :mod:`scopa_net.scoring`) and this module's plans, play records
    and table lists. Each is bounded, so a long-running process's memory for them levels off
    once they are full (``benchmarks/load.py --soak`` prints them at both ends of its window)."""
    found = {name: (held, limit) for name, (held, limit, _) in captures.memory_stats().items()}
    found.update(plays.memory_stats())
    found.update(scoring.memory_stats())
    found["round plans"] = (len(_PLANS), PLANS_LIMIT)
    found["play records"] = (len(_RECORDS), RECORDS_LIMIT)
    found["table lists"] = (len(_TABLE_LISTS), TABLE_LISTS_LIMIT)
    return found


class Round:
    """The state of one round, from the first deal to the last capture."""

    __slots__ = (
        "_lookup",
        "_next_seat",
        "_offered",
        "_offered_at",
        "_plan",
        "_rule",
        "_side_of",
        "dealer",
        "deck",
        "hands",
        "history",
        "laid",
        "last_capturer",
        "leftover",
        "next_deal",
        "piles",
        "plays_left",
        "rules",
        "sweeps",
        "table_mask",
        "turn",
        "void",
    )

    def __init__(self, rules: RuleSet, dealer: int, deck: Sequence[Card]) -> None:
        self._configure(rules, dealer)
        plan = self._plan
        self.deck = check_deck(deck)
        self.hands: list[list[int]] = [[] for _ in plan.next_seat]
        self.piles = [0] * plan.side_count
        self.sweeps = [0] * plan.side_count
        self.history: list[tuple[int, int, bool]] = []  # (seat, code, sweep)
        self.last_capturer: int | None = None
        self.leftover = 0
        self.next_deal = 0
        self.plays_left = 40 - plan.opening
        self.turn = plan.first_seat
        self._deal()
        self.void = plan.opening > 0 and is_void_opening(self.table_mask)

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

        ``stock`` is the undealt cards in the order they will be dealt, ``table`` the table
        cards in the order they were laid. The hands must be a legal moment of play: seats
        after ``turn`` in this deal hold one card more than those before it. Raises ValueError
        unless all 40 cards are placed exactly once.
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
        rnd = cls.__new__(cls)
        rnd._configure(rules, dealer)
        starts = rnd._plan.starts
        stock_start = 40 - len(stock)
        if stock_start not in starts[1:]:
            raise ValueError(f"a stock of {len(stock)} cards is not left after any deal")
        dealt = [c for c in range(40) if not BIT[c] & seen] + placed[len(stock) :]
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
        plan = self._plan = _plan_of(rules, dealer)
        self._rule = plan.rule
        self._lookup = plan.lookup
        # What push_code reads of the plan at every play, at hand.
        self._next_seat = plan.next_seat
        self._side_of = plan.side_of
        self.table_mask = 0
        self.laid: list[int] = []  # the cards put on the table, in order (taken ones included)
        # The codes legal_plays last listed, and plays_left when it did (-1: none yet).
        self._offered: list[int] = []
        self._offered_at = -1

    # --- dealing --------------------------------------------------------------------------

    def _deal(self) -> None:
        seats, table = self._plan.deals[self.next_deal]
        deck = self.deck
        hands = self.hands
        for seat, part in seats:
            hands[seat] += deck[part]
        if table is not None:
            laid = deck[table]
            self.laid += laid
            mask = self.table_mask
            for c in laid:
                mask |= BIT[c]
            self.table_mask = mask
        self.next_deal += 1

    @property
    def stock_count(self) -> int:
        return 40 - self._plan.starts[self.next_deal]

    # --- state ----------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.plays_left == 0 or self.void

    @property
    def to_move(self) -> int | None:
        """The seat whose turn it is, or None once the round is over (or void)."""
        return None if self.finished else self.turn

    def side_of(self, seat: int) -> int:
        return self._plan.side_of[seat]

    def hand(self, seat: int) -> tuple[Card, ...]:
        return tuple(CARDS[i] for i in sorted(self.hands[seat]))

    @property
    def table(self) -> list[int]:
        """The table cards' indices, lowest first (a new list)."""
        mask = self.table_mask
        found = _TABLE_LISTS.get(mask)
        if found is None:
            if len(_TABLE_LISTS) >= TABLE_LISTS_LIMIT:
                _TABLE_LISTS.clear()
            found = _TABLE_LISTS[mask] = tuple(i for i in range(40) if BIT[i] & mask)
        return list(found)

    @property
    def table_cards(self) -> tuple[Card, ...]:
        return cards_of(self.table_mask)

    @property
    def groups(self) -> list[tuple[int, int]]:
        """Every group of table cards (the empty one included) with its total, for totals up
        to the most a played card can want, in the order the engine lists groups that add up
        (for tests and tools; play goes through :mod:`scopa_net.captures`)."""
        limit = QUINDICI_TOTAL - 1 if isinstance(self._plan.rule, Quindici) else 10
        groups = [(0, 0)]
        for c in self.laid:
            if BIT[c] & self.table_mask:
                v, b = VALUE[c], BIT[c]
                groups += [(s + v, m | b) for s, m in groups if s + v <= limit]
        return groups

    @property
    def plays(self) -> tuple[PlayRecord, ...]:
        return tuple(map(_record_of, self.history))

    def copy(self) -> Round:
        """An independent copy (for search and for trying plays)."""
        other = Round.__new__(Round)
        other.rules = self.rules
        other.dealer = self.dealer
        other._plan = self._plan
        other._rule = self._rule
        other._lookup = self._lookup
        other._next_seat = self._next_seat
        other._side_of = self._side_of
        other.deck = self.deck
        other.hands = [h.copy() for h in self.hands]
        other.table_mask = self.table_mask
        other.laid = self.laid.copy()
        other.piles = self.piles.copy()
        other.sweeps = self.sweeps.copy()
        other.history = self.history.copy()
        other.last_capturer = self.last_capturer
        other.leftover = self.leftover
        other.next_deal = self.next_deal
        other.plays_left = self.plays_left
        other.turn = self.turn
        other.void = self.void
        other._offered = []
        other._offered_at = -1
        return other

    # --- legal plays ----------------------------------------------------------------------

    def legal_codes(self) -> list[int]:
        """Every legal play for the seat to move, as play codes (see :mod:`scopa_net.plays`).

        This is :meth:`CaptureRule.codes` for each card in the hand, written out (calls cost
        more than the work itself): what a card takes from the cards it adds up is looked up by
        their value counts (see :mod:`scopa_net.captures`), or when they are two, by their
        total."""
        if self.void or not self.plays_left:
            return []
        hand = self.hands[self.turn]
        table = self.table_mask
        if not table:
            return hand.copy()
        known, first, second, tag, shapes, sum_total = self._lookup
        codes: list[int] = []
        for c in hand:
            part = table & first[c]
            if part:  # remembered by these cards
                codes += known[c].get(part) or self._rule.work_out(c, part, self.laid)
                continue
            part = table & second[c]
            count = part.bit_count()  # (quicker than part & (part - 1): no new number)
            if count < 2:  # fewer than two cards that may add up
                codes.append(c)
                continue
            if count == 2:  # two cards: it takes both if they add up to what it takes
                codes.append(c | part << CARD_BITS if PAIR_TOTALS[part] == sum_total[c] else c)
                continue
            pairs = part - ((part >> 1) & ODD_BITS)  # value_counts(part), written out
            counts = (pairs & BIT_PAIRS) + ((pairs >> 2) & BIT_PAIRS)
            shape = shapes.get(counts | tag[c])
            if shape is None:
                shape = self._rule.shape(c, counts)
            if shape > 0:  # one group: the part's cards of its values (SEVERAL_GROUPS is -1)
                codes.append(c | (part & shape) << CARD_BITS)
            elif shape:  # several groups (the rule's several, written out: these cards add up)
                codes += codes_adding_up(c, part, self.laid, sum_total[c], counts)
            else:
                codes.append(c)
        return codes

    def _lay(self, c: int) -> None:
        """Put card ``c`` face up on the table."""
        self.table_mask |= BIT[c]
        self.laid.append(c)

    def legal_plays(self) -> list[Play]:
        codes = self._offered = self.legal_codes()  # kept: a play from this list is legal
        self._offered_at = self.plays_left
        return plays_of_codes(codes)

    # --- making a play --------------------------------------------------------------------

    def push_code(self, code: int) -> bool:
        """Apply a code from :meth:`legal_codes` without checking it; True if it swept."""
        c = code & CARD_FIELD
        taken = code >> CARD_BITS
        seat = self.turn
        self.hands[seat].remove(c)
        left = self.plays_left = self.plays_left - 1
        if taken:
            table = self.table_mask = self.table_mask ^ taken  # the taken cards are on it
            side = self.last_capturer = self._side_of[seat]
            self.piles[side] |= taken | BIT[c]
            # A sweep counts, except on the very last play (unless scopone scientifico).
            sweep = not table and (left > 0 or self._plan.sweep_on_last)
            if sweep:
                self.sweeps[side] += 1
        else:
            self.table_mask |= BIT[c]
            self.laid.append(c)
            sweep = False
        self.history.append((seat, code, sweep))
        if left:
            seat = self.turn = self._next_seat[seat]
            if not self.hands[seat]:
                self._deal()
        else:
            self._end()
        return sweep

    def _end(self) -> None:
        """The side that captured last takes what is left; that is never a sweep."""
        if self.last_capturer is not None and self.table_mask:
            self.leftover = self.table_mask
            self.piles[self.last_capturer] |= self.table_mask
            self.table_mask = 0

    def play(
        self, play: Play | Card, seat: int | None = None, *, exact: bool = False
    ) -> PlayRecord:
        """Make one checked play; any refusal leaves the round exactly as it was.

        With ``exact`` the play is taken literally, as from the wire: no captures means the
        card goes to the table. Otherwise (typed input) a bare card is enough when it has only
        one legal outcome, and :class:`AmbiguousPlayError` lists the outcomes when it has more.
        """
        turn = self.turn
        if (
            type(play) is Play
            and self._offered_at == self.plays_left
            and play.code in self._offered
            and (seat is None or seat == turn)
            and not self.void
        ):
            code = play.code  # one of the plays legal_plays listed for this very turn
        else:
            code = self.resolve(play, seat, exact=exact)
        entry = (turn, code, self.push_code(code))
        return _RECORDS.get(entry) or _record_of(entry)

    def resolve(self, play: Play | Card, seat: int | None = None, *, exact: bool = False) -> int:
        """The legal code for ``play``, or the error saying why there is none."""
        if isinstance(play, Card):
            play = Play(play)
        if self.void or not self.plays_left:
            raise IllegalPlayError(IllegalReason.ROUND_OVER, str(play))
        if seat is not None and seat != self.turn:
            raise IllegalPlayError(IllegalReason.NOT_YOUR_TURN, str(play))
        code = play.code
        if self._offered_at == self.plays_left and code in self._offered:
            return code  # one of the plays legal_plays listed for this very turn
        c = code & CARD_FIELD
        if c not in self.hands[self.turn]:
            raise IllegalPlayError(IllegalReason.NOT_IN_HAND, str(play))
        options = self._rule.codes(c, self.table_mask, self.laid)
        if code in options:
            return code
        if code == c:  # no captures named
            if exact and c not in options:
                raise IllegalPlayError(IllegalReason.MUST_CAPTURE, str(play))
            if len(options) == 1:
                return options[0]
            raise AmbiguousPlayError(str(play), [play_of_code(o) for o in options])
        raise IllegalPlayError(self._why_not(c, code >> CARD_BITS, options), str(play))

    def _why_not(self, c: int, wanted: int, options: Sequence[int]) -> IllegalReason:
        rule = self._plan.rule
        if wanted & ~self.table_mask:
            return IllegalReason.NOT_ON_TABLE
        if options == (c,):
            return IllegalReason.WRONG_SUM  # the card captures nothing; the group is not a take
        if isinstance(rule, AceTakesAll) and VALUE[c] == 1 and not self.table_mask & ACES_MASK:
            return IllegalReason.ACE_TAKES_ALL
        if not isinstance(rule, Quindici) and wanted & (wanted - 1):
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
