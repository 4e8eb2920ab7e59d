"""The score keeper at its prompt, typed at through a pipe, and the ``scopa-net tally`` command."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path

import pytest
from app_driver import RecordingOutput
from helpers import run_scopa_net
from prompt_toolkit.input import create_pipe_input

from scopa_net.client.style import Display
from scopa_net.client.tally_app import run_tally
from scopa_net.client.tally_controller import TallyController
from scopa_net.client.tally_store import TallyStore
from scopa_net.commands.main import main
from scopa_net.tally import Tally

NOON = datetime(2026, 12, 1, 12, 0)
WIDE = 200
"""A terminal wide enough that no line of these tests is cut."""


def keys_into(
    controller: TallyController, keys: str, *, plain: bool = True, columns: int = WIDE
) -> tuple[int, str]:
    """Run the prompt with ``keys`` typed as they are (Enter ``\r``, Ctrl-D ``\x04``), then
    the input closed; the exit status and what the terminal showed."""
    output = RecordingOutput(columns=columns)
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        pipe.close()  # then Ctrl-D, so that a run missing its quit ends instead of waiting
        status = run_tally(controller, Display(color=False), plain=plain, input=pipe, output=output)
    return status, output.text


def type_into(controller: TallyController, lines: list[str], *, plain: bool = True) -> str:
    """Run the prompt with ``lines`` typed, one Enter each; what the terminal showed."""
    status, screen = keys_into(controller, "".join(f"{line}\r" for line in lines), plain=plain)
    assert status == 0
    assert controller.finished
    return screen


def test_a_four_hand_game_with_a_counted_hand_an_undo_and_a_resume(tmp_path: Path) -> None:
    store = TallyStore(tmp_path)
    first = TallyController(None, store=store, now=lambda: NOON)
    screen = type_into(
        first,
        [
            "Ada Bruno",
            "",  # target: 11
            "",  # no scoring options
            "+3 ada",
            "bruno 1",
            "done",
            "y",
            "count",
            "22",  # cards: Bruno has the other 18
            "6",  # coins
            "zed",  # refused, and asked again
            "ada",
            "7d 6h As Kb",
            "6d 7h 7s",
            "1 0",
            "y",
            "+2 bruno",
            "undo",
            "bruno 3",
            "done",
            "y",
            "undo",
            "quit",
        ],
    )
    assert "New tally: Ada v Bruno." in screen
    assert "Primiera, Ada: 7d 21 + 6h 18 + As 16 + Kb 10 = 65, 4 suits." in screen
    assert "Primiera, Bruno: 6d 18 + 7h 21 + 7s 21 = 60, 3 suits." in screen
    assert "nobody here is called 'zed'; players: Ada, Bruno" in screen
    # The sheet of the counted hand, shown before it is scored.
    assert "After it: Ada 8, Bruno 1. Score this hand?" in screen
    sheet = screen[screen.index("Hand 2:") : screen.index("After it: Ada 8")]
    assert re.search(r"Primiera +65 +60 +Ada \+1", sheet)
    assert re.search(r"Sweeps +1 +0 +Ada \+1", sheet)
    assert re.search(r"Points +5 +0", sheet)
    assert "Undone: took back +2 for Bruno." in screen
    assert "Undone: took back hand 3 (Ada 0, Bruno 3)." in screen
    assert "Saved as 20261201-1200-ada-bruno" in screen

    saved = store.latest_unfinished()
    assert saved is not None
    assert saved.scores == (8, 1)
    assert len(saved.hands) == 2

    # `scopa-net tally --resume`: the same tally, where it was left.
    again = TallyController(saved, store=store)
    screen = type_into(
        again,
        ["ada 1", "bruno 2", "done", "y", "+2 ada", "done", "y", "+1 ada", "export markdown", "q"],
    )
    assert re.search(r"1\. Ada +8 +3 to go", screen)
    assert "Ada wins, 11-3." in screen
    assert "the game is over: Ada wins, 11-3. 'undo' takes back the last hand" in screen
    done = store.load("20261201-1200-ada-bruno")
    assert done.over
    assert len(done.hands) == 4
    assert done.scores == (11, 3)
    markdown = (tmp_path / "tallies" / "20261201-1200-ada-bruno.md").read_text()
    assert "| 2 | 5 | 0 | counted | cards 22-18: Ada +1;" in markdown
    assert "| total | **11** | **3** | | |" in markdown


def test_setup_refusals_are_one_line_and_ask_again(tmp_path: Path) -> None:
    controller = TallyController(None, store=TallyStore(tmp_path), now=lambda: NOON)
    screen = type_into(
        controller,
        [
            "Ada",
            "A B C D E",
            "Ada ada",
            "Ada Bruno Carla Dino",
            "200",
            "21",
            "scopone",
            "cappotto",
            "help",
            "carla +2",
            "+2 x",
            "done",
            "y",
            "quit",
        ],
        plain=False,
    )
    assert "1 name: Scopa is for 2, 3, 4 or 6 players" in screen  # was "1 names"
    assert "5 names: Scopa is for 2, 3, 4 or 6 players" in screen
    assert "two players are called 'ada'; names must differ" in screen
    assert "invalid target: '200'; a whole number from 1 to 99" in screen
    assert "unknown option 'scopone'" in screen
    assert "New tally: Ada & Carla v Bruno & Dino." in screen
    assert "count the hand line by line" in screen  # help
    assert "Hand 1 so far: Ada & Carla 2, Bruno & Dino 0." in screen
    assert "nobody here is called 'x'" in screen
    tally = controller.tally
    assert tally is not None
    assert tally.scores == (2, 0)
    assert tally.rules.target == 21
    assert "Traceback" not in screen


def test_completion_offers_what_can_be_typed_now(tmp_path: Path) -> None:
    tally = Tally.new(["Ada", "Bruno"], id="t")
    controller = TallyController(tally, store=None)
    first = [text for text, _ in controller.candidates("")]
    assert {"count", "done", "undo", "+1", "+2", "+3", "Ada", "Bruno"} <= set(first)
    assert [text for text, _ in controller.candidates("+2 ")] == ["Ada", "Bruno"]
    controller.handle("count")
    controller.handle("20")
    controller.handle("5")
    offered = {text for text, _ in controller.candidates("")}
    assert {"Ada", "Bruno"} <= offered
    assert "nobody" not in offered  # every coin was counted: the settebello is one of them


def test_the_settebello_is_someones_once_every_coin_is_counted(tmp_path: Path) -> None:
    """The count took "nobody" for the settebello after all ten coins were counted between
    the sides, and scored the hand without it; and it offered "nobody" in the question."""
    controller = TallyController(None, store=TallyStore(tmp_path), now=lambda: NOON)
    screen = type_into(
        controller,
        [
            *("Ada Bruno", "", "re_bello"),
            *("count", "22", "6", "nobody", "cancel"),
            *("count", "22", "10", "nobody", "bruno", "ada", "7d 7h 7s", "6h 7b", "0 0"),
            *("none", "bruno", "ada", "n", "cancel", "quit"),
        ],
    )
    assert "Who took the settebello (7 of coins)? (Ada or Bruno):" in screen
    assert (
        "all 10 coins were taken (Ada 6, Bruno 4), so someone took the settebello: "
        "type Ada or Bruno"
    ) in screen
    # Ada took all ten: only Ada can have the seven (and the king) of coins.
    assert "Who took the settebello (7 of coins)? (Ada):" in screen
    assert (
        "all 10 coins were taken (Ada 10, Bruno 0), so someone took the settebello: type Ada"
    ) in screen
    assert "Bruno took no coins, so not the settebello" in screen
    assert "Who took the re bello (king of coins)? (Ada):" in screen
    assert "so someone took the re bello: type Ada" in screen
    assert "Bruno took no coins, so not the re bello" in screen
    assert "Settebello: nobody." not in screen
    assert "Re bello: Ada." in screen


def write_tally(tmp_path: Path, tally: Tally) -> None:
    folder = tmp_path / "scopa-net" / "tallies"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{tally.id}.json").write_text(json.dumps(tally.to_dict()))


def test_the_command_lists_and_exports_saved_tallies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert main(["tally", "--list"]) == 0
    assert "No saved tallies" in capsys.readouterr().out
    tally = Tally.new(["Ada", "Bruno"], id="20261201-1200-ada-bruno", started="2026-12-01 12:00")
    tally = tally.set_total(0, 11).commit()
    write_tally(tmp_path, tally)
    (tmp_path / "scopa-net" / "tallies" / "broken.json").write_text("{")
    assert main(["tally", "--list"]) == 0
    out = capsys.readouterr().out
    assert "20261201-1200-ada-bruno  2026-12-01 12:00  Ada 11, Bruno 0 (to 11), 1 hand" in out
    assert "broken: unreadable" in out
    assert main(["tally", "--export", "20261201-1200-ada-bruno", "--format", "csv"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "hand,Ada,Bruno,how,details",
        "1,11,0,total,",
        'total,11,0,,"Ada wins, 11-0."',
    ]
    assert main(["tally", "--export", "nope"]) == 2
    assert "no saved tally 'nope'" in capsys.readouterr().err
    assert main(["tally", "--resume"]) == 2  # the only tally is finished
    assert "no unfinished tally to resume" in capsys.readouterr().err
    assert main(["tally", "Ada", "Bruno", "--variant", "scopone"]) == 2
    assert "changes how the game is played, not how it is scored" in capsys.readouterr().err
    assert main(["tally", "Ada"]) == 2
    assert "1 player is not a Scopa table" in capsys.readouterr().err


def test_a_tally_keeps_its_number_when_others_are_added(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`tally --list` numbered the tallies newest first, so adding one renumbered them all and
    `--resume 2` picked another tally than the list had shown as 2 a minute before."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    store = TallyStore(tmp_path / "scopa-net")
    # A tally saved before numbers were kept, then two begun at the prompt in the same minute
    # (the second's id sorts first).
    write_tally(tmp_path, Tally.new(["Ada", "Bruno"], id="20261201-1100-ada-bruno"))

    def listed() -> list[str]:
        assert main(["tally", "--list"]) == 0
        return [" ".join(line.split()[:2]) for line in capsys.readouterr().out.splitlines()]

    assert listed() == ["1. 20261201-1100-ada-bruno"]
    type_into(TallyController(None, store=store, now=lambda: NOON), ["Zia Yul", "", "", "quit"])
    assert listed() == ["1. 20261201-1100-ada-bruno", "2. 20261201-1200-zia-yul"]
    type_into(TallyController(None, store=store, now=lambda: NOON), ["Abe Bea", "", "", "quit"])
    assert listed() == [
        "1. 20261201-1100-ada-bruno",
        "2. 20261201-1200-zia-yul",
        "3. 20261201-1200-abe-bea",
    ]
    for number, first in (("1", "Ada"), ("2", "Zia"), ("3", "Abe")):  # --resume reads the same
        assert main(["tally", "--export", number, "--format", "csv"]) == 0
        assert capsys.readouterr().out.startswith(f"hand,{first},")
    assert store.latest_unfinished() == store.load("3")


def test_ctrl_d_in_the_middle_of_a_count_says_the_hand_was_not_scored(tmp_path: Path) -> None:
    """Ctrl-D during `count` (or at "score it (y/n)?") left with "Saved as ..." alone, and
    the hand counted line by line was gone without a word."""
    controller = TallyController(None, store=TallyStore(tmp_path), now=lambda: NOON)
    status, screen = keys_into(controller, "Ada Bruno\r\r\r+1 ada\rdone\ry\rcount\r22\r\x04")
    assert status == 0
    saved = "Saved as 20261201-1200-ada-bruno; `scopa-net tally --resume` carries on."
    assert f"The hand being counted was not scored.\n{saved}" in screen.replace("\r", "")
    assert TallyStore(tmp_path).load("20261201-1200-ada-bruno").scores == (1, 0)


def test_a_number_out_of_range_is_told_as_such_not_as_the_wrong_shape(tmp_path: Path) -> None:
    """Coins "11" was answered "type 2 numbers, one per side": the person typed one number on
    purpose (the other side has the rest) and it was the number that was wrong."""
    controller = TallyController(None, store=TallyStore(tmp_path), now=lambda: NOON)
    screen = type_into(controller, ["Ada Bruno", "", "", "count", "41", "22", "11", "6", "quit"])
    assert "invalid cards: '41'; there are 40 cards in the pack, so no side took 41" in screen
    assert "invalid coins: '11'; there are 10 coins in the pack, so no side took 11" in screen
    assert "Coins: Ada 6, Bruno 4." in screen
    assert "type 2 numbers" not in screen

    three = TallyController(None, store=TallyStore(tmp_path), now=lambda: NOON)
    screen = type_into(three, ["Ada Bruno Carla", "", "", "count", "20 10 10", "12 0 0", "6"])
    assert "invalid coins: '12 0 0'; there are 10 coins in the pack, so no side took 12" in screen
    # One number that could be right is still asked for one per side.
    assert (
        "invalid coins: '6'; type 3 whole numbers, one per side in order (Ada, Bruno, Carla)"
        in screen
    )


def test_a_total_after_quick_points_says_which_counts(tmp_path: Path) -> None:
    """'+2 ada' then 'ada 3' left Ada 3 without a word (the +2 was gone), and '+1 ada' after
    'ada 3' added to it without a word either."""
    controller = TallyController(None, store=TallyStore(tmp_path), now=lambda: NOON)
    screen = type_into(
        controller,
        [
            *("Ada Bruno", "", "", "+2 ada", "+1 bruno", "ada 3", "+1 ada", "ada 5", "bruno 2"),
            *("undo", "undo", "done", "y", "quit"),
        ],
    )
    lines = screen.replace("\r", "").splitlines()
    said = [line for line in lines if "total" in line and not line.startswith(("  ", "Undone"))]
    assert said == [
        "Ada's total for this hand is 3: it replaces +2 entered before ('undo' brings it back).",
        "+1 is added to the total typed for Ada: 4 this hand.",
        "Ada's total for this hand is 5: it replaces the total 3 and +1 entered before "
        "('undo' brings them back).",
        "Bruno's total for this hand is 2: it replaces +1 entered before ('undo' brings it back).",
    ]
    assert "Hand 1 so far: Ada 5, Bruno 2. 'done' scores it." in lines
    assert "Undone: took back total 5 for Ada." in lines
    assert controller.tally is not None
    assert controller.tally.scores == (4, 1)


def test_no_to_a_counted_hand_goes_back_to_the_answer_to_change(tmp_path: Path) -> None:
    """'n' at "Score this hand?" threw the whole count away ("Not scored; 'count' starts the
    count again."): the person wanted to correct one answer, not type them all again."""
    controller = TallyController(None, store=TallyStore(tmp_path), now=lambda: NOON)
    screen = type_into(
        controller,
        [
            *("Ada Bruno", "", "", "count", "22", "6", "bruno", "6d 7h 7s", "7d 6h 6b", "1 0"),
            *("n", "9", "2", "10", "ada", "7d 7h 7s", "6h 6b", "n", "", "y", "quit"),
        ],
    )
    # Each prompt line is drawn twice: keep one.
    lines = [
        re.sub(r"^(\w+> .*)\1$", r"\1", line) for line in screen.replace("\r", "").splitlines()
    ]
    said = lines.index("Not scored. Your answers:")
    assert lines[said + 1 : said + 8] == [
        "  1. Cards: Ada 22, Bruno 18.",
        "  2. Coins: Ada 6, Bruno 4.",
        "  3. Settebello: Bruno.",
        "  4. Primiera, Ada: 6d 18 + 7h 21 + 7s 21 = 60, 3 suits.",
        "  5. Primiera, Bruno: 7d 21 + 6h 18 + 6b 18 = 57, 3 suits.",
        "  6. Sweeps: Ada 1, Bruno 0.",
        "Which to change? A number, 1 to 6 (the others are kept); Enter shows the hand again, "
        "'cancel' drops the count.",
    ]
    refused = "invalid answer number: '9'; type 1 to 6, Enter to see the hand again, or 'cancel'"
    assert refused in lines
    text = "\n".join(lines)
    assert (
        "change> 2\n"
        "Coins taken by Ada, Bruno (e.g. 5 5; one number: the rest go to the other side):\n"
        "It was '6': Enter keeps it.\n"
        "The answers after it are kept where they still fit.\n"
    ) in text
    # The answers after the one changed are typed again for the person; those that no longer
    # fit are asked again, and the rest kept.
    changed = text[text.index("count> 10\n") :]
    assert changed.startswith(
        "count> 10\n"
        "Coins: Ada 10, Bruno 0.\n"
        "Your answer 'bruno' no longer fits: Bruno took no coins, so not the settebello\n"
        "Who took the settebello (7 of coins)? (Ada):\n"
        "count> ada\n"
        "Settebello: Ada.\n"
        "Your answer '6d 7h 7s' no longer fits: Ada took the settebello, so Ada's best coin is "
        "7d, not 6d: type it with the best card of each other suit\n"
    )
    assert (
        "Primiera, Ada: 7d 21 + 7h 21 + 7s 21 = 63, 3 suits.\n"
        "Your answer '7d 6h 6b' no longer fits: 7d went to Ada already\n"
    ) in changed
    assert "Sweeps: Ada 1, Bruno 0.\nHand 1:" in changed
    assert changed.count("After it: Ada 5, Bruno 0. Score this hand?") == 2  # Enter: again
    assert controller.tally is not None
    assert controller.tally.scores == (5, 0)


def test_going_back_in_a_count_offers_the_earlier_answer() -> None:
    """'undo' in a count dropped the answer: Enter now keeps it, and the question says so."""
    tally = Tally.new(["Ada", "Bruno"], id="t")
    controller = TallyController(tally, store=None)
    for line in ("count", "22", "6", "undo"):
        said = render_lines(controller.handle(line))
    assert said.endswith("the rest go to the other side):\nIt was '6': Enter keeps it.")
    said = render_lines(controller.handle("undo"))
    assert said.endswith("the rest go to the other side):\nIt was '22': Enter keeps it.")
    assert render_lines(controller.handle("")) == (
        "Cards: Ada 22, Bruno 18.\n"
        "Coins taken by Ada, Bruno (e.g. 5 5; one number: the rest go to the other side):\n"
        "It was '6': Enter keeps it."
    )
    said = render_lines(controller.handle("5"))
    assert said.startswith("Coins: Ada 5, Bruno 5.\nWho took the settebello")
    assert "Enter keeps" not in said
    # Points typed, then "n": they stay, and the line says how to change them.
    quick = TallyController(tally, store=None)
    quick.handle("+2 ada")
    quick.handle("done")
    assert render_lines(quick.handle("n")) == (
        "Not scored; the points entered stay: 'NAME 3' sets a side's points, 'undo' takes "
        "back the last entry."
    )


def render_lines(lines: list) -> str:
    return "\n".join("".join(text for _, text in line) for line in lines)


def test_from_a_script_the_score_keeper_reads_lines_quietly(tmp_path: Path) -> None:
    """`tally --resume` with its input from a pipe printed prompt-toolkit's "Input is not a
    terminal" warning, and its prompts and toolbar drawn as escapes among the answers."""
    started = run_scopa_net("tally", "Ada", "Bruno", home=tmp_path, input="+2 ada\ndone\ny\n")
    assert started.returncode == 0, started.stderr
    assert started.stderr == ""
    out = started.stdout.splitlines()
    assert "Hand 1 so far: Ada 2, Bruno 0. 'done' scores it." in out
    assert "After it: Ada 2, Bruno 0. Score this hand?" in out
    assert out[-1].startswith("Saved as ")  # the input's end leaves, as Ctrl-D does
    resumed = run_scopa_net("tally", "--resume", "1", home=tmp_path, input="+1 bruno\nquit\n")
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stderr == ""
    assert "\x1b" not in resumed.stdout
    out = resumed.stdout.splitlines()
    assert out[0] == "Scopa score keeper: Ada v Bruno."
    assert "  1. Ada     2   9 to go" in out
    assert "Hand 2 so far: Ada 0, Bruno 1. 'done' scores it." in out


def test_from_a_script_a_refused_line_stops_the_run_with_status_1(tmp_path: Path) -> None:
    """A script's refused line was printed and the run ended with status 0, reading on: the
    lines after it answered questions they were not written for. It stops there, status 1,
    and what came before it is saved."""
    typed = "+2 ada\n+2 zed\n+1 bruno\ndone\ny\n"
    run = run_scopa_net("tally", "Ada", "Bruno", home=tmp_path, input=typed)
    assert run.returncode == 1, run.stderr
    out = run.stdout.splitlines()
    assert out[-3] == "Hand 1 so far: Ada 2, Bruno 0. 'done' scores it."
    assert out[-2] == "Hand 1 so far: Ada 2, Bruno 0; not scored yet, kept for next time."
    assert out[-1].startswith("Saved as ")
    # The refusal goes where a script's errors go, as every command's does (it went to stdout).
    assert run.stderr.splitlines() == [
        "nobody here is called 'zed'; players: Ada, Bruno",
        "Stopped at line 2, which was refused; the lines after it are not read.",
    ]
    saved = TallyStore(tmp_path / "scopa-net").load("1")
    assert saved.hands == ()  # 'done' and 'y' were not read
    assert saved.draft_points == (2, 0)  # the line before the refused one was kept


def test_a_primiera_without_the_coins_counted_is_refused_at_the_prompt(tmp_path: Path) -> None:
    """Ada took all ten coins, so the settebello, yet '6d 7h 7s' was taken as her primiera."""
    controller = TallyController(None, store=TallyStore(tmp_path), now=lambda: NOON)
    screen = type_into(
        controller, ["Ada Bruno", "", "", "count", "40", "10", "ada", "6d 7h 7s", "cancel", "quit"]
    )
    assert (
        "Ada took the settebello, so Ada's best coin is 7d, not 6d: type it with the best card "
        "of each other suit"
    ) in screen
    assert "Primiera, Ada:" not in screen


def test_a_long_run_of_digits_is_one_line_and_the_score_keeper_goes_on(tmp_path: Path) -> None:
    """5,000 digits as the target, as quick points or as a count's answer stopped the score
    keeper on Python's "Exceeds the limit (4300 digits)"; a long line came back whole. (The
    controller is given the lines: 5,000 keys through the prompt take seconds.)"""
    digits = "7" * 5000
    controller = TallyController(None, store=TallyStore(tmp_path), now=lambda: NOON)

    def said(line: str) -> str:
        return "".join(text for part in controller.handle(line) for _, text, *_ in part)

    cut = f"{'7' * 40!r}..."
    said("Ada Bruno")
    assert said(digits) == f"invalid target: {cut}; a whole number from 1 to 99"
    said("")
    said("")
    assert said(f"+{digits} Ada") == f"invalid points: '+{'7' * 39}'...; points are whole numbers"
    said("count")
    assert said(digits) == (
        f"invalid cards: {cut}; type 2 whole numbers, one per side in order (Ada, Bruno), or "
        "Ada's alone: the rest go to Bruno"
    )
    said("20")
    assert not controller.refused  # the count goes on


def test_quick_points_of_the_open_hand_are_told_on_the_way_out_and_in(tmp_path: Path) -> None:
    """`printf '+2 Ada\\n' | scopa-net tally --resume` ended with "Saved as ..." alone, and
    the next run opened on "Hand 2 next" without the 2 points already entered for it."""
    started = run_scopa_net("tally", "Ada", "Bruno", home=tmp_path, input="+2 ada\n")
    assert started.returncode == 0, started.stderr
    out = started.stdout.splitlines()
    assert out[-2] == "Hand 1 so far: Ada 2, Bruno 0; not scored yet, kept for next time."
    assert out[-1].startswith("Saved as ")
    resumed = run_scopa_net("tally", "--resume", home=tmp_path, input="")
    assert resumed.returncode == 0, resumed.stderr
    out = resumed.stdout.splitlines()
    opening = out[: out.index("Type 'help' for what you can type.")]
    assert "Hand 1 so far: Ada 2, Bruno 0. 'done' scores it." in opening, out


def test_a_variant_that_is_none_at_all_is_told_as_unknown(tmp_path: Path) -> None:
    """`tally Ada Bruno --variant nope` said "nope changes how the game is played, not how it
    is scored", as if nope were a variant: it is none, as `play` says."""
    run = run_scopa_net("tally", "Ada", "Bruno", "--variant", "nope", home=tmp_path)
    assert run.returncode == 2
    assert run.stderr.startswith("scopa-net: unknown variant 'nope'; known variants: ")
    run = run_scopa_net("tally", "Ada", "Bruno", "--variant", "quindici", home=tmp_path)
    assert run.returncode == 2
    assert "quindici changes how the game is played, not how it is scored" in run.stderr


def test_ctrl_d_before_the_tally_begins_is_a_stop_130(tmp_path: Path) -> None:
    """Ctrl-D at `names>` ended 0, where README gives 130 for a question before a game."""
    controller = TallyController(None, store=TallyStore(tmp_path), now=lambda: NOON)
    status, screen = keys_into(controller, "\x04")
    assert status == 130
    assert "Nothing saved: the tally had not started." in screen


def test_a_finished_tally_says_the_number_that_exports_it(tmp_path: Path) -> None:
    """The last line said `scopa-net tally --export ID` with a literal ID."""
    controller = TallyController(None, store=TallyStore(tmp_path), now=lambda: NOON)
    screen = type_into(controller, ["Ada Bruno", "1", "", "+1 ada", "done", "y"])
    assert "Saved as 20261201-1200-ada-bruno; `scopa-net tally --export 1` prints it." in screen
    assert "--export ID" not in screen


def test_at_60_columns_lines_break_between_words_and_the_toolbar_fits(tmp_path: Path) -> None:
    """At 60 columns `help` broke words (`sette`/`bello`, `Ct`/`rl-D`), the names question
    broke `2, 3` / `, 4 or 6 of`, and the toolbar was cut mid-word (`(19 to go`)."""

    def screen(columns: int) -> list[str]:
        store = TallyStore(tmp_path / str(columns))
        controller = TallyController(None, store=store, now=lambda: NOON)
        _, shown = keys_into(controller, "Ada Bruno\r\r\rhelp\rquit\r", columns=columns)
        text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown).replace("\r", "")
        return [line for line in text.split("\n") if "> " not in line]  # not the prompts

    narrow, wide = screen(60), screen(WIDE)
    assert " ".join(narrow).split() == " ".join(wide).split()  # the same words, none cut
    assert max(len(line) for line in narrow) < 60, "\n".join(narrow)
    assert max(len(line) for line in wide) >= 60  # the narrow screen did break lines

    tally = Tally.new(["Ada", "Bruno", "Carla", "Dino"], target=21).add(0, 2)
    controller = TallyController(tally, store=None)
    full = fragment_text(controller.toolbar(200))
    assert "(21 to go)" in full
    assert "this hand: Ada & Carla 2" in full
    for columns in (60, 40, 20):
        shown = fragment_text(controller.toolbar(columns))
        assert len(shown) < columns, shown
        assert "(" not in shown or ")" in shown, shown  # nothing cut mid-part
        assert shown.strip().startswith("hand 1"), shown


