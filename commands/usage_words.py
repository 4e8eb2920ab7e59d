"""A usage error in the words a person reads, not argparse's: ``unknown command 'jion' (did
you mean join?)`` rather than ``COMMAND: invalid choice: 'jion' (choose from ...)``, and the
flag a typo was meant to be. Imported only when a command line is refused."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence

_CHOICE = re.compile(
    r"^(?P<what>\S+): invalid choice: (?P<given>'.*?') \(choose from (?P<of>.*)\)$"
)
_NUMBER = re.compile(r"^(?P<what>\S+): invalid (?:int|float) value: (?P<given>.*)$")
_EXTRA = re.compile(r"^unrecognized arguments: (?P<words>.*)$")
_MISSING = re.compile(r"^the following arguments are required: (?P<what>.*)$")
_NO_VALUE = re.compile(r"^(?P<flag>-\S+): expected one argument$")


def _closest(word: str, known: Iterable[str]) -> str | None:
    """The one known word a typo most likely meant, or None when none is close."""
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return close[0] if close else None


def reworded(message: str) -> str:
    """An argparse message (its "argument " already taken off) as a person reads it: a wrong
    command or choice says the one meant and the ones there are; a word where a number goes
    says so; a word no flag takes is named. Any other message is returned as it is."""
    choice = _CHOICE.match(message)
    if choice:
        given = choice["given"][1:-1]
        known = [word.strip("'") for word in choice["of"].split(", ")]
        meant = _closest(given, known)
        if choice["what"] == "COMMAND":
            guess = f" (did you mean {meant}?)" if meant else ""
            return f"unknown command {given!r}{guess}; the commands are {', '.join(known)}"
        guess = f"; did you mean {meant}?" if meant else ""
        return f"{choice['what']}: {given!r} is not one of {', '.join(known)}{guess}"
    number = _NUMBER.match(message)
    if number:
        return f"{number['what']}: {number['given']} is not a number"
    extra = _EXTRA.match(message)
    if extra:  # words no flag takes (`host clubnight`: the host's name is --host-name)
        words = extra["words"].split()
        said = ", ".join(repr(word) for word in words)
        return f"unexpected {'word' if len(words) == 1 else 'words'} {said} on the command line"
    missing = _MISSING.match(message)
    if missing:
        return f"missing {missing['what']}"
    no_value = _NO_VALUE.match(message)
    if no_value:
        return f"{no_value['flag']} needs a value after it"
    return message


MISSING_SAYS = {
    "bots": "the host's, such as 192.168.1.20, as the host printed it when it started",
    "arena": "the two levels to pit against each other, such as `scopa-net arena hard medium`",
}
"""What a command given too few words needs, as a person can give it (``verify``'s below)."""


def what_is_missing(command: str, missing: str) -> str:
    """``missing`` (argparse's name for what a command needs, ``FILE``) as a person can give
    it: ``verify`` alone (after "Check it any time with: scopa-net verify FILE") says where
    this machine's transcripts are; see :data:`MISSING_SAYS` for the others."""
    if command != "verify":
        said = MISSING_SAYS.get(command)
        return f"missing {missing}" + (f": {said}" if said else "")
    import os

    from scopa_net.client.files import shown_path
    from scopa_net.commands.paths import data_dir

    saved = shown_path(data_dir(os.environ) / "transcripts")
    return (
        f"missing {missing}: the transcripts to check, such as {saved}/* (every one saved on "
        "this machine)"
    )


NOT_A_FLAG_HERE = {
    ("host", "--lan"): "a host is announced on the LAN without it (--no-advertise keeps it off)",
}
"""A flag another command takes for something this one does without a flag: what to know
instead of the flag a typo was closest to (``host --lan``, from ``play --lan``, read "did you
mean --blind?")."""


def unknown_flags(flags: Sequence[str], known: Iterable[str], command: str = "") -> str:
    """``unknown flag --plyers; did you mean --players?``: the flags a command does not take,
    each with the one it most likely was, where one is close (or, for a flag of another
    command, what ``command`` does instead: :data:`NOT_A_FLAG_HERE`)."""
    known = [flag for flag in known if flag.startswith("--")]
    names = [flag.partition("=")[0] for flag in flags]
    meant = [_closest(name, known) for name in names]
    if len(names) == 1:
        instead = NOT_A_FLAG_HERE.get((command, names[0]))
        if instead is not None:
            return f"unknown flag {names[0]}; {instead}"
        return f"unknown flag {names[0]}" + (f"; did you mean {meant[0]}?" if meant[0] else "")
    said = (
        f"{name} (did you mean {m}?)" if m else name for name, m in zip(names, meant, strict=True)
    )
    return f"unknown flags {', '.join(said)}"
