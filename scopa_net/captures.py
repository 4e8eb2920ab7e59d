"""What a played card may take from the table: the capture rules as bit-mask arithmetic.

A table is a 40-bit mask of card indices (see :mod:`scopa_net.cards`), and so is every group of
table cards a card can take. A :class:`CaptureRule` answers one question, for a card played on
a table: which groups may it take? The answer follows RULES.md ("Capturing" and the variants):

- **by default**, a table card of the same value, one at a time, when there is one; otherwise
  every group of two or more table cards that adds up to the card's value;
- **asso piglia tutto**: the same, except that an ace takes the whole table when no ace lies on
  it;
- **quindici**: every group of one or more table cards that, with the card played, makes 15.

An empty answer means the card is laid on the table.

The answer depends only on the part of the table that can take part in a capture: for the
default rule, the cards of the played card's value when there are any, otherwise the cards of
lower value (a higher card can be neither taken alone nor part of a sum). Each rule remembers
its answers as play codes, keyed by the card played and that part of the table, so the engine
finds most answers with one dictionary look-up. Groups that add up are found the same way
(:func:`adding_up`): remembered by the cards they are drawn from and the total, each built from
the answers for one card fewer.

The order of the plays is part of the answer, because seeded simulations and the computer
players pick among plays by their position: same-value cards come lowest card first, and groups
that add up come in the order the engine has always listed them, by when their cards were laid
(:func:`in_lay_order`). Where several groups add up, the answer is remembered in index order,
and in lay order for each order of their cards met.
"""

from __future__ import annotations

from collections.abc import Sequence

from scopa_net.cards import ACES_MASK, BIT, FULL_MASK, VALUE, VALUE_MASK, indices_of
from scopa_net.plays import CARD_BITS
from scopa_net.rules import RuleSet, Variant

QUINDICI_TOTAL = 15

#: UP_TO[v]: every card of capture value v or lower, for v from 0 (none) to 15.
UP_TO: tuple[int, ...] = tuple(
    sum(VALUE_MASK[u] for u in range(1, min(v, 10) + 1)) for v in range(QUINDICI_TOTAL + 1)
)

_OF_VALUE = (*VALUE_MASK, *(0 for _ in range(11, QUINDICI_TOTAL + 1)))
"""_OF_VALUE[v]: the cards of capture value v, for v from 0 to 15 (none above 10)."""

#: How many answers a rule remembers, and how many groups :func:`adding_up` remembers, before
#: that memory starts again: about 150 bytes each, so at most some 7 MiB each.
MEMORY_LIMIT = 50_000

_ADDING_UP: dict[int, tuple[int, ...]] = {}
_ALONE = tuple((c,) for c in range(40))
"""_ALONE[c]: the one play of card c when it takes nothing (shared by every such answer)."""
_SINGLES: dict[int, tuple[int, ...]] = {}


def _singles(cards: int) -> tuple[int, ...]:
    """Each of ``cards`` alone, lowest first (the same-value captures)."""
    found = _SINGLES.get(cards)
    if found is None:
        found = _SINGLES[cards] = tuple(BIT[c] for c in indices_of(cards))
    return found


def adding_up(cards: int, total: int) -> tuple[int, ...]:
    """Every group of ``cards`` (a mask of cards whose values are at most ``total``) whose
    values add up to ``total``, as masks in ascending order (a single card included).

    With ``h`` the highest card, the groups are those without it, then ``h`` joined to each
    group of the others adding up to ``total`` less its value: each answer is built from two
    smaller ones, and all are remembered.
    """
    if cards:
        # A card too high to join the lowest one can only make the total alone: leave out
        # the others, so that more tables share an answer.
        lowest = VALUE[(cards & -cards).bit_length() - 1]
        cards &= UP_TO[total - lowest] | _OF_VALUE[total]
    key = cards | total << 40
    found = _ADDING_UP.get(key)
    if found is None:
        if len(_ADDING_UP) >= MEMORY_LIMIT:
            _ADDING_UP.clear()
        found = _ADDING_UP[key] = _adding_up(cards, total)
    return found


def _adding_up(cards: int, total: int) -> tuple[int, ...]:
    if not cards:
        return ()
    h = cards.bit_length() - 1
    bit = BIT[h]
    rest = cards ^ bit
    if not rest:
        return (bit,) if VALUE[h] == total else ()
    without = adding_up(rest, total)
    need = total - VALUE[h]
    if need == 0:  # h alone: any other card would go past the total
        return (*without, bit)
    lowest = VALUE[(rest & -rest).bit_length() - 1]
    if lowest > need:
        return without
    return (*without, *[g | bit for g in adding_up(rest & UP_TO[need], need)])


def in_lay_order(codes: Sequence[int], laid: Sequence[int]) -> tuple[int, ...]:
    """Play codes put in the order the engine lists groups that add up.

    Number the table cards by when they were laid (``laid``, earliest first): a group whose
    latest card was laid later comes later, and groups sharing their latest card compare the
    rest the same way. When the cards were laid lowest first this is the index order.
    """
    weight = {c: 1 << i for i, c in enumerate(laid)}
    return tuple(
        sorted(codes, key=lambda code: sum(weight[c] for c in indices_of(code >> CARD_BITS)))
    )


