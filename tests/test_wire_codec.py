"""The msgpack layer: tight limits, strict types, and only the remote error for bad input."""

from __future__ import annotations

import contextlib
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import any_message

from scopa_net.wire import messages as m
from scopa_net.wire.codec import (
    MAX_ARRAY,
    MAX_BIN,
    MAX_DEPTH,
    MAX_MAP,
    MAX_STR_BYTES,
    _unpack_checked,
    decode,
    encode,
    encode_payload,
    unpack_payload,
)
from scopa_net.wire.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from scopa_net.wire.fields import Absent
from scopa_net.wire.framing import MAX_FRAME


def pack(obj: Any) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


def nested(depth: int) -> dict[str, Any]:
    """A map whose containers nest ``depth`` deep (the map itself is 1)."""
    inner: Any = 0
    for _ in range(depth - 1):
        inner = [inner]
    return {"t": "ping", "x": inner}


def test_nesting_up_to_the_limit_unpacks_and_one_more_is_refused() -> None:
    assert unpack_payload(pack(nested(MAX_DEPTH))) == nested(MAX_DEPTH)
    with pytest.raises(RemoteProtocolError, match="nested deeper") as info:
        unpack_payload(pack(nested(MAX_DEPTH + 1)))
    assert info.value.code is ErrorCode.BAD_FRAME


def test_the_deepest_real_message_fits_the_depth_limit() -> None:
    rules = m.RulesInfo(players=2, target=11, variants=("napola",))
    seats = (m.SeatInfo(kind="open", name=None, connected=False),) * 2
    table = m.TableInfo(
        id=1, name="t", rules=rules, password=False, seats=seats, bot_level=None, started=False
    )
    msg = m.Tables(tables=(table,))
    assert decode(encode(msg)[4:]) == msg


@pytest.mark.parametrize("depth", [1000, 20_000])
def test_hostile_deep_nesting_is_refused(depth: int) -> None:
    payload = b"\x81\xa1t" + b"\x91" * depth + b"\xc0"
    assert len(payload) <= MAX_FRAME
    with pytest.raises(RemoteProtocolError) as info:
        decode(payload)
    assert info.value.code is ErrorCode.BAD_FRAME


@pytest.mark.parametrize(
    "obj",
    [
        {"t": "ping", "x": [0] * (MAX_ARRAY + 1)},
        {"t": "ping", **{f"k{i}": 0 for i in range(MAX_MAP)}},
        {"t": "x" * (MAX_STR_BYTES + 1)},
        {"t": "ping", "x": b"b" * (MAX_BIN + 1)},
    ],
    ids=["array", "map", "str", "bin"],
)
def test_container_and_string_limits(obj: dict[str, Any]) -> None:
    with pytest.raises(RemoteProtocolError) as info:
        unpack_payload(pack(obj))
    assert info.value.code is ErrorCode.BAD_FRAME


@pytest.mark.parametrize(
    "payload",
    [
        b"\xc1",  # never used
        pack([1, 2]),  # not a map
        pack("ping"),
        pack({"t": "ping", "nonce": 1}) + b"\x00",  # trailing bytes
        pack({"t": "ping", "nonce": 1})[:-1],  # truncated
        b"\x82\xa1t\xa4ping\xa1t\xa4pong",  # repeated key
        b"\x82\xa1t\xa4ping\x01\x02",  # int key
        b"\x82\xa1t\xa4ping\xc4\x01k\x02",  # bin key
        b"\x81\xa1t\xa2\xff\xfe",  # invalid UTF-8
        b"\x82\xa1t\xa4ping\xa1x\xd6\xff\x00\x00\x00\x01",  # timestamp ext
        b"\x82\xa1t\xa4ping\xa1x\xd4\x01\x00",  # fixext 1
        b"\x81\xa1t\x81\x90\x01",  # array as a key
    ],
)
def test_malformed_payloads_are_bad_frames(payload: bytes) -> None:
    with pytest.raises(RemoteProtocolError) as info:
        decode(payload)
    assert info.value.code is ErrorCode.BAD_FRAME


@pytest.mark.parametrize(
    ("obj", "code"),
    [
        ({"nonce": 1}, ErrorCode.BAD_FRAME),
        ({"t": "welcome!", "nonce": 1}, ErrorCode.UNKNOWN_TYPE),
        ({"t": "Ping", "nonce": 1}, ErrorCode.UNKNOWN_TYPE),
        ({"t": "ping", "nonce": 1.0}, ErrorCode.BAD_FIELD),
        ({"t": "ping", "nonce": 1 << 32}, ErrorCode.BAD_FIELD),
        ({"t": "ping", "nonce": -1}, ErrorCode.BAD_FIELD),
        ({"t": "ping", "nonce": False}, ErrorCode.BAD_FIELD),
        ({"t": "ping", "nonce": 1, "x": None}, ErrorCode.BAD_FIELD),
    ],
)
def test_types_and_fields_are_checked_after_unpacking(obj: dict[str, Any], code: ErrorCode) -> None:
    with pytest.raises(RemoteProtocolError) as info:
        decode(pack(obj))
    assert info.value.code is code


def test_integers_may_arrive_in_any_width() -> None:
    wide = b"\x82\xa1t\xa4ping\xa5nonce\xcf" + (7).to_bytes(8, "big")
    assert decode(wide) == m.Ping(nonce=7)


def test_encoding_refuses_what_is_not_a_message() -> None:
    with pytest.raises(LocalProtocolError):
        encode_payload({"t": "ping", "nonce": 1})  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(payload=st.binary(max_size=200))
