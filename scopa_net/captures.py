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

Every memory is a :class:`BoundedMemory`: it holds a few thousand answers at most and, when
full, lets go of the quarter it remembered first (not everything at once), so it reaches its
size early and stays there (``benchmarks/engine.py --memory`` prints how they fill and how often
they are asked in vain).

The order of the plays is part of the answer, because seeded simulations and the computer
players pick among plays by their position: same-value cards come lowest card first, and groups
that add up come in the order the engine has always listed them, by when their cards were laid
(:func:`in_lay_order`, as :func:`codes_adding_up` lists them).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from itertools import islice
from operator import itemgetter
from typing import Any

from scopa_net.cards import ACES_MASK, BIT, FULL_MASK, VALUE, VALUE_MASK, indices_of
from scopa_net.plays import CARD_BITS
from scopa_net.rules import RuleSet, Variant

QUINDICI_TOTAL = 15

#: UP_TO[v]: every card of capture value v or lower, for v from 0 (none) to 15.
UP_TO: tuple[int, ...] = tuple(
    sum(VALUE_MASK[u] for u in range(1, min(v, 10) + 1)) for v in range(QUINDICI_TOTAL + 1)
)

#: PAIR_TOTALS[m]: the two values added, for every mask m of two cards (780 of them): the
#: engine's inner loop decides a sum of two cards with it, without the value counts.
PAIR_TOTALS: dict[int, int] = {
    BIT[a] | BIT[b]: VALUE[a] + VALUE[b] for a in range(40) for b in range(a + 1, 40)
}

#: How many answers each memory holds at most (see :class:`BoundedMemory`; a rule's answers by
#: cards have this many for each card): benchmarks/engine.py --memory prints how they fill and
#: how often they are asked in vain.
MEMORY_LIMIT = 4096
CARD_MEMORY_LIMIT = 256
_limits = {"others": MEMORY_LIMIT, "cards": CARD_MEMORY_LIMIT}
"""The bounds new memories get (see :func:`set_limits`)."""


class BoundedMemory(dict[Any, Any]):
    """Answers by key, each worked out by ``work_out(key)`` the first time it is asked for
    (``memory[key]``; ``get`` does not work anything out) or put in by :meth:`remember`, and
    at most ``limit`` of them.

    When it is full, the quarter remembered first is let go (first in, first out), so that a
    memory stays near its limit instead of emptying at once; ``misses`` counts the answers
    worked out."""

    __slots__ = ("limit", "misses", "work_out")

    def __init__(self, work_out: Callable[[Any], Any], limit: int) -> None:
        super().__init__()
        self.work_out = work_out
        self.limit = limit
        self.misses = 0

    def __missing__(self, key: Hashable) -> Any:
        found = self.work_out(key)
        self.remember(key, found)
        return found

    def remember(self, key: Hashable, found: Any) -> None:
        """Hold ``found`` as the answer for ``key``, worked out by the caller."""
        self.misses += 1
        remember(self, key, found, self.limit)

    def forget(self) -> None:
        """Empty the memory and its count of misses."""
        self.clear()
        self.misses = 0


