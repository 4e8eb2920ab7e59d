"""The words the score keeper (`scopa-net tally`) says, as a newcomer read them."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from app_driver import RecordingOutput
from prompt_toolkit.input import create_pipe_input

from scopa_net.client.style import Display
from scopa_net.client.tally_app import run_tally
from scopa_net.client.tally_controller import TallyController
from scopa_net.client.tally_store import TallyStore
from scopa_net.names import display_width
from scopa_net.tally import Tally

NOON = datetime(2026, 12, 1, 12, 0)


def screen_of(controller: TallyController, keys: str, columns: int = 200) -> tuple[int, str]:
    """Run the prompt with ``keys`` typed (Enter ``\\r``), then the input closed; the exit
    status and the screen's text without escape sequences."""
    output = RecordingOutput(columns=columns)
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        pipe.close()
        status = run_tally(controller, Display(color=False), plain=True, input=pipe, output=output)
    return status, re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", output.text).replace("\r", "")


def said(controller: TallyController, *lines: str) -> str:
    """What the controller says to ``lines``, as text."""
    out = []
    for line in lines:
        out += ["".join(text for _, text, *_ in part) for part in controller.handle(line)]
    return "\n".join(out)


def test_help_at_80_columns_wraps_each_description_under_its_own_column() -> None:
    """At 80 columns the `count` row broke as "  count" / "count the hand line by line:
    cards, ..." under the names' column."""
    controller = TallyController(Tally.new(["Ada", "Bruno"]), store=None)
    _, screen = screen_of(controller, "help\rquit\r", columns=80)
    lines = screen.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("  count "))
    column = lines[at].index("count the hand")
    assert lines[at].startswith("  count" + " " * (column - 7) + "count the hand line by line:")
    assert lines[at + 1].startswith(" " * column + lines[at + 1].strip())
    assert lines[at + 1].strip()
    assert lines[at + 2].startswith("  done ")
    assert "  standings    the score, ordered, with points to go" in lines
    assert all(len(line) < 80 for line in lines), screen


def test_once_the_game_is_won_nobody_has_points_to_go() -> None:
    """After Ada won 3-2 the toolbar said "game over | Ada 3  Bruno 2 (1 to go)", and the
    standings "2. Bruno   2   1 to go"."""
    controller = TallyController(Tally.new(["Ada", "Bruno"], target=3), store=None)
    said(controller, "Ada 2", "Bruno 2", "done", "y")
    assert "(1 to go)" in "".join(text for _, text, *_ in controller.toolbar(200))
    standings = said(controller, "+1 ada", "done", "y")
    toolbar = "".join(text for _, text, *_ in controller.toolbar(200))
    assert toolbar == " game over | Ada 3  Bruno 2 "
    assert "  1. Ada     3   target reached\n  2. Bruno   2\nAda wins, 3-2." in standings
    assert "to go" not in said(controller, "standings")


def test_a_count_refusing_its_numbers_says_one_number_is_accepted_too() -> None:
    """Cards "abc" was refused with "type 2 whole numbers", though "22" alone is taken (the
    rest go to the other side)."""
    controller = TallyController(Tally.new(["Ada", "Bruno"]), store=None)
    said(controller, "count")
    assert said(controller, "abc") == (
        "invalid cards: 'abc'; type 2 whole numbers, one per side in order (Ada, Bruno), or "
        "Ada's alone: the rest go to Bruno"
    )
    assert said(controller, "22") == "Cards: Ada 22, Bruno 18.\nCoins taken by Ada, Bruno " + (
        "(e.g. 5 5; one number: the rest go to the other side):"
    )
    said(controller, "5", "ada", "7d 6h As Kb", "6d 7h 7s 7b")
    # Sweeps have no rest to give: two numbers it is.
    assert said(controller, "1") == (
        "invalid sweeps: '1'; type 2 whole numbers, one per side in order (Ada, Bruno)"
    )


def test_changing_the_last_answer_says_nothing_of_answers_after_it() -> None:
    """Changing the sweeps, the last answer, said "The answers after it are kept where they
    still fit." when there was none after it."""
    controller = TallyController(Tally.new(["Ada", "Bruno"]), store=None)
    said(controller, "count", "22", "5", "ada", "7d 6h As Kb", "6d 7h 7s 7b", "0 0", "n")
    assert said(controller, "6") == (
        "Sweeps (scope) by Ada, Bruno (e.g. 0 0):\nIt was '0 0': Enter keeps it."
    )
    said(controller, "1 0", "n")
    assert "kept where they still fit" in said(controller, "5")


