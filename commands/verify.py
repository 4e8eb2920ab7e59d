"""``scopa-net verify [--pin FINGERPRINT] FILE [FILE...]``: check saved transcripts offline.

One verdict line per round, then the match result; exit status 0 only when every file verifies
completely (an unfinished match, with no signed end, does not). A failure leads with what it
means to a player (:mod:`scopa_net.fair.plain_words`), then the verdict itself as evidence; a
file that cannot be read says why in the same words (empty, cut short, not a transcript).

The host key must be one the player trusts: a ``--pin`` given, or else one this client pinned
when it played (its ``known_hosts``) or a host ``play`` ran in it (``own_hosts``), so a file
re-signed whole under another key is refused, not just shown. With no key to compare with at all
(no ``--pin``, nothing pinned), the fingerprint is only shown, for the player to compare with
the host's. Each file's time is said (the file's own: a transcript records none), and files
are checked in the order their matches were played (:mod:`.verify_order`). With several files,
a summary follows: every file given and what became of it
(verified, unfinished, failed, refused, unreadable, missing, given twice), rounds verified and
failed, rounds not fair-checked, seeds left out by reason and by seat (named by whoever held it in
that round), and for each person (by the names saved beside the files; a seat's number where
there are none) how often they were dealt the settebello, sevens and coins against what fair
deals give. The same transcript given twice counts once. A folder given stands for its
transcripts.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from scopa_net.commands.options import (
    EXIT_CANCELLED,
    EXIT_TERMINATED,
    CommandError,
    add_command,
    plural,
)
from scopa_net.commands.paths import data_dir
from scopa_net.commands.progress import Progress
from scopa_net.commands.verify_gaps import gap_words
from scopa_net.commands.verify_order import given_files, played_order, saved_time, saved_words

if TYPE_CHECKING:
    from scopa_net.fair.transcript import Transcript
    from scopa_net.fair.verifier import MatchVerdict, RoundVerdict
    from scopa_net.seat_holders import SavedNames

EXIT_OK = 0
EXIT_FAILED = 1


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(
        subparsers,
        "verify",
        help="check saved match transcripts: every deal, card, play and score",
        description="Re-derive every deal of saved transcripts from the revealed seeds, check "
        "every card, replay every play and check every score. A file whose host key is not "
        "pinned (by --pin, or by this client's known_hosts; the hosts `play` ran are trusted "
        "too) is refused. With nothing pinned at all, the key's fingerprint is only shown, to "
        "compare with the one the host shows.",
    )
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        type=Path,
        help="transcript files, or folders: each folder's transcripts (its .scopa files)",
    )
    parser.add_argument(
        "--pin",
        action="append",
        default=None,
        metavar="FINGERPRINT",
        help="the host key fingerprint to accept (as the host shows it, e.g. "
        "0510-a4a7-ee55-e70c-497d); may be given more than once. Without it, the keys this "
        "client pinned when it played, and those of the hosts `play` ran, are used",
    )
    parser.add_argument(
        "--since",
        type=since_value,
        default=None,
        metavar="WHEN",
        help="only the files saved at or after WHEN (the file's time: a transcript records "
        "none): a date YYYY-MM-DD or 'YYYY-MM-DD HH:MM' (local time), as history takes it",
    )
    parser.add_argument(
        "--brief",
        action="store_true",
        help="one line for each file (what became of it, and who won), then the summary",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    parser.set_defaults(run=run)


def since_value(text: str) -> float:
    """``--since``'s value, as ``history`` reads it, but for ``start`` (the host's last start:
    a file does not know it); a usage error said in one line."""
    from scopa_net.commands.history_filter import SINCE_START, parse_since

    try:
        since = parse_since(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc).split(", or ")[0]) from None
    if since == SINCE_START:
        raise argparse.ArgumentTypeError(
            "start is for history (since the host last started); verify goes by the files' "
            "times: give a date, YYYY-MM-DD or 'YYYY-MM-DD HH:MM' (local time)"
        )
    return float(since)


def run(args: argparse.Namespace) -> int:
    for given in args.pin or ():
        pin = _normal(given)
        if len(pin) != 20 or any(c not in "0123456789abcdef" for c in pin):
            raise CommandError(
                f"--pin {given!r} is not a host key fingerprint: 20 hex digits, as the host "
                "shows it (such as 0510-a4a7-ee55-e70c-497d)"
            )
    pins = {_normal(p): PINNED_BY_HAND for p in args.pin or ()}
    if not pins:
        here = data_dir(os.environ)
        pins = pinned_keys(here / "own_hosts") | pinned_keys(here / "known_hosts")
    me = _my_name()
    args.files = given_files(args.files)
    if args.since is not None:
        from scopa_net.commands.verify_brief import saved_since, since_words

        args.files, left = saved_since(args.files, args.since)
        when = since_words(args.since)
        if not args.files:
            print(f"no file saved since {when} among the {plural(len(left), 'file')} given")
            return EXIT_OK
        if left:
            print(f"left out: {plural(len(left), 'file')} saved before {when} (--since)")
    brief = args.brief
    from scopa_net.client.sigterm import sigterm_raises

    try:
        with sigterm_raises():  # SIGTERM says what was checked, as Ctrl-C does
            if len(args.files) == 1:
                return verify_files(args.files, print, pins=pins, me=me, brief=brief)
            with Progress("verify", len(args.files), "files", quiet=args.quiet) as progress:

                def out(line: str) -> None:
                    progress.clear()
                    print(line, flush=progress.terminal)

                return verify_files(
                    args.files, out, progress.advance, pins=pins, me=me, brief=brief
                )
    except StoppedError as exc:
        if not exc.by_sigterm:
            print(file=sys.stderr)  # after the terminal's ^C
        raise


def _my_name() -> str:
    """The name this person plays under (config, SCOPA_NET_NAME, login name); "" if their
    settings cannot be read (verify then calls no seat "you")."""
    from scopa_net.client.config import ConfigError, load_settings

    try:
        return load_settings(os.environ).name
    except ConfigError:
        return ""


def _normal(text: str) -> str:
    return text.strip().lower().replace("-", "").replace(":", "")


PINNED_BY_HAND = "--pin"
"""Where a trusted key came from, when the person gave it with ``--pin``."""
MANY_KEYS = 3
"""Up to this many trusted keys, a refusal names them; past it, it counts them."""


def pinned_keys(path: Path) -> dict[str, str]:
    """The fingerprint of every host key in a client's ``known_hosts`` (``address hexkey``
    lines) or ``own_hosts`` (``hexkey`` lines), each with the host it is pinned for."""
    from scopa_net.fair.commitments import fingerprint

    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return {}
    out = {}
    for line in lines:
        where, _, hexkey = line.strip().rpartition(" ")
        try:
            key = bytes.fromhex(hexkey)
        except ValueError:
            continue
        if len(key) == 32:
            host = f"the host at {where.strip()}" if where.strip() else "a host `play` ran here"
            out[_normal(fingerprint(key))] = host
    return out


def refusal(fp: str, pins: Mapping[str, str]) -> list[str]:
    """What to tell a person whose file is signed under ``fp``, a key not among ``pins``
    (fingerprint -> the host it is pinned for): which keys they do trust, and how to tell
    whether to trust this one. The key in the file is never offered as the way on by itself:
    a file re-signed under a key of the forger's own would be offered it too."""
    by_hand = all(where == PINNED_BY_HAND for where in pins.values())
    if len(pins) > MANY_KEYS:
        known = (
            f"you gave {len(pins)} others with --pin"
            if by_hand
            else f"your client knows {len(pins)} host keys (known_hosts), none of them this one"
        )
    elif by_hand:
        known = "you gave --pin " + " and --pin ".join(_shown_fp(p) for p in pins)
    else:
        known = "your client knows " + " and ".join(
            f"{_shown_fp(p)} ({where})" for p, where in pins.items()
        )
    return [
        f"REFUSED: host key {fp} is not a key you trust: {known}",
        f"  anyone can sign a file under a key of their own: compare {fp} with the fingerprint "
        "the host showed when you joined it (in its `host` output, or at your first join); "
        f"only if they are the same, verify again with --pin {fp}",
    ]


