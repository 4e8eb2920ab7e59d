"""``scopa-net verify FILE [FILE...]``: check saved transcripts offline.

One verdict line per round, then the match result; exit status 0 only when every file verifies.
With several files, a summary follows: rounds verified, failures, and for each seat how often it
was dealt the settebello, sevens and coins against what fair deals give.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from scopa_net.commands.options import add_command
from scopa_net.commands.progress import Progress

if TYPE_CHECKING:
    from scopa_net.fair.transcript import Transcript
    from scopa_net.fair.verifier import MatchVerdict

EXIT_OK = 0
EXIT_FAILED = 1


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(
        subparsers,
        "verify",
        help="check saved match transcripts: every deal, card, play and score",
        description="Re-derive every deal of saved transcripts from the revealed seeds, check "
        "every card, replay every play and check every score.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", type=Path, help="transcript files")
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if len(args.files) == 1:
        return verify_files(args.files, print)
    with Progress("verify", len(args.files), "files", quiet=args.quiet) as progress:

        def out(line: str) -> None:
            progress.clear()
            print(line, flush=progress.terminal)

        return verify_files(args.files, out, progress.advance)


def verify_files(
    paths: list[Path], out: Callable[[str], None], done: Callable[[], None] = lambda: None
) -> int:
    """Verify each file, telling ``out`` every line and ``done`` after each file."""
    from scopa_net.fair.commitments import fingerprint
    from scopa_net.fair.errors import FairnessError
    from scopa_net.fair.transcript import decode
    from scopa_net.fair.verifier import verify_transcript

    several = len(paths) > 1
    all_ok = True
    rounds_ok = failures = 0
    hands: dict[int, dict[bytes, tuple[int, ...]]] = defaultdict(dict)
    for path in paths:
        try:
            if several:
                out(f"== {path}")
            try:
                transcript = decode(path.read_bytes())
            except OSError as exc:
                out(f"{path}: cannot read: {exc.strerror or exc}")
                all_ok = False
                failures += 1
                continue
            except FairnessError as exc:
                out(f"{path}: {exc}")
                all_ok = False
                failures += 1
                continue
            verdict = verify_transcript(transcript)
            out(
                f"seat {transcript.seat}, {transcript.rules.describe()}, "
                f"host key {fingerprint(transcript.host_key)}"
            )
            for line in verdict.lines():
                out(line)
            out("VERIFIED" if verdict.ok else "NOT VERIFIED")
            all_ok &= verdict.ok
            rounds_ok += sum(r.ok for r in verdict.rounds)
            failures += len(verdict.failures)
            for round_id, hand in _verified_hands(transcript, verdict):
                hands[transcript.seat][round_id] = hand
        finally:
            done()
    if several:
        _summary(out, len(paths), rounds_ok, failures, hands)
    return EXIT_OK if all_ok else EXIT_FAILED


def _verified_hands(t: Transcript, verdict: MatchVerdict) -> list[tuple[bytes, tuple[int, ...]]]:
    """The seat's hands in verified rounds that were dealt and played (void ones left out)."""
    return [
        (r.round_id, tuple(c.card for c in r.hand))
        for r, v in zip(t.rounds, verdict.rounds, strict=True)
        if v.ok and r.void is None and r.hand
    ]


def _summary(
    out: Callable[[str], None],
    files: int,
    rounds_ok: int,
    failures: int,
    hands: dict[int, dict[bytes, tuple[int, ...]]],
) -> None:
    from scopa_net.fair.stats import seat_tallies

    out("== summary")
    out(f"files: {files}, rounds verified: {rounds_ok}, failures: {failures}")
    if not hands:
        return
    out("cards dealt to each seat in verified rounds, against fair deals (95% band):")
    for seat in sorted(hands):
        rounds = hands[seat]
        parts = []
        for tally in seat_tallies(rounds.values()):
            low, high = tally.band
            flag = "" if tally.within else " OUTSIDE"
            parts.append(
                f"{tally.name} {tally.observed} (expected {tally.expected:.1f}, "
                f"{low:.1f}-{high:.1f}){flag}"
            )
        out(f"  seat {seat}, {len(rounds)} rounds: " + "; ".join(parts))
    out("A count outside its band happens by chance about one time in twenty per figure.")