def test_the_primiera_example_fits_what_was_entered() -> None:
    """The primiera question showed "(7d 6h As Kb ...)" to Ada after the settebello went to
    Bruno: an example she could not type."""
    controller = TallyController(Tally.new(["Ada", "Bruno"]), store=None)
    asked = said(controller, "count", "22", "5", "bruno").split("\n")[-1]
    assert asked == (
        "Primiera for Ada: best card of each suit, or all cards taken (6d 6h As Kb; - for none):"
    )
    asked = said(controller, "6d 6h As Kb").split("\n")[-1]  # none of Ada's cards again
    assert asked.endswith("(7d 7h 7s 7b; - for none):")
    assert said(controller, "x").endswith("; type cards such as 7d 7h 7s 7b")

    controller = TallyController(Tally.new(["Ada", "Bruno"]), store=None)
    asked = said(controller, "count", "22", "0 10", "bruno").split("\n")[-1]
    assert asked.endswith("(6h As Kb; - for none):")  # no coin: Ada took none


def test_ctrl_c_before_the_tally_begins_stops_it_130_as_ctrl_d_does(tmp_path: Path) -> None:
    """Ctrl-C at `names>` did nothing visible, though README's exit table gives 130."""
    controller = TallyController(None, store=TallyStore(tmp_path), now=lambda: NOON)
    # At the target question; the lines after Ctrl-C are not read.
    status, screen = screen_of(controller, "Ada Bruno\r\x0321\r\r")
    assert status == 130
    assert "New tally" not in screen
    assert screen.rstrip().endswith("target>\nNothing saved: the tally had not started.")
    assert not list(tmp_path.iterdir())

    controller = TallyController(None, store=TallyStore(tmp_path), now=lambda: NOON)
    status, screen = screen_of(controller, "Ad\x03Ada Bruno\r")  # a line begun, at names>
    assert status == 130
    assert "Target" not in screen

    controller = TallyController(Tally.new(["Ada", "Bruno"]), store=None)
    status, screen = screen_of(controller, "+1 ad\x03quit\r")  # once begun: the line cleared
    assert status == 0
    assert "Hand 1 so far" not in screen


def test_ctrl_c_on_an_empty_line_once_begun_says_once_how_to_leave() -> None:
    """Ctrl-C at `tally>` with nothing typed did nothing visible: a person pressing it to get
    out was left wondering (the game's prompt says how to leave)."""
    how = "Ctrl-C clears the line; to leave, type quit or press Ctrl-D (the tally is saved)."
    controller = TallyController(Tally.new(["Ada", "Bruno"]), store=None)
    status, screen = screen_of(controller, "\x03\x03+1 ad\x03quit\r")
    assert status == 0
    assert screen.count(how) == 1  # once: not again at the next Ctrl-C, nor for a line begun
    assert "Hand 1 so far" not in screen


def test_ctrl_c_typed_with_the_output_piped_says_once_how_to_leave() -> None:
    """`scopa-net tally | tee tally.txt`: Ctrl-C at `tally>` (a KeyboardInterrupt in the read)
    only gave a new prompt; it says how to leave, once, as at the drawn prompt."""
    import io

    from scopa_net.client.tally_script import run_typed_lines

    class Typed(io.StringIO):
        """Two Ctrl-Cs, then `quit`."""

        def __init__(self) -> None:
            super().__init__("quit\n")
            self.stops = 2

        def readline(self, size: int = -1) -> str:
            if self.stops:
                self.stops -= 1
                raise KeyboardInterrupt
            return super().readline(size)

    out, err = io.StringIO(), io.StringIO()
    controller = TallyController(Tally.new(["Ada", "Bruno"]), store=None)
    assert run_typed_lines(controller, Typed(), out, err) == 0
    how = "Ctrl-C clears the line; to leave, type quit or press Ctrl-D (the tally is saved)."
    assert out.getvalue().count(how) == 1
    assert f"tally> \n{how}\ntally> \ntally> " in out.getvalue()


