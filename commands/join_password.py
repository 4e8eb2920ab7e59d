"""A table's password, when ``--password`` gave none: ``$SCOPA_NET_PASSWORD``, else typed
unseen at a terminal, or read as a line from a script's input."""

from __future__ import annotations

import argparse
import sys

from scopa_net.commands.join_say import say
from scopa_net.commands.options import (
    EXIT_REFUSED,
    PASSWORD_VARIABLE,
    CommandError,
    table_password,
)

PASSWORD_TRIES = 3


def terminal_to_type_at() -> bool:
    """Whether a person can type a password here unseen: the input is a terminal."""
    return sys.stdin.isatty()


def ask_password(table_id: int) -> str:
    """The password of a table that has one: typed without echo at a terminal, or read as
    a line from a script's input (getpass's fallback warned there, and an empty line ended in
    a traceback)."""
    import getpass

    if not terminal_to_type_at():
        typed = sys.stdin.readline().rstrip("\r\n")
        if not typed:
            raise CommandError(
                f"table {table_id} has a password: give it with --password (no terminal here "
                "to type it at, and no line of input to read it from)",
                EXIT_REFUSED,  # README: a wrong or missing password is the host saying no
            )
        try:
            return table_password(typed)
        except argparse.ArgumentTypeError as exc:
            raise CommandError(f"not joined: the password read from the input: {exc}") from None
    from scopa_net.client.sigterm import stop_signals_raise
    from scopa_net.commands.question_stops import signal_stop

    for _ in range(PASSWORD_TRIES):
        try:
            # getpass gives the echo back: the terminal is not left mute
            with stop_signals_raise():
                typed = getpass.getpass(f"password for table {table_id}: ")
        except (KeyboardInterrupt, EOFError) as exc:
            if stop := signal_stop(exc, "nothing joined", asked_on=sys.stderr):
                raise stop from None  # SIGTERM: 143; the terminal closed (SIGHUP): 129
            raise
        try:
            return table_password(typed)
        except argparse.ArgumentTypeError as exc:
            say(f"{exc}: type it again")
    raise CommandError(f"not joined: no password typed for table {table_id}")


def env_password_wrong(table_id: int | None) -> str:
    """The line when the password ``$SCOPA_NET_PASSWORD`` gave was wrong: where it came from,
    since nothing was typed."""
    table = "that table" if table_id is None else f"table {table_id}"
    return (
        f"wrong password for {table}: the one ${PASSWORD_VARIABLE} gives (this "
        "shell's environment); ask whoever opened the table for it and set it again, or "
        f"unset {PASSWORD_VARIABLE} to be asked for it"
    )
