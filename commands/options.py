"""What every subcommand shares: exit statuses, one-line errors, and one spelling of each flag.

This module is imported to build the parser, so ``--help`` and ``--version`` stay fast: it
imports nothing heavier than the rules (no trio, no prompt-toolkit, no host).
"""

from __future__ import annotations

import argparse
import re
import sys
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn

from scopa_net.rules import PLAYER_COUNTS, RuleSet, Variant
from scopa_net.text_limits import (
    EMPTY_NAME,
    HOST_NAME_LEN,
    NAME_LEN,
    NAME_LIMIT,
    PASSWORD_LEN,
)
from scopa_net.typed import has_control, shown, small_number

# Exit statuses, documented in ``scopa-net --help`` and the README.
EXIT_OK = 0
EXIT_FAILED = 1
"""The work ran and failed: a transcript did not verify, a match stopped, a bot failed."""
EXIT_USAGE = 2
"""A bad flag, value or combination of flags."""
EXIT_UNREACHABLE = 3
"""No scopa-net host at that address: refused, no answer, unknown name, or not scopa-net."""
EXIT_REFUSED = 4
"""The host said no: no such table, seat taken, wrong password, table full."""
EXIT_LOCAL = 5
"""This machine cannot do it: port in use, address not here, database unusable or locked,
a full disk."""
EXIT_KEY_CHANGED = 6
"""The host's key is not the one pinned for its address: it may be another host."""
EXIT_DEAL_FAILED = 7
"""A fair-deal check failed at this seat: the client stopped and saved the evidence."""
EXIT_HANGUP = 129
"""The terminal closed (SIGHUP), 128 + 1 as the shell reports: a game ends its connection,
its seat kept, and says so where stderr still goes."""
EXIT_CANCELLED = 130
"""You stopped it: Ctrl-C, or Ctrl-D at a question before a game (leaving a game is 0)."""
EXIT_BROKEN_PIPE = 141
"""The output went to a pipe whose reader stopped (128 + SIGPIPE, as the shell reports)."""
EXIT_TERMINATED = 143
"""Stopped by SIGTERM (``kill``), 128 + 15 as the shell reports: a game says so in one line,
and how to take back a seat kept (a host's SIGTERM is its normal end: 0)."""

EXIT_STATUSES = (
    (EXIT_OK, "done"),
    (EXIT_FAILED, "the work failed (a transcript did not verify, a bot failed, a match stopped)"),
    (EXIT_USAGE, "a bad flag, value or combination of flags"),
    (
        EXIT_UNREACHABLE,
        "no scopa-net host there (refused, no answer, unknown name, not one), or it was stopping",
    ),
    (EXIT_REFUSED, "the host said no (no such table, seat taken, wrong password, full)"),
    (EXIT_LOCAL, "this machine cannot (port in use, address not here, database, disk full)"),
    (
        EXIT_KEY_CHANGED,
        "the host's key is not the one pinned, or it did not prove it holds it (it may be "
        "another host)",
    ),
    (EXIT_DEAL_FAILED, "a deal check failed: the client stopped and saved the evidence"),
    (EXIT_HANGUP, "its terminal closed (SIGHUP); a game keeps your seat"),
    (EXIT_CANCELLED, "you stopped it (Ctrl-C, or Ctrl-D at a question before a game)"),
    (EXIT_BROKEN_PIPE, "what read its output stopped reading (such as `| head`)"),
    (EXIT_TERMINATED, "stopped by SIGTERM (`kill`); a game says how to take its seat back"),
)


PROGRAM = "scopa-net"
"""What every line a command writes on stderr begins with: ``scopa-net: ...``."""