def _shown_fp(normal: str) -> str:
    """A fingerprint as the host shows it (``3e2f-7eff-8d20-1eb5-4064``)."""
    return "-".join(normal[i : i + 4] for i in range(0, len(normal), 4))


OUTCOMES = (
    ("verified", "verified"),
    ("unfinished", "unfinished (no signed end)"),
    ("failed", "failed"),
    ("refused", "refused (host key not trusted)"),
    ("unreadable", "unreadable"),
    ("missing", "missing"),
    ("twice", "given twice (counted once)"),
)
"""What can become of a file given, in the order the summary counts them."""

ROUND_OUTCOMES = ("not replayed", "void", "verified", "failed")
"""What can become of a round, from the least said of it to the most (of two copies of one
round, the later counts)."""
NOT_REPLAYED = "play not replayed"
"""In a round's note: its cards were checked, but not its play, as an earlier round failed."""

SEEDS_LEFT_OUT = {
    "no_commit": "the player was away, or their sealed share did not come in time",
    "no_reveal": "the player sealed a share but did not show it in time",
    "bad_reveal": "the share the player showed is not the one they sealed",
}
"""Why a person's seed (their share of a round's shuffle) was left out, in words (5.4)."""
SEED_LEFT_OUT_NAMES = {
    "no_commit": "no commitment",
    "no_reveal": "no seed",
    "bad_reveal": "wrong seed",
}
"""What the summary calls each reason a seed was left out (the protocol's codes are not words)."""


def _left_out_name(why: str) -> str:
    return SEED_LEFT_OUT_NAMES.get(why, why)