def test_random_bytes_decode_or_raise_only_the_remote_error(payload: bytes) -> None:
    with contextlib.suppress(RemoteProtocolError):
        decode(payload)


@settings(max_examples=200, deadline=None)
@given(msg=any_message, data=st.data())
def test_mutated_messages_decode_or_raise_only_the_remote_error(msg: Any, data: Any) -> None:
    payload = bytearray(encode_payload(msg))
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(payload) - 1))
        payload[i] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(1, len(payload)))
    try:
        decoded = decode(bytes(payload[:cut]))
    except RemoteProtocolError:
        return
    assert decode(encode(decoded)[4:]) == decoded  # whatever decodes is a valid message


@settings(max_examples=200, deadline=None)
@given(
    value=st.recursive(
        st.none()
        | st.booleans()
        | st.integers(-(1 << 63), (1 << 64) - 1)
        | st.floats()
        | st.text()
        | st.binary(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
        max_leaves=20,
    ),
    type_name=st.sampled_from(["ping", "play", "deal", "snapshot", "tables", "nope"]),
)
def test_random_msgpack_maps_decode_or_raise_only_the_remote_error(
    value: Any, type_name: str
) -> None:
    payload = pack({"t": type_name, "nonce": value, "seq": value, "tables": value})
    with contextlib.suppress(RemoteProtocolError):
        decode(payload)


def spelled_out(record: Any) -> dict[str, Any]:
    """A record's map as its specs say, asked field by field (what a write plan saves)."""
    out: dict[str, Any] = {"t": record.TYPE} if isinstance(record, m.Message) else {}
    for name, spec in record.SPECS:
        value = getattr(record, name)
        if isinstance(spec, Absent) and value == spec.default:
            continue
        out[name] = spec.to_wire(value)
    return out


def test_spelled_out_writes_nested_records_by_their_specs_too() -> None:
    card = m.DealtCard(pos=3, card=7, salt=bytes(16))
    deal = m.Deal(seq=1, hand=(card,), table=(), stock=30)
    assert spelled_out(deal)["hand"] == [spelled_out(card)]


@given(any_message)
@settings(max_examples=400)
def test_a_message_is_written_as_its_specs_say_in_field_order(msg: m.Message) -> None:
    expected = spelled_out(msg)
    written = msg.to_map()
    assert list(written.items()) == list(expected.items())
    assert encode_payload(msg) == pack(expected)


def outcome(unpack: Any, payload: bytes) -> str:
    """What ``unpack`` makes of ``payload``, the map or the error it refused it with, as its
    repr: a NaN in the map is not equal to itself, but its repr is (and -0.0's is not 0.0's)."""
    try:
        return repr(unpack(payload))
    except RemoteProtocolError as exc:
        return repr(("refused", exc.code, exc.message))


flat_values = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats()
    | st.text()
    | st.binary()
)


def packed_pairs(pairs: list[tuple[Any, Any]]) -> bytes:
    """A msgpack map of ``pairs`` as they are, repeated keys and all."""
    packer = msgpack.Packer(use_bin_type=True)
    return packer.pack_map_header(len(pairs)) + b"".join(
        packer.pack(k) + packer.pack(v) for k, v in pairs
    )


@given(
    st.lists(
        st.tuples(st.sampled_from(["t", "seq", "card", ""]) | st.text() | st.binary(), flat_values)
        | st.tuples(
            st.text(),
            st.lists(flat_values, max_size=2) | st.dictionaries(st.text(), flat_values, max_size=2),
        ),
        max_size=20,
    )
)
@settings(max_examples=500)
def test_a_flat_map_is_unpacked_as_the_long_way_unpacks_it(pairs: list[tuple[Any, Any]]) -> None:
    payload = packed_pairs(pairs)
    assert outcome(unpack_payload, payload) == outcome(_unpack_checked, payload)


@given(
    st.binary(max_size=40)
    | st.builds(lambda a, b: a + b, st.binary(max_size=8), st.binary(max_size=8))
)
@settings(max_examples=500)
def test_any_bytes_are_unpacked_as_the_long_way_unpacks_them(payload: bytes) -> None:
    assert outcome(unpack_payload, payload) == outcome(_unpack_checked, payload)


def test_a_repeated_key_in_a_flat_map_is_refused() -> None:
    payload = packed_pairs([("t", "ping"), ("nonce", 1), ("nonce", 2)])
    with pytest.raises(RemoteProtocolError, match="repeats a key"):
        unpack_payload(payload)
    big = packed_pairs([(f"k{i}", i) for i in range(16)] + [("k0", 0)])  # a map 16 header
    with pytest.raises(RemoteProtocolError, match="repeats a key"):
        unpack_payload(big)


@pytest.mark.parametrize(
    ("payload", "words"),
    [
        (b"\xc1", "a byte that begins no msgpack value"),
        (pack({"t": "ping", "nonce": 1}) + b"\x00", "bytes left over after the first value"),
        (pack({"t": "ping", "nonce": 1})[:-1], "it ends inside a value"),
        (b"\x81\x91\x00\x00", "a map key that is a list, where keys are always text"),
        (b"\x81\xa1\xff\x00", "a piece of text holds bytes that are not UTF-8 text"),
    ],
)
def test_a_bad_frame_says_what_was_wrong_with_it(payload: bytes, words: str) -> None:
    """The bye's message is read by the person who wrote the other end: msgpack's own error
    for a stray byte is empty, and its words for leftover bytes name its own function."""
    with pytest.raises(RemoteProtocolError) as info:
        decode(payload)
    assert f"not one valid msgpack value: {words}" in str(info.value)
