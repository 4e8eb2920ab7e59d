"""The rules document, read by heading, for the ``rules`` command at the prompt.

The document is ``RULES.md``, shipped inside the ``scopa_net`` package (the repository's root
``RULES.md`` is the same file). Nothing here restates a rule: every line the ``rules`` command
prints is taken from a section of that document, so the document stays the one source.
"""

from __future__ import annotations

import re
import shutil
import textwrap
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from scopa_net.client.files import shown_path
from scopa_net.rules import RuleSet, Variant
from scopa_net.scoring import (
    CARDS_LINE,
    COINS_LINE,
    NAPOLA_LINE,
    PRIMIERA_LINE,
    RE_BELLO_LINE,
    SETTEBELLO_LINE,
    SWEEPS_LINE,
)
from scopa_net.typed import shown
from scopa_net.variant_names import meant

DOCUMENT = "RULES.md"
TIPS = "tips"
SCORE_LINES = (
    CARDS_LINE,
    COINS_LINE,
    SETTEBELLO_LINE,
    PRIMIERA_LINE,
    SWEEPS_LINE,
    RE_BELLO_LINE,
    NAPOLA_LINE,
)

# The sections the brief summary is built from: (label shown, heading in the document).
CAPTURING = "Capturing"
SWEEPS = "Sweeps"
SCORING = "Scoring a round"
MATCH = "Winning the match"
VARIANTS = "Variants and rule options"
TIPS_HEADING = "Strategy tips"
_BRIEF = (("Capture", CAPTURING), ("Sweeps", SWEEPS), ("Scoring", SCORING), ("Winning", MATCH))
# Which of those sections each variant changes, so the summary can say so beside it.
_CHANGES: dict[Variant, tuple[str, ...]] = {
    Variant.ASSO_PIGLIA_TUTTO: (CAPTURING, SWEEPS),
    Variant.QUINDICI: (CAPTURING,),
    Variant.SCOPONE_SCIENTIFICO: (SWEEPS,),
    Variant.RE_BELLO: (SCORING,),
    Variant.NAPOLA: (SCORING,),
    Variant.PRIMIERA_SUM: (SCORING,),
    Variant.COURT_PRIME_0: (SCORING,),
    Variant.SIX_AS_THREE_PAIRS: (SCORING,),
    Variant.CAPPOTTO: (MATCH,),
}

_HEADING = re.compile(r"^(#{1,6}) +(.*?) *$", re.MULTILINE)


class UnknownTopicError(ValueError):
    """``rules WORD`` where WORD names no variant, score line or ``tips``."""


@dataclass(frozen=True, slots=True)
class Section:
    """A heading of the document and the text under it, its subsections included."""

    level: int
    title: str
    """The heading's text without backticks: ``"Capturing"``, ``"primiera=sum"``."""
    parent: str
    """The title of the nearest heading above it of a higher level ("" for the top)."""
    body: str


def read_document() -> str:
    """The text of the rules document as installed with the package."""
    return resources.files("scopa_net").joinpath(DOCUMENT).read_text(encoding="utf-8")


def sections(text: str) -> list[Section]:
    """Every section of ``text``, in order."""
    found: list[Section] = []
    heads = list(_HEADING.finditer(text))
    open_titles: list[tuple[int, str]] = []
    for i, head in enumerate(heads):
        level = len(head.group(1))
        stop = len(text)
        for later in heads[i + 1 :]:
            if len(later.group(1)) <= level:
                stop = later.start()
                break
        title = head.group(2).replace("`", "")
        while open_titles and open_titles[-1][0] >= level:
            open_titles.pop()
        parent = open_titles[-1][1] if open_titles else ""
        open_titles.append((level, title))
        found.append(Section(level, title, parent, text[head.end() : stop].strip("\n")))
    return found


def find(doc: list[Section], title: str, under: str | None = None) -> Section:
    """The first section called ``title`` (directly under ``under``, if given)."""
    for section in doc:
        if section.title == title and under in (None, section.parent):
            return section
    raise KeyError(f"{DOCUMENT} has no section {title!r}" + (f" under {under!r}" if under else ""))


def own_text(section: Section) -> str:
    """A section's text before its first subsection."""
    head = _HEADING.search(section.body)
    return section.body[: head.start()] if head else section.body


def blocks(markdown: str) -> list[str]:
    """The paragraphs, lists and tables of a piece of markdown, split on blank lines."""
    return [b.strip("\n") for b in re.split(r"\n\s*\n", markdown) if b.strip()]


def plain(markdown: str) -> str:
    """Inline markdown as plain text: no backticks, no bold, links as their text."""
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", markdown)
    text = text.replace("`", "").replace("**", "")
    return re.sub(r"\*(\S[^*]*)\*", r"\1", text)


