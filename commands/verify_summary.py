"""What ``scopa-net verify`` keeps of every file it checks, for the summary after several:
what became of each file and each round (a round in several seats' files once), the seeds left
out, the blind tables' absent and stopped rounds, a host that showed two seats different
records, and the cards each person was dealt."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scopa_net.fair.transcript import Transcript
    from scopa_net.fair.verifier import MatchVerdict, RoundVerdict
    from scopa_net.seat_holders import SavedNames


ROUND_OUTCOMES = ("not replayed", "void", "verified", "failed")
"""What can become of a round, from the least said of it to the most (of two copies of one
round, the later counts)."""


NOT_REPLAYED = "play not replayed"
"""In a round's note: its cards were checked, but not its play, as an earlier round failed."""


@dataclass
class Summary:
    outcomes: dict[str, list[Path]] = field(default_factory=lambda: defaultdict(list))
    """What became of each file given: an ``OUTCOMES`` kind -> the files."""
    rounds: dict[object, str] = field(default_factory=dict)
    """round id -> what became of the round (a ``ROUND_OUTCOMES`` kind), once however many
    files hold it: the worst of its copies."""
    hands: dict[int, dict[bytes, tuple[int, ...]]] = field(
        default_factory=lambda: defaultdict(dict)
    )
    exclusions: dict[bytes, tuple[tuple[int, str], ...]] = field(default_factory=dict)
    """round id -> (seat, reason) left out, each round once however many files hold it."""
    unchecked: set[bytes] = field(default_factory=set)
    """Round ids dealt with no person's seed."""
    absent: dict[bytes, tuple[int, ...]] = field(default_factory=dict)
    """Blind tables: round id -> the seats an ``absent`` void counts absent: the seat it
    names, then any other person whose seed never came (9.9)."""
    stopped: dict[bytes, int | None] = field(default_factory=dict)
    """Blind tables: round id -> the seat (None: the host) that stopped it without cause."""
    unjudged: dict[bytes, int | None] = field(default_factory=dict)
    """Blind tables: round id -> the seat (None: the host) that stopped it, where whether it
    had cause cannot be told (a person absent at the reveal, 9.9 step 8)."""
    gone: dict[bytes, tuple[int, ...]] = field(default_factory=dict)
    """Blind tables: round id -> the seats absent at the reveal of a round that is not an
    ``absent`` void (their seed never came, 9.7)."""
    chains: dict[bytes, tuple[bytes, int]] = field(default_factory=dict)
    """round id -> (chain hash, seat) of the first revealed copy seen of that round."""
    split: set[bytes] = field(default_factory=set)
    """Round ids whose revealed public record differs between two seats' files."""
    names: dict[int, list[str]] = field(default_factory=lambda: defaultdict(list))
    """Seat -> the names saved for it (each once, in the order the files were read)."""
    held: dict[bytes, list[str]] = field(default_factory=dict)
    """round id -> who held each seat in that round, as the names beside a file say (rounds
    of files with no names beside them are not here)."""
    people: dict[str, _Dealt] = field(default_factory=dict)
    """A person's name as names are compared (``folded``) -> what they were dealt, for the
    luck of the deal by person; ``hands`` keeps the seats of files with no names."""

    def seat(self, seat: int) -> str:
        """``Ada (seat 0)`` as the summary names a seat: by the names saved beside the files
        (``Ada or Dino (seat 0)`` where files of several matches name different people);
        ``seat 0`` if none was."""
        from scopa_net.names import seat_named

        return seat_named(seat, " or ".join(self.names.get(seat) or ()))

    def who(self, round_id: bytes, seat: int) -> str:
        """``Carla (seat 1)``: a seat in one round, by whoever held it then (as
        :meth:`seat` where no names say)."""
        from scopa_net.names import seat_named

        held = self.held.get(round_id) or []
        name = held[seat] if seat < len(held) else ""
        return seat_named(seat, name) if _a_name(name, seat) else self.seat(seat)


@dataclass
class _Dealt:
    """What one person was dealt over the files: their name as first read, the seats they
    sat at, and their hand in each verified round."""

    name: str
    seats: set[int] = field(default_factory=set)
    hands: dict[bytes, tuple[int, ...]] = field(default_factory=dict)

    def label(self) -> str:
        """``Ada (seat 0)``, ``Ada (seats 0 and 1)``."""
        seats = sorted(self.seats)
        if len(seats) == 1:
            return f"{self.name} (seat {seats[0]})"
        return f"{self.name} (seats {', '.join(map(str, seats[:-1]))} and {seats[-1]})"


def _a_name(name: str, seat: int) -> bool:
    """Whether a saved name names someone (not empty, nor the ``seat N`` of a seat never
    held)."""
    return bool(name) and name != f"seat {seat}"


def count_round(summary: Summary, verdict: RoundVerdict, record: object) -> None:
    """Count a round in the summary once per match: its round id names it in every seat's
    file; of two copies that differ, the worse counts."""
    if not verdict.ok:
        kind = "failed"
    elif NOT_REPLAYED in verdict.note:
        kind = "not replayed"
    elif getattr(record, "void", None) is not None:
        kind = "void"  # dealt again: verified, but not a round played
    else:
        kind = "verified"
    round_id = getattr(record, "round_id", None)
    key = round_id if isinstance(round_id, bytes) else object()  # no record: its own
    before = summary.rounds.get(key)
    if before is None or ROUND_OUTCOMES.index(kind) > ROUND_OUTCOMES.index(before):
        summary.rounds[key] = kind


def tally_transcript(
    t: Transcript, verdict: MatchVerdict, summary: Summary, names: SavedNames | None = None
) -> None:
    from scopa_net.fair.blind.verifier import absent_at_reveal, absent_seats_of, unjudged_stop
    from scopa_net.tally import folded

    for r, v in zip(t.rounds, verdict.rounds, strict=False):
        held = names.of_round(r.round_no) if names is not None and names.last else []
        if held:
            summary.held.setdefault(r.round_id, list(held))
        mine = held[t.seat] if t.seat < len(held) else ""
        excluded = getattr(r, "excluded", None) or ()
        left = tuple((seat, why) for seat, why in enumerate(excluded) if why is not None)
        if r.void is not None and r.void.reason == "absent" and r.void.offender is not None:
            summary.absent[r.round_id] = absent_seats_of(r)  # type: ignore[arg-type]
        if r.void is not None and r.void.reason == "failed_check" and v.ok:
            if unjudged_stop(r):  # a person absent at the reveal: their part is unknown
                summary.unjudged[r.round_id] = r.void.offender
            else:
                summary.stopped[r.round_id] = r.void.offender  # every part checked out (9.9)
        if t.blind and v.ok and absent_at_reveal(r):  # type: ignore[arg-type]
            summary.gone[r.round_id] = absent_at_reveal(r)  # type: ignore[arg-type]
        if r.reveal_sig is not None and v.ok:  # a failed round proves no host signature
            chain = r.chain_hash()
            first = summary.chains.setdefault(r.round_id, (chain, t.seat))
            if first[0] != chain:
                summary.split.add(r.round_id)
        if left:
            summary.exclusions[r.round_id] = left
        if v.ok and not v.fair_checked:
            summary.unchecked.add(r.round_id)
        elif v.ok and r.void is None and r.hand and _a_name(mine, t.seat):
            person = summary.people.setdefault(folded(mine), _Dealt(mine))
            person.seats.add(t.seat)
            person.hands[r.round_id] = tuple(c.card for c in r.hand)
        elif v.ok and r.void is None and r.hand:
            summary.hands[t.seat][r.round_id] = tuple(c.card for c in r.hand)
