"""The README is true: its Python runs and prints what it says, its commands parse, and it
documents every client setting (issue 15). The reference documents it links to (docs/*.md) are
held to the same: every command line they show parses and runs in a test, and every link
between them reaches a file that exists."""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import io
import re
import shlex
from pathlib import Path

import pytest

from scopa_net.client.config import Settings
from scopa_net.commands.main import build_parser
from scopa_net.commands.options import EXIT_STATUSES

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = {path.name: path.read_text(encoding="utf-8") for path in sorted(ROOT.glob("docs/*.md"))}
"""The reference documents the README links to, by file name."""
PYTHON_BLOCKS = re.findall(r"```python\n(.*?)```", README, re.S)


def test_the_readme_has_python_to_run() -> None:
    assert PYTHON_BLOCKS


@pytest.mark.parametrize("block", PYTHON_BLOCKS)
def test_each_python_block_prints_what_the_readme_says(block: str) -> None:
    expected = [line.removeprefix("# > ") for line in block.splitlines() if line.startswith("# > ")]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block, "README.md", "exec"), {})
    assert printed.getvalue().splitlines() == expected


def _commands() -> list[str]:
    """Every command line the README and the documents under docs/ show."""
    found: list[str] = []
    for text in [README, *DOCS.values()]:
        found += re.findall(r"`(scopa-net [^`]*)`", text)
        found += re.findall(r"^ {4}(scopa-net .*)$", text, re.M)
    return sorted(set(found))


def test_every_link_to_a_document_reaches_a_file() -> None:
    """The README sends a reader to docs/ for the details: each link must lead somewhere."""
    linked = re.findall(r"\]\((docs/[^)#]+)", README)
    assert linked
    assert {Path(link).name for link in linked} == set(DOCS)
    for name, text in DOCS.items():
        for link in re.findall(r"\]\(([^)#:]+\.md)", text):
            assert (ROOT / "docs" / link).resolve().is_file(), (name, link)


def test_every_scopa_net_command_in_the_readme_parses() -> None:
    commands = _commands()
    assert "scopa-net bots HOST --count 3 --bot-level hard" in commands
    parser = build_parser()
    for command in commands:
        argv = shlex.split(command.replace("FILE", "x.scopa"))[1:]
        if argv in ([], ["--help"]) or "COMMAND" in argv:
            continue
        args, extra = parser.parse_known_args(argv)
        assert extra == [], command
        assert args.run, command


def test_every_client_setting_and_exit_status_is_documented() -> None:
    """The settings in docs/settings.md's table (which the README links to), the exit statuses
    in the README's own."""
    for key in (f.name for f in dataclasses.fields(Settings)):
        assert f"| `{key}` |" in DOCS["settings.md"], key
    for status, _ in EXIT_STATUSES:
        assert f"| {status} |" in README, status