@dataclass
class _Summary:
    outcomes: dict[str, list[Path]] = field(default_factory=lambda: defaultdict(list))
    """What became of each file given: an ``OUTCOMES`` kind -> the files."""
    rounds: dict[object, str] = field(default_factory=dict)
    """round id -> what became of the round (a ``ROUND_OUTCOMES`` kind), once however many
    files hold it: the worst of its copies."""
    hands: dict[int, dict[bytes, tuple[int, ...]]] = field(
        default_factory=lambda: defaultdict(dict)
    )
    exclusions: dict[bytes, tuple[tuple[int, str], ...]] = field(default_factory=dict)
    """round id -> (seat, reason) left out, each round once however many files hold it."""
    unchecked: set[bytes] = field(default_factory=set)
    """Round ids dealt with no person's seed."""
    absent: dict[bytes, tuple[int, ...]] = field(default_factory=dict)
    """Blind tables: round id -> the seats an ``absent`` void counts absent: the seat it
    names, then any other person whose seed never came (9.9)."""
    stopped: dict[bytes, int | None] = field(default_factory=dict)
    """Blind tables: round id -> the seat (None: the host) that stopped it without cause."""
    unjudged: dict[bytes, int | None] = field(default_factory=dict)
    """Blind tables: round id -> the seat (None: the host) that stopped it, where whether it
    had cause cannot be told (a person absent at the reveal, 9.9 step 8)."""
    gone: dict[bytes, tuple[int, ...]] = field(default_factory=dict)
    """Blind tables: round id -> the seats absent at the reveal of a round that is not an
    ``absent`` void (their seed never came, 9.7)."""
    chains: dict[bytes, tuple[bytes, int]] = field(default_factory=dict)
    """round id -> (chain hash, seat) of the first revealed copy seen of that round."""
    split: set[bytes] = field(default_factory=set)
    """Round ids whose revealed public record differs between two seats' files."""
    names: dict[int, list[str]] = field(default_factory=lambda: defaultdict(list))
    """Seat -> the names saved for it (each once, in the order the files were read)."""
    held: dict[bytes, list[str]] = field(default_factory=dict)
    """round id -> who held each seat in that round, as the names beside a file say (rounds
    of files with no names beside them are not here)."""
    people: dict[str, _Dealt] = field(default_factory=dict)
    """A person's name as names are compared (``folded``) -> what they were dealt, for the
    luck of the deal by person; ``hands`` keeps the seats of files with no names."""

    def seat(self, seat: int) -> str:
        """``Ada (seat 0)`` as the summary names a seat: by the names saved beside the files
        (``Ada or Dino (seat 0)`` where files of several matches name different people);
        ``seat 0`` if none was."""
        from scopa_net.names import seat_named

        return seat_named(seat, " or ".join(self.names.get(seat) or ()))

    def who(self, round_id: bytes, seat: int) -> str:
        """``Carla (seat 1)``: a seat in one round, by whoever held it then (as
        :meth:`seat` where no names say)."""
        from scopa_net.names import seat_named

        held = self.held.get(round_id) or []
        name = held[seat] if seat < len(held) else ""
        return seat_named(seat, name) if _a_name(name, seat) else self.seat(seat)


@dataclass
class _Dealt:
    """What one person was dealt over the files: their name as first read, the seats they
    sat at, and their hand in each verified round."""

    name: str
    seats: set[int] = field(default_factory=set)
    hands: dict[bytes, tuple[int, ...]] = field(default_factory=dict)

    def label(self) -> str:
        """``Ada (seat 0)``, ``Ada (seats 0 and 1)``."""
        seats = sorted(self.seats)
        if len(seats) == 1:
            return f"{self.name} (seat {seats[0]})"
        return f"{self.name} (seats {', '.join(map(str, seats[:-1]))} and {seats[-1]})"


def _a_name(name: str, seat: int) -> bool:
    """Whether a saved name names someone (not empty, nor the ``seat N`` of a seat never
    held)."""
    return bool(name) and name != f"seat {seat}"


def verify_files(
    paths: list[Path],
    out: Callable[[str], None],
    done: Callable[[], None] = lambda: None,
    *,
    pins: Mapping[str, str] | Iterable[str] | None = None,
    me: str = "",
    brief: bool = False,
) -> int:
    """Verify each file, telling ``out`` every line and ``done`` after each file. ``me``: the
    name of the person verifying; a file's seat is "you" only when its saved name is that
    one (a transcript copied from a friend is theirs, not the reader's). ``pins``: the
    fingerprints of the host keys trusted, each with the host it is pinned for (or
    :data:`PINNED_BY_HAND`); none: every key is shown, for the person to compare.
    ``brief``: one line for each file (:func:`.verify_brief.brief_line`), then the summary."""
    from scopa_net.commands.verify_brief import brief_line

    trusted = dict(pins) if isinstance(pins, Mapping) else dict.fromkeys(pins or (), PINNED_BY_HAND)
    trusted = {_normal(p): where for p, where in trusted.items()}
    paths = played_order(paths)
    several = len(paths) > 1
    all_ok = True
    summary = _Summary()
    seen: dict[str, Path] = {}
    checked = 0
    try:
        for path in paths:
            said: list[str] = []
            told = said.append if brief else out
            all_ok &= _one_file(
                path, told, summary, seen=seen, several=several, pins=trusted, me=me
            )
            if brief:
                out(brief_line(path, said))
            checked += 1
            done()
        if several:
            _summary(out, summary)
    except KeyboardInterrupt as exc:
        from scopa_net.client.sigterm import Terminated

        by_sigterm = isinstance(exc, Terminated)
        raise StoppedError(stopped_words(paths, checked, by_sigterm), by_sigterm) from None
    return EXIT_OK if all_ok and not summary.split else EXIT_FAILED