class CaptureRule:
    """The default rule: the same value first, otherwise a sum of two or more cards."""

    name = "default"

    def __init__(self) -> None:
        # The part of the table that decides what card c takes is
        # ``table & first[c] or table & second[c]``.
        self.first: tuple[int, ...] = tuple(self._first(c) for c in range(40))
        self.second: tuple[int, ...] = tuple(self._second(c) for c in range(40))
        #: known[c]: card c's plays by that part of the table, where their order is fixed.
        self.known: tuple[dict[int, tuple[int, ...]], ...] = tuple({} for _ in range(40))
        #: by_index[c]: the same where several groups add up, in index order, with the cards
        #: they are drawn from; lay_ordered: those put in lay order, by card, part and order.
        self.by_index: tuple[dict[int, tuple[tuple[int, ...], int]], ...] = tuple(
            {} for _ in range(40)
        )
        self.lay_ordered: dict[tuple[int, int, tuple[int, ...]], tuple[int, ...]] = {}
        self._size = 0

    def _first(self, c: int) -> int:
        return VALUE_MASK[VALUE[c]]

    def _second(self, c: int) -> int:
        return UP_TO[VALUE[c] - 1]

    def takes(self, value: int, part: int) -> tuple[tuple[int, ...], bool]:
        """The groups a card of ``value`` may take, given the part of the table that decides
        it, and whether they are groups that add up."""
        same = part & VALUE_MASK[value]
        if same:
            return _singles(same), False
        if not part & (part - 1):  # one lower card, or none: no sum
            return (), True
        return adding_up(part, value), True

    def codes(self, c: int, table: int, laid: Sequence[int]) -> tuple[int, ...]:
        """Every legal play of card ``c`` on ``table`` as play codes (just ``c`` when it is
        laid), in the engine's order; ``laid`` is the order the table cards were laid in."""
        part = table & self.first[c] or table & self.second[c]
        found = self.known[c].get(part)
        if found is None:
            found = self.work_out(c, part, laid)
        return found

    def work_out(self, c: int, part: int, laid: Sequence[int]) -> tuple[int, ...]:
        """:meth:`codes` for an answer not in ``known``: from the other memories, or worked
        out and remembered."""
        sums = self.by_index[c].get(part)
        if sums is None:
            if self._size >= MEMORY_LIMIT:
                self.forget()
            self._size += 1
            groups, adding = self.takes(VALUE[c], part)
            if not groups:
                found = self.known[c][part] = _ALONE[c]
                return found
            if len(groups) == 1:
                found = self.known[c][part] = (c | groups[0] << CARD_BITS,)
                return found
            found = tuple([c | m << CARD_BITS for m in groups])
            if not adding:
                self.known[c][part] = found
                return found
            union = 0
            for m in groups:
                union |= m
            sums = self.by_index[c][part] = (found, union)
        found, union = sums
        order = tuple([x for x in laid if BIT[x] & union])
        if order == tuple(sorted(order)):
            return found
        key = (c, part, order)
        ordered = self.lay_ordered.get(key)
        if ordered is None:
            self._size += 1
            ordered = self.lay_ordered[key] = in_lay_order(found, order)
        return ordered

    def forget(self) -> None:
        """Empty this rule's memory."""
        for memory in (*self.known, *self.by_index):
            memory.clear()
        self.lay_ordered.clear()
        self._size = 0


class AceTakesAll(CaptureRule):
    """Asso piglia tutto: an ace takes the whole table when no ace lies on it."""

    name = Variant.ASSO_PIGLIA_TUTTO.value

    def _first(self, c: int) -> int:
        return FULL_MASK if VALUE[c] == 1 else super()._first(c)

    def takes(self, value: int, part: int) -> tuple[tuple[int, ...], bool]:
        if value == 1 and part and not part & ACES_MASK:
            return (part,), False
        return super().takes(value, part & UP_TO[value])


class Quindici(CaptureRule):
    """Quindici: one or more table cards that make 15 with the card played; no same-value
    step."""

    name = Variant.QUINDICI.value

    def _first(self, c: int) -> int:
        return UP_TO[QUINDICI_TOTAL - VALUE[c]]

    def _second(self, c: int) -> int:
        return 0

    def takes(self, value: int, part: int) -> tuple[tuple[int, ...], bool]:
        return (adding_up(part, QUINDICI_TOTAL - value) if part else ()), True


_RULES: dict[str, CaptureRule] = {}


def forget() -> None:
    """Empty every rule's memory (for benchmarks that start from nothing)."""
    _ADDING_UP.clear()
    for rule in _RULES.values():
        rule.forget()


def capture_rule(rules: RuleSet) -> CaptureRule:
    """The capture rule of a rule set (one shared instance per rule, with its memory)."""
    if rules.has(Variant.QUINDICI):
        kind: type[CaptureRule] = Quindici
    elif rules.has(Variant.ASSO_PIGLIA_TUTTO):
        kind = AceTakesAll
    else:
        kind = CaptureRule
    rule = _RULES.get(kind.name)
    if rule is None:
        rule = _RULES[kind.name] = kind()
    return rule
