"""Wire codec speed: frames encoded and decoded per second, against raw msgpack.

The payloads are a mix a table really sends (``played`` and ``ack`` most, then ``deal``,
``chat``, ``ping`` and a mid-round ``snapshot``). Encoding builds each frame from its message;
decoding feeds the whole stream through a :class:`FrameReader` in 4096-byte reads, as a socket
would, and decodes and validates every frame. The baseline is plain ``msgpack.packb`` /
``msgpack.unpackb`` of the same maps, with no framing, limits or field checks. Each figure is the
median of several runs in this one process.

    python benchmarks/protocol.py [--runs 7] [--frames 20000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import msgpack

from scopa_net.cards import CARDS
from scopa_net.match import Match
from scopa_net.rules import RuleSet
from scopa_net.wire import messages as m
from scopa_net.wire.codec import decode, encode
from scopa_net.wire.convert import snapshot_of
from scopa_net.wire.framing import FrameReader
from scopa_net.wire.records import Message


def sample_messages(count: int, seed: int) -> list[Message]:
    rng = random.Random(seed)
    match = Match(RuleSet.of(4, 21, ["napola"]), first_dealer=0)
    deck = list(CARDS)
    rng.shuffle(deck)
    match.deal(deck)
    for _ in range(9):
        codes = match.round.legal_codes()  # type: ignore[union-attr]
        match.push_code(codes[rng.randrange(len(codes))])
    snap = snapshot_of(match.view_for(1), seq=40, table_id=3)
    salt = bytes(rng.randrange(256) for _ in range(16))
    dealt = tuple(m.DealtCard(pos=i, card=(i * 7) % 40, salt=salt) for i in range(3))
    kinds: list[Callable[[int], Message]] = [
        lambda i: m.Played(
            seq=i + 1, seat=i % 4, card=24, captured=(1 << 20) | 2, sweep=False, pos=17, salt=salt
        ),
        lambda i: m.Ack(move_id=i + 1, seq=i + 1, duplicate=False),
        lambda i: m.Played(
            seq=i + 1, seat=i % 4, card=i % 40, captured=0, sweep=False, pos=i % 40, salt=salt
        ),
        lambda i: m.Deal(seq=i + 1, hand=dealt, table=(), stock=12),
        lambda i: m.Chat(seq=i + 1, seat=i % 4, text="bella presa!"),
        lambda i: m.Ping(nonce=i),
        lambda i: snap,
    ]
    weights = [30, 30, 20, 5, 8, 5, 2]
    return [rng.choices(kinds, weights)[0](i) for i in range(count)]


def timed(fn: Callable[[], object], runs: int) -> float:
    """Median seconds of ``runs`` calls."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--frames", type=int, default=20_000)
    parser.add_argument(
        "--repeats", type=int, default=200, help="calls of the fair-deal work timed in each run"
    )
    args = parser.parse_args()

    msgs = sample_messages(args.frames, seed=1)
    maps = [msg.to_map() for msg in msgs]
    stream = b"".join(encode(msg) for msg in msgs)
    payloads = [msgpack.packb(d, use_bin_type=True) for d in maps]
    n = len(msgs)

    def ours_encode() -> None:
        for msg in msgs:
            encode(msg)

    def raw_encode() -> None:
        for d in maps:
            msgpack.packb(d, use_bin_type=True)

    def ours_decode() -> None:
        reader = FrameReader()
        got = 0
        for i in range(0, len(stream), 4096):
            reader.receive_data(stream[i : i + 4096])
            while isinstance(payload := reader.next_frame(), bytes):
                decode(payload)
                got += 1
        assert got == n

    def raw_decode() -> None:
        for p in payloads:
            msgpack.unpackb(p)

    print(f"{n} frames, {len(stream) / n:.0f} bytes each on average, median of {args.runs} runs")
    print(f"{'':8} {'scopa_net.wire':>16} {'raw msgpack':>14} {'ratio':>7}")
    for label, ours, raw in (
        ("encode", ours_encode, raw_encode),
        ("decode", ours_decode, raw_decode),
    ):
        t_ours, t_raw = timed(ours, args.runs), timed(raw, args.runs)
        print(
            f"{label:8} {n / t_ours:>12,.0f} f/s {n / t_raw:>10,.0f} f/s "
            f"{t_ours / t_raw:>6.1f}x slower"
        )
    # The other half of the protocol's cost: one round's fair-deal work (benchmarks/fairness.py).
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from fairness import bench

    for rules in (RuleSet.of(2), RuleSet.of(4)):
        bench(rules, args.runs, args.repeats)


if __name__ == "__main__":
    main()
