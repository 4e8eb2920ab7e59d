"""Who held each seat of a match, round by round, and the ``.names`` file that says so.

Transcripts know seats only (protocol.md 6.1), and a seat can change hands: a person leaves
for good, a computer stands in, another person takes the seat. :class:`SeatHolders` follows
the holders as a host or a client sees them, so that ``verify`` names each round's seats by
whoever held them in that round, and ``history`` names everyone who played a seat.

A round's name for a seat is the people who held it during the round, in order (``Dino``, or
``Dino, then Ivo``); a computer's name only where no person held it (a computer standing in
for a person who left is not the seat's player). The match's name for a seat is everyone who
held it, people in order, then the computer that finished the match for the last person who
left (``Dino, then Ivo``; ``Dino, then a computer``: not ``bot 2``, a name no computer player
at the table had). A person's rename changes their name in place: it is the same person
(``Carla`` renamed ``Carlotta`` reads ``Carlotta``).

A computer that plays for a person who still holds the seat (away past the grace time,
stepped away, or sitting a blind round out) does not take the seat from them: they stay its
holder, and the rounds it played in are kept apart (``computer``), so that a result is never
credited to someone absent without saying a computer played for them ("a computer played for
Nina in round 2"). Each such round keeps the person it played for (``computer_for``): a seat
that changed hands says it per person ("for Ivo in round 3 and for Lea in round 4").

The ``.names`` file beside a transcript is one name a line by seat, as last known; when a
seat changed hands in the match, ``match`` and ``round N`` lines follow, each the seats'
names tab-separated (a name holds no tab: :mod:`scopa_net.names` makes it a space); when a
computer played for a seat's person, a ``computer`` line follows, each seat's rounds
space-separated (``computer\t\t2\t``: seat 1's person, in round 2). A file where nobody changed
seat and no computer played for anyone is the seat lines alone, as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

Holder = tuple[str, bool]
"""A seat's holder: the name shown, and whether a person (not a computer, nor nobody)."""

THEN = ", then "
A_COMPUTER = "a computer"
"""The match's last holder of a seat whose person left for good (the host's computer)."""


def _add(holders: list[Holder], holder: Holder) -> None:
    """``holder`` holds the seat from now on. A person after a person is a rename: another
    person takes a seat only after its last one left it (a computer or nobody between), so
    the name is replaced in place rather than counted as a second holder."""
    if holders and holders[-1][1] and holder[1]:
        holders[-1] = holder
    elif not holders or holders[-1] != holder:
        holders.append(holder)


def rounds_words(rounds: Sequence[int]) -> str:
    """``round 2``, ``rounds 1-5``, ``rounds 1, 3 and 5-6``: the rounds given, in order."""
    spans: list[list[int]] = []
    for r in sorted(set(rounds)):
        if spans and r == spans[-1][1] + 1:
            spans[-1][1] = r
        else:
            spans.append([r, r])
    shown = [f"{a}" if a == b else f"{a}-{b}" for a, b in spans]
    if len(shown) == 1 and "-" not in shown[0]:
        return f"round {shown[0]}"
    listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
    return f"rounds {listed}"


def computer_words(
    names: Sequence[str],
    computer: Sequence[Sequence[int]],
    played_for: Sequence[Sequence[tuple[int, str]]] | None = None,
    *,
    you: str = "",
) -> str:
    """``a computer played for Nina in round 2 and for Marco in rounds 1-5``: for each seat,
    the rounds a computer played for its person; "" if none. ``played_for``: by seat, each
    round and the person it played for then (a seat can change hands: ``for Ivo in round 3
    and for Lea in round 4``); a seat without them (kept before they were) is said by its
    name in ``names``, with its rounds in ``computer``. ``you``: the reader's own name, said
    ``you`` (``a computer played for you in round 2``), as their own plays are "You play"."""
    said = []
    for seat, rounds in enumerate(computer):
        if not rounds or seat >= len(names):
            continue
        whose = list(played_for[seat]) if played_for and seat < len(played_for) else []
        by_person: dict[str, list[int]] = {}
        for round_no, person in whose or [(r, names[seat]) for r in rounds]:
            by_person.setdefault(person, []).append(round_no)
        said += [
            f"for {'you' if you and person == you else person} in {rounds_words(r)}"
            for person, r in by_person.items()
        ]
    return "a computer played " + " and ".join(said) if said else ""


def round_words(holders: Sequence[Holder]) -> str:
    """A seat's name in one round: its people in order, else the last name it had."""
    people = list(dict.fromkeys(name for name, person in holders if person))
    return THEN.join(people) if people else (holders[-1][0] if holders else "")


def match_words(holders: Sequence[Holder]) -> str:
    """A seat's name over a match: its people in order, then ``a computer`` if the last
    person left and the host's computer finished the match; with no person, the last name it
    had (a computer player's own: ``bot 3``)."""
    people = list(dict.fromkeys(name for name, person in holders if person))
    if not people:
        return holders[-1][0] if holders else ""
    last, person = holders[-1]
    return THEN.join(people + ([] if person or last in people else [A_COMPUTER]))


