"""What a newcomer who reads only the README is told is what the program does: the places where
three newcomers (a player alone, an organiser, a suspicious player) read one thing in the README
and met another on the screen."""

from __future__ import annotations

from pathlib import Path

from scopa_net.commands.main import build_parser
from scopa_net.server.config import HostConfig

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _paragraph(starting: str) -> str:
    """The README's paragraph that begins with ``starting``, on one line."""
    at = README.index(starting)
    return " ".join(README[at:].split("\n\n", 1)[0].split())


def test_a_client_that_closes_is_waited_for_a_minute_and_a_blind_round_is_void() -> None:
    """The organiser's friend closed a window at a blind table (what `host` opens): the others
    read that the round would be void if the friend was not back within 60 s, where the README
    had said only that a computer plays for them meanwhile."""
    said = _paragraph("**If someone's client closes.**")
    assert "the table waits a minute (the host's `--grace`), then a computer plays" in said
    assert "at a blind table the round under way is void" in said
    assert "the computer plays from the next round" in said
    args, _ = build_parser().parse_known_args(["host"])
    assert args.grace == HostConfig().grace == 60  # `host`, and `play --lan`'s own host


def test_since_start_says_a_match_resumed_by_the_restart_is_tonights() -> None:
    """`history --since start` keeps a match played across a restart
    (test_history_filters.py::test_since_start_keeps_a_match_the_restart_resumed); the help
    and the documents the README sends an organiser to say so."""
    history = " ".join((ROOT / "docs" / "history.md").read_text(encoding="utf-8").split())
    assert "and those it resumed as it started, in play then" in history
    hosting = " ".join((ROOT / "docs" / "hosting.md").read_text(encoding="utf-8").split())
    assert "a match played across a restart included" in hosting
    parser = build_parser()
    sub = parser._subparsers._group_actions[0].choices["history"]  # type: ignore[union-attr]
    assert "with a match it resumed as it started" in " ".join(sub.format_help().split())


def test_what_verify_says_of_a_transcript_changed_by_hand_is_what_it_prints() -> None:
    """A suspicious player changed one card of her transcript, then the result, and asked
    what `verify` would say: docs/verify.md (where the README sends her) quotes the lines
    verify leads a failed round and a changed result with."""
    from scopa_net.fair import errors
    from scopa_net.fair.plain_words import what_failed

    said = " ".join((ROOT / "docs" / "verify.md").read_text(encoding="utf-8").split())
    assert "A transcript is binary (one msgpack value, protocol.md section 6)" in said
    for kind in (errors.SwappedCardError, errors.BadSignatureError):
        error = kind.__new__(kind)
        assert f'("{what_failed(error)}")' in said, kind


def test_the_host_says_its_table_s_password_came_from_the_environment() -> None:
    """Dario set $SCOPA_NET_PASSWORD as docs/settings.md shows, and the host said only
    "password needed": from where, had the variable been left set from another evening? It says
    so now (test_password_unseen.py), and docs/settings.md quotes it."""
    said = " ".join((ROOT / "docs" / "settings.md").read_text(encoding="utf-8").split())
    assert '"table 1 is open: ...; password needed (the one $SCOPA_NET_PASSWORD gives)"' in said


def test_not_verified_covers_a_since_that_leaves_no_file() -> None:
    """Elena gave `verify --since` a date after every file of a folder and read "NOT VERIFIED:
    nothing checked: ...", where the README's list had NOT VERIFIED only for a failed check or
    a key never pinned."""
    from scopa_net.commands.verify_brief import nothing_since

    said = " ".join(README.split())
    assert "or nothing was checked (`--since` left no file)." in said
    assert nothing_since("2026-12-08", 4).startswith("NOT VERIFIED: nothing checked: ")
    # docs/verify.md quotes it for a folder given: "all 4 files in thursday", not "given".
    line = nothing_since("2026-12-07", 4, "in thursday")
    assert line.startswith("NOT VERIFIED: nothing checked: all 4 files in thursday were ")
    verify_md = " ".join((ROOT / "docs" / "verify.md").read_text(encoding="utf-8").split())
    assert f'("{line}")' in verify_md


def test_the_readme_says_how_to_host_a_short_match() -> None:
    """Dario wanted a short first match with his friends; the README named --players, --bots
    and --password for `host` but no way to play to fewer than 11 points, which only
    `host --help` showed."""
    said = _paragraph("- `scopa-net host --players 2 --bots 1` runs a host")
    assert "`--target` the points that win (11; 3 for a short match, in `play` and" in said
    parser = build_parser()
    for argv in (["host", "--players", "2"], ["play"], ["join", "h", "--create"]):
        args, _ = parser.parse_known_args([*argv, "--target", "3"])
        assert args.target == 3, argv
        assert parser.parse_known_args(argv)[0].target == 11, argv