class StoppedError(CommandError):
    """Ctrl-C (or SIGTERM: ``by_sigterm``) during a verify: what was checked, and where it
    stopped."""

    def __init__(self, message: str, by_sigterm: bool = False) -> None:
        super().__init__(message, EXIT_TERMINATED if by_sigterm else EXIT_CANCELLED)
        self.by_sigterm = by_sigterm


def stopped_words(paths: list[Path], checked: int, by_sigterm: bool = False) -> str:
    """What to tell a person who stopped a verify (or whose verify SIGTERM stopped) after
    ``checked`` of ``paths``."""
    stopped = "stopped by SIGTERM" if by_sigterm else "stopped"
    if checked == len(paths):
        return f"{stopped} after checking all {len(paths)} files, before the summary was finished"
    if len(paths) == 1:
        return f"{stopped}: {paths[0]} was not finished"
    return (
        f"{stopped} after checking {checked} of {len(paths)} files; {paths[checked]} was not "
        "finished, and no summary was written"
    )


def _one_file(
    path: Path,
    out: Callable[[str], None],
    summary: _Summary,
    *,
    seen: dict[str, Path],
    several: bool,
    pins: Mapping[str, str],
    me: str,
) -> bool:
    from scopa_net.fair.blind.wire import decode_any as decode
    from scopa_net.fair.errors import FairnessError
    from scopa_net.fair.transcript import MAX_FILE_SIZE

    if several:
        out(f"== {path}")
    try:
        data = _read_at_most(path, MAX_FILE_SIZE)
    except OSError as exc:
        kind, words = _unopened(path, exc)
        out(f"{path}: {words}")
        out("NOT VERIFIED")
        summary.outcomes[kind].append(path)
        return False
    except _TooBigError as big:
        out(f"{path} is {big}: a transcript is at most {big.limit}; this is not one")
        out("NOT VERIFIED")
        summary.outcomes["unreadable"].append(path)
        return False
    digest = hashlib.sha256(data).hexdigest()
    if digest in seen:
        out(f"the same transcript as {seen[digest]}: counted once")
        summary.outcomes["twice"].append(path)
        return True
    seen[digest] = path
    try:
        transcript = decode(data)
    except FairnessError as exc:
        out(f"{path}: {unreadable_words(exc, empty=not data)}")
        if data:
            out(f"  {exc}")
        out("NOT VERIFIED")
        summary.outcomes["unreadable"].append(path)
        return False
    names = saved_names(path, transcript.rules.players)
    own = is_mine(names.last, transcript.seat, me)
    ok = _verify_one(transcript, out, summary, pins, names=names, own=own, saved=saved_time(path))
    summary.outcomes[ok].append(path)
    return ok == "verified"


class _TooBigError(Exception):
    """A file larger than any transcript: its size, and the limit, as a person reads them."""

    def __init__(self, size: int | None, limit: int) -> None:
        shown, self.limit = _megabytes(size or 0), _megabytes(limit)
        if size is None:  # a device or a pipe: it has no size, only more bytes than a transcript
            shown = f"more than {self.limit}"
        elif shown == self.limit:
            shown, self.limit = f"{size} bytes", f"{limit} bytes"
        super().__init__(shown)


def _read_at_most(path: Path, limit: int) -> bytes:
    """A file's bytes, read only if it holds no more than ``limit`` (a 300 MB file is not read
    whole to be found too big); :class:`_TooBigError` if it holds more."""
    with path.open("rb") as f:
        data = f.read(limit + 1)
        if len(data) <= limit:
            return data
        size = os.fstat(f.fileno()).st_size
    raise _TooBigError(size if size > limit else None, limit)


def _megabytes(size: int) -> str:
    """``300 MB``, ``4.2 MB``: a size as a person reads it (a megabyte is a million bytes)."""
    if size >= 10_000_000:
        return f"{size / 1e6:.0f} MB"
    return f"{size / 1e6:.1f} MB"


def _unopened(path: Path, exc: OSError) -> tuple[str, str]:
    """What became of a file that could not be opened, and what to tell the person."""
    if isinstance(exc, FileNotFoundError) and _unmatched_pattern(path):
        if _same_folder(path.parent, data_dir(os.environ) / "transcripts"):
            return "missing", NO_TRANSCRIPTS_YET
        return "missing", f"no file in {path.parent} matches {path.name}"
    if isinstance(exc, FileNotFoundError):
        return "missing", "cannot read: no such file (check its name and folder)"
    if isinstance(exc, IsADirectoryError):
        if _same_folder(path, data_dir(os.environ) / "transcripts"):
            return "missing", NO_TRANSCRIPTS_YET
        return "unreadable", "a folder with no transcripts (.scopa files) in it"
    return "unreadable", f"cannot read: {exc.strerror or exc}"


NO_TRANSCRIPTS_YET = (
    "no transcripts here yet: a match saves one at its end when you played it from its first "
    "round; for a match you joined mid-way, the host can write yours (scopa-net history "
    "--export TABLE --seat SEAT, on the host's machine)"
)
"""What an empty transcripts folder means: no game played yet, or only matches joined mid-way
(a client saves no transcript of those); true of both, it does not guess which."""


def _unmatched_pattern(path: Path) -> bool:
    """Whether ``path`` is a pattern such as ``transcripts/*`` that the shell passed on as it
    was, since no file matched it."""
    return any(c in path.name for c in "*?[") and not any(path.parent.glob(path.name))