def fragment_text(text: list[tuple[str, str]]) -> str:
    return "".join(part for _, part, *_ in text)


def test_at_40_columns_the_toolbar_of_wide_names_fits(tmp_path: Path) -> None:
    """The toolbar measured names in characters: ' hand 1 | 李小龙 & 张伟 0  王小明 & 刘洋 0 '
    (33 characters) was shown in a 40-column window, where it takes 43 columns (a wide
    character takes two) and wrapped."""
    from scopa_net.names import display_width

    tally = Tally.new(["李小龙", "王小明", "张伟", "刘洋"], target=11).add(0, 2)
    controller = TallyController(tally, store=None)
    standings = " hand 1 | 李小龙 & 张伟 0  王小明 & 刘洋 0 "
    assert fragment_text(controller.toolbar(44)) == standings  # 43 columns, the last free
    assert fragment_text(controller.toolbar(40)) == " hand 1 | 李小龙 0  王小明 0 "
    for columns in (60, 40, 30, 20):
        shown = fragment_text(controller.toolbar(columns))
        assert display_width(shown) < columns, shown


def printed_at(controller: TallyController, lines: list[str], columns: int) -> list[str]:
    """The rows printed above the prompt when ``lines`` are typed at ``columns`` columns."""
    output = RecordingOutput(columns=columns)
    with create_pipe_input() as pipe:
        pipe.send_text("".join(f"{line}\r" for line in lines))
        pipe.close()
        run_tally(controller, Display(color=False), plain=True, input=pipe, output=output)
    return output.printed