class CommandError(Exception):
    """A person's mistake or an unreachable peer: one line on stderr, and an exit status."""

    def __init__(self, message: str, status: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.status = status


def say(message: str) -> None:
    """A note on stderr, prefixed with the program's name; on a terminal, cut between words
    to fit it (client.said), so that a long one is never broken inside a word."""
    line = f"{PROGRAM}: {message}"
    try:
        terminal = sys.stderr.isatty()
    except (AttributeError, ValueError, OSError):
        terminal = False
    if not terminal:  # a file: whole, and without loading the client's modules
        print(line, file=sys.stderr)
        return
    from scopa_net.client.said import say as said

    said(line, file=sys.stderr)


# --- the parser ---------------------------------------------------------------------------------


class HelpFormatter(argparse.HelpFormatter):
    """Every option's default in its help (unless it has none worth showing); a description
    or epilog with line breaks is printed as written, one without is wrapped."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if "\n" in text:
            return "\n".join(_wrapped(indent + line, width) for line in text.splitlines())
        return super()._fill_text(text, width, indent)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if (
            "(default" in text
            or not action.option_strings
            or default is None
            or default is False
            or default == []
            or argparse.SUPPRESS in (default, text)
            or isinstance(action, argparse._VersionAction)
        ):
            return action.help
        return f"{text} {said_default(default).replace('%', '%%')}"


def said_default(value: object) -> str:
    """An option's default as every help text writes it: ``(default: 1)`` (a number of
    seconds as typed, ``0.8`` or ``60``, not ``60.0``)."""
    if isinstance(value, float):
        value = f"{value:g}"
    return f"(default: {value})"


def _wrapped(line: str, width: int) -> str:
    """A line of a help text laid out by hand, wrapped to ``width`` if it is wider: the rest
    lines up under its text (after a term such as "  130  ", or under its own indent)."""
    if len(line) <= width:
        return line
    term = re.match(r"\s*\S+\s{2,}", line) or re.match(r"\s*", line)
    hang = " " * len(term[0]) if term else ""
    return textwrap.fill(line, width, subsequent_indent=hang, break_on_hyphens=False)


class ArgumentParser(argparse.ArgumentParser):
    """A parser whose usage errors are one line naming the command and where its help is."""

    _words: Sequence[str] = ()
    """What this parser was last given to parse (a subcommand's parser: the words after it)."""

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        self._words = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        message = (
            message.replace("argument ", "", 1) if message.startswith("argument ") else message
        )
        from scopa_net.commands.usage_words import reworded, unknown_flags, what_is_missing

        command = self.prog.rpartition(" ")[2]
        unknown = self._unknown_flags()
        if unknown and message.startswith(
            ("the following arguments are required", "unrecognized arguments")
        ):
            # `bots --bogus` said "the following arguments are required: address": the flag
            # mistyped is the mistake to tell (with the address given, it would be), and the
            # flag it most likely was ("unrecognized arguments: --plyers 2" named neither).
            message = unknown_flags(unknown, self._option_string_actions, command)
        elif message.startswith("the following arguments are required: "):
            message = what_is_missing(command, message.partition(": ")[2])
        else:
            message = reworded(message)
        # "scopa-net: ...", as every other error and note of every command begins (say): the
        # command is named where its help is.
        self.exit(EXIT_USAGE, f"{PROGRAM}: {message} (see `{self.prog} --help`)\n")

    def _unknown_flags(self) -> list[str]:
        words = list(self._words)
        if "--" in words:  # what follows is not flags
            words = words[: words.index("--")]
        return [
            word
            for word in words
            if word.startswith("-")
            and not _is_number(word)
            and word.partition("=")[0] not in self._option_string_actions
        ]


def _is_number(word: str) -> bool:
    try:
        float(word)
    except ValueError:
        return False
    return True


def plural(n: int, thing: str) -> str:
    """``1 round``, ``3 rounds``: a count in the words a person reads."""
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def add_command(
    subparsers: argparse._SubParsersAction, name: str, **kwargs: Any
) -> argparse.ArgumentParser:
    """A subcommand's parser, with the shared help format; it knows itself for error messages."""
    parser = subparsers.add_parser(name, formatter_class=HelpFormatter, **kwargs)
    parser.set_defaults(command_parser=parser)
    return parser


def variants_epilog() -> str:
    """The named variants, one line each, for the epilog of the commands that take them."""
    width = max(len(v.value) for v in Variant)
    lines = [f"  {v.value:<{width}}  {v.summary}" for v in Variant]
    return "variants (--variant NAME, repeat for more):\n" + "\n".join(lines)


# --- value checks ---------------------------------------------------------------------------------


def port_number(text: str) -> int:
    """A TCP port, 0 to 65535 (0: any free one)."""
    port = small_number(text)
    if port is None:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a port number")
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port: use 0 to 65535")
    return port


def _number_of_seconds(text: str) -> float:
    """``text`` read as a number of seconds, any number; the range is the caller's to check."""
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a number of seconds") from None


def seconds(text: str) -> float:
    """A duration in seconds, zero or more."""
    value = _number_of_seconds(text)
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text} seconds: use 0 or more")
    return value


def file_name(text: str) -> str:
    """A file's name: not empty (an empty one read as the current folder)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("the file name is empty; give one")
    return text


def file_path(text: str) -> Path:
    """A file's path, as :func:`file_name` checks it."""
    return Path(file_name(text))


