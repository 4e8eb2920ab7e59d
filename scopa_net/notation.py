"""Card notation: what players type, and how cards are written back.

Three suit schemes, because one letter clashes: ``c`` is *coppe* (cups) on an Italian pack and
*clubs* on a French one.

- ``NEUTRAL`` (the default): the canonical form, ``<rank><suit>`` with rank ``A 2..7 J Q K``
  and suit ``d`` (coins/diamonds), ``h`` (cups/hearts), ``s`` (swords/spades),
  ``b`` (clubs/bastoni). A bare ``c`` is refused as ambiguous.
- ``ITALIAN``: suits ``d c s b`` (denari, coppe, spade, bastoni), ranks ``A 2..7 F C R``.
- ``FRENCH``: suits ``d h s c`` (diamonds, hearts, spades, clubs), ranks ``A 2..7 J Q K``.

Every scheme accepts every unambiguous form: glyphs (``7♦``), words in English or Italian
(``7 coins``, ``7 of coins``, ``re di denari``, ``knave cups``), the nicknames ``settebello``
and ``re bello``, and both sets of rank letters. ``parse(format_card(c, s), s) == c`` for every
card and scheme.
"""

from __future__ import annotations

import difflib
import enum
import re

from scopa_net.cards import (
    CANONICAL_RANK_LETTERS,
    CANONICAL_SUIT_LETTERS,
    RE_BELLO,
    SETTEBELLO,
    Card,
    Rank,
    Suit,
    card,
)
from scopa_net.errors import AmbiguousNotationError, NotationError
from scopa_net.typed import shown as echoed


class Scheme(enum.Enum):
    NEUTRAL = "neutral"
    ITALIAN = "italian"
    FRENCH = "french"


_RANK_WORDS: dict[str, Rank] = {
    "a": Rank.ACE,
    "1": Rank.ACE,
    "ace": Rank.ACE,
    "asso": Rank.ACE,
    "2": Rank.TWO,
    "two": Rank.TWO,
    "due": Rank.TWO,
    "3": Rank.THREE,
    "three": Rank.THREE,
    "tre": Rank.THREE,
    "4": Rank.FOUR,
    "four": Rank.FOUR,
    "quattro": Rank.FOUR,
    "5": Rank.FIVE,
    "five": Rank.FIVE,
    "cinque": Rank.FIVE,
    "6": Rank.SIX,
    "six": Rank.SIX,
    "sei": Rank.SIX,
    "7": Rank.SEVEN,
    "seven": Rank.SEVEN,
    "sette": Rank.SEVEN,
    "j": Rank.KNAVE,
    "f": Rank.KNAVE,
    "jack": Rank.KNAVE,
    "knave": Rank.KNAVE,
    "fante": Rank.KNAVE,
    "q": Rank.KNIGHT,
    "c": Rank.KNIGHT,
    "queen": Rank.KNIGHT,
    "knight": Rank.KNIGHT,
    "cavallo": Rank.KNIGHT,
    "horse": Rank.KNIGHT,
    "k": Rank.KING,
    "r": Rank.KING,
    "king": Rank.KING,
    "re": Rank.KING,
}

_SUIT_WORDS: dict[str, Suit] = {
    "d": Suit.COINS,
    "♦": Suit.COINS,
    "♢": Suit.COINS,
    "coins": Suit.COINS,
    "coin": Suit.COINS,
    "denari": Suit.COINS,
    "denaro": Suit.COINS,
    "ori": Suit.COINS,
    "diamonds": Suit.COINS,
    "diamond": Suit.COINS,
    "quadri": Suit.COINS,
    "h": Suit.CUPS,
    "♥": Suit.CUPS,
    "♡": Suit.CUPS,
    "cups": Suit.CUPS,
    "cup": Suit.CUPS,
    "coppe": Suit.CUPS,
    "coppa": Suit.CUPS,
    "hearts": Suit.CUPS,
    "heart": Suit.CUPS,
    "cuori": Suit.CUPS,
    "s": Suit.SWORDS,
    "♠": Suit.SWORDS,
    "♤": Suit.SWORDS,
    "swords": Suit.SWORDS,
    "sword": Suit.SWORDS,
    "spade": Suit.SWORDS,
    "spada": Suit.SWORDS,
    "spades": Suit.SWORDS,
    "picche": Suit.SWORDS,
    "b": Suit.CLUBS,
    "♣": Suit.CLUBS,
    "♧": Suit.CLUBS,
    "clubs": Suit.CLUBS,
    "club": Suit.CLUBS,
    "bastoni": Suit.CLUBS,
    "bastone": Suit.CLUBS,
    "batons": Suit.CLUBS,
    "mazzi": Suit.CLUBS,
    "fiori": Suit.CLUBS,
}