COUNTED = ["count", "22", "6", "ada", "7d 6h As Kb", "6d 7h 7s", "1 0"]
"""A hand counted line by line: Ada's side takes cards, coins, settebello, primiera, a sweep."""


def test_at_40_columns_a_counted_sheet_never_wraps_mid_row() -> None:
    """At 40 columns the counted sheet's "points to" column wrapped to the start of the
    next row ("  Cards   22\\n18   Ada & Carla +1"), so a number read as the other side's.
    A sheet too wide for the screen is said a line at a time, each figure with its side."""
    tally = Tally.new(["Ada", "Bruno", "Carla", "Dino"], target=21)
    rows = printed_at(TallyController(tally, store=None), [*COUNTED, "y", "quit"], 40)
    words = " ".join(" ".join(rows).split())
    assert "Cards: Ada & Carla 22, Bruno & Dino 18; the point to Ada & Carla." in words
    assert "Points: Ada & Carla 5, Bruno & Dino 0." in words
    assert re.search(r"1\. Ada & Carla +5 +16 to go", words)  # a table that fits stays
    assert all(len(row) < 40 for row in rows), rows
    sheet = rows[rows.index("Hand 1:") + 1 : rows.index("Points: Ada & Carla 5, Bruno & Dino 0.")]
    assert sheet[:3] == [
        "Cards: Ada & Carla 22,",
        "       Bruno & Dino 18;",
        "       the point to Ada & Carla.",
    ]
    alone = [row for row in sheet if re.match(r"\s*\d+(?! point)", row)]
    assert not alone, sheet  # no figure at the start of a row, away from its side
    after = rows.index("After it: Ada & Carla 5,")
    assert rows[after + 1] == "          Bruno & Dino 0."  # under the text, with its figure