@dataclass
class SeatHolders:
    """The holders of every seat of one match: over the match, and in each round dealt."""

    players: int
    match: list[list[Holder]] = field(default_factory=list)
    rounds: dict[int, list[list[Holder]]] = field(default_factory=dict)
    in_play: int | None = None
    """The round in play (its holders are being followed), if one is."""
    over: bool = False
    """The match is over: who leaves or sits down after it did not play it."""
    computer: dict[int, list[int]] = field(default_factory=dict)
    """Seat -> the rounds in which a computer played for the person holding it, in order."""
    computer_for: dict[int, list[tuple[int, str]]] = field(default_factory=dict)
    """Seat -> each round a computer played for a person there, and that person's name."""

    def __post_init__(self) -> None:
        self.match = self.match or [[] for _ in range(self.players)]

    def round_opened(self, round_no: int, now: Sequence[Holder]) -> None:
        """Round ``round_no`` begins with ``now`` holding the seats."""
        self.rounds[round_no] = [[h] for h in now]
        self.in_play = round_no
        for seat, holder in enumerate(now):
            _add(self.match[seat], holder)

    def round_closed(self) -> None:
        """The round in play is over (played out, or void): later changes are not its."""
        self.in_play = None

    def match_over(self) -> None:
        self.in_play, self.over = None, True

    def seated(self, seat: int, holder: Holder) -> None:
        """``seat`` is held by ``holder`` from now on."""
        if not 0 <= seat < self.players or self.over:
            return
        before = self.match[seat][-1] if self.match[seat] else None
        if before and before[1] and holder[1] and before[0] != holder[0]:  # a rename
            whose = self.computer_for.get(seat, [])
            whose[:] = [(r, holder[0] if w == before[0] else w) for r, w in whose]
        if any(self.match):  # the match has begun: before, who sits down is not yet news
            _add(self.match[seat], holder)
        if self.in_play is not None:
            _add(self.rounds[self.in_play][seat], holder)

    def computer_played(self, seat: int) -> None:
        """A computer just played at ``seat`` for the person holding it, in the round in play."""
        if self.in_play is None or self.over or not 0 <= seat < self.players:
            return
        rounds = self.computer.setdefault(seat, [])
        if not rounds or rounds[-1] != self.in_play:
            rounds.append(self.in_play)
        name, person = self.rounds[self.in_play][seat][-1]
        whose = self.computer_for.setdefault(seat, [])
        if person and (self.in_play, name) not in whose:
            whose.append((self.in_play, name))

    def computer_rounds(self) -> list[list[int]]:
        """For each seat, the rounds in which a computer played for its person."""
        return [list(self.computer.get(seat, ())) for seat in range(self.players)]

    def computer_people(self) -> list[list[tuple[int, str]]]:
        """For each seat, each round a computer played for a person there, with the person's
        name (two in a round where the seat changed hands)."""
        return [list(self.computer_for.get(seat, ())) for seat in range(self.players)]

    def began(self) -> bool:
        """Whether a round of the match was opened (before, nobody has played a seat)."""
        return bool(self.rounds)

    def match_names(self) -> list[str]:
        return [match_words(h) for h in self.match]

    def last_names(self) -> list[str]:
        """Each seat's last holder (``seat N`` for one never held)."""
        return [h[-1][0] if h else f"seat {s}" for s, h in enumerate(self.match)]

    def round_names(self, round_no: int) -> list[str] | None:
        held = self.rounds.get(round_no)
        return None if held is None else [round_words(h) for h in held]

    def names_file(self, last: Sequence[str]) -> str:
        """The ``.names`` file: ``last`` (the seats' names as last known), one a line, then
        the match's and each round's names where a seat changed hands (none if none did)."""
        text = "".join(f"{n}\n" for n in last)
        extra = []
        match = self.match_names()
        if any(m and m != n for m, n in zip(match, last, strict=False)):
            extra.append("\t".join(["match", *match]))
        for round_no in sorted(self.rounds):
            names = self.round_names(round_no) or []
            if names != list(last):
                extra.append("\t".join([f"round {round_no}", *names]))
        if self.computer:
            rounds = [" ".join(map(str, r)) for r in self.computer_rounds()]
            extra.append("\t".join(["computer", *rounds]))
        return text + "".join(f"{line}\n" for line in extra)


@dataclass(frozen=True)
class SavedNames:
    """A ``.names`` file read back: the seats' last names, and those of the match and of each
    round where a seat changed hands."""

    last: list[str]
    match: list[str] | None = None
    rounds: dict[int, list[str]] = field(default_factory=dict)
    computer: dict[int, list[int]] = field(default_factory=dict)
    """Seat -> the rounds in which a computer played for its person (the ``computer`` line)."""

    def of_round(self, round_no: int | None) -> list[str]:
        """The seats' names in round ``round_no`` (``None``: the match's)."""
        if round_no is None:
            return self.match or self.last
        return self.rounds.get(round_no, self.last)

    def by_round(self) -> bool:
        """Whether the file names some round's seats apart from the last names."""
        return bool(self.rounds)


def read_names_file(text: str, players: int) -> SavedNames | None:
    """A ``.names`` file's names (raw: the caller makes them safe to show); None if it does
    not fit a table of ``players`` seats."""
    lines = text.splitlines()
    head, rest = lines[:players], lines[players:]
    if len(head) != players or any("\t" in line for line in head):
        return None
    match: list[str] | None = None
    rounds: dict[int, list[str]] = {}
    computer: dict[int, list[int]] = {}
    for line in rest:
        tag, *names = line.split("\t")
        if len(names) != players:
            return None
        if tag == "computer":
            if not all(n.isdigit() for cell in names for n in cell.split()):
                return None
            computer = {s: [int(n) for n in c.split()] for s, c in enumerate(names) if c.strip()}
        elif tag == "match":
            match = names
        elif tag.startswith("round ") and tag[6:].isdigit():
            rounds[int(tag[6:])] = names
        else:
            return None
    return SavedNames(head, match, rounds, computer)
