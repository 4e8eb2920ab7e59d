"""One transcript's verdict in ``scopa-net verify``'s words: its first lines (whose file, its
rules, its host key, and whether that key is trusted), a line for each round (a failure first in
a player's words, then the verifier's own as evidence), the match result, and the last word
(VERIFIED, UNFINISHED, NOT VERIFIED)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from scopa_net.commands.verify_gaps import gap_words
from scopa_net.commands.verify_keys import THIS_MACHINE, normal_fingerprint, refusal
from scopa_net.commands.verify_names import (
    NAMES_UNSIGNED,
    computer_rounds,
    computer_said,
    left_the_table,
    seat_words,
)
from scopa_net.commands.verify_order import saved_words
from scopa_net.commands.verify_summary import Summary, count_round, tally_transcript

if TYPE_CHECKING:
    from scopa_net.fair.transcript import Stopped, Transcript
    from scopa_net.fair.verifier import MatchVerdict
    from scopa_net.seat_holders import SavedNames


def verify_one(
    transcript: Transcript,
    out: Callable[[str], None],
    summary: Summary,
    pins: Mapping[str, str],
    *,
    names: SavedNames,
    own: bool,
    saved: float | None = None,
) -> str:
    """Verify one transcript and tell ``out`` every line; what became of it (``OUTCOMES``).
    A round's line names each seat by whoever held it in that round; the match result, by
    everyone who held it. ``saved``: the file's modification time, said under its first line
    (the transcript records no time of its own)."""
    from scopa_net.fair.blind.verifier import verify_any as verify_transcript
    from scopa_net.fair.commitments import fingerprint

    mine = transcript.seat

    def named(line: str, people: Sequence[int] = (), round_no: int | None = None) -> str:
        held = names.of_round(round_no)
        if round_no is not None:  # "seat 1 absent" of one who left for good: said so
            line = re.sub(
                r"\bseat (\d+) absent\b(?! at| too)",
                lambda f: (
                    f"seat {f[1]} left the table"
                    if left_the_table(names, int(f[1]), round_no)
                    else f[0]
                ),
                line,
            )
        return re.sub(
            r"\bseat (\d+)\b(?: \(([^()]*)\))?",
            lambda f: seat_words(int(f[1]), mine, held, f[2], people=people, own=own),
            line,
        )

    for seat, name in enumerate(names.of_round(None)):
        if name and name not in summary.names[seat]:
            summary.names[seat].append(name)
    fp = fingerprint(transcript.host_key)
    whose = seat_words(mine, mine, names.of_round(None), own=own)  # everyone who held it
    out(f"{whose}, {transcript.rules.describe()}, host key {fp}")
    if saved is not None:
        out(saved_words(saved))
    if pins and normal_fingerprint(fp) not in pins:
        for line in refusal(fp, pins):
            out(line)
        out("NOT VERIFIED")
        return "refused"
    if not pins:
        out("no pinned host key to compare with: check the fingerprint with the host's, or --pin")
    elif pins[normal_fingerprint(fp)].startswith(THIS_MACHINE):
        out(f"host key {fp}: {pins[normal_fingerprint(fp)]}")
    if names.last:
        out(NAMES_UNSIGNED)
    if transcript.stopped is not None:
        s = transcript.stopped
        out(
            named(
                f"saved as evidence when the client stopped: {stopped_words(s)}",
                round_no=s.round_no,
            )
        )
    verdict = verify_transcript(transcript)
    computer = computer_rounds(transcript, names)

    def held_by(seat: int, round_no: int) -> str:
        return seat_words(seat, mine, names.of_round(round_no), own=own)

    for line, people, round_no in report(transcript, verdict):
        said = computer_said(line, round_no, computer, held_by)
        out(named(line, people, round_no) + said)
    gap = gap_words(transcript)
    if gap is not None:
        out(gap)
    unchecked = verdict.not_fair_checked
    if verdict.ok:
        extra = f", but {unchecked} round(s) not fair-checked: no player seed" if unchecked else ""
        out(f"VERIFIED{extra}" if verdict.whole else f"{PARTLY_VERIFIED}{extra}")
    elif not verdict.finished and not verdict.failures and transcript.stopped is not None:
        s = transcript.stopped
        out(stopped_undecided(s.round_no, s.check))
    elif not verdict.finished and not verdict.failures:
        out(
            "UNFINISHED: this file ends before the match's end, so it is not verified (it is "
            "saved complete only if this seat is at the table when the match ends: a seat that "
            "left for good gets no later file)"
        )
    else:
        out("NOT VERIFIED")
    for v, r in zip(verdict.rounds, _records(transcript, verdict), strict=True):
        count_round(summary, v, r)
    tally_transcript(transcript, verdict, summary, names)
    if verdict.ok:
        return "verified" if verdict.whole else "partly"
    return "unfinished" if not verdict.finished and not verdict.failures else "failed"


SNAPSHOT_CONTRADICTED = (
    "the host caught this seat up with a snapshot that gives other points, or another next "
    "dealer, than the rounds this file holds, which the seat checked: the host told it "
    "another match than the one it played (the snapshot as the seat's client recorded it: a "
    "snapshot carries no signature)"
)
"""What a file of a seat caught up by snapshot shows when the snapshot's word contradicts the
rounds the seat checked itself (protocol.md 6.2)."""
PARTLY_VERIFIED = (
    "VERIFIED as far as this seat saw the match: the rounds said above as not checked, and "
    "the points before the rounds it followed, are the host's word"
)
"""The last line of a file of a seat caught up by snapshot (protocol.md 6.3) whose every
round it holds and whose signed end verify."""


def stopped_undecided(round_no: int, check: str) -> str:
    """The last line of an evidence file whose every round verifies (6.3): the check that
    stopped the client (its name as the file says it, an older file's class name too) is not
    one the file can repeat."""
    from scopa_net.fair.check_names import words_of

    check = words_of(check)
    return (
        f"UNFINISHED: the client stopped here on a check this file cannot repeat (round "
        f"{round_no}, {check}, said above): every round it holds verifies, and what failed "
        "is what the host told the seat outside them (such as a snapshot, which carries no "
        "signature), so this file alone cannot show whether the host lied"
    )


def stopped_words(s: Stopped) -> str:
    """What stopped the client, as its file says: ``round 2, misrouted card: deal 1: ...``
    (an older file's class name, ``MisroutedCardError``, read as the check's name)."""
    from scopa_net.fair.check_names import words_of

    check = words_of(s.check)
    return f"round {s.round_no}, " + (
        s.detail if s.detail.startswith(check) else f"{check}: {s.detail}"
    )


def report_lines(transcript: Transcript, verdict: MatchVerdict) -> list[str]:
    """A line for each round and one for the match result. A failure leads with what it
    means to a player, then its verdict as the verifier gives it (the evidence), indented."""
    return [line for line, _, _ in report(transcript, verdict)]


def report(
    transcript: Transcript, verdict: MatchVerdict
) -> list[tuple[str, Sequence[int], int | None]]:
    """:func:`report_lines`, each with the seats people played in its round (blind tables;
    none otherwise, and for the match result) and the round's number (None: the match)."""
    from scopa_net.fair.check_names import check_line
    from scopa_net.fair.plain_words import what_failed

    lines: list[tuple[str, Sequence[int], int | None]] = []
    takes = [told.round_no for told in transcript.caught_ups]
    groups = _caught_up_lines(verdict)  # (one a catch-up, said where its rounds begin)
    if not takes:  # (a blind file that begins mid-match: said before its rounds)
        lines += [line for group in groups for line in group]
        groups = []
    for r, record in zip(verdict.rounds, _records(transcript, verdict), strict=True):
        while takes and groups and r.round_no > takes[0]:
            lines += groups.pop(0)
            takes.pop(0)
        people = getattr(record, "people", ())
        if r.error is None:
            lines.append((r.text(), people, r.round_no))
        else:
            lines += [
                (f"round {r.round_no}: {what_failed(r.error, people)}", people, r.round_no),
                (f"  {_by_seat(r.text(), r.error, people)}", people, r.round_no),
            ]
    lines += [line for group in groups for line in group]
    error = verdict.result_error
    if error is not None:
        lines += [
            (f"match result: {what_failed(error)}", (), None),
            (f"  match result: FAILED: {check_line(error)}", (), None),
        ]
    else:
        lines.append((f"match result: {result_words(transcript, verdict.result_note)}", (), None))
    return lines


def _caught_up_lines(verdict: MatchVerdict) -> list[list[tuple[str, Sequence[int], int | None]]]:
    """What a file of a seat caught up by snapshot shows of the snapshots (6.2), a group of
    lines for each: the rounds the file could not check, the first group led by the word of a
    snapshot the rounds the seat checked contradict."""
    groups = [[(line, (), None)] for line in verdict.unseen.splitlines()] or [[]]
    caught = verdict.caught_up_error
    if caught is not None:
        groups[0][:0] = [
            (f"caught up: {SNAPSHOT_CONTRADICTED}", (), None),
            (f"  caught up: FAILED: {type(caught).__name__}: {caught}", (), None),
        ]
    return [group for group in groups if group]


def _records(transcript: Transcript, verdict: MatchVerdict) -> list[object]:
    """Each verdict's round record, or ``None`` where the transcript has none."""
    rounds = list(transcript.rounds)
    return [rounds[i] if i < len(rounds) else None for i in range(len(verdict.rounds))]


def _by_seat(text: str, error: Exception, people: Sequence[int]) -> str:
    """A blind verdict's ``bad play proof (party 4): ...`` as ``bad play proof, by seat 3
    (party 4): ...``: the verdict's name stays as protocol.md 9.9 gives it, and the seat
    (named by the caller) says whose it is."""
    from scopa_net.fair.blind.errors import BlindCheckError
    from scopa_net.fair.plain_words import who_is

    party = getattr(error, "party", None)
    if not isinstance(error, BlindCheckError) or party is None:
        return text
    if party != 0 and party > len(people):
        return text
    return text.replace(
        f"{error.check} (party {party}):",
        f"{error.check}, by {who_is(party, people)} (party {party}):",
        1,
    )


def result_words(transcript: Transcript, note: str) -> str:
    """The match result the verifier checked, in seats' words: who won, and by how much."""
    rules = transcript.rules
    scores = transcript.result.scores
    winner = transcript.result.winner

    def side(s: int) -> str:
        return " and ".join(f"seat {seat}" for seat in rules.seats_of(s))

    if note.startswith("UNFINISHED"):
        so_far = ", ".join(f"{n} for {side(s)}" for s, n in enumerate(scores))
        return (
            "UNFINISHED: this file ends before the match's end, where the host signs the final "
            f"result; points so far: {so_far}"
        )
    if not note.startswith("verified"):
        return note  # not checked, since a round failed
    if winner is None:
        points = ", ".join(f"{n} for {side(s)}" for s, n in enumerate(scores))
        return f"verified: no one has won yet; points: {points}"
    against = ", ".join(f"{n} for {side(s)}" for s, n in enumerate(scores) if s != winner)
    return f"verified: {side(winner)} won the match with {scores[winner]} points, against {against}"
