"""Length-prefixed framing: limits, and the same frames whatever the slicing."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa_net.wire.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from scopa_net.wire.framing import END_OF_STREAM, HEADER_SIZE, MAX_FRAME, FrameReader, frame


def read_all(reader: FrameReader) -> list[bytes]:
    frames = []
    while isinstance(item := reader.next_frame(), bytes):
        frames.append(item)
    return frames


def test_frame_prefixes_the_big_endian_length() -> None:
    assert frame(b"\x80") == b"\x00\x00\x00\x01\x80"
    assert frame(b"x" * 258)[:4] == b"\x00\x00\x01\x02"


@pytest.mark.parametrize("size", [0, MAX_FRAME + 1])
def test_frame_refuses_payloads_it_may_not_send(size: int) -> None:
    with pytest.raises(LocalProtocolError) as info:
        frame(b"x" * size)
    assert info.value.code is ErrorCode.BAD_FRAME


def test_largest_frame_passes() -> None:
    reader = FrameReader()
    reader.receive_data(frame(b"y" * MAX_FRAME))
    assert read_all(reader) == [b"y" * MAX_FRAME]
    assert reader.buffered == 0


@pytest.mark.parametrize("length", [0, MAX_FRAME + 1, 1 << 31, (1 << 32) - 1])
def test_bad_length_is_refused_as_soon_as_its_four_bytes_arrive(length: int) -> None:
    reader = FrameReader()
    reader.receive_data(length.to_bytes(4, "big"))
    assert reader.buffered == 0
    with pytest.raises(RemoteProtocolError) as info:
        reader.next_frame()
    assert info.value.code is ErrorCode.BAD_FRAME
    assert str(length) in str(info.value)
    reader.receive_data(b"z" * 1000)  # whatever follows is dropped, not buffered
    assert reader.buffered == 0
    with pytest.raises(RemoteProtocolError):
        reader.next_frame()


def test_frames_before_a_bad_length_still_come_out_first() -> None:
    reader = FrameReader()
    reader.receive_data(frame(b"a") + frame(b"bc") + (1 << 31).to_bytes(4, "big") + b"junk")
    assert reader.next_frame() == b"a"
    assert reader.next_frame() == b"bc"
    with pytest.raises(RemoteProtocolError):
        reader.next_frame()


def test_partial_frame_waits_for_more() -> None:
    reader = FrameReader()
    data = frame(b"hello")
    reader.receive_data(data[:2])
    assert reader.next_frame() is None
    reader.receive_data(data[2:7])
    assert reader.next_frame() is None
    assert reader.buffered == 3
    reader.receive_data(data[7:])
    assert reader.next_frame() == b"hello"
    assert reader.next_frame() is None


def test_end_of_stream_at_a_boundary_and_inside_a_frame() -> None:
    reader = FrameReader()
    reader.receive_data(frame(b"ok"))
    reader.receive_data(b"")
    assert reader.next_frame() == b"ok"
    assert reader.next_frame() is END_OF_STREAM
    with pytest.raises(LocalProtocolError):
        reader.receive_data(b"more")

    for cut in (b"\x00\x00", frame(b"abcdef")[:-1]):
        reader = FrameReader()
        reader.receive_data(cut)
        reader.receive_data(b"")
        with pytest.raises(RemoteProtocolError, match="ended inside a frame"):
            reader.next_frame()


def _feed(data: bytes, cuts: list[int]) -> tuple[list[bytes], type[Exception] | None]:
    """Feed ``data`` split at ``cuts``, then end it; the frames and the error, if any."""
    reader = FrameReader()
    frames: list[bytes] = []
    bounds = [0, *sorted({c for c in cuts if 0 < c < len(data)}), len(data)]
    try:
        for lo, hi in itertools.pairwise(bounds):
            reader.receive_data(data[lo:hi])
            assert reader.buffered <= MAX_FRAME + HEADER_SIZE
            while isinstance(item := reader.next_frame(), bytes):
                frames.append(item)
        reader.receive_data(b"")
        while isinstance(item := reader.next_frame(), bytes):
            frames.append(item)
        assert reader.next_frame() is END_OF_STREAM
    except RemoteProtocolError as e:
        return frames, type(e)
    return frames, None


_payloads = st.lists(st.binary(min_size=1, max_size=300), max_size=6)


@st.composite
def streams(draw: st.DrawFn) -> bytes:
    """Valid frames, sometimes with garbage or a cut mixed in."""
    data = b"".join(frame(p) for p in draw(_payloads))
    tail = draw(st.sampled_from(["none", "garbage", "huge", "cut"]))
    if tail == "garbage":
        data += draw(st.binary(max_size=20))
    elif tail == "huge":
        data += draw(st.integers(MAX_FRAME + 1, (1 << 32) - 1)).to_bytes(4, "big")
    elif tail == "cut":
        data = data[: draw(st.integers(0, len(data)))]
    return data


@settings(max_examples=150, deadline=None)
@given(data=st.one_of(streams(), st.binary(max_size=400)), cuts=st.lists(st.integers(0, 400)))
def test_whole_or_sliced_gives_the_same_frames_or_only_the_remote_error(
    data: bytes, cuts: list[int]
) -> None:
    whole = _feed(data, [])
    one_by_one = _feed(data, list(range(len(data))))
    sliced = _feed(data, cuts)
    assert whole == one_by_one == sliced


@settings(max_examples=60, deadline=None)
@given(payloads=_payloads, sizes=st.lists(st.integers(1, 7), min_size=1))
def test_slices_of_one_to_seven_bytes_give_every_frame(
    payloads: list[bytes], sizes: list[int]
) -> None:
    data = b"".join(frame(p) for p in payloads)
    cuts, pos, i = [], 0, 0
    while pos < len(data):
        pos += sizes[i % len(sizes)]
        cuts.append(pos)
        i += 1
    assert _feed(data, cuts) == (payloads, None)


def test_a_slow_peer_never_grows_the_buffer_past_one_frame() -> None:
    reader = FrameReader(max_frame=100)
    data = frame(b"q" * 100, max_frame=100) * 3
    peak = 0
    for i in range(len(data)):
        reader.receive_data(data[i : i + 1])
        peak = max(peak, reader.buffered)
        read_all(reader)
    assert peak == 99  # a body waits until its last byte arrives, then leaves at once