def lead(section: Section) -> str:
    """The first paragraph of a section, on one line, as plain text."""
    first = blocks(own_text(section))[0]
    return plain(" ".join(line.strip() for line in first.splitlines()))


def _wrap(text: str, width: int, first: str = "", rest: str = "") -> list[str]:
    return textwrap.wrap(  # a word longer than the line (a path) is left whole, not cut
        text,
        width,
        initial_indent=first,
        subsequent_indent=rest,
        break_on_hyphens=False,
        break_long_words=False,
    )


def _table(block: str) -> list[str]:
    rows = [
        [plain(cell.strip()) for cell in line.strip().strip("|").split("|")]
        for line in block.splitlines()
        if not re.fullmatch(r"[\s|:-]+", line)
    ]
    widths = [max(len(row[i]) for row in rows if i < len(row)) for i in range(len(rows[0]))]
    return [
        "  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=False)).rstrip()
        for row in rows
    ]


def render(markdown: str, width: int) -> list[str]:
    """Markdown (paragraphs, lists, tables) as plain lines no wider than ``width``
    (tables excepted: a row is never broken)."""
    out: list[str] = []
    for block in blocks(markdown):
        if out:
            out.append("")
        if block.lstrip().startswith("|"):
            out += _table(block)
            continue
        items = re.split(r"\n(?=\s*(?:- |\d+\. ))", block)
        for item in items:
            text = plain(" ".join(line.strip() for line in item.splitlines()))
            bullet = re.match(r"(- |\d+\. )", text)
            if bullet:
                mark = bullet.group(1)
                body = text[len(mark) :]
                out += _wrap(body, width, "  " + mark, " " * (2 + len(mark)))
            else:
                out += _wrap(text, width)
    return out


def screen_width() -> int:
    """The width to wrap to: the terminal's, within 40..100 columns."""
    return max(40, min(100, shutil.get_terminal_size((80, 24)).columns - 1))


@cache
def _document() -> list[Section]:
    return sections(read_document())


def topics() -> tuple[str, ...]:
    """What ``rules WORD`` explains: every variant, every score line, and ``tips``."""
    names = [v.value for v in Variant]
    names += [line for line in SCORE_LINES if line not in names]
    return (*names, TIPS)


def brief(rules: RuleSet | None, width: int | None = None) -> list[str]:
    """The rules in play in a few lines: capture, sweeps, scoring, winning, the variants."""
    width = width or screen_width()
    doc = _document()
    if rules is None:
        out = _wrap("Rules: not known yet (no cards dealt).", width)
    else:
        out = _wrap(f"Rules: {rules.describe()}.", width)
    active = sorted(rules.variants, key=lambda v: v.value) if rules is not None else []
    for label, heading in _BRIEF:
        changed = [v.value for v in active if heading in _CHANGES.get(v, ())]
        if changed:
            label += f" (changed by {' and '.join(changed)}, below)"
        out += _wrap(f"{label}: {lead(find(doc, heading))}", width, rest="  ")
    if rules is not None:
        out += _wrap(f"This table plays to {rules.target}.", width, rest="  ")
        for variant in active:
            out += _wrap(
                f"{variant.value}: {lead(find(doc, variant.value, VARIANTS))}", width, rest="  "
            )
    out += _wrap(
        "Type 'rules NAME' for one variant or score line, 'rules tips' for strategy tips; "
        f"the whole rule book is the file {where_the_document_is()}.",
        width,
    )
    return out


def where_the_document_is() -> str:
    """Where the installed rules document is, as a person can open it (``less PATH``):
    installed from a wheel, a person has no repository with a RULES.md at its root."""
    installed = resources.files("scopa_net").joinpath(DOCUMENT)
    if isinstance(installed, Path):
        return shown_path(installed)
    return f"{DOCUMENT} inside the scopa_net package"  # in a zip: no path to open


def explain(topic: str, width: int | None = None) -> list[str]:
    """``rules TOPIC``: a variant, a score line, or the strategy tips, from the document."""
    width = width or screen_width()
    doc = _document()
    name = topic.strip().lower()
    if name == TIPS:
        return [f"{TIPS_HEADING}:", *render(own_text(find(doc, TIPS_HEADING)), width)]
    out: list[str] = []
    if name not in topics() and (ours := meant(topic, tuple(topics()))):
        out.append(f"{shown(topic)} is {ours} here.")  # "napoli", "scopa d'assi"
        name = ours
    if name not in topics():
        known = ", ".join(topics())
        raise UnknownTopicError(
            f"unknown rules topic: {shown(topic)}; type 'rules' alone, or one of: {known}"
        )
    if name in {v.value for v in Variant}:
        out += [f"Variant {name}:", *render(find(doc, name, VARIANTS).body, width)]
    if name in SCORE_LINES:
        if name in {v.value for v in Variant}:
            out.append("")
        out += [f"Score line {name}:", *render(find(doc, name, SCORING).body, width)]
    return out