def table_password(text: str) -> str:
    """A table's password: 1 to 64 characters, as the wire carries it."""
    if not 1 <= len(text) <= PASSWORD_LEN:
        raise argparse.ArgumentTypeError(
            f"a password is 1 to {PASSWORD_LEN} characters (this one has {len(text)})"
        )
    if has_control(text):
        raise argparse.ArgumentTypeError(
            "a password cannot hold a control character (a tab, an escape sequence...)"
        )
    return text


PASSWORD_VARIABLE = "SCOPA_NET_PASSWORD"
"""The environment variable that gives a table's password where ``--password`` does not:
unlike a command line, the environment is not shown to the machine's other users (``ps``)."""


def add_password_option(parser: Any, meaning: str) -> None:
    """``--password``, the same flag in every command that takes one: ``meaning`` says what
    it is for there; the help says that a command line shows it to others, and what does not."""
    parser.add_argument(
        "--password",
        type=table_password,
        default=None,
        help=f"{meaning}. Given here, every user of this machine can read it (`ps`); "
        f"${PASSWORD_VARIABLE} in the environment gives it unseen",
    )


def password_setting(given: str | None, env: Mapping[str, str]) -> str | None:
    """The password a command uses: ``--password`` if given, else ``$SCOPA_NET_PASSWORD``
    (empty counts as unset); a value that is no password is a CommandError in one line."""
    if given is not None:
        return given
    text = env.get(PASSWORD_VARIABLE, "")
    if not text:
        return None
    try:
        return table_password(text)
    except argparse.ArgumentTypeError as exc:
        raise CommandError(f"${PASSWORD_VARIABLE}: {exc}") from None


def _a_name(text: str, what: str, longest: int, empty: str) -> str:
    """``text`` as a name of ``what`` (a table, a host): something showable, at most
    ``longest`` columns, no control character; else ArgumentTypeError saying which (``empty``
    when there is nothing). Refused
    where it is typed, never cut or replaced later."""
    from scopa_net.names import display_width

    if not text.strip():
        raise argparse.ArgumentTypeError(empty)
    width = max(display_width(text), len(text))
    if width > longest:
        raise argparse.ArgumentTypeError(
            f"a {what}'s name is at most {longest} characters (this one has {width})"
        )
    if has_control(text):
        raise argparse.ArgumentTypeError(
            f"a {what}'s name cannot hold a control character (a tab, an escape sequence...)"
        )
    return text.strip()


def table_name(text: str) -> str:
    """A table's name: 1 to 32 characters, as the wire carries it and listings show it."""
    return _a_name(text, "table", NAME_LEN, "the table's name is empty; give one")


def host_name(text: str) -> str:
    """A host's name: 1 to 64 characters, as the wire carries it."""
    return _a_name(text, "host", HOST_NAME_LEN, EMPTY_NAME)


MAX_BOT_DELAY = 5.0
"""The longest pause a computer player makes before a move: longer, and a game crawls."""


def bot_delay_seconds(text: str) -> float:
    """A computer player's pause before each move: 0 to ``MAX_BOT_DELAY`` seconds."""
    value = _number_of_seconds(text)
    if not 0 <= value <= MAX_BOT_DELAY:  # one message for -1, 6 and 1e9 alike (nan too)
        raise argparse.ArgumentTypeError(
            f"{text} is out of range; choose 0 to {MAX_BOT_DELAY:g} seconds"
        )
    return value


def grace_seconds(text: str) -> float:
    """A dropped seat's grace period: 0 to an hour, the most a `seat_status` can carry
    (protocol.md 3.9, `grace`)."""
    from scopa_net.wire.messages import GRACE_MAX

    value = _number_of_seconds(text)
    if not 0 <= value <= GRACE_MAX:  # one message for -1, 4000 and 1e9 alike (nan too)
        raise argparse.ArgumentTypeError(
            f"{text} is out of range; choose 0 to {GRACE_MAX} seconds (an hour)"
        )
    return value


MAX_THINK = 60.0


def think_seconds(text: str) -> float:
    """A thinking budget: more than 0 seconds, at most a minute."""
    value = _number_of_seconds(text)
    if not 0 < value <= MAX_THINK:  # one message for 0, -1 and 61 alike (nan too)
        raise argparse.ArgumentTypeError(
            f"{text} seconds: think more than 0 and at most {MAX_THINK:g}"
        )
    return value


def at_least(low: int) -> Any:
    """A whole number no smaller than ``low``."""

    def check(text: str) -> int:
        value = small_number(text.removeprefix("-")) if len(text) < 12 else None
        if value is None:
            raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number")
        value = -value if text.startswith("-") else value
        if value < low:
            raise argparse.ArgumentTypeError(f"{value}: use {low} or more")
        return value

    return check