def test_a_long_name_is_echoed_cut_short() -> None:
    """A 300-character name was echoed back whole in the error."""
    controller = TallyController(None, store=None)
    long = "Z" * 300
    assert said(controller, f"{long} Bob") == (
        f"invalid name: {'Z' * 40!r}...; a name is at most 20 columns wide (this one takes 300)"
    )
    said(controller, "Ada Bruno", "", "")
    assert said(controller, f"+1 {long}") == (
        f"nobody here is called {'Z' * 40!r}...; players: Ada, Bruno"
    )


def test_standings_and_a_counted_hand_line_up_wide_names() -> None:
    """Names were padded by characters: 李小龙 (3 characters, 6 columns) pushed its points
    three columns right of Bruno's, and its head in the counted hand three columns left of its
    figures."""
    controller = TallyController(Tally.new(["李小龙", "Bruno"]), store=None)
    standings = said(controller, "李 3", "done", "y").split("\n")
    assert "  1. 李小龙   3   8 to go" in standings
    assert "  2. Bruno    0   11 to go" in standings
    said(controller, "count", "22", "5", "李", "7d 6h As Kb", "6d 7h 7s 7b")
    sheet = said(controller, "0 1").split("\n")
    head = next(line for line in sheet if line.strip().startswith("李小龙"))
    cards = next(line for line in sheet if line.strip().startswith("Cards"))
    assert display_width(head) == display_width(cards[: cards.index("18") + 2])
    assert head.endswith("李小龙     Bruno")


def test_a_long_export_format_is_echoed_cut_short() -> None:
    """`export ZZZ...` (300 characters) echoed the whole word back."""
    controller = TallyController(Tally.new(["Ada", "Bruno"]), store=None)
    assert said(controller, f"export {'Z' * 300}") == (
        f"invalid format: {'z' * 40!r}...; choose markdown or csv"
    )


def test_names_as_play_takes_them_typed_without_accents_and_with_spaces(tmp_path: Path) -> None:
    """`tally` refused "Anna Maria" ("one word of 1 to 20 letters"), which `play` takes, and
    `+1 Nicolo` was "nobody here is called 'Nicolo'" beside Nicolò. A name may hold a space
    (the rest of a `+1` line is the name; names are then separated by commas), and a typed
    name matches a player whatever its case and accents."""
    controller = TallyController(None, store=TallyStore(tmp_path), now=lambda: NOON)
    said(controller, "Nicolò, Anna Maria", "", "")
    assert controller.tally is not None
    assert controller.tally.names == ("Nicolò", "Anna Maria")
    assert (
        said(controller, "+1 nicolo") == "Hand 1 so far: Nicolò 1, Anna Maria 0. 'done' scores it."
    )
    assert said(controller, "+2 anna maria").endswith("Nicolò 1, Anna Maria 2. 'done' scores it.")
    assert said(controller, "ANNA MARIA 3").endswith("Nicolò 1, Anna Maria 3. 'done' scores it.")
    assert said(controller, "Anna Maria = 4").endswith("Nicolò 1, Anna Maria 4. 'done' scores it.")
    assert said(controller, "Anna +1").endswith("Nicolò 1, Anna Maria 5. 'done' scores it.")
    help_text = said(controller, "help")
    assert "the rest of the line is the name (+1 Anna Maria)" in help_text
    assert "typed without accents (Nicolo for Nicolò)" in help_text


def test_a_typed_name_two_players_could_be_says_which() -> None:
    tally = Tally.new(["Nicolò", "Nicola", "Zoë"])
    controller = TallyController(tally, store=None)
    assert said(controller, "+1 nicol") == (
        "'nicol' could be Nicolò or Nicola; type more of the name"
    )
    assert (
        said(controller, "+1 zoe") == "Hand 1 so far: Nicolò 0, Nicola 0, Zoë 1. 'done' scores it."
    )


def test_names_the_tally_cannot_read_back_are_refused_in_one_line() -> None:
    controller = TallyController(None, store=None)
    assert said(controller, "Ada, Bot 2") == (
        "invalid name: 'Bot 2'; a name cannot be or end in a number (it would read as points)"
    )
    assert said(controller, "Ada, count me") == (
        "invalid name: 'count me'; 'count me 3' would read as the command 'count': choose another"
    )
    assert said(controller, "Ada, yes") == (
        "invalid name: 'yes': 'yes' is a word the tally uses; choose another"
    )


