"""Tallies on disk: one JSON file each in ``<data dir>/tallies/``, written after every change.

A file is replaced whole and atomically (written beside it, then renamed), so a crash or a
full disk leaves the previous state, never half a tally. The score keeper that has a tally open
holds its lock (``ID.lock``, :mod:`~scopa_net.client.file_lock`), so that a second terminal
does not open it too: each would save its own hands over the other's. The exports (Markdown and
CSV) are pure functions of a :class:`~scopa_net.tally.Tally`.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import re
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from scopa_net.client.file_lock import FileLocks
from scopa_net.client.files import make_private_folder, replace_file
from scopa_net.tally import Tally, TallyError, folded, sheet_rows
from scopa_net.typed import shown

TALLY_DIR = "tallies"


@dataclass(frozen=True, slots=True)
class Saved:
    """A tally found on disk (or the reason it could not be read), and its number."""

    path: Path
    tally: Tally | None
    problem: str = ""
    number: int = 0
    """What ``tally --list`` shows and ``--resume N`` takes; 0 for a file that cannot be read."""


class TallyStore:
    """The folder of saved tallies."""

    def __init__(self, data_dir: Path) -> None:
        self.folder = data_dir / TALLY_DIR
        self._locks = FileLocks(self.folder)

    def hold(self, tally_id: str) -> bool:
        """Hold the tally's lock while it is open here; False when another score keeper on
        this machine has it open."""
        return self._locks.hold(tally_id)

    def close(self) -> None:
        """Let go of the tallies this store holds open (the score keeper has ended)."""
        self._locks.close()

    def new_id(self, names: tuple[str, ...], now: datetime) -> str:
        """``20261201-0412-ada-bruno``, with a counter if that file exists already; names
        in plain Latin letters (``nicolo-zoe`` for Nicolò and Zoë), ``x`` for one that has
        none. (Older ids dropped accented letters; a tally keeps its id.)"""
        slug = "-".join(re.sub(r"[^a-z0-9]", "", folded(n)) or "x" for n in names)[:40]
        base = f"{now:%Y%m%d-%H%M}-{slug}"
        candidate, n = base, 1
        while (self.folder / f"{candidate}.json").exists():
            n += 1
            candidate = f"{base}-{n}"
        return candidate

    def next_number(self) -> int:
        """The number for a new tally: one more than any tally here has."""
        return max((e.number for e in self.saved()), default=0) + 1

    def path_of(self, tally_id: str) -> Path:
        return self.folder / f"{tally_id}.json"

    def save(self, tally: Tally) -> Path:
        """Write the tally (atomically); OSError is the caller's to report."""
        make_private_folder(self.folder)
        path = self.path_of(tally.id)
        replace_file(path, (json.dumps(tally.to_dict(), indent=1) + "\n").encode("utf-8"))
        return path

    def discard(self, tally_id: str) -> None:
        """Remove a tally this store holds open (one begun and left empty); OSError is the
        caller's to report."""
        self.path_of(tally_id).unlink(missing_ok=True)
        self._locks.forget(tally_id)

    def load(self, tally_id: str) -> Tally:
        """The saved tally called ``tally_id``, or listed with that number."""
        entries = self.saved()
        matches = [e for e in entries if e.path.stem == tally_id]
        if tally_id.isdigit() and not matches:
            matches = [e for e in entries if e.number == int(tally_id)]
        if not matches:
            raise TallyError(
                f"no saved tally {shown(tally_id)}; `scopa-net tally --list` shows them"
            )
        entry = matches[0]
        if entry.tally is None:
            raise TallyError(f"cannot read {entry.path}: {entry.problem}")
        return entry.tally

    def saved(self) -> list[Saved]:
        """Every tally file by its number, oldest first (those that cannot be read last).

        A tally keeps the number it was given when it began, so adding one never renumbers
        the others. Tallies saved before numbers were kept take the numbers no tally has,
        oldest first."""
        try:
            paths = sorted(self.folder.glob("*.json"))  # ids begin with the date
        except OSError:
            return []
        found: list[Saved] = []
        unreadable: list[Saved] = []
        for path in paths:
            try:
                tally = Tally.from_dict(json.loads(path.read_text(encoding="utf-8")))
            except (OSError, ValueError) as exc:
                unreadable.append(Saved(path, None, str(exc)))
            else:
                found.append(Saved(path, tally, number=tally.number))
        taken = {e.number for e in found}
        free = (n for n in itertools.count(1) if n not in taken)
        found = [e if e.number else replace(e, number=next(free)) for e in found]
        return sorted(found, key=lambda e: e.number) + unreadable

    def latest_unfinished(self) -> Tally | None:
        """The unfinished tally with the highest number."""
        unfinished = [e.tally for e in self.saved() if e.tally and not e.tally.over]
        return unfinished[-1] if unfinished else None


def summary(tally: Tally) -> str:
    """``Ada 12, Bruno 7 (to 11), 4 hands: Ada wins, 12-7.``"""
    scores = ", ".join(f"{label} {p}" for label, p in zip(tally.labels, tally.scores, strict=True))
    hands = len(tally.hands)
    return f"{scores} (to {tally.rules.target}), {hands} hand{'s' * (hands != 1)}: {tally.status()}"


# --- exports ---------------------------------------------------------------------------------


def _details(tally: Tally, index: int) -> str:
    hand = tally.hands[index]
    if hand.sheet is None:
        return ""
    parts = []
    for name, figures, who in sheet_rows(tally, hand.sheet):
        if name == "Sweeps" or any(f != "0" for f in figures):
            parts.append(f"{name.lower()} {'-'.join(figures)}: {who}")
    return "; ".join(parts)


def to_markdown(tally: Tally) -> str:
    labels = tally.labels
    rules = tally.rules
    variants = ", ".join(sorted(v.value for v in rules.variants)) or "none"
    lines = [
        f"# Scopa tally: {' v '.join(labels)}",
        "",
        f"Started {tally.started or 'unknown'}; playing to {rules.target}; variants: {variants}.",
        f"{tally.status()}",
        "",
        "| hand | " + " | ".join(labels) + " | how | details |",
        "|---:|" + "---:|" * len(labels) + "---|---|",
    ]
    for i, hand in enumerate(tally.hands):
        points = " | ".join(str(p) for p in hand.points)
        lines.append(f"| {i + 1} | {points} | {hand.how.value} | {_details(tally, i)} |")
    totals = " | ".join(f"**{p}**" for p in tally.scores)
    lines.append(f"| total | {totals} | | |")
    return "\n".join(lines) + "\n"


def to_csv(tally: Tally) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["hand", *tally.labels, "how", "details"])
    for i, hand in enumerate(tally.hands):
        writer.writerow([i + 1, *hand.points, hand.how.value, _details(tally, i)])
    writer.writerow(["total", *tally.scores, "", tally.status()])
    return out.getvalue()


def export(tally: Tally, fmt: str) -> str:
    """The tally as ``markdown`` (or ``md``) or ``csv`` text."""
    fmt = {"md": "markdown"}.get(fmt.lower(), fmt.lower())
    if fmt == "markdown":
        return to_markdown(tally)
    if fmt == "csv":
        return to_csv(tally)
    raise TallyError(f"invalid format: {shown(fmt)}; choose markdown or csv")