def _same_folder(one: Path, other: Path) -> bool:
    return one.expanduser().resolve() == other.expanduser().resolve()


def unreadable_words(error: Exception, *, empty: bool) -> str:
    """Why a file could not be read as a transcript at all, in a person's words."""
    from scopa_net.fair.errors import CutShortError, NotATranscriptError, OtherVersionError

    if empty:
        return "empty file: there is no transcript in it to check"
    if isinstance(error, OtherVersionError):
        return (
            "a transcript of another version of scopa-net, which this one cannot read: verify "
            "it with the version that saved it"
        )
    if isinstance(error, CutShortError):
        return "cut short (damaged, or still being written): it cannot be checked"
    if isinstance(error, NotATranscriptError):
        return "not a scopa-net transcript (another kind of file, or one damaged past reading)"
    return (
        "a damaged scopa-net transcript (or one changed by hand): part of it is not laid out as "
        "a transcript, so nothing in it can be checked"
    )


NAMES_UNSIGNED = (
    "names: from the notes saved beside the file, which the host does not sign; what is "
    "checked is each seat by its number"
)
"""Said when seats are named: a names file can be edited without a trace, the record not."""


def saved_names(path: Path, players: int) -> SavedNames:
    """The seats' names saved beside a transcript, made safe to show: by the client that
    saved it (``transcript-names/FILE.names``), else by ``history --export`` (``FILE.names``
    in the same folder); as last known, and round by round where a seat changed hands
    (:mod:`scopa_net.seat_holders`). None when there is no such file or it does not fit."""
    from scopa_net.client.files import names_beside
    from scopa_net.seat_holders import SavedNames, read_names_file

    path = path.absolute()  # FILE given from inside the transcripts folder: its parents
    for place in (names_beside(path), path.with_suffix(".names")):
        try:
            found = read_names_file(place.read_text(encoding="utf-8"), players)
        except (OSError, UnicodeDecodeError):
            continue
        if found is not None:
            return SavedNames(
                _shown(found.last),
                None if found.match is None else _shown(found.match),
                {r: _shown(n) for r, n in found.rounds.items()},
                found.computer,
            )
    return SavedNames([])


def _shown(names: list[str]) -> list[str]:
    """Saved names made safe to show, each of ``Dino, then Ivo`` on its own."""
    from scopa_net.names import clean_name
    from scopa_net.seat_holders import THEN

    return [
        THEN.join(c for c in map(clean_name, n.split(THEN)) if c) or f"seat {s}"
        for s, n in enumerate(names)
    ]


def is_mine(names: list[str], seat: int, me: str) -> bool:
    """Whether the person called ``me`` is the one the file was saved for: the name saved
    for its seat is theirs. A file without names, or a friend's, cannot tell."""
    from scopa_net.names import clean_name

    if not me or seat >= len(names):
        return False
    saved, mine = names[seat].casefold(), clean_name(me).casefold()
    # A host gives a name taken at its table a number: "Fabio (2)" is Fabio's seat there.
    numbered = re.fullmatch(r"(.+) \(\d+\)", saved)
    return saved == mine or (numbered is not None and numbered[1] == mine)


def seat_words(
    seat: int,
    mine: int,
    names: list[str],
    said: str | None = None,
    *,
    people: Sequence[int] = (),
    own: bool = False,
) -> str:
    """``Bruno (seat 1)``, ``Carla (seat 2, you)``: a seat as the person who saved the file
    reads it (the transcript's own seat is theirs). Only a client's own transcripts have
    ``names`` beside them; a file without (exported by a host, say) may be anyone's, so its
    seat is ``seat 2 (this file's seat)``, never "you". ``said``: what the verifier already
    said of it in brackets (``party 1``), kept last. ``people``: the seats people played in
    the line's round: a person's seat whose saved name is a computer's now (the person left, a
    computer took it) is ``seat 0 (now a computer player)``, as the file keeps only the last
    names."""
    from scopa_net.names import reads_as_computer, seat_named

    name = names[seat] if seat < len(names) else ""
    notes = []
    if name and seat in people and reads_as_computer(name):
        name, notes = "", ["now a computer player"]
    if seat == mine:
        notes.append("you" if own else "this file's seat")
    notes += [said] if said else []
    return seat_named(seat, name, *notes)