_SCHEME_C: dict[Scheme, Suit] = {Scheme.ITALIAN: Suit.CUPS, Scheme.FRENCH: Suit.CLUBS}

_NICKNAMES: dict[str, Card] = {
    "settebello": SETTEBELLO,
    "sette bello": SETTEBELLO,
    "rebello": RE_BELLO,
    "re bello": RE_BELLO,
}

_SHORT_RANK: dict[Scheme, str] = {
    Scheme.NEUTRAL: CANONICAL_RANK_LETTERS,
    Scheme.FRENCH: "A234567JQK",
    Scheme.ITALIAN: "A234567FCR",
}
_SHORT_SUIT: dict[Scheme, str] = {
    Scheme.NEUTRAL: CANONICAL_SUIT_LETTERS,
    Scheme.FRENCH: "dhsc",
    Scheme.ITALIAN: "dcsb",
}

_CONNECTORS = {"of", "di", "de", "del", "dei"}


def names_part_of_a_card(word: str) -> bool:
    """Whether ``word`` alone names a rank, a suit or a card's nickname (``seven``, ``7``,
    ``coins``, ``denari``, ``settebello``): half a card, typed as a person says it. A letter
    alone (``d``, ``a``) does not count: it is too often a word of something else."""
    word = word.lower()
    if len(word) == 1 and not word.isdigit():
        return False
    return word in _RANK_WORDS or word in _SUIT_WORDS or word in _NICKNAMES


def near_part_of_a_card(word: str) -> bool:
    """Whether ``word`` is a rank, suit or nickname mistyped (``sevn``, ``settebelo``)."""
    words = [w for w in (*_RANK_WORDS, *_SUIT_WORDS, *_NICKNAMES) if len(w) > 3]
    return len(word) > 3 and bool(difflib.get_close_matches(word.lower(), words, n=1, cutoff=0.8))


_COMPACT = re.compile(r"^(10|[0-9]|[a-z])(.+)$")


_GLYPHS = frozenset("♦♢♥♡♠♤♣♧")


def _suit(token: str, text: str, scheme: Scheme) -> Suit:
    if len(token) > 1 and token[-1] in _GLYPHS:
        # A letter and its symbol, as the screen shows a card (``7d♦``): both must agree,
        # and the symbol settles a bare ``c`` (coppe or clubs).
        shown, letters = _SUIT_WORDS[token[-1]], token[:-1]
        if letters == "c" and scheme not in _SCHEME_C:
            named = shown if shown in (Suit.CUPS, Suit.CLUBS) else None
        else:
            named = _suit(letters, text, scheme)
        if named is not shown:
            raise NotationError(
                text, f"{echoed(letters)} and {token[-1]!r} are different suits; type one of them"
            )
        return shown
    if token == "c":
        if scheme in _SCHEME_C:
            return _SCHEME_C[scheme]
        raise AmbiguousNotationError(
            text,
            "'c' could be cups (coppe) or clubs; write h/cups/coppe or b/clubs/bastoni, "
            "or choose the Italian or French suit letters",
        )
    try:
        return _SUIT_WORDS[token]
    except KeyError:
        raise NotationError(text, f"unknown suit {echoed(token)}") from None


def _rank(token: str, text: str) -> Rank:
    if token in {"8", "9", "10"}:
        raise NotationError(
            text, "a 40-card pack has no 8, 9 or 10; the court cards are J/F, Q/C, K/R"
        )
    try:
        return _RANK_WORDS[token]
    except KeyError:
        raise NotationError(text, f"unknown rank {echoed(token)}") from None


def parse_card(text: str, scheme: Scheme = Scheme.NEUTRAL) -> Card:
    """The card that ``text`` names; :class:`NotationError` if none, or more than one."""
    if not isinstance(text, str):
        raise NotationError(repr(text), "not text")
    norm = " ".join(text.strip().lower().split())
    if not norm:
        raise NotationError(text, "empty")
    if norm in _NICKNAMES:
        return _NICKNAMES[norm]
    words = [w for w in norm.split(" ") if w not in _CONNECTORS]
    if len(words) == 2:
        return card(_rank(words[0], text), _suit(words[1], text, scheme))
    if len(words) == 1:
        match = _COMPACT.match(words[0])
        if match is None:
            raise NotationError(text, "expected a rank followed by a suit, such as 7d")
        return card(_rank(match[1], text), _suit(match[2], text, scheme))
    raise NotationError(text, "expected a rank followed by a suit, such as 7d")


