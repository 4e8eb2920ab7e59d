"""SharedFrames (scopa_net/wire/codec.py): one flush of a table encodes an event its seats
share once, to the very bytes :func:`encode` makes, and keeps nothing between flushes (the
codec has no module-level cache any more)."""

from __future__ import annotations

import pytest

from scopa_net.wire import codec
from scopa_net.wire import messages as m


def played(seq: int, card: int = 7) -> m.Played:
    return m.Played(
        seq=seq, seat=1, card=card, captured=0, sweep=False, pos=card, salt=bytes(range(16))
    )


def test_a_shared_event_is_encoded_once_per_flush_to_the_same_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[m.Message] = []
    plain = codec.encode

    def counting(msg: m.Message) -> bytes:
        made.append(msg)
        return plain(msg)

    event, other = played(5), played(5, card=8)
    ack = m.Ack(move_id=3, seq=5, duplicate=False)
    monkeypatch.setattr(codec, "encode", counting)
    frames = codec.SharedFrames()
    got = [frames.encode(msg) for msg in (ack, event, event, other, event, ack)]
    assert got == [plain(msg) for msg in (ack, event, event, other, event, ack)]
    assert made == [ack, event, other, ack]  # replies each time, a shared event once
    again = codec.SharedFrames()  # the next flush starts afresh
    assert again.encode(event) == plain(event)
    assert made[-1] is event


def test_an_equal_event_of_another_seat_is_its_own_object_and_bytes() -> None:
    frames = codec.SharedFrames()
    first, renumbered = played(5), played(6)
    assert frames.encode(first) != frames.encode(renumbered)
    assert frames.encode(renumbered) == codec.encode(renumbered)


def test_the_codec_keeps_no_state_between_calls() -> None:
    mutable = {
        name
        for name, value in vars(codec).items()
        if isinstance(value, dict | list | set) and not name.startswith("__")
    }
    # Fixed at import: the unpacker's limits and the message catalogue (imported).
    assert mutable <= {"_UNPACK_LIMITS", "CATALOGUE"}, mutable
