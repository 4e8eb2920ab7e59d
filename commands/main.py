"""The ``scopa-net`` command and its subcommands.

Building the parser imports only the light modules (the rules and the option helpers); each
subcommand imports what it runs on (trio, prompt-toolkit, the host) inside its ``run``, so
``--help`` and ``--version`` answer at once.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import os
import sys
from collections.abc import Iterator, Sequence

from scopa_net import __version__
from scopa_net.client.sigterm import HungUp, Terminated, process_ends_with_the_command
from scopa_net.commands.options import (
    EXIT_BROKEN_PIPE,
    EXIT_CANCELLED,
    EXIT_HANGUP,
    EXIT_LOCAL,
    EXIT_STATUSES,
    EXIT_TERMINATED,
    EXIT_USAGE,
    ArgumentParser,
    CommandError,
    HelpFormatter,
    add_command,
    add_rule_options,
    at_least,
    say,
    table_rules,
    variants_epilog,
)
from scopa_net.commands.work_stops import HUNG_UP, TERMINATED
from scopa_net.errors import RuleSetError
from scopa_net.protocol_versions import spoken

#: Modules that each add one subcommand with ``register(subparsers)``, which sets ``run``.
SUBCOMMAND_MODULES: tuple[str, ...] = (
    "scopa_net.commands.play",
    "scopa_net.commands.join",
    "scopa_net.commands.host",
    "scopa_net.commands.history",
    "scopa_net.commands.bots",
    "scopa_net.commands.verify",
    "scopa_net.commands.arena",
    "scopa_net.commands.tally",
)


def _cmd_demo(args: argparse.Namespace) -> int:
    from scopa_net.commands.demo import play_demo_match

    rules = table_rules(args.players, args.target, args.variant)
    play_demo_match(rules, args.seed, print, rounds=args.rounds)
    return 0


def _epilog() -> str:
    statuses = "\n".join(f"  {code:>3}  {meaning}" for code, meaning in EXIT_STATUSES)
    return f"Run `scopa-net COMMAND --help` for a command's options.\n\nexit status:\n{statuses}"


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="scopa-net",
        description="Scopa, the Italian card game, between terminals on a LAN, "
        "with deals every player can verify.",
        epilog=_epilog(),
        formatter_class=HelpFormatter,
    )
    parser.add_argument(
        "--version", action="version", version=f"scopa-net {__version__} ({spoken()})"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    for name in SUBCOMMAND_MODULES:
        importlib.import_module(name).register(sub)

    demo = add_command(
        sub,
        "demo",
        help="watch computer players play a round, as text",
        description="Computer players play rounds of a match, printed as text: each round's "
        "deal, every play and the score sheet. Nothing is sent anywhere.",
        epilog=variants_epilog(),
    )
    add_rule_options(demo)
    demo.add_argument("--seed", type=int, default=1, help="seed for the deck and the plays")
    demo.add_argument("--rounds", type=at_least(1), default=1, metavar="N", help="rounds to show")
    demo.set_defaults(run=_cmd_demo)
    return parser


def _show_what_the_output_can() -> None:
    """A character the output cannot encode (a name such as Zoë or 李小龙 under ``LC_ALL=C``
    or ``PYTHONIOENCODING=ascii``) is shown as ``?``, in every command, as ``play`` shows
    it: never a traceback that stops the command half way (``verify`` then looked failed)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError, OSError):
            stream.reconfigure(errors="replace")  # type: ignore[union-attr]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; the exit status (documented in ``scopa-net --help``).

    Without ``argv`` this is the ``scopa-net`` process, which ends with the command: once a
    stop signal stopped it, later ones stay ignored until it exits. Given ``argv`` (a test,
    another program), the signal handlers are as they were when it returns."""
    if argv is None:
        process_ends_with_the_command()
    _show_what_the_output_can()
    try:
        parser = build_parser()  # the slow part of starting: a Ctrl-C often lands here
    except KeyboardInterrupt:
        return _stopped()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:
            # Report an unknown flag against the subcommand it was given to.
            (getattr(args, "command_parser", None) or parser).error(
                f"unrecognized arguments: {' '.join(extra)}"
            )
    except SystemExit as exc:  # --help, --version, or a usage error already reported
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    with _whole_lines(getattr(args, "plain", False)):
        return _run(args)


@contextlib.contextmanager
def _whole_lines(plain: bool) -> Iterator[None]:
    """--plain: what a command says around the game (a host's key met for the first time,
    the tables, its errors) goes one line each, never cut at the terminal's width."""
    if not plain:
        yield
        return
    from scopa_net.client.said import WHOLE_LINES

    token = WHOLE_LINES.set(True)
    try:
        yield
    finally:
        WHOLE_LINES.reset(token)


def _run(args: argparse.Namespace) -> int:
    """``args``'s command; its exit status, a failure said in one line."""
    try:
        return args.run(args)
    except CommandError as exc:
        _said_if_it_can(str(exc))
        return exc.status
    except RuleSetError as exc:
        say(str(exc))
        return EXIT_USAGE
    except (KeyboardInterrupt, EOFError) as exc:
        return _stopped(exc)
    except BrokenPipeError:
        return _reader_gone()
    except OSError as exc:
        if exc.errno not in _DISK_FULL:
            raise
        return _disk_full(exc)
    except BaseExceptionGroup as group:
        # Ctrl-C inside a trio nursery (bots, arena...) comes wrapped in a group.
        _, rest = group.split((KeyboardInterrupt, EOFError))
        if rest is not None:
            raise
        return _stopped()


def _reader_gone() -> int:
    """The output was piped into a command that stopped reading (``| head``): stop quietly,
    as other command-line tools do, with nothing more written to the closed pipe."""
    with contextlib.suppress(OSError):  # Python's own flush of stdout at exit must not fail
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return EXIT_BROKEN_PIPE


_DISK_FULL = (errno.ENOSPC, errno.EDQUOT)


def _disk_full(exc: OSError) -> int:
    """Output or a saved file met a full disk (``> /dev/full``, a full home folder): one line,
    and nothing more written to an output that cannot take it."""
    where = f" ({exc.filename})" if exc.filename else ""
    with contextlib.suppress(OSError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    say(f"cannot write{where}: {exc.strerror.lower()}; free some space and try again")
    return EXIT_LOCAL


def _said_if_it_can(line: str) -> None:
    """``line`` said on stderr; where stderr cannot take it (its terminal closed, SIGHUP; a
    full disk), nothing, with no error of its own: the outputs then go nowhere, so that
    Python's last flush does not fail either, and the status stays the one that says why."""
    try:
        say(line)
        sys.stderr.flush()
        sys.stdout.flush()
    except OSError:
        with contextlib.suppress(OSError):
            nowhere = os.open(os.devnull, os.O_WRONLY)
            for stream in (sys.stdout, sys.stderr):
                os.dup2(nowhere, stream.fileno())


def _stopped(exc: BaseException | None = None) -> int:
    """Ctrl-C, or Ctrl-D at a question (or SIGTERM or SIGHUP where a command catches it,
    ``exc`` :class:`~scopa_net.client.sigterm.Terminated` or
    :class:`~scopa_net.client.sigterm.HungUp`): one line, and the status that says so."""
    if isinstance(exc, HungUp):
        _said_if_it_can(HUNG_UP)
        return EXIT_HANGUP
    if isinstance(exc, Terminated):
        say(TERMINATED)
        return EXIT_TERMINATED
    print(file=sys.stderr)
    say("stopped")
    return EXIT_CANCELLED