# --- the computer players: one flag name and one set of values everywhere ------------------------

BOT_LEVELS: dict[str, str] = {
    "easy": "random",
    "medium": "greedy",
    "hard": "strong",
    "expert": "expert",
}
"""Level names people type, and the computer player each one is (``scopa_net.bots.levels``)."""
DEFAULT_BOT_LEVEL = "medium"
DEFAULT_TARGET = 11
"""The points that win a match unless --target says otherwise."""
TARGET_CHOICES = "1 to 99"
"""What --target takes, as the help texts say it."""
PLAYER_CHOICES = ", ".join(map(str, PLAYER_COUNTS))
"""What --players takes, as the help texts say it."""
DEFAULT_BOT_DELAY = 0.8
"""Seconds a computer player waits before each move, so people can follow the play."""
DEFAULT_THINK = 1.0
"""Seconds an ``expert`` computer player thinks about each move (``--think``)."""
LEVEL_WIRE_NUMBERS: dict[str, int] = {"easy": 1, "medium": 2, "hard": 3, "expert": 4}
"""The ``bot_level`` number of ``create_table`` for each level name (protocol.md)."""
_OLD_LEVELS = {
    "random": "easy",
    "greedy": "medium",
    "strong": "hard",
    # The numbers mean what they mean on the wire (protocol.md, create_table's bot_level).
    "1": "easy",
    "2": "medium",
    "3": "hard",
    "4": "expert",
    "5": "hard",
}


def bot_level(text: str) -> str:
    """A level name; the old names and numbers are taken, with a note."""
    name = text.strip().lower()
    if name in BOT_LEVELS:
        return name
    if name in _OLD_LEVELS:
        say(f"note: bot level {text!r} is now called {_OLD_LEVELS[name]!r}")
        return _OLD_LEVELS[name]
    raise argparse.ArgumentTypeError(f"{text!r} is not a level: use one of {', '.join(BOT_LEVELS)}")


def player_for(level: str) -> str:
    """The computer player (``scopa_net.bots.levels`` name) behind a level name."""
    return BOT_LEVELS[level]


