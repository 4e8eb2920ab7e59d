"""What a typed line means: a play, a choice from a list, or one of the named commands.

A line whose first word is a command name is that command; a line that is only a number picks
from the choices last listed; anything else is read as a play in the player's notation
(:func:`scopa_net.notation.parse_play`): ``7d``, ``7 coins``, ``settebello``, ``7d x 5s+2b``.
``play`` before any of these is allowed, as a newcomer may type it: ``play 7d`` is ``7d``.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from scopa_net.cards import SETTEBELLO, Card
from scopa_net.errors import AmbiguousNotationError, NotationError
from scopa_net.notation import (
    Scheme,
    card_name,
    format_card,
    names_part_of_a_card,
    near_part_of_a_card,
    parse_play,
)
from scopa_net.text_limits import SAY_LEN
from scopa_net.typed import shown, small_number, text_problem


class CommandError(ValueError):
    """A line that is not a command or a play (the player's typing, not the game's rules)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayCard:
    """Play ``card``, taking ``group`` (None: not said, let the client ask if it must)."""

    card: Card
    group: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Choose:
    """Pick choice ``number`` (1-based) from the list last shown."""

    number: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Say:
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Rename:
    """``name NEW``: be called NEW at this table (``name`` alone: say what you are called)."""

    name: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Simple:
    """A command without arguments: ``help``, ``score``, ``last``, ``log``, ``who``,
    ``quit``, ``board``, ``hint``."""

    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """``rules``: the rules in play; ``rules TOPIC``: one variant or score line, or ``tips``."""

    topic: str = ""


Command = PlayCard | Choose | Say | Rename | Simple | Rules

#: Command names and what they do, in the order ``help`` lists them.
COMMANDS: dict[str, str] = {
    "help": "this list",
    "board": "show the table, your hand and the score again",
    "hint": "the play the strongest computer player would make, and why",
    "rules": "the rules in play; rules VARIANT explains one; rules tips",
    "score": "the last round's sheet, each primiera card by card, the match score",
    "last": "the last play of each player",
    "log": "every play of this round",
    "say": "say TEXT: a message to the table",
    "who": "who is at the table",
    "name": "name NEW: be called NEW at this table from now on",
    "quit": "leave (asks first during a match)",
}

_ALIASES = {
    "?": "help",
    "h": "help",
    "exit": "quit",
    "q": "quit",
    "b": "board",
    "rename": "name",
    "leave": "quit",  # the words the leave question offers, typed at the prompt: it asks
    "away": "quit",
}


def parse_command(text: str, scheme: Scheme = Scheme.NEUTRAL) -> Command:
    """The command a line names; :class:`CommandError` (quoting the line) when it names none."""
    line = text.strip()
    if not line:
        raise CommandError("empty line: type a card to play it, or 'help'")
    word, _, rest = line.partition(" ")
    name = _ALIASES.get(word.lower(), word.lower())
    if name == "play":
        # "play 7d", as a newcomer may type it, means what "7d" alone means.
        line = rest.strip()
        if not line:
            raise CommandError(f"invalid command: {shown(text)}: play what? (play 7d, or just 7d)")
        name = ""
    if name == "say":
        said = rest.strip()
        if not said:
            raise CommandError(f"invalid command: {shown(text)}: say what? (say TEXT)")
        _check_sent(said, "a message", SAY_LEN)
        return Say(text=said)
    if name == "name":
        # Its length is the controller's to refuse: it says what the name stays.
        _check_sent(rest.strip(), "a name", None)
        return Rename(name=rest.strip())
    if name == "rules":
        return Rules(topic=rest.strip().lower())
    if name in COMMANDS:
        if rest.strip():
            raise CommandError(f"invalid command: {shown(text)}: {name!r} takes no arguments")
        return Simple(name=name)
    if line.isascii() and line.isdigit():
        number = small_number(line)
        if number is None:
            raise CommandError(
                f"invalid choice: {shown(line)}: not a number from a list ({len(line)} digits); "
                "type the number of a choice, such as 1"
            )
        return Choose(number=number)
    try:
        card, group = parse_play(line, scheme)
    except NotationError as exc:
        raise CommandError(_not_a_play(line, exc, scheme)) from exc
    return PlayCard(card=card, group=group)


_LEAVING = frozenset(word for word, name in {**_ALIASES, "quit": "quit"}.items() if name == "quit")
"""Words that leave: never offered for a word mistyped, which a person did not mean as one."""

_NO_SUCH_RANK = re.compile(r"^(8|9|10)(\D|$)")


def _not_a_play(line: str, exc: NotationError, scheme: Scheme) -> str:
    """Why ``line`` is no play nor command, and what to type: a command mistyped ("sya
    hello": did you mean 'say'?, but never a word that leaves), how to type a card for a line
    with a rank or a suit in it ("seven", "coins"), or what is wrong with the card."""
    words = line.lower().split()
    typed = words[0]
    if isinstance(exc, AmbiguousNotationError) or any(_NO_SUCH_RANK.match(w) for w in words):
        return f"{exc} (type 'help' for the commands)"  # a card, whose trouble says it best
    card_like = any(names_part_of_a_card(word) for word in words)
    known = [*COMMANDS, *_ALIASES, "play"]
    meant = [] if card_like or typed in known else difflib.get_close_matches(typed, known, n=1)
    if meant and meant[0] in _LEAVING and not (len(words) == 1 and _card_shaped(line)):
        return f"unknown command {shown(typed)} (type 'help' for the commands)"
    if meant and meant[0] in _LEAVING:  # "Qx": a card mistyped, not the 'q' that leaves
        meant = []
    if meant:  # a command mistyped ("sya hello"), no card
        return (
            f"unknown command {shown(typed)}: did you mean {meant[0]!r}? (type 'help' for the "
            "commands)"
        )
    example = f"{card_name(SETTEBELLO, scheme)} or {format_card(SETTEBELLO, scheme)}"
    if card_like or near_part_of_a_card(typed):
        return (
            f"invalid card: {shown(line)}: a card is a rank and a suit, such as {example} "
            "(type 'help' for the commands)"
        )
    unknown = "unknown suit" in str(exc) or "unknown rank" in str(exc)
    if unknown and len(words) == 1 and _card_shaped(line):  # "Qx": its wrong suit, and how
        return (
            f"{exc}; a card is a rank and a suit, such as {example} (type 'help' for the commands)"
        )
    if unknown and len(words) == 1 and typed not in known:
        return f"{shown(line)} is not a card or a command (type 'help' for the commands)"
    return f"{exc} (type 'help' for the commands)"


def _card_shaped(word: str) -> bool:
    """Whether ``word`` looks like a card mistyped, whose wrong suit or rank is worth
    naming: it starts with a rank's digit ("7x", "7dx"), or is a rank letter in capitals,
    as the hand shows cards, with a letter or two after it ("Kz"). "asdf" or "fg" do not."""
    return word[:1].isdigit() or (word[:1] in "AJQKFCR" and 2 <= len(word) <= 3)


def _check_sent(text: str, what: str, limit: int | None) -> None:
    """Refuse, in one line, text the wire would refuse: too long, or a control character."""
    problem = text_problem(text, what, limit)
    if problem:
        raise CommandError(problem)
