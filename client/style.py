"""How cards look on screen: colour on or off, suit glyphs or ASCII, which suit names.

Everything is chosen once into a :class:`Display` value; the renderers read only that. Colour
lives in one style sheet keyed by ``class:`` names, so the rendered text is the same with
colour on or off: the colour only repeats what the text already says.
"""

from __future__ import annotations

import enum
import sys
from collections.abc import Mapping
from dataclasses import dataclass

from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.styles import BaseStyle, DummyStyle, Style

from scopa_net.cards import Suit
from scopa_net.notation import Scheme


class SuitNames(enum.Enum):
    """Which names and letters the suits go by, on screen and in what the player types."""

    ENGLISH = "english"
    ITALIAN = "italian"
    FRENCH = "french"

    @classmethod
    def parse(cls, text: str) -> SuitNames:
        for names in cls:
            if names.value == text.strip().lower():
                return names
        known = ", ".join(n.value for n in cls)
        raise ValueError(f"invalid suit names: {text!r}; choose one of: {known}")

    @property
    def scheme(self) -> Scheme:
        """The notation scheme that reads and writes cards under these names."""
        return {
            SuitNames.ENGLISH: Scheme.NEUTRAL,
            SuitNames.ITALIAN: Scheme.ITALIAN,
            SuitNames.FRENCH: Scheme.FRENCH,
        }[self]

    def name_of(self, suit: Suit) -> str:
        if self is SuitNames.ITALIAN:
            return suit.italian
        if self is SuitNames.FRENCH:
            return suit.french
        return suit.name.lower()


#: Style classes, one per suit: ``class:suit.coins`` and so on.
SUIT_CLASS: Mapping[Suit, str] = {s: f"class:suit.{s.name.lower()}" for s in Suit}


@dataclass(frozen=True, slots=True)
class Display:
    """Presentation choices. ``glyphs`` adds the suit symbol after each card's letters."""

    color: bool = True
    glyphs: bool = True
    suits: SuitNames = SuitNames.ENGLISH

    @property
    def scheme(self) -> Scheme:
        return self.suits.scheme

    def glyph(self, suit: Suit) -> str:
        """The suit's symbol, or nothing in ASCII mode (the card's letter already says it)."""
        return suit.glyph if self.glyphs else ""

    def style(self) -> BaseStyle:
        """The style sheet to render with: the colours, or none at all."""
        return STYLE if self.color else DummyStyle()


STYLE = Style.from_dict(
    {
        "suit.coins": "ansiyellow bold",
        "suit.cups": "ansired",
        "suit.swords": "ansiblue",
        "suit.clubs": "ansigreen",
        "heading": "bold",
        "label": "bold",
        "value": "",
        "you": "bold",
        "turn": "reverse",
        "sweep": "ansimagenta bold",
        "error": "ansired bold",
        "notice": "ansicyan",
        "chat": "italic",
        "winner": "bold underline",
        "prompt": "bold",
        "bottom-toolbar": "noreverse bg:ansibrightblack fg:ansiwhite",
        "toolbar.turn": "bold",
        "toolbar.state": "",
    }
)


def color_wanted(flag: bool | None, env: Mapping[str, str]) -> bool:
    """Colour unless ``--no-color`` was given, ``NO_COLOR`` is set (to anything non-empty,
    see no-color.org) or the terminal is ``TERM=dumb``. ``flag`` True forces colour on."""
    if flag is not None:
        return flag
    if env.get("NO_COLOR"):
        return False
    return env.get("TERM", "") != "dumb"


def glyphs_fit(encoding: str | None, *, utf8_by_locale: bool = False) -> bool:
    """Whether the terminal can show the suit symbols: the output's ``encoding`` can encode
    them, and Python did not choose UTF-8 by itself (``utf8_by_locale``: the locale is C or
    POSIX, which declares an ASCII terminal; see :func:`utf8_by_locale`)."""
    if utf8_by_locale:
        return False
    try:
        "".join(suit.glyph for suit in Suit).encode(encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def utf8_by_locale(env: Mapping[str, str]) -> bool:
    """Whether Python runs in its UTF-8 mode only because the locale is set to C or POSIX
    (PEP 540: ``LC_ALL=C``, ``LANG=C``), not because it was asked to (``PYTHONUTF8``,
    ``-X utf8``): the output's encoding then says UTF-8 though the terminal declared ASCII.
    With no locale set at all (a container's shell, a CI machine) nothing was declared, and
    the terminal is taken for the UTF-8 one most are."""
    if not sys.flags.utf8_mode or "PYTHONUTF8" in env or "utf8" in sys._xoptions:
        return False
    # The first one set decides, as in C; but an LC_CTYPE of C.UTF-8 here is Python's own
    # (PEP 538 sets it when the locale is C or not set at all), so it is passed over.
    for name in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = env.get(name)
        if value and not (name == "LC_CTYPE" and value == "C.UTF-8"):
            return value in ("C", "POSIX")
    return False


def text_line(text: str, style: str = "") -> FormattedText:
    """One line of ``text`` in one ``style`` (a class of :meth:`Display.style`, such as
    ``class:error``), as the client prints it."""
    return FormattedText([(style, text)])