def test_plain_says_the_sheet_and_the_standings_in_sentences() -> None:
    """`tally --plain` printed column tables (a screen reader reads them as bare numbers);
    it says them as `play --plain` does: "Cards: Ada 22, Bruno 18; the point to Ada."."""
    controller = TallyController(Tally.new(["Ada", "Bruno"]), store=None, plain=True)
    screen = type_into(controller, [*COUNTED, "y", "standings", "quit"])
    assert "Cards: Ada 22, Bruno 18; the point to Ada." in screen
    assert "Sweeps: Ada 1, Bruno 0; 1 point to Ada." in screen
    assert "1. Ada: 5 points, 6 to go." in screen
    assert "2. Bruno: 0 points, 11 to go." in screen
    assert not re.search(r"Cards +22 +18", screen)


def test_after_undo_in_a_hand_it_says_what_the_hand_holds_now() -> None:
    """`undo` in a hand said "Undone: took back total 4 for Ada." and the standings, but not
    that Ada's 3 was still entered for the hand: it says what the hand holds now."""
    controller = TallyController(Tally.new(["Ada", "Bruno"]), store=None)
    screen = type_into(controller, ["Ada 3", "Ada 4", "undo", "undo", "quit"])
    undone = screen[screen.index("Undone: took back total 4 for Ada.") :]
    assert "Hand 1 so far: Ada 3, Bruno 0. 'done' scores it." in undone
    assert "Nothing is entered for hand 1 now." in undone


