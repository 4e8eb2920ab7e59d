"""What a played card may take from the table: the capture rules as bit-mask arithmetic.

A table is a 40-bit mask of card indices (see :mod:`scopa_net.cards`), and so is every group of
table cards a card can take. A :class:`CaptureRule` answers one question, for a card played on
a table: which groups may it take? The answer follows RULES.md ("Capturing" and the variants):

- **by default**, a table card of the same value, one at a time, when there is one; otherwise
  every group of two or more table cards that adds up to the card's value;
- **asso piglia tutto**: the same, except that an ace takes the whole table when no ace lies on
  it;
- **quindici**: every group of one or more table cards that, with the card played, makes 15.

An empty answer means the card is laid on the table. :meth:`CaptureRule.takes` is that answer
worked out plainly; the engine asks :meth:`CaptureRule.codes` (or reads the same memory
directly, as :meth:`scopa_net.round.Round.legal_codes` does), which remembers answers so that
most cost one dictionary look-up.

How it remembers, and why that is exact:

1. **By values, not suits.** The rules look only at values, so what a card takes depends only
   on how many table cards of each value lie in the part of the table that decides it
   (:func:`value_counts`). A card's ``first`` mask picks the cards it looks at first (by
   default those of its own value, which it takes one at a time); when the table holds none of
   them, its ``second`` mask picks the cards it can only take by adding up two or more of them
   (by default the lower values; quindici has no second step). Answers for the first part are
   remembered by those very cards (there are few such sets); answers for the second part by
   their value counts (:meth:`CaptureRule.by_values`): there are few such counts, and every new
   deal meets ones seen before, where the exact sets of lower cards are nearly all new.
2. **One group is the table cards of its values.** When exactly one group may be taken, it
   holds every card of the part of the values in it: had it left one out, the same group with
   that card's suit swapped in would be legal too. So such an answer is remembered as the mask
   of every card of those values (a *shape*), and the group in a given part is
   ``part & shape``. A shape of :data:`NO_GROUP` means the card is laid; :data:`SEVERAL_GROUPS`
   means more than one group may be taken.
3. **Several groups** are worked out on the cards themselves (:meth:`CaptureRule.several`).
   Groups that add up are found by :func:`codes_adding_up` from :func:`adding_up`'s groups,
   remembered by value counts as positions among the cards, and put in lay order each time
   (the lay order is nearly always new on a new deal, so it is not worth remembering);
   several same-value cards are remembered by the cards.

The order of the plays is part of the answer, because seeded simulations and the computer
players pick among plays by their position: same-value cards come lowest card first, and groups
that add up come in the order the engine has always listed them, by when their cards were laid
(:func:`in_lay_order`, as :func:`codes_adding_up` lists them).
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

#: How many answers each memory (a rule's shapes, its answers by cards, the groups that add up)
#: holds before it starts again: a few hundred bytes each at most.
MEMORY_LIMIT = 50_000

_ALONE = tuple((c,) for c in range(40))
"""_ALONE[c]: the one play of card c when it takes nothing (shared by every such answer)."""
_SINGLES: dict[int, tuple[int, ...]] = {}


def _singles(cards: int) -> tuple[int, ...]:
    """Each of ``cards`` alone, lowest first (the same-value captures)."""
    found = _SINGLES.get(cards)
    if found is None:
        found = _SINGLES[cards] = tuple(BIT[c] for c in indices_of(cards))
    return found


# --- value counts ---------------------------------------------------------------------------

ODD_BITS = 0x55_5555_5555
BIT_PAIRS = 0x33_3333_3333


def value_counts(cards: int) -> int:
    """How many cards of each value a mask holds, as one number: its ``v - 1``-th group of four
    bits counts the cards of value ``v`` (0 to 4).

    The four bits of one value in a mask are its four suits, so this is the usual two-step
    bit count, done on all ten values at once: first every pair of bits is replaced by how many
    of the two are set, then every four bits by the sum of their two pairs.
    """
    pairs = cards - ((cards >> 1) & ODD_BITS)
    return (pairs & BIT_PAIRS) + ((pairs >> 2) & BIT_PAIRS)


def lowest_suits(counts: int) -> int:
    """The cards with these :func:`value_counts` whose suits come first."""
    cards = 0
    shift = 0
    while counts:
        cards |= ((1 << (counts & 15)) - 1) << shift
        counts >>= 4
        shift += 4
    return cards


NO_GROUP = 0
"""A shape: no group may be taken."""
SEVERAL_GROUPS = -1
"""A shape: more than one group may be taken."""


def shape_of(groups: Sequence[int]) -> int:
    """The shape of an answer (see the module's docstring): :data:`NO_GROUP`,
    :data:`SEVERAL_GROUPS`, or every card of the values in its one group."""
    if len(groups) > 1:
        return SEVERAL_GROUPS
    shape = NO_GROUP
    for g in groups:
        for c in indices_of(g):
            shape |= VALUE_MASK[VALUE[c]]
    return shape


# --- groups that add up ---------------------------------------------------------------------

_ADDING_UP: dict[int, tuple[int, tuple[tuple[int, ...], ...]]] = {}


def adding_up(cards: int, total: int) -> tuple[int, ...]:
    """Every group of ``cards`` whose values add up to ``total``, as masks in ascending order
    (a single card included).

    The groups are worked out once for each count of cards of each value, on the cards with
    those counts whose suits come first (:func:`lowest_suits`), and remembered with their shape
    and as positions among the cards, lowest first: the same positions among ``cards`` are the
    groups of ``cards``, in the same order.
    """
    shape, ways = _ways(cards, total)
    if shape != SEVERAL_GROUPS:
        return (cards & shape,) if shape else ()
    bits = _bits(cards)
    return tuple([sum(map(bits.__getitem__, way)) for way in ways])


def codes_adding_up(c: int, cards: int, laid: Sequence[int], total: int) -> tuple[int, ...]:
    """The play codes of card ``c`` taking each group of ``cards`` that adds up to ``total``, in
    the order the engine lists them: by when their cards were laid (``laid`` holds ``cards`` in
    that order, earliest first, and may hold other cards too, which are passed over; see
    :func:`in_lay_order`)."""
    shape, ways = _ways(cards, total)
    if shape != SEVERAL_GROUPS:
        return (c | (cards & shape) << CARD_BITS,) if shape else (c,)
    bits = _bits(cards)
    groups = [sum(map(bits.__getitem__, way)) for way in ways]
    if len(groups) == 2:  # most often: the group whose latest card not in the other came later
        first, second = groups
        differ = first ^ second
        for x in reversed(laid):
            if BIT[x] & differ:
                if BIT[x] & first:
                    first, second = second, first
                return (c | first << CARD_BITS, c | second << CARD_BITS)
    # Each group's weight (see in_lay_order) and code; no two groups weigh the same.
    rank = {BIT[x]: 1 << i for i, x in enumerate(laid) if BIT[x] & cards}
    weight = [rank[b] for b in bits]  # by position among the cards, as the ways are
    plays = [
        (sum(map(weight.__getitem__, way)), c | g << CARD_BITS)
        for way, g in zip(ways, groups, strict=True)
    ]
    plays.sort()
    return tuple([code for _, code in plays])


def _bits(cards: int) -> list[int]:
    """Each card of a mask as a mask of its own, lowest first."""
    bits = []
    while cards:
        low = cards & -cards
        bits.append(low)
        cards ^= low
    return bits


def _ways(cards: int, total: int) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """What :func:`adding_up` remembers for ``cards`` and ``total``: the shape of its answer,
    and, when several groups add up, every group as positions among the cards."""
    return _ways_by_counts(value_counts(cards), total)


def _ways_by_counts(counts: int, total: int) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """:func:`_ways` for cards with these :func:`value_counts`."""
    key = counts | total << 40
    found = _ADDING_UP.get(key)
    if found is None:
        if len(_ADDING_UP) >= MEMORY_LIMIT:
            _ADDING_UP.clear()
        like = lowest_suits(counts)
        groups = _lowest_adding_up(like, total)
        shape = shape_of(groups)
        ways: tuple[tuple[int, ...], ...] = ()  # only needed when the shape does not say
        if shape == SEVERAL_GROUPS:
            position = {BIT[c]: i for i, c in enumerate(indices_of(like))}
            ways = tuple(tuple(position[BIT[c]] for c in indices_of(g)) for g in groups)
        found = _ADDING_UP[key] = (shape, ways)
    return found


_LOWEST: dict[int, tuple[int, ...]] = {}


def _lowest_adding_up(cards: int, total: int) -> tuple[int, ...]:
    """:func:`adding_up` for cards whose suits come first (so are the cards it asks about),
    worked out and remembered: with ``h`` the highest card, the groups without it, then ``h``
    joined to each group of the others adding up to ``total`` less its value."""
    if not cards:
        return ()
    key = cards | total << 40
    found = _LOWEST.get(key)
    if found is not None:
        return found
    if len(_LOWEST) >= MEMORY_LIMIT:
        _LOWEST.clear()
    h = cards.bit_length() - 1
    bit = BIT[h]
    rest = cards ^ bit
    need = total - VALUE[h]
    if not rest:
        found = (bit,) if need == 0 else ()
    elif need == 0:  # h alone: any other card would go past the total
        found = (*_lowest_adding_up(rest, total), bit)
    elif VALUE[(rest & -rest).bit_length() - 1] > need:  # h joins no group
        found = _lowest_adding_up(rest, total)
    else:
        found = (
            *_lowest_adding_up(rest, total),
            *[g | bit for g in _lowest_adding_up(rest & UP_TO[need], need)],
        )
    _LOWEST[key] = found
    return found


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


# --- the rules ------------------------------------------------------------------------------


class CaptureRule:
    """The default rule: the same value first, otherwise a sum of two or more cards."""

    name = "default"

    def __init__(self) -> None:
        # The part of the table that decides what card c takes is
        # ``table & first[c] or table & second[c]``; ``tag[c]`` tells c's value apart in the
        # keys of ``shapes``.
        self.first: tuple[int, ...] = tuple(self._first(c) for c in range(40))
        self.second: tuple[int, ...] = tuple(self._second(c) for c in range(40))
        self.tag: tuple[int, ...] = tuple(VALUE[c] << 40 for c in range(40))
        # A card takes groups adding up to sum_total[c] (0: never) when the part of the table
        # holds none of alike[c], which it would take one at a time instead.
        self.sum_total: tuple[int, ...] = tuple(self._sum_total(c) for c in range(40))
        self.alike: tuple[int, ...] = tuple(self._alike(c) for c in range(40))
        #: known[c]: card c's plays by the cards of first[c] on the table, or, where several
        #: same-value cards may be taken, by the part of the table.
        self.known: tuple[dict[int, tuple[int, ...]], ...] = tuple({} for _ in range(40))
        #: shapes: the shape of a card's answer, by the part's value counts and the card's tag.
        self.shapes: dict[int, int] = {}
        self._size = 0

    def _first(self, c: int) -> int:
        return VALUE_MASK[VALUE[c]]

    def _second(self, c: int) -> int:
        return UP_TO[VALUE[c] - 1]

    def _sum_total(self, c: int) -> int:
        return VALUE[c]

    def _alike(self, c: int) -> int:
        return VALUE_MASK[VALUE[c]]

    def takes(self, value: int, part: int) -> tuple[int, ...]:
        """The groups a card of ``value`` may take, given the part of the table that decides
        it, in index order (the engine lists groups that add up in lay order instead)."""
        same = part & VALUE_MASK[value]
        if same:
            return _singles(same)
        if not part & (part - 1):  # one lower card, or none: no sum
            return ()
        return adding_up(part, value)

    def codes(self, c: int, table: int, laid: Sequence[int]) -> tuple[int, ...]:
        """Every legal play of card ``c`` on ``table`` as play codes (just ``c`` when it is
        laid), in the engine's order; ``laid`` is the order the table cards were laid in."""
        part = table & self.first[c]
        if part:
            return self.known[c].get(part) or self.work_out(c, part, laid)
        part = table & self.second[c]
        if not part & (part - 1):  # fewer than two cards to add up
            return _ALONE[c]
        return self.by_values(c, part, laid)

    def by_values(self, c: int, part: int, laid: Sequence[int]) -> tuple[int, ...]:
        """:meth:`codes` when ``part`` is the part of the table that decides it: found by its
        value counts (see the module's docstring)."""
        counts = value_counts(part)
        shape = self.shapes.get(counts | self.tag[c])
        if shape is None:
            shape = self.shape(c, counts)
        if shape == SEVERAL_GROUPS:
            return self.several(c, part, laid)
        return (c | (part & shape) << CARD_BITS,) if shape else _ALONE[c]

    def work_out(self, c: int, part: int, laid: Sequence[int]) -> tuple[int, ...]:
        """:meth:`by_values` for cards of ``first[c]`` not in ``known``, remembered there by
        those cards (several plays are remembered by :meth:`several`)."""
        found = self.by_values(c, part, laid)
        if len(found) == 1:
            self._count()
            self.known[c][part] = found
        return found

    def shape(self, c: int, counts: int) -> int:
        """The shape of card ``c``'s answer when the part of the table that decides it has
        these :func:`value_counts`: worked out on the cards with those counts whose suits come
        first, and remembered."""
        if len(self.shapes) >= MEMORY_LIMIT:
            self.shapes.clear()
        total = self.sum_total[c]
        if total and not counts & self.alike[c]:  # a value's counts lie where its cards do
            found = _ways_by_counts(counts, total)[0]
        else:
            found = shape_of(self.takes(VALUE[c], lowest_suits(counts)))
        self.shapes[counts | self.tag[c]] = found
        return found

    def several(self, c: int, part: int, laid: Sequence[int]) -> tuple[int, ...]:
        """:meth:`codes` for a card that may take several groups, from the cards themselves.

        Groups that add up are listed in lay order, worked out each time: the lay order of
        the cards of a part is nearly always new on a new deal, so remembering the answers by
        it would only fill the memory."""
        total = self.sum_total[c]
        if total and not part & self.alike[c]:
            return codes_adding_up(c, part, laid, total)
        self._count()
        groups = self.takes(VALUE[c], part)
        found = self.known[c][part] = tuple([c | g << CARD_BITS for g in groups])
        return found

    def _count(self) -> None:
        """Count one more answer remembered by its cards, emptying those first when they are
        as many as the limit (the shapes have a limit of their own)."""
        if self._size >= MEMORY_LIMIT:
            for memory in self.known:
                memory.clear()
            self._size = 0
        self._size += 1

    def forget(self) -> None:
        """Empty this rule's memory."""
        self._size = MEMORY_LIMIT
        self._count()
        self._size = 0
        self.shapes.clear()


class AceTakesAll(CaptureRule):
    """Asso piglia tutto: an ace takes the whole table when no ace lies on it."""

    name = Variant.ASSO_PIGLIA_TUTTO.value

    def _first(self, c: int) -> int:
        return FULL_MASK if VALUE[c] == 1 else super()._first(c)

    def _sum_total(self, c: int) -> int:
        return 0 if VALUE[c] == 1 else super()._sum_total(c)

    def takes(self, value: int, part: int) -> tuple[int, ...]:
        if value == 1 and part and not part & ACES_MASK:
            return (part,)
        return super().takes(value, part & UP_TO[value])


class Quindici(CaptureRule):
    """Quindici: one or more table cards that make 15 with the card played; no same-value
    step."""

    name = Variant.QUINDICI.value

    def _first(self, c: int) -> int:
        return UP_TO[QUINDICI_TOTAL - VALUE[c]]

    def _second(self, c: int) -> int:
        return 0

    def _sum_total(self, c: int) -> int:
        return QUINDICI_TOTAL - VALUE[c]

    def _alike(self, c: int) -> int:
        return 0

    def takes(self, value: int, part: int) -> tuple[int, ...]:
        return adding_up(part, QUINDICI_TOTAL - value) if part else ()


_RULES: dict[str, CaptureRule] = {}


def memory_sizes() -> dict[str, int]:
    """How many answers each memory of this module holds, summed over the rules in use (for
    benchmarks and soak reports)."""
    rules = _RULES.values()
    return {
        "answers by cards": sum(len(m) for rule in rules for m in rule.known),
        "shapes": sum(len(rule.shapes) for rule in rules),
        "groups by value counts": len(_ADDING_UP),
        "groups of lowest suits": len(_LOWEST),
        "same-value singles": len(_SINGLES),
    }


def forget() -> None:
    """Empty every memory of this module (for benchmarks that start from nothing)."""
    _ADDING_UP.clear()
    _LOWEST.clear()
    _SINGLES.clear()
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