def format_card(c: Card, scheme: Scheme = Scheme.NEUTRAL) -> str:
    """Short form of a card in a scheme's letters, e.g. ``7d``; parses back to ``c``."""
    return _SHORT_RANK[scheme][c.rank - 1] + _SHORT_SUIT[scheme][c.suit]


def card_name(c: Card, scheme: Scheme = Scheme.NEUTRAL) -> str:
    """Long form, e.g. ``7 of coins`` or ``re di denari``; parses back to ``c``."""
    if scheme is Scheme.ITALIAN:
        ranks = ("asso", "2", "3", "4", "5", "6", "7", "fante", "cavallo", "re")
        return f"{ranks[c.rank - 1]} di {c.suit.italian}"
    ranks = ("ace", "2", "3", "4", "5", "6", "7", "knave", "knight", "king")
    suit = c.suit.french if scheme is Scheme.FRENCH else c.suit.name.lower()
    return f"{ranks[c.rank - 1]} of {suit}"


_PLAY_SPLIT = re.compile(r"\s*(?:\bx\b|\btakes?\b|:|>|=)\s*")
_GROUP_SPLIT = re.compile(r"\s*[+,]\s*|\s+")
_GROUP_AND = {"and"}
"""Words that join the cards of a group (``5h and 5s``), read as ``+``."""


def split_play(text: str) -> tuple[str, str] | None:
    """The played card's words and the group's (``"K x 5h+5s"``: ``("k", "5h+5s")``), when
    ``text`` names a group after a word that joins them (``x``, ``takes``, ``:``); else None."""
    parts = _PLAY_SPLIT.split(" ".join(text.strip().split()).lower(), maxsplit=1)
    return (parts[0], parts[1]) if len(parts) == 2 and parts[0] and parts[1] else None


def parse_play(text: str, scheme: Scheme = Scheme.NEUTRAL) -> tuple[Card, tuple[Card, ...] | None]:
    """A played card and, when given, the table cards it takes.

    Forms: ``7d`` (card only), ``7d x 5s+2b``, ``7d: 5s 2b``, ``7d takes 5s, 2b``, or
    ``7d 5s 2b`` (compact cards separated by spaces). The group is ``None`` when not given.
    """
    norm = " ".join(text.strip().split())
    parts = _PLAY_SPLIT.split(norm.lower(), maxsplit=1)
    if len(parts) == 2:
        if not parts[0]:  # "x", ": 5s": a word that joins a card to what it takes, and no card
            raise NotationError(text, "expected a rank followed by a suit, such as 7d")
        played = parse_card(parts[0], scheme)
        tokens = [t for t in _GROUP_SPLIT.split(parts[1]) if t]
        if not tokens:
            raise NotationError(text, "name the cards to take after the played card")
        return played, _parse_group(tokens, scheme)
    try:
        return parse_card(norm, scheme), None
    except AmbiguousNotationError:
        raise
    except NotationError:
        tokens = [t for t in _GROUP_SPLIT.split(norm.lower()) if t]
        if len(tokens) < 2:
            raise
    played = parse_card(tokens[0], scheme)
    return played, _parse_group(tokens[1:], scheme)


def _parse_group(tokens: list[str], scheme: Scheme) -> tuple[Card, ...]:
    """Cards named one per token (``5s 2b``) or as rank-suit word pairs (``5 swords, 2 clubs``)."""
    tokens = [t for t in tokens if t not in _CONNECTORS and t not in _GROUP_AND]
    try:
        cards = tuple(parse_card(t, scheme) for t in tokens)
    except AmbiguousNotationError:
        raise
    except NotationError:
        if len(tokens) % 2:
            raise
        pairs = zip(tokens[::2], tokens[1::2], strict=True)
        cards = tuple(parse_card(f"{rank} {suit}", scheme) for rank, suit in pairs)
    if len(set(cards)) != len(cards):
        raise NotationError(" ".join(tokens), "a card is named twice")
    return cards
