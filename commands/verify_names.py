"""Who held each seat of a verified file, by the names saved beside it: read and made safe to
show, whether the file is the reader's own, and a seat in words (``Bruno (seat 1)``), with the
rounds a computer played for a person."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scopa_net.fair.transcript import Transcript
    from scopa_net.seat_holders import SavedNames


NAMES_UNSIGNED = (
    "names: from the notes saved beside the file, which the host does not sign; what is "
    "checked is each seat by its number"
)
"""Said when seats are named: a names file can be edited without a trace, the record not."""


def saved_names(path: Path, players: int) -> SavedNames:
    """The seats' names saved beside a transcript, made safe to show: by the client that
    saved it (``transcript-names/FILE.names``), else by ``history --export`` (``FILE.names``
    in the same folder); as last known, and round by round where a seat changed hands
    (:mod:`scopa_net.seat_holders`). None when there is no such file or it does not fit."""
    from scopa_net.client.files import names_beside
    from scopa_net.seat_holders import SavedNames, read_names_file

    path = path.absolute()  # FILE given from inside the transcripts folder: its parents
    for place in (names_beside(path), path.with_suffix(".names")):
        try:
            found = read_names_file(place.read_text(encoding="utf-8"), players)
        except (OSError, UnicodeDecodeError):
            continue
        if found is not None:
            return SavedNames(
                _shown(found.last),
                None if found.match is None else _shown(found.match),
                {r: _shown(n) for r, n in found.rounds.items()},
                found.computer,
            )
    return SavedNames([])


def _shown(names: list[str]) -> list[str]:
    """Saved names made safe to show, each of ``Dino, then Ivo`` on its own."""
    from scopa_net.names import clean_name
    from scopa_net.seat_holders import THEN

    return [
        THEN.join(c for c in map(clean_name, n.split(THEN)) if c) or f"seat {s}"
        for s, n in enumerate(names)
    ]


def is_mine(names: list[str], seat: int, me: str) -> bool:
    """Whether the person called ``me`` is the one the file was saved for: the name saved
    for its seat is theirs. A file without names, or a friend's, cannot tell."""
    from scopa_net.names import clean_name

    if not me or seat >= len(names):
        return False
    saved, mine = names[seat].casefold(), clean_name(me).casefold()
    # A host gives a name taken at its table a number: "Fabio (2)" is Fabio's seat there.
    numbered = re.fullmatch(r"(.+) \(\d+\)", saved)
    return saved == mine or (numbered is not None and numbered[1] == mine)


def seat_words(
    seat: int,
    mine: int,
    names: list[str],
    said: str | None = None,
    *,
    people: Sequence[int] = (),
    own: bool = False,
) -> str:
    """``Bruno (seat 1)``, ``Carla (seat 2, you)``: a seat as the person who saved the file
    reads it (the transcript's own seat is theirs). Only a client's own transcripts have
    ``names`` beside them; a file without (exported by a host, say) may be anyone's, so its
    seat is ``seat 2 (this file's seat)``, never "you". ``said``: what the verifier already
    said of it in brackets (``party 1``), kept last. ``people``: the seats people played in
    the line's round: a person's seat whose saved name is a computer's now (the person left, a
    computer took it) is ``seat 0 (now a computer player)``, as the file keeps only the last
    names."""
    from scopa_net.names import reads_as_computer, seat_named

    name = names[seat] if seat < len(names) else ""
    notes = []
    if name and seat in people and reads_as_computer(name):
        name, notes = "", ["now a computer player"]
    if seat == mine:
        notes.append("you" if own else "this file's seat")
    notes += [said] if said else []
    return seat_named(seat, name, *notes)


def computer_rounds(transcript: Transcript, names: SavedNames) -> dict[int, list[int]]:
    """Seat -> the rounds in which a computer played for the person holding it: as the names
    saved beside the file say, and at a blind table as the record itself says (a seat whose
    person is not among a round's ``people`` but which played in it: protocol.md 9.7, 9.8)."""
    from scopa_net.names import reads_as_computer

    found = {seat: set(rounds) for seat, rounds in names.computer.items()}
    for r in transcript.rounds:
        people = getattr(r, "people", None)
        if people is None or not names.last:
            continue
        held = names.of_round(r.round_no)
        for seat in {p.seat for p in r.plays} - set(people):
            who = held[seat] if seat < len(held) else ""
            if who and who != f"seat {seat}" and not reads_as_computer(who):
                found.setdefault(seat, set()).add(r.round_no)
    return {seat: sorted(rounds) for seat, rounds in sorted(found.items()) if rounds}


def computer_said(
    line: str,
    round_no: int | None,
    computer: Mapping[int, list[int]],
    held_by: Callable[[int, int], str],
) -> str:
    """What a round's line, or the match result's, adds for the seats a computer played for
    their person there: ``; a computer played for seat 1 (Nina) in round 2``. Each person by
    the seat's name in those rounds (``held_by(seat, round)``), so that a seat that changed
    hands reads ``for seat 1 (Ivo) in round 3 and for seat 1 (Lea) in round 4``."""
    from scopa_net.seat_holders import rounds_words

    if round_no is None and line.startswith("match result: "):
        said = []
        for seat, rounds in computer.items():
            by_person: dict[str, list[int]] = {}
            for r in rounds:
                by_person.setdefault(held_by(seat, r), []).append(r)
            said += [f"for {who} in {rounds_words(r)}" for who, r in by_person.items()]
    elif round_no is not None and line.startswith(f"round {round_no}: "):
        said = [f"for {held_by(seat, round_no)}" for seat, r in computer.items() if round_no in r]
    else:
        return ""
    return f"; a computer played {' and '.join(said)}" if said else ""


def left_the_table(names: SavedNames, seat: int, round_no: int) -> bool:
    """Whether the person who held ``seat`` in round ``round_no`` left it for good then, by
    the names saved beside the file: theirs in that round, a computer's from the next, and the
    match's name for it ending with the computer that finished it (``Ada, then a
    computer``). An ``absent`` void of theirs then reads "left the table", as the others'
    screens said it; without such names, "absent", the protocol's word."""
    from scopa_net.names import reads_as_computer
    from scopa_net.seat_holders import A_COMPUTER, THEN

    match, now, then = names.match, names.of_round(round_no), names.of_round(round_no + 1)
    if match is None or not seat < min(len(match), len(now), len(then)):
        return False
    finished = match[seat].endswith(f"{THEN}{A_COMPUTER}")
    return finished and now[seat] != then[seat] and reads_as_computer(then[seat])