def test_the_end_of_a_script_before_the_names_is_a_stop_as_ctrl_d(tmp_path: Path) -> None:
    """`printf '' | scopa-net tally` ended 0, where Ctrl-D at `names>` ends 130 (README: the
    end of the input leaves as Ctrl-D does)."""
    done = run_scopa_net("tally", home=tmp_path, input="")
    assert done.returncode == 130, done.stderr
    assert done.stdout.splitlines()[-1] == "Nothing saved: the tally had not started."


def test_ctrl_d_at_score_this_hand_is_a_no_and_the_tally_goes_on() -> None:
    """Ctrl-D at "Score this hand? y/n?" left the whole tally, where Ctrl-D at the game's
    "Really leave? y/n?" stays: it answers no, and the tally goes on."""
    controller = TallyController(Tally.new(["Ada", "Bruno"]), store=None)
    status, screen = keys_into(controller, "+2 Ada\rdone\r\x04+1 Bruno\rquit\r")
    assert status == 0
    assert "Not scored; the points entered stay:" in screen
    assert "Hand 1 so far: Ada 2, Bruno 1. 'done' scores it." in screen


def test_at_40_columns_a_four_name_toolbar_still_shows_the_score() -> None:
    """A four-name tally's toolbar at 40 columns showed only " hand 1 ": each side is named
    by its first partner there, so the score still fits."""
    tally = Tally.new(["Nicolò", "Bruno", "Carla", "Dino"]).add(0, 2).commit().add(1, 1)
    controller = TallyController(tally.commit(), store=None)
    assert fragment_text(controller.toolbar(40)) == " hand 3 | Nicolò 2  Bruno 1 "