def _verify_one(
    transcript: Transcript,
    out: Callable[[str], None],
    summary: _Summary,
    pins: Mapping[str, str],
    *,
    names: SavedNames,
    own: bool,
    saved: float | None = None,
) -> str:
    """Verify one transcript and tell ``out`` every line; what became of it (``OUTCOMES``).
    A round's line names each seat by whoever held it in that round; the match result, by
    everyone who held it. ``saved``: the file's modification time, said under its first line
    (the transcript records no time of its own)."""
    from scopa_net.fair.blind.verifier import verify_any as verify_transcript
    from scopa_net.fair.commitments import fingerprint

    mine = transcript.seat

    def named(line: str, people: Sequence[int] = (), round_no: int | None = None) -> str:
        held = names.of_round(round_no)
        return re.sub(
            r"\bseat (\d+)\b(?: \(([^()]*)\))?",
            lambda f: seat_words(int(f[1]), mine, held, f[2], people=people, own=own),
            line,
        )

    for seat, name in enumerate(names.of_round(None)):
        if name and name not in summary.names[seat]:
            summary.names[seat].append(name)
    fp = fingerprint(transcript.host_key)
    whose = seat_words(mine, mine, names.of_round(None), own=own)  # everyone who held it
    out(f"{whose}, {transcript.rules.describe()}, host key {fp}")
    if saved is not None:
        out(saved_words(saved))
    if pins and _normal(fp) not in pins:
        for line in refusal(fp, pins):
            out(line)
        out("NOT VERIFIED")
        return "refused"
    if not pins:
        out("no pinned host key to compare with: check the fingerprint with the host's, or --pin")
    if names.last:
        out(NAMES_UNSIGNED)
    if transcript.stopped is not None:
        s = transcript.stopped
        out(
            named(
                f"saved as evidence when the client stopped: round {s.round_no}, {s.check}: "
                f"{s.detail}",
                round_no=s.round_no,
            )
        )
    verdict = verify_transcript(transcript)
    computer = computer_rounds(transcript, names)

    def held_by(seat: int, round_no: int) -> str:
        return seat_words(seat, mine, names.of_round(round_no), own=own)

    for line, people, round_no in report(transcript, verdict):
        said = computer_said(line, round_no, computer, held_by)
        out(named(line, people, round_no) + said)
    gap = gap_words(transcript)
    if gap is not None:
        out(gap)
    unchecked = verdict.not_fair_checked
    if verdict.ok:
        extra = f", but {unchecked} round(s) not fair-checked: no player seed" if unchecked else ""
        out(f"VERIFIED{extra}")
    elif not verdict.finished and not verdict.failures:
        out(
            "UNFINISHED: this file ends before the match's end, so it is not verified (if the "
            "match goes on to its end, a file saved then is complete)"
        )
    else:
        out("NOT VERIFIED")
    for v, r in zip(verdict.rounds, _records(transcript, verdict), strict=True):
        _count_round(summary, v, r)
    _tally(transcript, verdict, summary, names)
    if verdict.ok:
        return "verified"
    return "unfinished" if not verdict.finished and not verdict.failures else "failed"


def computer_rounds(transcript: Transcript, names: SavedNames) -> dict[int, list[int]]:
    """Seat -> the rounds in which a computer played for the person holding it: as the names
    saved beside the file say, and at a blind table as the record itself says (a seat whose
    person is not among a round's ``people`` but which played in it: protocol.md 9.7, 9.8)."""
    from scopa_net.names import reads_as_computer

    found = {seat: set(rounds) for seat, rounds in names.computer.items()}
    for r in transcript.rounds:
        people = getattr(r, "people", None)
        if people is None or not names.last:
            continue
        held = names.of_round(r.round_no)
        for seat in {p.seat for p in r.plays} - set(people):
            who = held[seat] if seat < len(held) else ""
            if who and who != f"seat {seat}" and not reads_as_computer(who):
                found.setdefault(seat, set()).add(r.round_no)
    return {seat: sorted(rounds) for seat, rounds in sorted(found.items()) if rounds}


def computer_said(
    line: str,
    round_no: int | None,
    computer: Mapping[int, list[int]],
    held_by: Callable[[int, int], str],
) -> str:
    """What a round's line, or the match result's, adds for the seats a computer played for
    their person there: ``; a computer played for seat 1 (Nina) in round 2``. Each person by
    the seat's name in those rounds (``held_by(seat, round)``), so that a seat that changed
    hands reads ``for seat 1 (Ivo) in round 3 and for seat 1 (Lea) in round 4``."""
    from scopa_net.seat_holders import rounds_words

    if round_no is None and line.startswith("match result: "):
        said = []
        for seat, rounds in computer.items():
            by_person: dict[str, list[int]] = {}
            for r in rounds:
                by_person.setdefault(held_by(seat, r), []).append(r)
            said += [f"for {who} in {rounds_words(r)}" for who, r in by_person.items()]
    elif round_no is not None and line.startswith(f"round {round_no}: "):
        said = [f"for {held_by(seat, round_no)}" for seat, r in computer.items() if round_no in r]
    else:
        return ""
    return f"; a computer played {' and '.join(said)}" if said else ""


def _count_round(summary: _Summary, verdict: RoundVerdict, record: object) -> None:
    """Count a round in the summary once per match: its round id names it in every seat's
    file; of two copies that differ, the worse counts."""
    if not verdict.ok:
        kind = "failed"
    elif NOT_REPLAYED in verdict.note:
        kind = "not replayed"
    elif getattr(record, "void", None) is not None:
        kind = "void"  # dealt again: verified, but not a round played
    else:
        kind = "verified"
    round_id = getattr(record, "round_id", None)
    key = round_id if isinstance(round_id, bytes) else object()  # no record: its own
    before = summary.rounds.get(key)
    if before is None or ROUND_OUTCOMES.index(kind) > ROUND_OUTCOMES.index(before):
        summary.rounds[key] = kind


def report_lines(transcript: Transcript, verdict: MatchVerdict) -> list[str]:
    """A line for each round and one for the match result. A failure leads with what it
    means to a player, then its verdict as the verifier gives it (the evidence), indented."""
    return [line for line, _, _ in report(transcript, verdict)]


