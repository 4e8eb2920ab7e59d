"""Every message type round-trips, and field validation refuses what the catalogue forbids.

The strategies (tests/strategies.py) build valid messages straight from the catalogue's field
specs, so a new message type is covered as soon as it is declared.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import MESSAGE_TYPES, any_message, record_strategy

from scopa_net.wire import messages as m
from scopa_net.wire.codec import decode, encode, encode_payload
from scopa_net.wire.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from scopa_net.wire.records import CATALOGUE, Message

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

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