def test_a_name_that_reads_as_a_command_is_refused_saying_so() -> None:
    """A player named Dealer was taken, and then "Dealer 3" read as the command `dealer`
    ("invalid command: 'Dealer 3'; type 'dealer NAME'"): her side could not be scored by
    name. Every command and every other word for one is refused as a name's first word."""
    from scopa_net.tally import COMMAND_ALIASES, COMMAND_WORDS

    controller = TallyController(None, store=None)
    assert said(controller, "Ada, Dealer") == (
        "invalid name: 'Dealer'; 'Dealer 3' would read as the command 'dealer': choose another"
    )
    assert said(controller, "Ada, Q") == (
        "invalid name: 'Q'; 'Q 3' would read as the command 'quit': choose another"
    )
    for word in (*COMMAND_WORDS, *COMMAND_ALIASES):
        if word.isalpha():  # "?" is no name at all
            assert "would read as the command" in said(controller, f"Ada, {word.title()}"), word
    assert said(controller, "Nicolò Nicolo") == (
        "two players are called 'Nicolo'; names must differ"
    )


def test_a_tally_id_spells_accented_names_in_plain_letters(tmp_path: Path) -> None:
    """Ids dropped accented letters: `20261207-0329-nicol-zo`. Now `nicolo-zoe`; a tally
    saved under an old id still opens by it."""
    store = TallyStore(tmp_path)
    assert store.new_id(("Nicolò", "Zoë"), NOON) == "20261201-1200-nicolo-zoe"
    assert store.new_id(("Søren", "Anna Maria", "李"), NOON) == "20261201-1200-soren-annamaria-x"
    old = Tally.new(["Nicolò", "Zoë"], id="20261207-0329-nicol-zo", number=1).add(0, 2)
    store.save(old)
    assert store.load("20261207-0329-nicol-zo").draft_points == (2, 0)
    assert store.load("1").names == ("Nicolò", "Zoë")


def test_a_tally_saved_with_names_now_refused_still_opens() -> None:
    """An older version took names that are refused now (40 columns of wide letters, two
    names differing only by accents): their tallies still open."""
    data = Tally.new(["Ada", "Bruno"]).to_dict()
    data["names"] = ["李" * 20, "Nicolo"]
    assert Tally.from_dict(data).names == ("李" * 20, "Nicolo")
    data["names"] = ["Nicolò", "Nicolo"]
    tally = Tally.from_dict(data)
    assert tally.side_named("nicolo") == 1  # the exact name first
    assert tally.side_named("Nicolò") == 0


def test_a_counted_sheet_says_when_more_suits_beat_a_higher_primiera_total() -> None:
    """The sheet read "Primiera 63 56 60 Carla +1": Ada's 63 over three suits lost to Carla's
    60 over four, as RULES.md says, but no row showed the suits, so it read as a wrong score."""
    controller = TallyController(Tally.new(["Ada", "Bruno", "Carla"]), store=None)
    sheet = said(
        controller,
        "count",
        "14 13 13",
        "4 3 3",
        "ada",
        "7d 7h 7s",
        "4d 4h 4s 4b",
        "5d 5h 5s 5b",
        "0 0 0",
    ).split("\n")
    primiera = next(line for line in sheet if line.lstrip().startswith("Primiera  "))
    assert primiera.split() == ["Primiera", "63", "56", "60", "Carla", "+1"]
    assert (
        "Primiera counts suits first: Ada held 3 suits, Bruno held 4, Carla held 4; "
        "the most suits win whatever the totals."
    ) in sheet


def test_the_opening_says_the_scoring_options_in_play() -> None:
    """`scopa-net tally Ada Bruno Carla --variant napola --variant re_bello` opened with
    "Scopa score keeper: Ada v Bruno v Carla." and the standings: napola and re_bello only
    under `rules`, where the game's every screen says its variants."""
    tally = Tally.new(["Ada", "Bruno", "Carla"], variants=["re_bello", "napola"])
    opening = said_lines(TallyController(tally, store=None).opening())
    assert opening[0] == "Scopa score keeper: Ada v Bruno v Carla; napola, re_bello."
    plain = said_lines(TallyController(Tally.new(["Ada", "Bruno"]), store=None).opening())
    assert plain[0] == "Scopa score keeper: Ada v Bruno."


