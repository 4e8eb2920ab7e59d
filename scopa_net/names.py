"""Player names and chat text made safe to show on another person's terminal.

The codec already refuses C0 and C1 control characters, so no escape sequence ever travels.
What is left are characters that are legal text but lie about what a line says: bidi overrides
and isolates (``U+202E`` turns ``Host`` into ``tsoH``), zero-width and other invisible
characters (a name of 32 zero-width spaces looks like nobody), line and paragraph separators
(``U+2028`` starts a new line inside a chat message, which could then pass for a notice), tag
and private-use characters, piles of combining marks that paint over neighbouring lines, and
names so wide they push everything else off the screen.

The rule, applied by the host to every name and chat line before anyone else sees it (and again
by the client before it prints, in case a host does not):

- text is put in Unicode NFC form;
- any kind of space (line and paragraph separators included) becomes one ordinary space,
  runs of spaces become one, and the ends are trimmed;
- kept: letters, digits, punctuation, symbols (emoji included, with the emoji variation
  selector and a zero-width joiner between two symbols), and at most :data:`MAX_MARKS`
  combining marks after each letter;
- dropped: every other format or control character (bidi controls, zero-width characters,
  tags), private-use, unassigned and surrogate code points, and characters that draw nothing
  (the Hangul fillers, the braille blank);
- a name also loses ``<`` and ``>`` (chat is shown as ``<name> text``, so no name can close
  its own brackets), before everything above, must start with a letter, digit or symbol, must
  show at least one, and is cut to :data:`NAME_COLUMNS` terminal columns; and a person's name
  may not read as a computer player's (:func:`reads_as_computer`: ``bot``, ``bot 3``).

Everything here is pure: str in, str out.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from wcwidth import wcwidth

from scopa_net.text_limits import NAME_COLUMNS, NAME_LIMIT, WIDE_TAKES_TWO

NAME_CHARS = 32
"""Longest name in code points (the wire's limit for a name)."""
MAX_MARKS = 2
"""Combining marks kept after one base character (enough for any real script)."""
ZWJ = "\u200d"
EMOJI_VARIATION = "\ufe0f"
TEXT_VARIATION = "\ufe0e"
INVISIBLE = frozenset(
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers (letters that draw nothing)
    "\u2800"  # braille pattern blank
    "\u034f"  # combining grapheme joiner
    "\u17b4\u17b5"  # Khmer inherent vowels
    "\u180e"  # Mongolian vowel separator
)
NAME_FORBIDDEN = frozenset("<>")
_SPACES = re.compile(r" {2,}")


def _category(ch: str) -> str:
    return unicodedata.category(ch)


def _is_space(ch: str) -> bool:
    return _category(ch) in ("Zs", "Zl", "Zp") or ch in "\t\n\r\x0b\x0c"


def _visible(ch: str) -> bool:
    """Letters, digits and symbols: what a name must start with and show at least one of."""
    return _category(ch)[0] in "LNS" and ch not in INVISIBLE


def clean_text(text: str) -> str:
    """``text`` with everything that is not plain visible text removed (see the module)."""
    text = unicodedata.normalize("NFC", text)
    out: list[str] = []
    marks = 0
    for i, ch in enumerate(text):
        cat = _category(ch)
        if _is_space(ch):
            out.append(" ")
            marks = 0
            continue
        if ch in INVISIBLE or cat in ("Cc", "Co", "Cn", "Cs"):
            continue
        if cat == "Cf":
            if ch == ZWJ and out and _category(out[-1])[0] == "S":
                nxt = text[i + 1] if i + 1 < len(text) else ""
                if nxt and _category(nxt)[0] == "S" and nxt not in INVISIBLE:  # kept itself
                    out.append(ch)
            continue
        if cat[0] == "M":
            if ch in (EMOJI_VARIATION, TEXT_VARIATION):
                if out and _category(out[-1])[0] == "S":
                    out.append(ch)
                continue
            if not out or out[-1] == " " or marks >= MAX_MARKS:
                continue
            marks += 1
            out.append(ch)
            continue
        marks = 0
        out.append(ch)
    return unicodedata.normalize("NFC", _SPACES.sub(" ", "".join(out)).strip())


def display_width(text: str) -> int:
    """Terminal columns ``text`` takes (characters of unknown width count as one)."""
    total = 0
    for ch in text:
        w = wcwidth(ch)
        total += max(w, 0) if _category(ch)[0] == "M" else max(w, 1)
    return total


def _cut_to_width(text: str, columns: int, chars: int = NAME_CHARS) -> str:
    """The longest start of ``text`` within ``columns`` and ``chars`` code points, never
    leaving a joiner or a space at the end."""
    width = 0
    end = 0
    for i, ch in enumerate(text):
        w = display_width(ch)
        if width + w > columns or i >= chars:
            break
        width += w
        end = i + 1
    cut = text[:end]
    while cut and (cut[-1] == ZWJ or cut[-1] == " "):
        cut = cut[:-1]
    return cut


def clean_name(name: str) -> str:
    """A name as others will see it; empty when nothing showable is left."""
    # The brackets go first, so that what they stood between is cleaned (and put in NFC
    # form) as it will stand: cleaning a cleaned name again then changes nothing.
    text = clean_text("".join(ch for ch in name if ch not in NAME_FORBIDDEN))
    start = next((i for i, ch in enumerate(text) if _visible(ch)), None)
    if start is None:
        return ""
    return _cut_to_width(text[start:], NAME_COLUMNS)


def name_too_long(name: str) -> str:
    """Why ``name`` is refused as too long, or "" when it fits: a person's name is at most
    :data:`NAME_COLUMNS` columns (what :func:`clean_name` keeps) and :data:`NAME_CHARS` code
    points (what the wire carries). Checked where a name is given, so it is never cut."""
    shown = clean_text("".join(ch for ch in name if ch not in NAME_FORBIDDEN))
    width = display_width(shown)
    if width > NAME_COLUMNS:
        wide = "" if width == len(shown) else f"; {WIDE_TAKES_TWO}"
        return f"a name is at most {NAME_COLUMNS} columns wide (this one takes {width}{wide})"
    if len(name) > NAME_CHARS:
        return (
            f"a name is at most {NAME_CHARS} code points, accents included "
            f"(this one has {len(name)})"
        )
    return ""


def clean_table_name(name: str) -> str:
    """A table's name as others will see it, cleaned as a name is but cut at the wire's
    :data:`NAME_CHARS` columns, so that a person's name and "'s table" always fit."""
    text = clean_text(name)
    start = next((i for i, ch in enumerate(text) if _visible(ch)), None)
    if start is None:
        return ""
    return _cut_to_width(text[start:], NAME_CHARS)


def table_label(table_id: object, name: str) -> str:
    """A table as the host's lines name it, by number and name: ``table 3 'Kitchen'``, and
    ``table 2 "Bruno's table"`` (quoted as Python quotes text, so an apostrophe inside reads
    right); ``table 3`` for a table without a name, or whose name only says its number (the
    host names a table "table 3" when its owner gave it none: "table 3 'table 3'" would say it
    twice)."""
    shown = clean_table_name(name)
    plain = f"table {table_id}"
    return f"{plain} {shown!r}" if shown and shown != plain else plain


_COMPUTER_NAME = re.compile(r"bot(?: ?[0-9]+)?(?: \([0-9]+\))?", re.IGNORECASE)


def reads_as_computer(name: str) -> bool:
    """Whether ``name``, cleaned, would pass for a computer player's: ``bot``, ``bot 3``,
    ``Bot 3 (2)`` (computers are called ``bot N`` at a table), whatever the case. A person may
    not take such a name: others would read their plays as a computer's."""
    return _COMPUTER_NAME.fullmatch(clean_name(name)) is not None


def unique_name(name: str, taken: Iterable[str], columns: int = NAME_COLUMNS) -> str:
    """``name``, or ``name (2)``, ``name (3)``... (the lowest number free) so that no two seats
    show the same name (compared without case), the name cut so that the whole fits
    ``columns`` (a seat's :data:`NAME_COLUMNS`; a table's :data:`NAME_CHARS`)."""
    used = {t.casefold() for t in taken}
    if name.casefold() not in used:
        return name
    n = 2
    while True:
        suffix = f" ({n})"
        candidate = _cut_to_width(name, columns - len(suffix), NAME_CHARS - len(suffix))
        candidate += suffix
        if candidate.casefold() not in used:
            return candidate
        n += 1


def clean_chat(text: str) -> str:
    """A chat line as others will see it; empty when nothing is left to say."""
    return clean_text(text)


__all__ = [
    "NAME_CHARS",
    "NAME_COLUMNS",
    "NAME_LIMIT",
    "clean_chat",
    "clean_name",
    "clean_table_name",
    "clean_text",
    "display_width",
    "name_too_long",
    "reads_as_computer",
    "unique_name",
]


AWAY_MARK = " <away>"
"""Ends a seat's name in a ``tables`` listing while its player has been away past the host's
away limit, so that a newcomer may take the seat (protocol.md 3.3). No name the host settles
on holds ``<`` or ``>``, so no player's name can pass for it."""


def away_name(name: str) -> str:
    """A seat's name as the lobby lists it while the seat is open to a newcomer."""
    return name[: NAME_CHARS - len(AWAY_MARK)] + AWAY_MARK


def listed_away(name: str | None) -> str | None:
    """The player's name, cleaned, when a listing's seat ``name`` says the seat is open to a
    newcomer (:func:`away_name`); None for any other name."""
    if name is None or not name.endswith(AWAY_MARK):
        return None
    return clean_name(name[: -len(AWAY_MARK)]) or None


def seat_named(seat: int, name: str | None = "", *notes: str) -> str:
    """A seat as every line names it, its player's name first: ``Fabio (seat 2)``,
    ``Carla (seat 2, you)``; a seat with no name, ``seat 2`` or ``seat 2 (open)``. A name
    that ends in brackets already (one the host numbered, :func:`unique_name`) takes the seat
    after ``at``, never a second pair of brackets: ``Fabio (2) at seat 1 (you)``."""
    if name and name.endswith(")"):  # None: a seat nobody holds, as the host has it
        return f"{name} at seat {seat}" + (f" ({', '.join(notes)})" if notes else "")
    if name:
        return f"{name} ({', '.join([f'seat {seat}', *notes])})"
    return f"seat {seat} ({', '.join(notes)})" if notes else f"seat {seat}"