def remember(memory: dict[Any, Any], key: Hashable, found: Any, limit: int) -> None:
    """Put ``found`` in ``memory`` as the answer for ``key``; when the memory holds ``limit``
    answers, the quarter put in first goes (as in :class:`BoundedMemory`, for the plain
    dictionaries the engine's inner loops read with ``get``, which is quicker on them)."""
    if len(memory) >= limit:
        for old in list(islice(memory, max(1, limit // 4))):
            del memory[old]
    memory[key] = found


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
    while counts:  # two values at a time
        cards |= _LOWEST_SUITS_OF_BYTE[counts & 255] << shift
        counts >>= 8
        shift += 8
    return cards


_LOWEST_SUITS_OF_BYTE = tuple(
    ((1 << (b & 15)) - 1) | ((1 << (b >> 4)) - 1) << 4 for b in range(256)
)
"""_LOWEST_SUITS_OF_BYTE[b]: :func:`lowest_suits` of the counts of two values, ``b``."""


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


def adding_up(cards: int, total: int) -> tuple[int, ...]:
    """Every group of ``cards`` whose values add up to ``total``, as masks in ascending order
    (a single card included).

    The groups are worked out once for each count of cards of each value, on the cards with
    those counts whose suits come first (:func:`lowest_suits`), and remembered with their shape
    and as positions among the cards, lowest first: the same positions among ``cards`` are the
    groups of ``cards``, in the same order.
    """
    shape, pickers, _ = _ways(cards, total)
    if shape != SEVERAL_GROUPS:
        return (cards & shape,) if shape else ()
    bits = _bits(cards)
    return tuple([sum(pick(bits)) for pick in pickers])


def codes_adding_up(
    c: int, cards: int, laid: Sequence[int], total: int, counts: int | None = None
) -> tuple[int, ...]:
    """The play codes of card ``c`` taking each group of ``cards`` that adds up to ``total``, in
    the order the engine lists them: by when their cards were laid (``laid`` holds ``cards`` in
    that order, earliest first, and may hold other cards too, which are passed over; see
    :func:`in_lay_order`). ``counts`` is :func:`value_counts` of ``cards``, when the caller has
    worked it out already."""
    if counts is None:
        counts = value_counts(cards)
    shape, pickers, wholes = _ADDING_UP[counts | total << 40]  # _ways(cards, total)
    if shape != SEVERAL_GROUPS:
        return (c | (cards & shape) << CARD_BITS,) if shape else (c,)
    if len(pickers) == 2:  # most often: the group whose latest card not in the other came later
        if wholes:  # each group holds all the cards of its values (most often again)
            first = cards & wholes[0]
            second = cards & wholes[1]
        else:
            bits = _bits(cards)
            first_of, second_of = pickers
            first = sum(first_of(bits))
            second = sum(second_of(bits))
        differ = first ^ second
        for x in reversed(laid):
            if BIT[x] & differ:
                if BIT[x] & first:
                    first, second = second, first
                return (c | first << CARD_BITS, c | second << CARD_BITS)
    # Each group's weight (see in_lay_order) and code; no two groups weigh the same. A group's
    # weight is picked from its cards' weights as its cards are from their bits.
    bits = _bits(cards)
    weights = (*[1 << laid.index(b.bit_length() - 1) for b in bits[:-1]], 0)
    plays = sorted([(sum(pick(weights)), c | sum(pick(bits)) << CARD_BITS) for pick in pickers])
    return tuple([code for _, code in plays])


_BYTE_BITS = tuple(
    tuple(tuple(1 << (8 * k + i) for i in range(8) if b >> i & 1) for b in range(256))
    for k in range(5)
)
"""_BYTE_BITS[k][b]: each card of byte ``b`` of a mask at byte ``k``, as a mask of its own."""


def _bits(cards: int) -> tuple[int, ...]:
    """Each card of a mask as a mask of its own, lowest first, and a 0 after them (where the
    pickers of :func:`_work_out_ways` point to make every group a tuple)."""
    b0, b1, b2, b3, b4 = _BYTE_BITS
    return (
        b0[cards & 255]
        + b1[cards >> 8 & 255]
        + b2[cards >> 16 & 255]
        + b3[cards >> 24 & 255]
        + b4[cards >> 32]
        + (0,)
    )


Picker = Callable[[Sequence[int]], tuple[int, ...]]
Ways = tuple[int, tuple[Picker, ...], tuple[int, ...]]
"""What :func:`adding_up` remembers: the shape of its answer, and, when several groups add up,
every group as a picker of its cards' positions among the cards, lowest first, from
:func:`_bits` of the cards (``sum(pick(bits))`` is the group); last, when two groups add up and
each holds all the cards of its values, each group's values as a mask (``cards & mask`` is the
group, as in a shape), and otherwise nothing."""


def _ways(cards: int, total: int) -> Ways:
    """What :func:`adding_up` remembers for ``cards`` and ``total`` (see :data:`Ways`)."""
    return _ways_by_counts(value_counts(cards), total)


def _ways_by_counts(counts: int, total: int) -> Ways:
    """:func:`_ways` for cards with these :func:`value_counts`."""
    return _ADDING_UP[counts | total << 40]


def _work_out_ways(key: int) -> Ways:
    """What :data:`_ADDING_UP` remembers for ``counts | total << 40``."""
    like = lowest_suits(key & FULL_MASK)
    groups = _LOWEST[like | key & ~FULL_MASK]
    shape = shape_of(groups)
    if shape != SEVERAL_GROUPS:
        return shape, (), ()  # the shape says it all
    position = {b: i for i, b in enumerate(_bits(like))}
    ways = tuple(tuple([position[b] for b in _bits(g)[:-1]]) for g in groups)
    after = like.bit_count()  # where _bits puts its 0: every picker picks two or more
    wholes: tuple[int, ...] = ()
    if len(groups) == 2:  # (codes_adding_up lists more groups by their cards' bits anyway)
        values = (shape_of(groups[:1]), shape_of(groups[1:]))
        if like & values[0] == groups[0] and like & values[1] == groups[1]:
            wholes = values
    return shape, tuple(itemgetter(*way, after) for way in ways), wholes


def _lowest_adding_up(cards: int, total: int) -> tuple[int, ...]:
    """:func:`adding_up` for cards whose suits come first (so are the cards it asks about),
    worked out and remembered: with ``h`` the highest card, the groups without it, then ``h``
    joined to each group of the others adding up to ``total`` less its value."""
    return _LOWEST[cards | total << 40] if cards else ()


def _work_out_lowest(key: int) -> tuple[int, ...]:
    """What :data:`_LOWEST` remembers for ``cards | total << 40``."""
    cards = key & FULL_MASK
    total = key >> 40
    if not cards:
        return ()
    h = cards.bit_length() - 1
    bit = BIT[h]
    rest = cards ^ bit
    need = total - VALUE[h]
    if not rest:
        return (bit,) if need == 0 else ()
    if need == 0:  # h alone: any other card would go past the total
        return (*_lowest_adding_up(rest, total), bit)
    if VALUE[(rest & -rest).bit_length() - 1] > need:  # h joins no group
        return _lowest_adding_up(rest, total)
    return (
        *_lowest_adding_up(rest, total),
        *[g | bit for g in _lowest_adding_up(rest & UP_TO[need], need)],
    )


#: Groups that add up by the value counts of the cards and the total (``counts | total << 40``):
#: the shape, and where it does not say, the groups as positions among the cards.
_ADDING_UP = BoundedMemory(_work_out_ways, MEMORY_LIMIT)
#: The groups of cards whose suits come first that add up to a total (``cards | total << 40``).
_LOWEST = BoundedMemory(_work_out_lowest, MEMORY_LIMIT)


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
        #: How many answers each of the two was given (see memory_stats).
        self.misses = {"answers by cards": 0, "shapes": 0}

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
        if part.bit_count() < 2:  # fewer than two cards to add up
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
            return self.several(c, part, laid, counts)
        return (c | (part & shape) << CARD_BITS,) if shape else _ALONE[c]

    def work_out(self, c: int, part: int, laid: Sequence[int]) -> tuple[int, ...]:
        """:meth:`by_values` for cards of ``first[c]`` not in ``known``, remembered there by
        those cards (several plays are remembered by :meth:`several`)."""
        found = self.by_values(c, part, laid)
        if len(found) == 1:
            self.misses["answers by cards"] += 1
            remember(self.known[c], part, found, _limits["cards"])
        return found

    def shape(self, c: int, counts: int) -> int:
        """The shape of card ``c``'s answer when the part of the table that decides it has
        these :func:`value_counts`: worked out on the cards with those counts whose suits come
        first, and remembered."""
        total = self.sum_total[c]
        if total and not counts & self.alike[c]:  # a value's counts lie where its cards do
            found = _ways_by_counts(counts, total)[0]
        else:
            found = shape_of(self.takes(VALUE[c], lowest_suits(counts)))
        self.misses["shapes"] += 1
        remember(self.shapes, counts | self.tag[c], found, _limits["others"])
        return found

    def several(
        self, c: int, part: int, laid: Sequence[int], counts: int | None = None
    ) -> tuple[int, ...]:
        """:meth:`codes` for a card that may take several groups, from the cards themselves
        (``counts``: :func:`value_counts` of ``part``, when the caller has it).

        Groups that add up are listed in lay order, worked out each time: the lay order of
        the cards of a part is nearly always new on a new deal, so remembering the answers by
        it would only fill the memory."""
        total = self.sum_total[c]
        if total and not part & self.alike[c]:
            return codes_adding_up(c, part, laid, total, counts)
        groups = self.takes(VALUE[c], part)
        found = tuple([c | g << CARD_BITS for g in groups])
        self.misses["answers by cards"] += 1
        remember(self.known[c], part, found, _limits["cards"])
        return found

    def forget(self) -> None:
        """Empty this rule's memories."""
        for memory in self.known:
            memory.clear()
        self.shapes.clear()
        self.misses = dict.fromkeys(self.misses, 0)


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


def memory_stats() -> dict[str, tuple[int, int, int]]:
    """Each memory of this module by name, with the answers it holds, its bound and how many
    answers it was given since it was last emptied (its misses); a rule's answers by cards are
    one memory for each card, summed here, bounds too."""
    stats = {
        "groups by value counts": (len(_ADDING_UP), _ADDING_UP.limit, _ADDING_UP.misses),
        "groups of lowest suits": (len(_LOWEST), _LOWEST.limit, _LOWEST.misses),
    }
    for rule in _RULES.values():
        held = sum(len(m) for m in rule.known)
        stats[f"{rule.name} answers by cards"] = (
            held,
            _limits["cards"] * len(rule.known),
            rule.misses["answers by cards"],
        )
        stats[f"{rule.name} shapes"] = (len(rule.shapes), _limits["others"], rule.misses["shapes"])
    return stats


def set_limits(others: int | None = None, cards: int | None = None) -> None:
    """Bound the memories to other sizes, from now on (for benchmarks and tests that try
    bounds): the groups that add up and each rule's shapes to ``others``, each card's answers
    by cards to ``cards``."""
    _limits["others"] = others or _limits["others"]
    _limits["cards"] = cards or _limits["cards"]
    _ADDING_UP.limit = _LOWEST.limit = _limits["others"]


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
    _ADDING_UP.forget()
    _LOWEST.forget()
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