def test_the_counts_examples_are_counts_a_pack_can_give() -> None:
    """For three players the coins question said "(e.g. 5 5 5)": fifteen coins, in a pack
    of ten. Each example adds up to the pack's 40 cards and 10 coins."""
    for names, cards_taken in (
        (["Ada", "Bruno"], "20 20"),
        (["Ada", "Bruno", "Carla"], "14 13 13"),
    ):
        controller = TallyController(Tally.new(names), store=None)
        cards = said(controller, "count").split("\n")[-1]
        coins = said(controller, cards_taken).split("\n")[-1]
        for question, whole in ((cards, 40), (coins, 10)):
            example = re.search(r"\(e\.g\. ([0-9 ]+)[;)]", question)
            assert example is not None, question
            numbers = [int(n) for n in example.group(1).split()]
            assert len(numbers) == len(names), question
            assert sum(numbers) == whole, question


def said_lines(lines: list) -> list[str]:
    """Lines of formatted text as plain strings."""
    return ["".join(text for _, text, *_ in line) for line in lines]


def test_a_scoring_option_under_a_players_name_for_it_is_refused_naming_ours() -> None:
    """At the options question "napoli" was refused with the list alone."""
    controller = TallyController(None, store=None)
    said(controller, "Ada Bruno", "")
    assert said(controller, "napoli").startswith(
        "unknown option 'napoli'; did you mean napola? options: "
    )
    assert said(controller, "briscola").startswith("unknown option 'briscola'; options: ")


def test_a_napola_the_counted_cards_contradict_is_refused() -> None:
    """Carla's primiera named 2d, yet a napola of 3 (ace, two, three of coins) for Ada was
    scored: the hand's sheet gave Ada three points she could not have."""
    controller = TallyController(
        Tally.new(["Ada", "Bruno", "Carla"], variants=["napola"]), store=None
    )
    said(
        controller,
        "count",
        "14 13 13",
        "4 3 3",
        "ada",
        "7d 6h As Kb",
        "6d 7h 7s 7b",
        "2d 6s 5b 5h",
        "0 0 0",
    )
    assert said(controller, "3 0 0") == (
        "2d is among Carla's cards, so Ada has no run of 3 coins from the ace"
    )
    said(controller, "0 0 0")  # taken: the count goes on to the sheet
    assert controller.mode.name == "CONFIRM"


def test_the_score_keeper_says_whose_deal_it_is_and_the_deal_passes_on() -> None:
    """The score keeper never said who deals next, though at a real table the deal passes
    one seat on after every hand (RULES.md, Dealer rotation). It says who deals each hand,
    the first name first unless 'dealer NAME' says otherwise, and keeps it when saved."""
    controller = TallyController(Tally.new(["Ada", "Bruno", "Carla"]), store=None)
    assert "Hand 1 next, Ada to deal ('dealer NAME' if another does); playing to 11." in said(
        controller, "standings"
    )
    assert said(controller, "dealer carla") == (
        "Hand 1 next, Carla to deal ('dealer NAME' if another does); playing to 11."
    )
    assert said(controller, "+1 ada", "done", "y").endswith(
        "Hand 2 next, Ada to deal; playing to 11."
    )  # Carla dealt: the deal passes to the next seat round the table, Ada's
    assert said(controller, "dealer") == "Hand 2 next, Ada to deal; playing to 11."
    assert controller.tally is not None
    again = Tally.from_dict(controller.tally.to_dict())  # as saved, and resumed
    assert again.status() == "Hand 2 next, Ada to deal; playing to 11."
    assert (
        said(controller, "dealer Dino")
        == "nobody here is called 'Dino'; players: Ada, Bruno, Carla"
    )


def test_a_tally_saved_with_a_player_named_dealer_still_scores_her_by_name() -> None:
    """A tally saved before 'dealer NAME' came, with a player named Dealer (a name refused
    now, test above), read "Dealer 3" as the command and refused it: her points could not
    be given by name. A line that is a player's whole name and points is that entry."""
    saved = {**Tally.new(["Ada", "Bea"]).to_dict(), "names": ["Ada", "Dealer"]}
    controller = TallyController(Tally.from_dict(saved), store=None)
    assert said(controller, "Dealer 3") == "Hand 1 so far: Ada 0, Dealer 3. 'done' scores it."
    assert said(controller, "dealer ada").startswith("Hand 1 next, Ada to deal")
    assert said(controller, "dealer dealer").startswith("Hand 1 next, Dealer to deal")
