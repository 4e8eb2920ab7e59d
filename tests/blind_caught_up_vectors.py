"""protocol.md 9.11's worked transcripts of a blind seat caught up by snapshot mid-match: the
files ``interop/vectors/blind-caught-up-8.scopa`` (one catch-up, version 8) and
``interop/vectors/blind-caught-up-10.scopa`` (two, version 10), made with scopa_net from a
simulated match, and their ``vectors`` blocks.

``tests/test_blind_caught_up_vectors.py`` checks that the files and the document hold exactly
what this makes, and that every verifier (ours, the outsiders' blind verifier, the JavaScript
one) gives the verdicts the blocks say. To write them again (after a change to the transcript
format, say), write the files and print the blocks, and paste each over its own in
protocol.md::

    python tests/blind_caught_up_vectors.py
"""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path
from typing import NamedTuple

from scopa_net.fair.blind.simulate import simulate_blind_match
from scopa_net.fair.blind.verifier import BlindRoundByRoundVerifier
from scopa_net.fair.transcript import CaughtUp, Transcript
from scopa_net.rules import RuleSet

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "interop" / "vectors"
RULES = RuleSet.of(2, 11)
"""Two seats, a match to 11 with no variant."""
PEOPLE = (1,)
"""Seat 1 a person (party 1), seat 0 the host's computer player (party 0), as in blind-2."""
SEATED = ("computer", "person")


class Case(NamedTuple):
    name: str
    seed: int
    """``simulate_blind_match``'s seed: the match played (every round id, seed, play)."""
    kept: tuple[int, ...]
    """The rounds seat 1 followed, and so holds."""
    caught_up: tuple[int, ...]
    """The rounds after which a snapshot caught seat 1 up (each ``caught_up.round_no``)."""


CASES = (
    Case("blind-caught-up-8", 7, (1, 3, 4), (2,)),
    Case("blind-caught-up-10", 2, (1, 3, 5), (2, 4)),
)


def told_after(t: Transcript, n: int) -> CaughtUp:
    """What an honest snapshot taken after round ``n`` told: the points and the next dealer
    that replaying rounds 1 to ``n`` gives."""
    v = BlindRoundByRoundVerifier(t.rules, t.host_key, t.seat)
    for r in t.rounds[:n]:
        assert v.add(r).ok
    given = v.match_result
    assert given is not None
    return CaughtUp(n, given[0], v.next_dealer)


def made(case: Case) -> bytes:
    """The file of ``case``: seat 1's transcript holding the rounds it followed, each as
    version 6 records it, and what each snapshot told."""
    whole = simulate_blind_match(RULES, case.seed, people=PEOPLE).transcripts[0]
    assert whole.seat == 1
    assert whole.result.sig is not None
    rounds = tuple(
        dataclasses.replace(r, seated=SEATED) for r in whole.rounds if r.round_no in case.kept
    )
    first, *again = (told_after(whole, n) for n in case.caught_up)
    kept = dataclasses.replace(
        whole, rounds=rounds, caught_up=first, caught_up_again=tuple(again), blind_version=6
    )
    return kept.encode()


def block(case: Case, data: bytes) -> str:
    """``case`` as a block of 9.11: the file, what it holds, and the verdict on it."""
    whole = simulate_blind_match(RULES, case.seed, people=PEOPLE).transcripts[0]
    lines = [
        f"case: {case.name}",
        f"file: interop/vectors/{case.name}.scopa",
        f"size: {len(data)}",
        f"sha256: {hashlib.sha256(data).hexdigest()}",
        f"version: {8 if len(case.caught_up) == 1 else 10}",
        f"host_key: {whole.host_key.hex()}",
        f"seat: {whole.seat}",
        f"rounds: {' '.join(map(str, case.kept))}",
    ]
    for i, n in enumerate(case.caught_up):
        told = told_after(whole, n)
        lines += [
            f"caught_up.{i}.round_no: {told.round_no}",
            f"caught_up.{i}.scores: {' '.join(map(str, told.scores))}",
            f"caught_up.{i}.dealer: {told.dealer}",
        ]
    lines += [
        f"result.scores: {' '.join(map(str, whole.result.scores))}",
        f"result.winner: {whole.result.winner}",
        f"verified: {' '.join(map(str, case.kept))}",
        f"not_checked: {' '.join(str(n) for n in range(1, max(case.kept)) if n not in case.kept)}",
        "verdict: verified as far as this seat saw",
    ]
    return "```vectors\n" + "\n".join(lines) + "\n```"


if __name__ == "__main__":
    FOLDER.mkdir(exist_ok=True)
    for case in CASES:
        data = made(case)
        (FOLDER / f"{case.name}.scopa").write_bytes(data)
        print(block(case, data))
        print()