class _OldSpelling(argparse.Action):
    """An old flag name, still taken: it stores into the new one's place with a note."""

    def __init__(self, option_strings: Sequence[str], dest: str, new: str, **kwargs: Any) -> None:
        self.new = new
        super().__init__(option_strings, dest, help=argparse.SUPPRESS, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        say(f"note: {option_string} is now {self.new}")
        setattr(namespace, self.dest, values)


def add_old_spelling(
    parser: argparse.ArgumentParser, old: str, new: str, dest: str, type: Any
) -> None:
    """Accept ``old`` as ``new`` (hidden from --help, with a note when used)."""
    parser.add_argument(
        old, dest=dest, action=_OldSpelling, new=new, type=type, default=argparse.SUPPRESS
    )


def add_bot_options(
    parser: argparse.ArgumentParser | Any,
    *,
    level_help: str,
    delay_help: str | None = None,
    think: bool = True,
) -> None:
    """``--bot-level``, ``--think`` (unless ``think`` is False: the host decides it) and
    (unless ``delay_help`` is None) ``--bot-delay``."""
    parser.add_argument(
        "--bot-level",
        type=bot_level,
        default=DEFAULT_BOT_LEVEL,
        metavar="{" + ",".join(BOT_LEVELS) + "}",
        help=level_help,
    )
    if think:
        add_think_option(parser)
    if delay_help is not None:
        add_bot_delay_option(parser, delay_help)


def add_bot_delay_option(parser: argparse.ArgumentParser | Any, help: str) -> None:
    """``--bot-delay SECONDS``: a computer player's pause before each move (0 to 5)."""
    parser.add_argument(
        "--bot-delay",
        type=bot_delay_seconds,
        default=DEFAULT_BOT_DELAY,
        metavar="SECONDS",
        help=help,
    )


class _EitherOr(argparse.BooleanOptionalAction):
    """``--blind`` or ``--no-blind``, not both: the second one of the pair is refused as a
    mutually exclusive group refuses it (the usage shows them so)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        said = getattr(namespace, self.dest, None)
        super().__call__(parser, namespace, values, option_string)
        now = getattr(namespace, self.dest)
        if said is not None and said != now:
            other = next(flag for flag in self.option_strings if flag != option_string)
            raise argparse.ArgumentError(
                None, f"{option_string}: not allowed with argument {other}"
            )


def add_blind_option(parser: argparse.ArgumentParser | Any, *, when: str = "") -> None:
    """``--blind`` / ``--no-blind``: a table where not even the host sees the cards."""
    parser.add_argument(
        "--blind",
        action=_EitherOr,
        default=None,
        help=f"{when}make it a blind table (every card is encrypted by every player's client "
        "and the host, so not even the host sees a card before it is dealt to you or "
        "played). The default when more than one person plays; --no-blind "
        "for an ordinary table",
    )


def blind_table(flag: bool | None, people: int) -> bool:
    """Whether a table is blind: as ``--blind`` / ``--no-blind`` say, else when more than one
    person plays at it (alone against computer players, nobody's cards are the host's to
    hide)."""
    return people > 1 if flag is None else flag


def add_think_option(parser: argparse.ArgumentParser | Any) -> None:
    """``--think SECONDS``: the expert level's time budget per move."""
    parser.add_argument(
        "--think",
        type=think_seconds,
        default=None,
        metavar="SECONDS",
        help="seconds an expert computer player thinks about each move, more than 0 and at "
        f"most {MAX_THINK:g} {said_default(DEFAULT_THINK)}",
    )


def expert_think(think: float | None, level: str) -> float:
    """The budget ``--think`` gives the computer players of ``level`` (its default when not
    given); CommandError when it is given for a level that does not think (it would do
    nothing)."""
    if think is None:
        return DEFAULT_THINK
    if level != "expert":
        raise CommandError(
            f"--think is an expert's budget; --bot-level {level} does not think (give "
            "--bot-level expert, or leave out --think)"
        )
    return think


def check_bots(bots: int, players: int) -> None:
    """``--bots`` at a table of ``players`` seats must leave one for a person; CommandError."""
    if not 0 <= bots < players:
        raise CommandError(f"--bots must leave a seat for a person (0..{players - 1})")


def add_rule_options(
    parser: argparse.ArgumentParser | Any, *, players: int | None = 2, when: str = ""
) -> None:
    """``--players``, ``--target`` and ``--variant``: the rules of a table. ``--players`` is
    None when not given (``players`` is the default said in the help): :func:`table_rules`
    tells a variant for another number of players from a number the person chose."""
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        metavar="N",
        help=f"{when}players at the table, one of {PLAYER_CHOICES}"
        + ("" if players is None else f" {said_default(players)}"),
    )
    parser.add_argument(
        "--target",
        type=int,
        default=DEFAULT_TARGET,
        metavar="POINTS",
        help=f"{when}points to win, {TARGET_CHOICES}",
    )
    parser.add_argument(
        "--variant",
        action="append",
        metavar="NAME",
        help=f"{when}a named variant, repeat for more (listed below)",
    )


def add_display_options(parser: argparse.ArgumentParser) -> None:
    """The flags every command that opens the game screen takes."""
    parser.add_argument("--name", default=None, help=f"your name at the table ({NAME_LIMIT})")
    parser.add_argument(
        "--no-color", action="store_true", help="no colour (also NO_COLOR, TERM=dumb)"
    )
    parser.add_argument("--ascii", action="store_true", help="suit letters only, no suit glyphs")
    parser.add_argument(
        "--suits",
        choices=("english", "italian", "french"),
        default=None,
        help=f"suit names on screen and the letters you type {said_default('english')}",
    )
    parser.add_argument(
        "--plain",
        action="store_true",
        help="for screen readers: one fact per line, no toolbar, nothing redrawn",
    )


_VARIANT_PLAYERS = {
    Variant.SCOPONE: 4,
    Variant.SCOPONE_SCIENTIFICO: 4,
    Variant.SIX_AS_THREE_PAIRS: 6,
}
"""The variants played by one number of players only."""


def table_rules(
    players: int | None, target: int, variants: Sequence[str] | None, *, default: int = 2
) -> RuleSet:
    """The rules ``--players`` (None: not given, ``default``), ``--target`` and ``--variant``
    set; a variant for another number of players is refused naming the flag to give
    (CommandError), any other mistake as :class:`RuleSet` says it."""
    for name in variants or ():
        variant = next((v for v in Variant if v.value == name), None)
        need = _VARIANT_PLAYERS.get(variant) if variant is not None else None
        if need is not None and (default if players is None else players) != need:
            how = f"add --players {need}" if players is None else f"--players {need}, not {players}"
            raise CommandError(f"{name} is a {need}-player game: {how}")
    return RuleSet.of(default if players is None else players, target, variants or ())