def test_typed_at_a_terminal_with_the_output_piped_the_prompt_is_written_once(
    tmp_path: Path,
) -> None:
    """`scopa-net tally | cat` with a person typing: prompt-toolkit drew its prompt into the
    pipe, so the person read `tally>` on one line, then `       tally> +2 Ada` indented, and
    escapes among the answers. The prompt is written once before each line, as plain text,
    and a refused line is said and asked again (a person retypes it; it does not stop)."""
    import os
    import pty
    import subprocess
    import sys

    main_fd, terminal_fd = pty.openpty()
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path))
    process = subprocess.Popen(
        [sys.executable, "-m", "scopa_net", "tally", "Ada", "Bruno"],
        stdin=terminal_fd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    os.close(terminal_fd)
    try:
        os.write(main_fd, b"+2 Ada\n+1 Zed\n+1 Bruno\nquit\n")
        out, err = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
    finally:
        os.close(main_fd)
    assert process.returncode == 0, err
    assert "\x1b" not in out
    assert err.splitlines() == ["nobody here is called 'Zed'; players: Ada, Bruno"]
    lines = out.splitlines()
    assert "tally> Hand 1 so far: Ada 2, Bruno 0. 'done' scores it." in lines
    assert lines[-3] == "tally> tally> Hand 1 so far: Ada 2, Bruno 1. 'done' scores it."
    assert lines[-2] == "tally> Hand 1 so far: Ada 2, Bruno 1; not scored yet, kept for next time."
    assert lines[-1].startswith("Saved as ")
    assert out.count("tally> ") == 4  # once for each line read


def test_at_40_columns_the_question_after_a_hand_starts_its_own_line() -> None:
    """At 40 columns "Score this hand?" was set under the scores, as if it were one of them
    ("After it: Ada & Carla 5,\\n          Bruno & Dino 0.\\n          Score this hand?"): it
    starts its own line, at the left."""
    tally = Tally.new(["Ada", "Bruno", "Carla", "Dino"], target=21)
    rows = printed_at(TallyController(tally, store=None), [*COUNTED, "y", "quit"], 40)
    after = rows.index("After it: Ada & Carla 5,")
    assert rows[after + 1 : after + 3] == ["          Bruno & Dino 0.", "Score this hand?"], rows


def test_sides_level_on_points_share_a_place_in_the_standings() -> None:
    """A 4-4 tie was ranked "1." and "2.", as if one side led: level sides share a place."""
    tally = Tally.new(["Ada", "Bruno", "Carla"]).add(0, 4).add(1, 4).add(2, 1).commit()
    screen = type_into(TallyController(tally, store=None), ["standings", "quit"], plain=False)
    assert re.search(r"1\. Ada +4", screen), screen
    assert re.search(r"1\. Bruno +4", screen), screen
    assert re.search(r"3\. Carla +1", screen), screen
    plain = type_into(TallyController(tally, store=None, plain=True), ["standings", "quit"])
    assert "1. Ada: 4 points, 7 to go." in plain
    assert "1. Bruno: 4 points, 7 to go." in plain


def test_ctrl_d_typed_with_the_output_piped_says_goodbye_below_the_prompt() -> None:
    """`scopa-net tally | cat`, then Ctrl-D: the goodbye landed on the prompt's line
    ("tally> Saved as ..."): the prompt's line ends first."""
    import io

    from scopa_net.client.tally_script import run_typed_lines

    out, err = io.StringIO(), io.StringIO()
    controller = TallyController(Tally.new(["Ada", "Bruno"]), store=None)
    assert run_typed_lines(controller, io.StringIO("+2 Ada\n"), out, err) == 0
    lines = out.getvalue().splitlines()
    goodbye = "Hand 1 so far: Ada 2, Bruno 0; not scored yet, kept for next time."
    assert lines[lines.index(goodbye) - 1] == "tally> ", lines


def test_the_readme_says_which_plain_screens_write_a_prompt() -> None:
    """README said of `--plain` "There is no prompt", but pass-and-play writes `Bruno> ` and
    `tally --plain` writes `tally> ` (kept: a screen reader says whose turn it is). README
    says so, in the words the screens write, in docs/playing.md, where it sends a reader for
    `--plain`."""
    root = Path(__file__).parent.parent
    readme = " ".join((root / "README.md").read_text().split())
    plain = " ".join((root / "docs" / "playing.md").read_text().split())
    assert "There is no prompt" not in readme + plain
    controller = TallyController(Tally.new(["Ada", "Bruno"]), store=None, plain=True)
    assert f"`tally --plain` writes `{controller.prompt()}`" in plain
    assert "pass-and-play writes a short prompt naming who types now (`Bruno> `)" in plain
