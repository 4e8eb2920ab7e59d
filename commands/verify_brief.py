"""``scopa-net verify --brief`` and ``--since``: a folder of a season's transcripts read one
line a file, and narrowed to those saved since a date.

A brief line is made from the lines ``verify`` says of the file in full: its verdict (the
last line: ``VERIFIED``, ``UNFINISHED``, ``NOT VERIFIED``) and what matters most under it (the
match result, or what failed first, or why the file could not be read or was refused)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from scopa_net.commands.verify_gaps import UNSEEN_BRIEF, gap_brief
from scopa_net.commands.verify_order import saved_time
from scopa_net.commands.verify_verdict import PARTLY_VERIFIED

_WHY_NOT = ("REFUSED: ", "round ", "caught up: ", "match result: ", "saved as evidence")
"""Under a NOT VERIFIED, the lines that say why, the first found said (a round's line only
if it is not one that verified)."""


def brief_line(path: Path, said: Sequence[str]) -> str:
    """One line for a file, from the lines ``verify`` said of it in full: ``PATH: VERIFIED:
    seat 1 (Bruno) won the match with 11 points, against 7 for seat 0 (Ada)``."""
    lines = [line for line in said if not line.startswith(("== ", "saved ", "  "))]
    verdict = lines[-1] if lines else "NOT VERIFIED"
    result = [line for line in lines if line.startswith("match result: ")]
    partly = verdict.startswith(PARTLY_VERIFIED)
    if partly:  # (its words point at lines a brief line does not show)
        verdict = PARTLY_VERIFIED.split(":")[0] + verdict.removeprefix(PARTLY_VERIFIED)
    if verdict.startswith("VERIFIED") and result:
        why = result[-1].removeprefix("match result: ").removeprefix("verified: ")
    elif verdict.startswith("UNFINISHED") and result:
        why = result[-1].removeprefix("match result: UNFINISHED: ")
        why = why[why.find("points so far") :] if "points so far" in why else why
        verdict = "UNFINISHED"
    elif verdict.startswith("UNFINISHED"):
        verdict, why = "UNFINISHED", ""
    else:
        why = _why_not(path, lines[:-1])
    line = f"{path}: {verdict}" + (f": {why}" if why else "")
    gaps = [g for g in map(gap_brief, lines) if g is not None]
    if partly:
        gaps.insert(0, UNSEEN_BRIEF)
    line += "".join(f"; {g}" for g in gaps[:1])  # what the file cannot show (6.3)
    unpinned = any(x.startswith("no pinned host key to compare with") for x in lines)
    key = [x.rpartition(", host key ")[2] for x in lines[:1] if ", host key " in x]
    if unpinned and key:  # as the full lines say it: no key to compare the file's with
        line += f" (host key {key[0]}, compared with none: nothing pinned; check it, or --pin)"
    return line


def _why_not(path: Path, lines: Sequence[str]) -> str:
    """The first line that says why a file did not verify."""
    for line in lines:
        if line.startswith(f"{path}: ") or line.startswith(f"{path} is "):
            return line.removeprefix(f"{path}: ")  # could not be read: why
        if line.startswith(_WHY_NOT) and ": verified" not in line and ": void" not in line:
            return line
    return ""


def saved_since(paths: Sequence[Path], since: float) -> tuple[list[Path], list[Path]]:
    """``paths`` saved at or after ``since`` (by the file's time, as ``verify`` says it:
    a transcript records none), and those left out; a file whose time cannot be read is
    kept, for ``verify`` to say why."""
    kept, left = [], []
    for path in paths:
        when = saved_time(path)
        (kept if when is None or when >= since else left).append(path)
    return kept, left


def since_words(since: float) -> str:
    """A ``--since`` time as the person gave it: the date alone at midnight."""
    shown = time.strftime("%Y-%m-%d %H:%M", time.localtime(since))
    return shown[:10] if shown.endswith(" 00:00") else shown


def nothing_since(when: str, given: int, where: str = "given") -> str:
    """The one line when ``--since`` leaves no file to check: nothing was checked, which is
    no success (status 1, as for a folder with no transcripts). ``where``: how the files
    came, ``given`` when named, ``in FOLDER`` for the one folder given, ``found`` else."""
    files = {1: f"the file {where} was", 2: f"both files {where} were"}.get(
        given, f"all {given} files {where} were"
    )
    return (
        f"NOT VERIFIED: nothing checked: {files} saved before {when} (--since); give an "
        "earlier date, or leave --since out"
    )