def report(
    transcript: Transcript, verdict: MatchVerdict
) -> list[tuple[str, Sequence[int], int | None]]:
    """:func:`report_lines`, each with the seats people played in its round (blind tables;
    none otherwise, and for the match result) and the round's number (None: the match)."""
    from scopa_net.fair.plain_words import what_failed

    lines: list[tuple[str, Sequence[int], int | None]] = []
    for r, record in zip(verdict.rounds, _records(transcript, verdict), strict=True):
        people = getattr(record, "people", ())
        if r.error is None:
            lines.append((r.text(), people, r.round_no))
        else:
            lines += [
                (f"round {r.round_no}: {what_failed(r.error, people)}", people, r.round_no),
                (f"  {_by_seat(r.text(), r.error, people)}", people, r.round_no),
            ]
    error = verdict.result_error
    if error is not None:
        lines += [
            (f"match result: {what_failed(error)}", (), None),
            (f"  match result: FAILED: {type(error).__name__}: {error}", (), None),
        ]
    else:
        lines.append((f"match result: {result_words(transcript, verdict.result_note)}", (), None))
    return lines


def _records(transcript: Transcript, verdict: MatchVerdict) -> list[object]:
    """Each verdict's round record, or ``None`` where the transcript has none."""
    rounds = list(transcript.rounds)
    return [rounds[i] if i < len(rounds) else None for i in range(len(verdict.rounds))]


def _by_seat(text: str, error: Exception, people: Sequence[int]) -> str:
    """A blind verdict's ``bad play proof (party 4): ...`` as ``bad play proof, by seat 3
    (party 4): ...``: the verdict's name stays as protocol.md 9.9 gives it, and the seat
    (named by the caller) says whose it is."""
    from scopa_net.fair.blind.errors import BlindCheckError
    from scopa_net.fair.plain_words import who_is

    party = getattr(error, "party", None)
    if not isinstance(error, BlindCheckError) or party is None:
        return text
    if party != 0 and party > len(people):
        return text
    return text.replace(
        f"{error.check} (party {party}):",
        f"{error.check}, by {who_is(party, people)} (party {party}):",
        1,
    )


def result_words(transcript: Transcript, note: str) -> str:
    """The match result the verifier checked, in seats' words: who won, and by how much."""
    rules = transcript.rules
    scores = transcript.result.scores
    winner = transcript.result.winner

    def side(s: int) -> str:
        return " and ".join(f"seat {seat}" for seat in rules.seats_of(s))

    if note.startswith("UNFINISHED"):
        so_far = ", ".join(f"{n} for {side(s)}" for s, n in enumerate(scores))
        return (
            "UNFINISHED: this file ends before the match's end, where the host signs the final "
            f"result; points so far: {so_far}"
        )
    if not note.startswith("verified"):
        return note  # not checked, since a round failed
    if winner is None:
        points = ", ".join(f"{n} for {side(s)}" for s, n in enumerate(scores))
        return f"verified: no one has won yet; points: {points}"
    against = ", ".join(f"{n} for {side(s)}" for s, n in enumerate(scores) if s != winner)
    return f"verified: {side(winner)} won the match with {scores[winner]} points, against {against}"


def _tally(
    t: Transcript, verdict: MatchVerdict, summary: _Summary, names: SavedNames | None = None
) -> None:
    from scopa_net.fair.blind.verifier import absent_at_reveal, absent_seats_of, unjudged_stop
    from scopa_net.tally import folded

    for r, v in zip(t.rounds, verdict.rounds, strict=False):
        held = names.of_round(r.round_no) if names is not None and names.last else []
        if held:
            summary.held.setdefault(r.round_id, list(held))
        mine = held[t.seat] if t.seat < len(held) else ""
        excluded = getattr(r, "excluded", None) or ()
        left = tuple((seat, why) for seat, why in enumerate(excluded) if why is not None)
        if r.void is not None and r.void.reason == "absent" and r.void.offender is not None:
            summary.absent[r.round_id] = absent_seats_of(r)  # type: ignore[arg-type]
        if r.void is not None and r.void.reason == "failed_check" and v.ok:
            if unjudged_stop(r):  # a person absent at the reveal: their part is unknown
                summary.unjudged[r.round_id] = r.void.offender
            else:
                summary.stopped[r.round_id] = r.void.offender  # every part checked out (9.9)
        if t.blind and v.ok and absent_at_reveal(r):  # type: ignore[arg-type]
            summary.gone[r.round_id] = absent_at_reveal(r)  # type: ignore[arg-type]
        if r.reveal_sig is not None and v.ok:  # a failed round proves no host signature
            chain = r.chain_hash()
            first = summary.chains.setdefault(r.round_id, (chain, t.seat))
            if first[0] != chain:
                summary.split.add(r.round_id)
        if left:
            summary.exclusions[r.round_id] = left
        if v.ok and not v.fair_checked:
            summary.unchecked.add(r.round_id)
        elif v.ok and r.void is None and r.hand and _a_name(mine, t.seat):
            person = summary.people.setdefault(folded(mine), _Dealt(mine))
            person.seats.add(t.seat)
            person.hands[r.round_id] = tuple(c.card for c in r.hand)
        elif v.ok and r.void is None and r.hand:
            summary.hands[t.seat][r.round_id] = tuple(c.card for c in r.hand)


