"""Hypothesis strategies for wire messages, built straight from the catalogue's field specs, so
a new message type is covered as soon as it is declared (used by the wire tests)."""

from __future__ import annotations

import hashlib
import random
from typing import Any

from helpers import shuffled_deck
from hypothesis import strategies as st

from scopa_net.match import Match
from scopa_net.rules import Variant
from scopa_net.wire import messages as m
from scopa_net.wire.convert import snapshot_of
from scopa_net.wire.errors import LocalProtocolError
from scopa_net.wire.fields import Absent, Array, Bin, Bool, Choice, Int, Nested, Nil, Spec, Str
from scopa_net.wire.records import CATALOGUE, Message, Record

_TEXT = st.characters(blacklist_categories=("Cc", "Cs"))


def spec_strategy(spec: Spec) -> st.SearchStrategy[Any]:
    """Values that satisfy ``spec`` (records come out built, so their own checks ran)."""
    if isinstance(spec, Int):
        return st.integers(spec.lo, spec.hi)
    if isinstance(spec, Bool):
        return st.booleans()
    if isinstance(spec, Str):
        return st.text(_TEXT, min_size=spec.lo, max_size=min(spec.hi, 40))
    if isinstance(spec, Choice):
        return st.sampled_from(spec.values)
    if isinstance(spec, Bin) and spec.lo == spec.hi > 64:
        # A shuffle proof's 5280 bytes: hypothesis refuses so large a smallest example, so
        # its bytes are stretched from 32 drawn ones.
        return st.binary(min_size=32, max_size=32).map(
            lambda b: hashlib.shake_256(b).digest(spec.lo)
        )
    if isinstance(spec, Bin):
        return st.binary(min_size=spec.lo, max_size=spec.hi)
    if isinstance(spec, Nil):
        return st.none() | spec_strategy(spec.inner)
    if isinstance(spec, Array):
        hi = min(spec.hi, max(spec.lo, 3 if isinstance(spec.item, Nested) else 8))
        return st.lists(
            spec_strategy(spec.item), min_size=spec.lo, max_size=hi, unique=spec.unique
        ).map(tuple)
    if isinstance(spec, Nested):
        return record_strategy(spec.record)
    if isinstance(spec, Absent):
        return st.just(spec.default) | spec_strategy(spec.inner)
    raise AssertionError(f"no strategy for {spec!r}")


def _valid(cls: type[Record], values: dict[str, Any]) -> bool:
    try:
        cls(**values)
    except LocalProtocolError:
        return False
    return True


_FOR_ANY_TABLE = [
    v.value
    for v in Variant
    if v not in (Variant.SCOPONE, Variant.SCOPONE_SCIENTIFICO, Variant.SIX_AS_THREE_PAIRS)
]


@st.composite
def _rules_info(draw: st.DrawFn) -> m.RulesInfo:
    players = draw(st.sampled_from((2, 3, 4, 6)))
    pool = list(_FOR_ANY_TABLE)
    if players == 4:
        pool += [Variant.SCOPONE.value, Variant.SCOPONE_SCIENTIFICO.value]
    if players == 6:
        pool.append(Variant.SIX_AS_THREE_PAIRS.value)
    variants = draw(st.lists(st.sampled_from(pool), max_size=3, unique=True))
    values = {"players": players, "target": draw(st.integers(1, 99)), "variants": variants}
    draw(st.just(values).filter(lambda v: _valid(m.RulesInfo, v)))
    return m.RulesInfo(**values)


@st.composite
def _seat_info(draw: st.DrawFn) -> m.SeatInfo:
    kind = draw(st.sampled_from(m.SEAT_KINDS))
    name = None if kind == "open" else draw(spec_strategy(m.NAME))
    return m.SeatInfo(kind=kind, name=name, connected=kind != "open" and draw(st.booleans()))


@st.composite
def _table_info(draw: st.DrawFn) -> m.TableInfo:
    """A table whose seat list matches its rule set's player count."""
    rules = draw(record_strategy(m.RulesInfo))
    values = {
        n: draw(spec_strategy(s)) for n, s in m.TableInfo.SPECS if n not in ("rules", "seats")
    }
    seats = draw(st.lists(_seat_info(), min_size=rules.players, max_size=rules.players))
    return m.TableInfo(rules=rules, seats=tuple(seats), **values)


@st.composite
def _snapshot(draw: st.DrawFn) -> m.Snapshot:
    """The snapshot of a real position: a match played at random for a while."""
    rules = draw(record_strategy(m.RulesInfo)).to_rules()
    rng = random.Random(draw(st.integers(0, 2**32)))
    match = Match(rules, first_dealer=rng.randrange(rules.players))
    for _ in range(draw(st.integers(0, 80))):
        if match.over:
            break
        if match.needs_deal:
            deck = shuffled_deck(rng)
            match.deal(deck)
            continue
        codes = match.round.legal_codes()  # type: ignore[union-attr]
        match.push_code(codes[rng.randrange(len(codes))])
    seat = draw(st.integers(0, rules.players - 1))
    return snapshot_of(match.view_for(seat), seq=draw(st.integers(0, m.U32)), table_id=1)


@st.composite
def _round_end(draw: st.DrawFn) -> m.RoundEnd:
    sides = draw(st.integers(*m.PER_SIDE))
    names = draw(st.lists(st.sampled_from(m.LINE_NAMES), min_size=1, unique=True))
    per_side = st.lists(st.integers(0, 40), min_size=sides, max_size=sides).map(tuple)
    lines = tuple(
        m.ScoreLineInfo(
            name=name,
            figures=draw(per_side),
            points=draw(per_side),
            winner=draw(st.none() | st.integers(0, sides - 1)),
        )
        for name in names
    )
    return m.RoundEnd(
        seq=draw(st.integers(1, m.U32)),
        round_no=draw(st.integers(1, m.U32)),
        lines=lines,
        leftover=draw(spec_strategy(m.RoundEnd.SPECS[3][1])),
        scores=draw(per_side),
    )


@st.composite
def _deal(draw: st.DrawFn) -> m.Deal:
    cards = draw(st.lists(st.integers(0, 39), unique=True, max_size=14))
    positions = draw(st.permutations(range(40)))[: len(cards)]
    dealt = [
        m.DealtCard(pos=p, card=c, salt=draw(st.binary(min_size=16, max_size=16)))
        for p, c in zip(positions, cards, strict=True)
    ]
    split = draw(st.integers(max(0, len(dealt) - 4), min(10, len(dealt))))
    return m.Deal(
        seq=draw(st.integers(1, m.U32)),
        hand=tuple(dealt[:split]),
        table=tuple(dealt[split:]),
        stock=draw(st.integers(0, 40)),
    )


def record_strategy(cls: type[Record]) -> st.SearchStrategy[Any]:
    if cls is m.RulesInfo:
        return _rules_info()
    if cls is m.SeatInfo:
        return _seat_info()
    if cls is m.TableInfo:
        return _table_info()
    if cls is m.Snapshot:
        return _snapshot()
    if cls is m.RoundEnd:
        return _round_end()
    if cls is m.Deal:
        return _deal()
    fields = {name: spec_strategy(spec) for name, spec in cls.SPECS}
    return st.fixed_dictionaries(fields).filter(lambda v: _valid(cls, v)).map(lambda v: cls(**v))


MESSAGE_TYPES = sorted(CATALOGUE)
any_message: st.SearchStrategy[Message] = st.sampled_from(MESSAGE_TYPES).flatmap(
    lambda name: record_strategy(CATALOGUE[name])
)
