"""Every message type round-trips, and field validation refuses what the catalogue forbids.

The strategies here build valid messages straight from the catalogue's field specs, so a new
message type is covered as soon as it is declared; other wire tests import them.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scopa_net.cards import CARDS
from scopa_net.match import Match
from scopa_net.rules import Variant
from scopa_net.wire import messages as m
from scopa_net.wire.codec import decode, encode, encode_payload
from scopa_net.wire.convert import snapshot_of
from scopa_net.wire.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from scopa_net.wire.fields import Array, Bin, Bool, Choice, Int, Nested, Nil, Spec, Str
from scopa_net.wire.records import CATALOGUE, Message, Record

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

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
            deck = list(CARDS)
            rng.shuffle(deck)
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


# --- round trips -----------------------------------------------------------------------------


@pytest.mark.parametrize("type_name", MESSAGE_TYPES)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_message_type_round_trips(type_name: str, data: st.DataObject) -> None:
    msg = data.draw(record_strategy(CATALOGUE[type_name]))
    frame = encode(msg)
    assert int.from_bytes(frame[:4], "big") == len(frame) - 4
    decoded = decode(frame[4:])
    assert decoded == msg
    assert type(decoded) is type(msg)
    assert encode(decoded) == frame


def test_the_map_starts_with_t_then_fields_in_catalogue_order() -> None:
    msg = m.Play(move_id=7, after=3, card=24, captured=1 << 20)
    raw = msgpack.unpackb(encode_payload(msg))
    assert list(raw) == ["t", "move_id", "after", "card", "captured"]
    assert raw["t"] == "play"


# --- validation of messages built in code (our fault: LocalProtocolError) --------------------


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"card": 40}, "card"),
        ({"card": -1}, "card"),
        ({"card": True}, "card"),
        ({"card": 3.0}, "card"),
        ({"card": "7d"}, "card"),
        ({"captured": 1 << 40}, "captured"),
        ({"captured": 1 << 5, "card": 5}, "captured"),
        ({"move_id": 0}, "move_id"),
    ],
)
def test_play_fields_are_checked(kwargs: dict[str, Any], field: str) -> None:
    values = {"move_id": 1, "after": 0, "card": 0, "captured": 0, **kwargs}
    with pytest.raises(LocalProtocolError) as info:
        m.Play(**values)
    assert info.value.code is ErrorCode.BAD_FIELD
    assert field in str(info.value)


@pytest.mark.parametrize(
    ("build", "needle"),
    [
        (lambda: m.Welcome(version=1, host_name="h", host_key=b"k" * 31), "host_key"),
        (lambda: m.Welcome(version=1, host_name="h", host_key=bytearray(32)), "host_key"),
        (lambda: m.Welcome(version=1, host_name="", host_key=b"k" * 32), "host_name"),
        (lambda: m.Joined(table_id=1, seat=0, token=b"t" * 15, epoch=1), "token"),
        (lambda: m.Joined(table_id=1, seat=0, token=b"t" * 33, epoch=1), "token"),
        (lambda: m.Joined(table_id=1, seat=6, token=b"t" * 16, epoch=1), "seat"),
        (lambda: m.Say(text="x" * (m.SAY_LEN + 1)), "text"),
        (lambda: m.Say(text="\x1b[31mred"), "control character"),
        (lambda: m.Join(table_id=1, seat=None, name="a\nb", password=None), "control character"),
        (lambda: m.Bye(reason="see_you", message=""), "reason"),
        (lambda: m.Error(code="bad_frame", message="", ref=None), "code"),
        (lambda: m.Error(code="stale", message="", ref="hello"), "ref"),
        (
            lambda: m.Reject(
                move_id=1, code="illegal_play", reason=None, message="", current_seq=None
            ),
            "reason",
        ),
        (
            lambda: m.Reject(move_id=1, code="stale", reason=None, message="", current_seq=None),
            "current_seq",
        ),
        (lambda: m.RulesInfo(players=5, target=11, variants=()), "players"),
        (lambda: m.RulesInfo(players=2, target=11, variants=("scopone",)), "scopone"),
        (lambda: m.RulesInfo(players=2, target=11, variants=("napola", "napola")), "repeated"),
        (lambda: m.RulesInfo(players=2, target=11, variants=("bogus",)), "bogus"),
        (lambda: m.SeatInfo(kind="open", name="ann", connected=False), "name"),
        (lambda: m.SeatInfo(kind="human", name=None, connected=True), "name"),
        (
            lambda: m.SeedCommits(seq=1, round_id=bytes(16), commits=(bytes(32),)),
            "commits",
        ),
        (
            lambda: m.SeedReveals(
                seq=1, round_id=bytes(16), seeds=(bytes(32), None), excluded=(None,) * 3
            ),
            "excluded",
        ),
        (
            lambda: m.RoundVoid(seq=1, round_id=bytes(16), reason="no_reveal"),
            "reason",
        ),
        (
            lambda: m.RoundCommit(
                seq=1,
                round_id=bytes(16),
                round_no=1,
                prev=bytes(32),
                card_hashes=(bytes(32),) * 39,
                digest=bytes(32),
                sig=bytes(64),
            ),
            "card_hashes",
        ),
        (
            lambda: m.Deal(
                seq=1,
                hand=(m.DealtCard(pos=0, card=1, salt=bytes(16)),),
                table=(m.DealtCard(pos=0, card=2, salt=bytes(16)),),
                stock=30,
            ),
            "twice",
        ),
        (
            lambda: m.CreateTable(
                name="t",
                rules=m.RulesInfo(players=2, target=11, variants=()),
                password=None,
                bots=2,
                bot_level=1,
            ),
            "bots",
        ),
    ],
)
def test_bad_fields_are_refused_when_built(build: Any, needle: str) -> None:
    with pytest.raises(LocalProtocolError) as info:
        build()
    assert info.value.code is ErrorCode.BAD_FIELD
    assert needle in str(info.value)


def test_lists_become_tuples_and_messages_are_frozen() -> None:
    msg = m.SeedReveals(
        seq=1, round_id=bytes(16), seeds=[bytes(32), bytes(32)], excluded=[None, None]
    )
    assert msg.seeds == (bytes(32), bytes(32))
    with pytest.raises(dataclasses.FrozenInstanceError):
        msg.seq = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        m.Ping(1)  # type: ignore[misc]  # keyword-only


# --- validation of decoded messages (the peer's fault: RemoteProtocolError) ------------------


def _raw(msg: Message) -> dict[str, Any]:
    return msgpack.unpackb(encode_payload(msg))


def _decode_map(raw: Any) -> Message:
    return decode(msgpack.packb(raw, use_bin_type=True))


_PLAY = m.Play(move_id=9, after=4, card=10, captured=0b1001)


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"card": 40}, ErrorCode.BAD_FIELD),
        ({"card": -1}, ErrorCode.BAD_FIELD),
        ({"card": True}, ErrorCode.BAD_FIELD),
        ({"card": 1.0}, ErrorCode.BAD_FIELD),
        ({"card": None}, ErrorCode.BAD_FIELD),
        ({"card": "10"}, ErrorCode.BAD_FIELD),
        ({"captured": 1 << 40}, ErrorCode.BAD_FIELD),
        ({"captured": 1 << 10}, ErrorCode.BAD_FIELD),
        ({"captured": -(1 << 63)}, ErrorCode.BAD_FIELD),
        ({"move_id": 1 << 32}, ErrorCode.BAD_FIELD),
        ({"extra": 1}, ErrorCode.BAD_FIELD),
        ({"t": "plya"}, ErrorCode.UNKNOWN_TYPE),
        ({"t": b"play"}, ErrorCode.BAD_FRAME),
        ({"t": 3}, ErrorCode.BAD_FRAME),
    ],
)
def test_decoding_refuses_bad_fields(change: dict[str, Any], code: ErrorCode) -> None:
    raw = {**_raw(_PLAY), **change}
    with pytest.raises(RemoteProtocolError) as info:
        _decode_map(raw)
    assert info.value.code is code


@pytest.mark.parametrize("missing", ["t", "move_id", "after", "card", "captured"])
def test_decoding_refuses_missing_keys(missing: str) -> None:
    raw = _raw(_PLAY)
    del raw[missing]
    with pytest.raises(RemoteProtocolError) as info:
        _decode_map(raw)
    assert info.value.code is (ErrorCode.BAD_FRAME if missing == "t" else ErrorCode.BAD_FIELD)


def test_decoding_refuses_str_for_bin_and_bin_for_str() -> None:
    raw = _raw(m.SeedCommit(round_id=bytes(16), commit=bytes(32)))
    with pytest.raises(RemoteProtocolError, match="commit"):
        _decode_map({**raw, "commit": "x" * 32})
    raw = _raw(m.Say(text="ciao"))
    with pytest.raises(RemoteProtocolError, match="text"):
        _decode_map({**raw, "text": b"ciao"})


@SETTINGS
@given(msg=any_message, data=st.data())
def test_decoding_refuses_any_single_field_replaced_by_a_wrong_type(
    msg: Message, data: st.DataObject
) -> None:
    if not msg.SPECS:
        return
    name, spec = data.draw(st.sampled_from(msg.SPECS))
    wrong = data.draw(
        st.sampled_from([1.5, "s", b"b", [], {}, True, -(1 << 40), 1 << 60, None, [[[]]]])
    )
    raw = {**_raw(msg), name: wrong}
    try:
        decoded = _decode_map(raw)
    except RemoteProtocolError as e:
        refused = e.code
    else:
        # Accepted only if the replacement is itself a valid value of the field.
        assert spec.check(wrong, name) == getattr(decoded, name)
        return
    assert refused in (ErrorCode.BAD_FIELD, ErrorCode.BAD_FRAME)


@SETTINGS
@given(msg=any_message, key=st.text(min_size=1, max_size=8))
def test_decoding_refuses_unknown_keys(msg: Message, key: str) -> None:
    raw = _raw(msg)
    if key in raw:
        return
    raw[key] = 0
    with pytest.raises(RemoteProtocolError) as info:
        _decode_map(raw)
    assert info.value.code is ErrorCode.BAD_FIELD