#: Each command line in the README and docs/, and the test that runs it (a short form where the
#: real one is long: fewer matches, a lower target, an address on loopback, a screen that reads
#: the first deal instead of showing it). A new line in them needs a test and a line here.
RUN_BY: dict[str, tuple[str, str]] = {
    "scopa-net --help": ("test_cli.py", "test_help_lists_subcommands"),
    "scopa-net play": ("test_client_tmux.py", "test_play_a_match_in_a_real_terminal"),
    "scopa-net play --coach": (
        "test_readme_commands.py",
        "test_play_coach_from_the_flag_or_the_settings_file",
    ),
    "scopa-net play --bot-level expert --think 2": (
        "test_readme_commands.py",
        "test_play_against_the_expert_thinking_as_long_as_asked",
    ),
    "scopa-net play --lan --players 4 --humans 2": (
        "test_readme_commands.py",
        "test_play_lan_host_and_a_friends_join_that_finds_them_on_the_lan",
    ),
    "scopa-net play --lan": (
        "test_readme_commands.py",
        "test_play_lan_host_and_a_friends_join_that_finds_them_on_the_lan",
    ),
    "scopa-net play --pass-and-play --names Ada,Bruno": (
        "test_pass_and_play_tmux.py",
        "test_two_people_share_a_terminal_and_never_see_each_others_hand",
    ),
    "scopa-net join": (
        "test_readme_commands.py",
        "test_play_lan_host_and_a_friends_join_that_finds_them_on_the_lan",
    ),
    "scopa-net join 192.168.1.20": (
        "test_readme_commands.py",
        "test_join_at_an_address_lists_the_tables_and_seats_the_number_typed",
    ),
    "scopa-net join HOST --create --players 4": (
        "test_readme_commands.py",
        "test_join_create_opens_the_table_asked_for_and_sits_down",
    ),
    'scopa-net join HOST --create --players 4 --table-name "Back room"': (
        "test_join_at_the_prompt.py",
        "test_join_create_names_its_table_with_the_flag_host_uses",
    ),
    "scopa-net host": (
        "test_readme_commands.py",
        "test_play_lan_host_and_a_friends_join_that_finds_them_on_the_lan",
    ),
    "scopa-net host --players 2 --bots 1": (
        "test_readme_commands.py",
        "test_play_lan_host_and_a_friends_join_that_finds_them_on_the_lan",
    ),
    "scopa-net bots HOST --table 2": (
        "test_cli_bots.py",
        "test_bots_at_a_table_with_a_password_ask_for_it_as_join_does",
    ),
    "scopa-net bots HOST --count 3 --bot-level hard": (
        "test_command_promises.py",
        "test_bots_take_the_open_seats_at_the_level_asked_for",
    ),
    "scopa-net history": ("test_command_promises.py", "test_history_of_an_empty_journal_says_so"),
    "scopa-net history --export 1": (
        "test_command_promises.py",
        "test_history_export_checks_the_seat_and_names_the_file_as_its_help_says",
    ),
    "scopa-net history --name Ada --since start": (
        "test_history_filters.py",
        "test_name_finds_a_person_whatever_the_case_and_accents_and_ends_with_their_record",
    ),
    "scopa-net history --table 2 --since 2026-12-01": (
        "test_history_filters.py",
        "test_table_name_and_since_narrow_the_list_and_combine",
    ),
    "scopa-net history --export 1 --seat Ada": (
        "test_history_filters.py",
        "test_export_takes_the_name_of_who_held_the_seat",
    ),
    "scopa-net history --export 1 --seat 0": (
        "test_host_cli.py",
        "test_history_lists_the_match_and_its_export_verifies",
    ),
    "scopa-net history --export --since start --out thursday": (
        "test_history_export_every.py",
        "test_export_without_a_table_takes_the_lists_filters",
    ),
    "scopa-net history --export --name Ada --out ada": (
        "test_history_export_every.py",
        "test_export_without_a_table_takes_the_lists_filters",
    ),
    "scopa-net verify FILE": ("test_fair_cli.py", "test_a_good_file_verifies"),
    "scopa-net verify ~/.local/share/scopa-net/transcripts/*": (
        "test_fair_cli.py",
        "test_several_files_end_with_a_summary",
    ),
    "scopa-net verify thursday": (
        "test_history_export_every.py",
        "test_verify_of_the_exported_folder_checks_its_transcripts_and_sums_up_by_person",
    ),
    "scopa-net verify --brief --since 2026-12-07 thursday": (
        "test_history_export_every.py",
        "test_verify_brief_since_reads_a_season_one_line_a_file",
    ),
    "scopa-net arena hard medium --matches 200": (
        "test_cli_progress.py",
        "test_arena_shows_progress_unless_quiet",
    ),
    "scopa-net arena expert hard --think 0.5": (
        "test_bots_expert.py",
        "test_arena_pits_expert_budgets_against_each_other",
    ),
    "scopa-net tally": (
        "test_readme_commands.py",
        "test_a_tally_started_resumed_listed_and_exported",
    ),
    "scopa-net tally Ada Bruno Carla Dino --target 21": (
        "test_readme_commands.py",
        "test_a_tally_started_resumed_listed_and_exported",
    ),
    "scopa-net tally Ada Bruno": (
        "test_tally_left_empty.py",
        "test_a_tally_begun_with_no_input_leaves_no_file_and_says_so",
    ),
    "scopa-net tally --resume": (
        "test_readme_commands.py",
        "test_a_tally_started_resumed_listed_and_exported",
    ),
    "scopa-net tally --list": (
        "test_readme_commands.py",
        "test_a_tally_started_resumed_listed_and_exported",
    ),
    "scopa-net tally --export 1 --format csv": (
        "test_readme_commands.py",
        "test_a_tally_started_resumed_listed_and_exported",
    ),
}


def test_every_readme_command_line_runs_in_a_test() -> None:
    """Every command line in the README and docs/ is in RUN_BY, named with a test that exists, in a
    module that spells the subcommand and every flag of the line (as an argv word)."""
    readme = set(_commands())
    missing = sorted(readme - RUN_BY.keys())
    assert not missing, (
        f"README or docs/ command lines no test runs (add a test and a RUN_BY line): {missing}"
    )
    gone = sorted(RUN_BY.keys() - readme)
    assert not gone, f"RUN_BY lines no longer in the README or docs/: {gone}"
    for line, (module, name) in RUN_BY.items():
        where = f"{module}::{name}"
        source = (TESTS / module).read_text(encoding="utf-8")
        tests = {
            node.name
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        }
        assert name in tests, f"{line!r}: no test {where}"
        words = shlex.split(line)[1:]
        for word in [w for w in words[:1] if not w.startswith("-")] + [
            w for w in words if w.startswith("--")
        ]:
            assert f'"{word}"' in source, f"{line!r}: {module} never says {word!r}"


def test_the_file_table_names_a_rematch_transcript_as_the_client_writes_it(
    tmp_path: Path,
) -> None:
    """The README showed only KEY-tableN-seatS.scopa, but the client writes a rematch's
    transcript as KEY-tableN-seatS-matchM.scopa (the file table is in docs/files.md now)."""
    from types import SimpleNamespace

    from scopa_net.client.network_session import NetworkSession
    from scopa_net.fair.commitments import fingerprint

    seat = SimpleNamespace(host_key=bytes(32), match_no=2, table_id=3, _seat=1)
    written = NetworkSession._transcript_path(seat, tmp_path, b"", "")  # type: ignore[arg-type]
    key = fingerprint(bytes(32)).replace("-", "")[:12]
    shown = re.findall(
        r"`transcripts/[^`]*` \|[^\n]*?`(KEY-tableN-seatS-matchM\.scopa)`", DOCS["files.md"]
    )
    assert shown == ["KEY-tableN-seatS-matchM.scopa"]
    name = shown[0].replace("KEY", key).replace("N", "3").replace("S", "1").replace("M", "2")
    assert written.name == name
