"""Who held each seat of a match, round by round, and the ``.names`` file that says so.

Transcripts know seats only (protocol.md 6.1), and a seat can change hands: a person leaves
for good, a computer stands in, another person takes the seat. :class:`SeatHolders` follows
the holders as a host or a client sees them, so that ``verify`` names each round's seats by
whoever held them in that round, and ``history`` names everyone who played a seat.

A round's name for a seat is the people who held it during the round, in order (``Dino``, or
``Dino, then Ivo``); a computer's name only where no person held it (a computer standing in
for a person who left is not the seat's player). The match's name for a seat is everyone who
held it, people in order, then the computer that finished the match for the last person who
left (``Dino, then Ivo``; ``Dino, then bot 2``). A person's rename changes their name in
place: it is the same person (``Carla`` renamed ``Carlotta`` reads ``Carlotta``).

The ``.names`` file beside a transcript is one name a line by seat, as last known; when a
seat changed hands in the match, ``match`` and ``round N`` lines follow, each the seats'
names tab-separated (a name holds no tab: :mod:`scopa_net.names` makes it a space). A file
where nobody changed seat is the seat lines alone, as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

Holder = tuple[str, bool]
"""A seat's holder: the name shown, and whether a person (not a computer, nor nobody)."""

THEN = ", then "


def _add(holders: list[Holder], holder: Holder) -> None:
    """``holder`` holds the seat from now on. A person after a person is a rename: another
    person takes a seat only after its last one left it (a computer or nobody between), so
    the name is replaced in place rather than counted as a second holder."""
    if holders and holders[-1][1] and holder[1]:
        holders[-1] = holder
    elif not holders or holders[-1] != holder:
        holders.append(holder)


def round_words(holders: Sequence[Holder]) -> str:
    """A seat's name in one round: its people in order, else the last name it had."""
    people = list(dict.fromkeys(name for name, person in holders if person))
    return THEN.join(people) if people else (holders[-1][0] if holders else "")


def match_words(holders: Sequence[Holder]) -> str:
    """A seat's name over a match: its people in order, then the computer that finished the
    match if the last person left; with no person, the last name it had."""
    people = list(dict.fromkeys(name for name, person in holders if person))
    if not people:
        return holders[-1][0] if holders else ""
    last, person = holders[-1]
    return THEN.join(people + ([] if person or last in people else [last]))


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
        if any(self.match):  # the match has begun: before, who sits down is not yet news
            _add(self.match[seat], holder)
        if self.in_play is not None:
            _add(self.rounds[self.in_play][seat], holder)

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
        return text + "".join(f"{line}\n" for line in extra)


@dataclass(frozen=True)
class SavedNames:
    """A ``.names`` file read back: the seats' last names, and those of the match and of each
    round where a seat changed hands."""

    last: list[str]
    match: list[str] | None = None
    rounds: dict[int, list[str]] = field(default_factory=dict)

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
    for line in rest:
        tag, *names = line.split("\t")
        if len(names) != players:
            return None
        if tag == "match":
            match = names
        elif tag.startswith("round ") and tag[6:].isdigit():
            rounds[int(tag[6:])] = names
        else:
            return None
    return SavedNames(head, match, rounds)
