"""``scopa-net verify``'s round of the files given: each read and checked in the order its
match was played, said in full or in one line (``--brief``), then the summary; what to say when
Ctrl-C or SIGTERM stops it part way."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from scopa_net.commands.options import EXIT_CANCELLED, CommandError
from scopa_net.commands.verify_keys import PINNED_BY_HAND, normal_fingerprint
from scopa_net.commands.verify_names import is_mine, saved_names
from scopa_net.commands.verify_order import played_order, saved_time
from scopa_net.commands.verify_read import TooBigError, read_at_most, unopened, unreadable_words
from scopa_net.commands.verify_summary import Summary
from scopa_net.commands.verify_summary_words import say_summary
from scopa_net.commands.verify_verdict import verify_one

EXIT_OK = 0


EXIT_FAILED = 1


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
    trusted = {normal_fingerprint(p): where for p, where in trusted.items()}
    paths = played_order(paths)
    several = len(paths) > 1
    all_ok = True
    summary = Summary()
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
            say_summary(out, summary)
    except KeyboardInterrupt as exc:
        from scopa_net.commands.work_stops import how_stopped

        stopped, status = how_stopped(exc)
        raise StoppedError(stopped_words(paths, checked, stopped), status) from None
    return EXIT_OK if all_ok and not summary.split else EXIT_FAILED


class StoppedError(CommandError):
    """Ctrl-C, SIGTERM or SIGHUP (``status`` says which) during a verify: what was checked,
    and where it stopped."""

    @property
    def by_ctrl_c(self) -> bool:
        """Stopped at the terminal's ^C (its line goes below it)."""
        return self.status == EXIT_CANCELLED


def stopped_words(paths: list[Path], checked: int, stopped: str = "stopped") -> str:
    """What to tell a person whose verify stopped (``stopped``: how, "stopped by SIGTERM")
    after ``checked`` of ``paths``."""
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
    summary: Summary,
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
        data = read_at_most(path, MAX_FILE_SIZE)
    except OSError as exc:
        kind, words = unopened(path, exc)
        out(f"{path}: {words}")
        out("NOT VERIFIED")
        summary.outcomes[kind].append(path)
        return False
    except TooBigError as big:
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
    ok = verify_one(transcript, out, summary, pins, names=names, own=own, saved=saved_time(path))
    summary.outcomes[ok].append(path)
    return ok == "verified"