def _summary(out: Callable[[str], None], s: _Summary) -> None:
    out("== summary")
    given = sum(len(files) for files in s.outcomes.values())
    counts = [f"{len(s.outcomes[kind])} {words}" for kind, words in OUTCOMES if s.outcomes[kind]]
    out(f"files: {given} given: {', '.join(counts)}")
    for kind, words in OUTCOMES[1:]:
        if s.outcomes[kind]:
            out(f"  {words.split(' (')[0]}: {', '.join(map(str, s.outcomes[kind]))}")
    became = Counter(s.rounds.values())
    skipped = became["not replayed"]
    not_replayed = f"{skipped} not replayed (a round before failed), " if skipped else ""
    out(
        f"rounds: {became['verified']} verified, {became['void']} void, {not_replayed}"
        f"{became['failed']} failed (a round in several files counted once)"
    )
    out(f"rounds not fair-checked (no player seed): {len(s.unchecked)}")
    for round_id in sorted(s.split):
        out(
            f"HOST EQUIVOCATED: round {round_id.hex()} has two different public records, each "
            "signed by the host, in these seats' files: the host showed them different tables"
        )
    if s.absent:
        seats = Counter((seat, s.who(r, seat)) for r, absent in s.absent.items() for seat in absent)
        listed = ", ".join(f"{who}: {n}" for (_, who), n in sorted(seats.items()))
        out(f"blind rounds void for an absent player: {len(s.absent)} ({listed})")
    if s.gone:
        seats = Counter((seat, s.who(r, seat)) for r, gone in s.gone.items() for seat in gone)
        listed = ", ".join(f"{who}: {n}" for (_, who), n in sorted(seats.items()))
        out(
            "blind rounds whose reveal counts a player absent (their seed never came, so "
            f"their shuffle is unchecked): {len(s.gone)} ({listed})"
        )
    if s.stopped:
        who = Counter(
            "the host" if seat is None else s.who(r, seat) for r, seat in s.stopped.items()
        )
        listed = ", ".join(f"{name}: {n}" for name, n in sorted(who.items()))
        out(f"blind rounds void by a seat that stopped without cause: {len(s.stopped)} ({listed})")
    if s.unjudged:
        who = Counter(
            "the host" if seat is None else s.who(r, seat) for r, seat in s.unjudged.items()
        )
        listed = ", ".join(f"{name}: {n}" for name, n in sorted(who.items()))
        out(
            "blind rounds void by a seat that stopped, with cause or not (a player absent at "
            f"the reveal): {len(s.unjudged)} ({listed})"
        )
    by_reason = Counter(why for left in s.exclusions.values() for _, why in left)
    by_seat: dict[tuple[int, str], Counter[str]] = defaultdict(Counter)
    for round_id, left in s.exclusions.items():
        for seat, why in left:
            by_seat[seat, s.who(round_id, seat)][why] += 1
    if by_reason:
        reasons = ", ".join(f"{_left_out_name(why)} ({n})" for why, n in sorted(by_reason.items()))
        out(f"seeds left out, in {plural(len(s.exclusions), 'round')}: {reasons}")
        for seat, who in sorted(by_seat):
            counts = ", ".join(
                f"{_left_out_name(why)} ({n})" for why, n in sorted(by_seat[seat, who].items())
            )
            out(f"  {who}: {counts}")
        out(
            "  (a seed is a player's random share of a round's shuffle; a round with one left "
            "out was shuffled without it:"
        )
        for why in sorted(by_reason):
            out(f"  {_left_out_name(why)}: {SEEDS_LEFT_OUT.get(why, why)}")
        out("  a host that keeps losing one player's share is worth asking about)")
    else:
        out("seeds left out: none (every player's random share counted in every shuffle)")
    if not s.hands and not s.people:
        return
    from scopa_net.fair.stats import seat_tallies

    out(
        "luck of the deal: the cards players watch, dealt to each seat's player in the "
        "verified rounds (each person by the names saved beside the files, over every seat "
        "they held; a seat whose files have none, by its number), beside what fair shuffling "
        "gives on average and the usual range (19 times in 20):"
    )
    people = sorted(s.people.items())  # by name, as names are compared
    dealt = [(p.label(), p.hands) for _, p in people]
    dealt += [(f"seat {seat}", s.hands[seat]) for seat in sorted(s.hands)]
    for label, rounds in dealt:
        parts = []
        for tally in seat_tallies(rounds.values()):
            low, high = tally.band
            flag = ""
            if not tally.within:
                flag = ", more than usual" if tally.observed > high else ", fewer than usual"
            parts.append(
                f"{tally.name} {tally.observed} (expected {tally.expected:.1f}, usual "
                f"{low:.1f}-{high:.1f}{flag})"
            )
        out(f"  {label}, {plural(len(rounds), 'round')}: " + "; ".join(parts))
    out(
        "This measures luck, not honesty (the checks above are what prove the deals): even with "
        "fair shuffling, about one figure in twenty falls outside its usual range, so one "
        "now and then is expected; the same person outside again and again, over many matches, "
        "is worth a question."
    )
