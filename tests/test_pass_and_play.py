"""Pass and play without a terminal: the flags, the public board, and the screen clearing."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from app_driver import RecordingOutput
from helpers import run_scopa_net
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import Output

from scopa_net.cards import CARDS
from scopa_net.client import render
from scopa_net.client.moves import legal_plays
from scopa_net.client.pass_and_play import (
    CLEAR,
    CLEAR_SCREEN,
    HANDOVER_GUARD,
    PassAndPlayApp,
    ScreenPrinter,
    match_line,
    open_pass_and_play,
    public_board,
)
from scopa_net.client.render import plain
from scopa_net.client.style import Display
from scopa_net.commands.main import main
from scopa_net.match import Match
from scopa_net.rules import RuleSet


def ada_and_bruno(
    pipe: PipeInput,
    output: Output,
    on_screen: Callable[[PassAndPlayApp], None],
    *,
    target: int,
    guard: float = 0.0,
) -> PassAndPlayApp:
    """Ada and Bruno at this one terminal (a pipe), to ``target``; an Enter is taken at once
    after a handover unless ``guard`` says otherwise."""
    return PassAndPlayApp(
        lambda: open_pass_and_play(RuleSet.of(2, target=target), ["Ada", "Bruno"], delay=0),
        Display(color=False, glyphs=False),
        input=pipe,
        output=output,
        on_screen=on_screen,
        guard=guard,
    )


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--pass-and-play", "--seed", "3"], "--seed practice is for one player"),
        (["--pass-and-play", "--lan"], "--pass-and-play is for one terminal"),
        (["--pass-and-play", "--humans", "1"], "pass and play needs --humans 2 or more"),
        (["--humans", "2", "--names", "Ada"], "--names needs 2 different names"),
        (["--pass-and-play", "--names", "Ada,ada"], "--names needs 2 different names"),
        (["--humans", "3"], "--humans 3: a table of 2 has seats for 1 to 2 people; --players 3"),
        (
            # A newcomer added Carla to README's `--names Ada,Bruno` and read "(--players sets
            # the table's size)": the line says the --players that seats them all.
            ["--pass-and-play", "--names", "Ada,Bruno,Carla"],
            "--names names 3 people: a table of 2 has seats for 1 to 2 people; --players 3 "
            "seats them all",
        ),
        (
            ["--pass-and-play", "--players", "4", "--names", "Ada,Bruno,Carla,Dino,Elena"],
            "--names names 5 people: a table of 4 has seats for 1 to 4 people; --players 6 "
            "seats them all",
        ),
        (["--humans", "7"], "a table of 2 has seats for 1 to 2 people; at most 6 play at one"),
        (["--humans", "0"], "--humans 0: a table of 2 has seats for 1 to 2 people\n"),
        (["--pass-and-play", "--names", "Ada"], "needs 2 or more people: --names Ada,Bruno"),
        (
            # The host seated a name such as "Bot 2" as "Player 2" without a word.
            ["--pass-and-play", "--names", "Ada,Bot 2"],
            "invalid --names: 'Bot 2': that reads as a computer player's name (they are called "
            "bot 1, bot 2...); choose another",
        ),
    ],
)
def test_flags_that_cannot_make_a_match_say_why_in_one_line(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err
    assert len(err.strip().splitlines()) == 1


NEEDS_A_TERMINAL = (
    "scopa-net: pass and play needs a terminal: it hands the keyboard from person to person "
    "and clears each hand from the screen, and here the input or the output is not a terminal "
    "(a script plays one person's seat with `scopa-net play`)\n"
)


def test_pass_and_play_with_no_terminal_says_it_needs_one(tmp_path: Path) -> None:
    """`printf '\nboard\n' | scopa-net play --pass-and-play --names Ada,Bruno` printed
    prompt-toolkit's "Input is not a terminal" and drew prompts into the pipe: a pipe or a
    file has no keyboard to hand over and no screen to clear between hands."""
    argv = ("play", "--pass-and-play", "--names", "Ada,Bruno", "--bot-delay", "0")
    done = run_scopa_net(*argv, home=tmp_path, input="\nboard\n")
    assert (done.returncode, done.stdout, done.stderr) == (2, "", NEEDS_A_TERMINAL)


def test_pass_and_play_where_the_screen_cannot_be_cleared_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With TERM=dumb pass and play printed "(screen cleared)" and blank lines between turns,
    and the last hand stayed in the scrollback: there it cannot hide a hand, so it says so."""
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert main(["play", "--pass-and-play", "--names", "Ada,Bruno"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("scopa-net: pass and play cannot keep hands secret with TERM=dumb")
    assert "`scopa-net play --lan`" in err
    assert len(err.strip().splitlines()) == 1


def test_as_many_people_play_as_names_are_given() -> None:
    """`--pass-and-play --players 3 --names Ada,Bruno,Carla` said "--names needs 2 different
    names": without --humans, the names say how many people take turns."""
    from scopa_net.commands.main import build_parser
    from scopa_net.commands.options import table_rules
    from scopa_net.commands.play import people

    def count(*argv: str) -> int:
        args = build_parser().parse_args(["play", *argv])
        return people(args, table_rules(args.players, args.target, args.variant))

    assert count("--pass-and-play", "--players", "3", "--names", "Ada,Bruno,Carla") == 3
    assert count("--pass-and-play", "--players", "4", "--names", "Ada,Bruno,Carla") == 3
    assert count("--pass-and-play", "--players", "4") == 2
    assert count("--players", "4", "--humans", "4", "--names", "A,B,C,D") == 4
    assert count() == 1


def test_the_public_board_has_no_hand_in_either_mode() -> None:
    match = Match(RuleSet.of(2), first_dealer=1)
    match.deal(CARDS)
    view = match.view_for(0)
    hand = [f"{c.rank}" for c in view.hand]
    assert hand
    for mode in (False, True):
        lines = plain(public_board(view, ("Ada", "Bruno"), Display(color=False), plain=mode))
        assert "hand" not in lines.lower()
        assert "Your turn" not in lines
        assert "Table" in lines


def test_in_plain_words_the_next_person_hears_what_was_played_since_their_turn() -> None:
    """With --plain, after Bruno and two computers had played, Ada's screen showed the table
    and the captures but not their plays (the screen lists them as "Last" rows)."""
    match = Match(RuleSet.of(4, target=11), first_dealer=3)
    rnd = match.deal(CARDS)
    names = ("Ada", "Bruno", "bot 3", "bot 4")
    display = Display(color=False, glyphs=False)
    played = []
    for _ in range(5):  # Ada, Bruno, bot 3, bot 4, then Ada again; her turn once more
        play = rnd.legal_plays()[0]
        played.append(play)
        match.play(play)
    view = match.view_for(1)  # Bruno's turn: Ada's play and the computers' since his
    lines = plain(public_board(view, names, display, plain=True)).splitlines()
    since = lines[lines.index("Since Bruno's last turn:") + 1 :]
    assert [line.split(" played ")[0] for line in since] == ["bot 3", "bot 4", "Ada"]
    assert since[0].startswith(f"bot 3 played {render.card_words(played[2].card, display)}")
    first = plain(public_board(match.view_for(1), names, display, plain=False))
    assert "Since" not in first  # the screen's own "Last" rows say it there


@pytest.mark.parametrize("escapes", [True, False])
def test_clearing_erases_the_display_and_the_scrollback(escapes: bool) -> None:
    out = RecordingOutput()

    async def run() -> None:
        printer = ScreenPrinter(
            out, Display(color=False).style(), asyncio.get_running_loop(), escapes=escapes
        )
        printer.show([CLEAR])
        printer.flush()

    asyncio.run(run())
    text = out.text
    if escapes:
        assert CLEAR_SCREEN in text
        assert "\x1b[3J" in text
    else:  # TERM=dumb: push the last hand off the screen instead
        assert text.count("\n") >= 60
        assert "\x1b" not in text


@pytest.mark.parametrize("answers", [("n",), ("y", "n"), ("\x04",)])
def test_between_clears_only_the_person_at_the_keyboard_sees_a_hand(
    answers: tuple[str, ...],
) -> None:
    """A whole two-person match through a pipe: after every clear, the only hand shown is
    that of the person whose turn was announced and confirmed with Enter."""
    output = RecordingOutput()
    sent: set[object] = set()
    with create_pipe_input() as pipe:

        def on_screen(app: PassAndPlayApp) -> None:
            matches = app.matches_over
            if app.asking_rematch and matches not in sent and matches <= len(answers):
                sent.add(matches)  # one answer to each match's "play again?"
                answer = answers[matches - 1]  # Ctrl-D answers as n does
                pipe.send_text(answer if answer == "\x04" else f"{answer}\r")
            elif app.waiting is not None:
                view = app.seats[app.waiting].session.view
                assert view is not None
                key: tuple[object, ...] = (
                    "enter",
                    matches,
                    app.waiting,
                    view.round_number,
                    len(view.plays),
                )
                if key not in sent:
                    sent.add(key)
                    pipe.send_text("\r")
            elif app.active is not None:
                seat = app.seats[app.active]
                view = seat.session.view
                key = ("play", matches, app.active, view.round_number, len(view.plays))  # type: ignore[union-attr]
                if seat.my_turn and key not in sent:
                    sent.add(key)
                    pipe.send_text(legal_plays(view)[0].text() + "\r")  # type: ignore[arg-type]

        app = ada_and_bruno(pipe, output, on_screen, target=1)

        async def main() -> int:
            return await asyncio.wait_for(app.run(), 60)

        assert asyncio.run(main()) == 0
    text = output.text
    screens = text.split(CLEAR_SCREEN)
    assert len(screens) > 10
    hands_shown = 0
    for screen in screens:
        flat = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen)
        hands = flat.count("Your hand")
        assert hands <= 1, flat
        if hands:
            hands_shown += 1
            turn = re.search(r"(\w+)'s turn: press Enter when \1 has the keyboard", flat)
            assert turn is not None, flat
            assert turn.start() < flat.index("Your hand"), flat
            assert f"{turn[1]}> " in flat[flat.index("Your hand") :] or "Which one" in flat
        handed = re.search(r"(\w+)'s turn: press Enter when \1 has the keyboard", flat)
        if handed:  # a play comes before the handover that follows it, never under it
            waiting = flat[handed.end() :].split("Round ")[0]
            assert " plays " not in waiting, flat
    assert hands_shown >= 4
    # The round's end is told where its last card was played, and again on the next round's
    # first screen if there is one: its last play and the cards the last capture took from
    # the table (and whose), then the sheet.
    flats = [re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen) for screen in screens]
    ends = [f for f in flats if "Round 1 score sheet" in f]
    assert re.search(r"(Ada|Bruno) has played the round's last card\.", ends[0]), ends[0]
    for end in ends[:2]:
        told = end[: end.index("Round 1 score sheet")]
        assert re.search(r"(?<!Last {6})(Ada|Bruno) plays ", told), end  # not the board's
    for line in re.findall(r"The last capture also takes the table: .*", text):
        assert re.search(r"\((Ada|Bruno)\)\.$", line.strip()), line
    checks = re.findall(r"(\w+)'s deal check: verified", text)
    assert checks
    assert checks == ["Ada", "Bruno"] * (len(checks) // 2)  # in seat order
    # Read by both: "Bruno's deal check: verified (dealer you, ...)" left them to guess.
    dealers = re.findall(r"deal check: verified \(dealer (\w+)", text)
    assert dealers
    assert set(dealers) <= {"Ada", "Bruno"}, dealers
    assert "Play again, all of you at this terminal" in text
    assert "You sit at" not in text  # "Bruno: You sit at table 1 ..., seat 1." (everyone does)
    assert "No rematch." in text
    assert app.matches_over == len(answers)
    # Once answered, the question is not asked again under its answer ("y/n? n", then
    # "y/n?" once more before "No rematch.", where every redraw stays on screen).
    rows = output.rows
    answered = [i for i, row in enumerate(rows) if row in ("y/n? y", "y/n? n")]
    for i in answered:
        replied = next(j for j, row in enumerate(rows) if j > i and "match" in row.lower())
        assert "y/n?" not in rows[i + 1 : replied], rows[i:replied]
    assert "wins the match" in screens[-1]  # the result stays on the last screen


def test_play_again_unanswered_ends_its_question_with_the_line_saying_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Nobody at the terminal answered "play again?": under "no rematch (nobody answered in
    time): the table is closing" the prompt still asked "y/n?" (the question never ended
    there). The host's minute to answer is a second here."""
    from scopa_net.server import table_task

    monkeypatch.setattr(table_task, "LINGER", 1.0)
    output = RecordingOutput()
    played: set[object] = set()
    with create_pipe_input() as pipe:

        def on_screen(app: PassAndPlayApp) -> None:
            if app.asking_rematch or app.matches_over:
                return  # the question is left unanswered
            if app.waiting is not None:
                view = app.seats[app.waiting].session.view
                key: tuple[object, ...] = ("enter", app.waiting, len(view.plays))  # type: ignore[union-attr]
                if key not in played:
                    played.add(key)
                    pipe.send_text("\r")
            elif app.active is not None:
                seat = app.seats[app.active]
                view = seat.session.view
                key = ("play", app.active, view.round_number, len(view.plays))  # type: ignore[union-attr]
                if seat.my_turn and key not in played:
                    played.add(key)
                    pipe.send_text(legal_plays(view)[0].text() + "\r")  # type: ignore[arg-type]

        app = ada_and_bruno(pipe, output, on_screen, target=1)

        async def main() -> int:
            return await asyncio.wait_for(app.run(), 60)

        assert asyncio.run(main()) == 0
    rows = output.rows
    closing = "Table: no rematch (nobody answered in time): the table is closing"
    assert closing in rows, rows[-10:]
    assert "y/n?" not in rows[rows.index(closing) :], rows[rows.index(closing) :]
    assert not app.asking_rematch


def test_ctrl_d_asks_before_leaving_and_ctrl_c_takes_the_question_back() -> None:
    """Ctrl-D at a person's prompt ended the whole match for everyone at once, without a
    word, and Ctrl-C at "Really leave?" did nothing. Now Ctrl-D asks first, Ctrl-C
    answers stay, and Ctrl-D at the question leaves."""
    output = RecordingOutput()
    keys = iter(["\x04", "\x03", "\x04", "\x04"])
    prompts: list[str] = []
    with create_pipe_input() as pipe:

        def on_screen(app: PassAndPlayApp) -> None:
            if app.waiting is not None and not prompts:
                prompts.append("enter")
                pipe.send_text("\r")
            elif app.active is not None and len(prompts) == 1:
                prompts.append("at the keyboard")
                pipe.send_text(next(keys))

        app = ada_and_bruno(pipe, output, on_screen, target=11)

        async def main() -> int:
            run = asyncio.ensure_future(app.run())
            seen = 0
            while not run.done():  # the next key once the last one has had its answer
                await asyncio.sleep(0.05)
                text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", output.text)
                answers = text.count("Really leave?") + text.count("Staying at the table.")
                if len(prompts) == 2 and answers > seen:
                    seen = answers
                    pipe.send_text(next(keys, ""))
            return await asyncio.wait_for(run, 60)

        assert asyncio.run(asyncio.wait_for(main(), 60)) == 0
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", output.text)
    question = "The match is not over: leaving ends it for everyone at this terminal. Really leave?"
    assert text.count(question) == 2
    assert "Staying at the table." in text
    # One person's leaving ends everyone's match, and says so; their hand leaves the screen.
    last = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", output.text.split(CLEAR_SCREEN)[-1])
    assert "Leaving the table: the match ends for everyone at this terminal." in last
    assert "Your hand" not in last, last


def test_at_a_handover_nothing_typed_reads_a_hand_or_speaks_for_a_seat() -> None:
    """At "Bruno: press Enter" the prompt acted as the first seat, whoever typed: a rank
    answered "You hold no card of rank A" from Ada's hand, `name Max` renamed Ada, `who`
    called Ada "you"; and Up brought back what the person before had typed (a card they were
    warned off). Now only public commands work there, and each person has their own Up."""
    output = RecordingOutput()

    def text() -> str:
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", output.text).replace("\r\n", "\n")

    def refusals(index: int) -> int:
        name = ("Ada", "Bruno")[index]
        return text().count(f"It is {name}'s turn: press Enter when {name} has the keyboard.")

    with create_pipe_input() as pipe:
        app = ada_and_bruno(pipe, output, lambda _: None, target=11)

        def play(index: int) -> None:
            view = app.seats[index].session.view
            pipe.send_text(legal_plays(view)[0].text() + "\r")  # type: ignore[arg-type]

        async def drive() -> list[str]:
            run = asyncio.ensure_future(app.run())
            steps: list[str] = []
            first = second = -1
            while not run.done() and refusals(second) == 0:
                await asyncio.sleep(0.05)
                step = len(steps)
                if step == 0 and app.waiting is not None:
                    first, second = app.waiting, 1 - app.waiting
                    steps.append("enter")
                    pipe.send_text("\r")
                elif step == 1 and app.active == first and app.seats[first].my_turn:
                    steps.append("play")
                    play(first)
                elif step == 2 and app.waiting == second:
                    steps.append("up, enter")
                    await asyncio.sleep(0.3)  # the prompt is drawn, with its history loaded
                    pipe.send_text("\x1b[A")
                    await asyncio.sleep(0.3)
                    pipe.send_text("\r")
                elif step == 3 and app.active == second and app.seats[second].my_turn:
                    steps.append("play")
                    play(second)
                elif step == 4 and app.waiting == first:
                    steps.append("probes")
                    pipe.send_text("who\rA\rname Max\rhint\r")
                elif step == 5 and refusals(first) == 3:
                    steps.append("enter")
                    pipe.send_text("\r")
                elif step == 6 and app.active == first:
                    steps.append("leave")
                    pipe.send_text("quit\ry\r")
            if refusals(second):  # Up then Enter sent the first person's line, refused
                pipe.send_text("quit\ry\r")
            await run
            return steps

        steps = asyncio.run(asyncio.wait_for(drive(), 60))
    # Up brought back nothing of the first person's: Enter showed the second person's hand
    # (with the first person's play recalled, Enter was refused as a play out of turn).
    assert steps == ["enter", "play", "up, enter", "play", "probes", "enter", "leave"], text()
    assert "Seat 0: Ada\n" in text()
    assert "Seat 1: Bruno\n" in text()
    assert "(you)" not in text()
    assert "You hold" not in text()
    assert "now called Max" not in text()
    assert "A hint is for your turn" not in text()
    assert [s.state.names[s.state.seat] for s in app.seats] == ["Ada", "Bruno"]


def test_the_screen_printer_cuts_long_lines_between_words() -> None:
    """Pass and play printed its lines whole, so a narrow terminal cut them mid-word
    ("keybo" / "ard"); it now lays them out as the game's own printer does."""
    from prompt_toolkit.formatted_text import FormattedText

    out = RecordingOutput()
    turn = "Bruno's turn: press Enter when Bruno has the keyboard."

    async def run() -> None:
        printer = ScreenPrinter(out, Display(color=False).style(), asyncio.get_running_loop())
        printer.columns = lambda: 30  # type: ignore[method-assign]
        printer.show([FormattedText([("", turn)])])
        printer.flush()

    asyncio.run(run())
    lines = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out.text).replace("\r", "").split("\n")
    lines = [line.rstrip() for line in lines if line.strip()]
    assert lines == ["Bruno's turn: press Enter when", "Bruno has the keyboard."]


def test_the_deal_checks_are_printed_in_seat_order_however_they_come_in() -> None:
    """Each seat's session checks the round on its own, and their lines were printed as they
    came in: "Carla's deal check", then Ada's, then Bruno's, in another order every round."""
    from types import SimpleNamespace

    from prompt_toolkit.formatted_text import FormattedText

    from scopa_net.client.session import Message

    names = ("Ada", "Bruno", "Carla")
    app = PassAndPlayApp(lambda: None, Display(color=False))  # type: ignore[arg-type,return-value]
    printed: list[FormattedText] = []
    app.printer = SimpleNamespace(show=printed.extend)  # type: ignore[assignment]
    app.seats = [SimpleNamespace(state=SimpleNamespace(names=names, seat=s)) for s in range(3)]  # type: ignore[misc]

    def checked(seat: int, round_no: int) -> None:
        text = f"Deal check: verified (round {round_no})"
        app._event(seat, Message(seat=None, text=text, local=True))

    for seat, round_no in [(2, 1), (0, 1), (2, 2), (1, 1), (1, 2), (0, 2), (1, 3), (0, 3)]:
        checked(seat, round_no)
    assert plain(printed).splitlines() == [
        "Ada's deal check: verified (round 1)",
        "Bruno's deal check: verified (round 1)",
        "Carla's deal check: verified (round 1)",
        "Ada's deal check: verified (round 2)",
        "Bruno's deal check: verified (round 2)",
        "Carla's deal check: verified (round 2)",
    ]
    app._flush_seat_lines()  # Carla's session ended before its check of round 3
    assert plain(printed).splitlines()[6:] == [
        "Ada's deal check: verified (round 3)",
        "Bruno's deal check: verified (round 3)",
    ]


def test_no_one_at_the_terminal_reads_that_the_table_waits_for_players() -> None:
    """Three people at one terminal read "Carla: You sit at table 1 "Ada's table", seat 2."
    and "Bruno: Waiting for 1 more player: the match begins when every seat is taken.",
    though they had all sat down at once: a seat's sitting-down lines are not printed."""
    from types import SimpleNamespace

    from prompt_toolkit.formatted_text import FormattedText

    from scopa_net.client.session import Message
    from scopa_net.client.table_words import waiting_line

    names = ("Ada", "Bruno", "Carla")
    app = PassAndPlayApp(lambda: None, Display(color=False))  # type: ignore[arg-type,return-value]
    printed: list[FormattedText] = []
    app.printer = SimpleNamespace(show=printed.extend)  # type: ignore[assignment]
    app.seats = [SimpleNamespace(state=SimpleNamespace(names=names, seat=s)) for s in range(3)]  # type: ignore[misc]
    for seat, text in [
        (2, 'You sit at table 1 "Ada\'s table", seat 2.'),
        (1, 'You sit at table 1 "Ada\'s table", seat 1.'),
        (1, waiting_line(1)),
        (1, "a line the seat's client says"),
    ]:
        app._event(seat, Message(seat=None, text=text, local=True))
    assert plain(printed).splitlines() == ["Bruno: a line the seat's client says"]


def test_where_each_transcript_was_saved_is_printed_in_seat_order() -> None:
    """At a match's end each seat's session saves its transcript on its own, and the
    "Transcript saved" lines came in any order (Bruno, Ada, Carla, seen by hand), and then
    each "Check it" line apart from its person's path, in another order. Each person's lines
    are now together, in seat order."""
    from types import SimpleNamespace

    from prompt_toolkit.formatted_text import FormattedText

    from scopa_net.client.session import Message

    names = ("Ada", "Bruno", "Carla")
    app = PassAndPlayApp(lambda: None, Display(color=False))  # type: ignore[arg-type,return-value]
    printed: list[FormattedText] = []
    app.printer = SimpleNamespace(show=printed.extend)  # type: ignore[assignment]
    app.seats = [SimpleNamespace(state=SimpleNamespace(names=names, seat=s)) for s in range(3)]  # type: ignore[misc]
    said = {
        seat: [
            f"Transcript saved: /home/t/{name}.scopa",
            "Check it any time with:",
            f"  scopa-net verify /home/t/{name}.scopa",
        ]
        for seat, name in enumerate(names)
    }
    # Each client's lines come in on their own: Bruno's first line, then Ada's and Carla's
    # and Bruno's others mixed (it read "Bruno: Check it..." above "Ada: Check it...").
    for seat, line in [(1, 0), (0, 0), (2, 0), (1, 1), (0, 1), (1, 2), (2, 1), (0, 2), (2, 2)]:
        app._event(seat, Message(seat=None, text=said[seat][line], local=True))
    assert plain(printed).splitlines() == [
        "Ada: Transcript saved: /home/t/Ada.scopa",
        "Ada: Check it any time with:",
        "  scopa-net verify /home/t/Ada.scopa",
        "Bruno: Transcript saved: /home/t/Bruno.scopa",
        "Bruno: Check it any time with:",
        "  scopa-net verify /home/t/Bruno.scopa",
        "Carla: Transcript saved: /home/t/Carla.scopa",
        "Carla: Check it any time with:",
        "  scopa-net verify /home/t/Carla.scopa",
    ]


def test_at_a_handover_up_reaches_nobodys_own_lines() -> None:
    """At "Bruno: press Enter", with the person before still at the keyboard, Up brought
    back Bruno's own lines (a refused move names a card he holds); and `log` typed there went
    into Bruno's own history. Now Up at a handover reaches only public lines, and Bruno's Up
    brings back only what Bruno typed at his own prompt."""
    output = RecordingOutput()
    secret = "qq zz"

    def text() -> str:
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", output.text).replace("\r\n", "\n")

    with create_pipe_input() as pipe:
        app = ada_and_bruno(pipe, output, lambda _: None, target=11)

        typed: list[str] = [secret]  # the second person's own lines

        def play(index: int) -> str:
            view = app.seats[index].session.view
            line = legal_plays(view)[0].text()  # type: ignore[arg-type]
            pipe.send_text(line + "\r")
            return line

        async def up(then: str) -> str:
            """What the screen shows after Up (then ``then`` is typed)."""
            await asyncio.sleep(0.3)  # the prompt is drawn, with its history loaded
            mark = len(text())
            pipe.send_text("\x1b[A")
            await asyncio.sleep(0.3)
            shown = text()[mark:]
            pipe.send_text(then)
            return shown

        async def drive() -> tuple[str, str]:
            run = asyncio.ensure_future(app.run())
            at_handover = at_own_prompt = ""
            step = 0
            first = second = -1
            while not run.done() and step < 8:
                await asyncio.sleep(0.05)
                if step == 0 and app.waiting is not None:
                    first, second = app.waiting, 1 - app.waiting
                    pipe.send_text("\r")
                elif step in (1, 5) and app.active == first and app.seats[first].my_turn:
                    play(first)
                elif step == 2 and app.waiting == second:
                    pipe.send_text("\r")
                elif step == 3 and app.active == second and app.seats[second].my_turn:
                    pipe.send_text(secret + "\r")  # refused: the second person's own line
                    typed.append(play(second))
                elif step == 4 and app.waiting == first:
                    pipe.send_text("\r")
                elif step == 6 and app.waiting == second:
                    # The first person still at the keyboard: Up, then back down; then `log`.
                    at_handover = await up("\x1b[B\x15log\r\r")
                elif step == 7 and app.active == second and app.seats[second].my_turn:
                    at_own_prompt = await up("\x15quit\ry\r")
                else:
                    continue
                step += 1
            await asyncio.wait_for(run, 30)
            return at_handover, at_own_prompt

        at_handover, at_own_prompt = asyncio.run(asyncio.wait_for(drive(), 60))
    assert at_own_prompt, text()
    for line in typed:
        assert line not in at_handover, at_handover
    assert "log" not in at_own_prompt, at_own_prompt


def test_a_match_of_three_ends_with_each_score_named() -> None:
    """At one terminal a match of three ended "Carla wins the match, 5 to 3 to 0": whose 3?"""
    match = Match(RuleSet.of(3, 5))
    line = match_line(match.view_for(0), 2, (3, 0, 5), "2 rounds", ("Ada", "Bruno", "Carla"))
    assert plain([line]) == "Carla wins the match with 5 points (Ada 3, Bruno 0), after 2 rounds."
    two = match_line(Match(RuleSet.of(2)).view_for(0), 1, (7, 11), "3 rounds", ("Ada", "Bruno"))
    assert plain([two]) == "Bruno wins the match, 11 to 7, after 3 rounds."
    # Over short of the target, by cappotto: the line says why.
    cappotto = Match(RuleSet.of(2, 11, ["cappotto"])).view_for(0)
    by = match_line(cappotto, 0, (8, 0), "1 round", ("Ada", "Bruno"))
    assert plain([by]) == "Ada wins the match by cappotto, 8 to 0, after 1 round."


def test_what_one_person_types_ahead_never_acts_in_the_next_persons_turn() -> None:
    """Bruno typed `2d` Enter Enter (a double press, or a paste ending in a newline): the
    second Enter showed Ada's hand while Bruno still had the keyboard; so did an Enter 0.5 s
    or 1 s after the move, and `6s` Enter Enter `hint` Enter ran `hint` in Ada's turn. Now
    only an Enter pressed after the handover is shown, and not at once, shows the hand."""
    output = RecordingOutput()

    def text() -> str:
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", output.text).replace("\r\n", "\n")

    with create_pipe_input() as pipe:
        app = ada_and_bruno(pipe, output, lambda _: None, target=11, guard=HANDOVER_GUARD)

        def card(index: int) -> str:
            return legal_plays(app.seats[index].session.view)[0].text()  # type: ignore[arg-type]

        async def until(ready: Callable[[], bool]) -> None:
            while not ready():
                await asyncio.sleep(0.02)

        async def handed_to(index: int, *, then: float) -> bool:
            """Whether ``index`` still waits for a fresh Enter ``then`` seconds on."""
            await asyncio.sleep(then)
            return app.waiting == index and app.active is None

        async def fresh_enter() -> int:
            """The person waited for presses Enter (the guard's wait skipped): who it is."""
            mover = app.waiting
            assert mover is not None
            app.guard = 0.0
            pipe.send_text("\r")
            await until(lambda: app.active == mover and app.seats[mover].my_turn)
            app.guard = HANDOVER_GUARD
            return mover

        async def drive() -> list[bool]:
            run = asyncio.ensure_future(app.run())
            await until(lambda: app.waiting is not None)
            waited = []
            for late in (None, 1.0):  # pasted with its newline, then pressed a second late
                mover = await fresh_enter()
                if late is None:
                    pipe.send_text(card(mover) + "\r\r")
                else:
                    pipe.send_text(card(mover) + "\r")
                    await asyncio.sleep(late)
                    pipe.send_text("\r")
                waited.append(await handed_to(1 - mover, then=0.3))
            mover = await fresh_enter()
            pipe.send_text(card(mover) + "\r\rhint\r")
            waited.append(await handed_to(1 - mover, then=0.5))
            await asyncio.sleep(HANDOVER_GUARD)
            pipe.send_text("\r")  # a fresh Enter, by the next person: their hand
            await until(lambda: app.active is not None)
            waited.append(app.active == 1 - mover)
            pipe.send_text("quit\ry\r")
            await run
            return waited

        waited = asyncio.run(asyncio.wait_for(drive(), 60))
    assert waited == [True] * 4, text()
    assert "Hint:" not in text()
    assert "A hint is for your turn" not in text()
    assert "too soon after the last turn" in text()


def test_leaving_tells_the_score_so_far_and_every_persons_transcript(tmp_path: Path) -> None:
    """`quit`, `y` in the second round printed only the first seat's UNFINISHED transcript
    (the second seat's was saved too), and not the score so far."""
    output = RecordingOutput()
    sent: set[object] = set()
    with create_pipe_input() as pipe:

        def on_screen(app: PassAndPlayApp) -> None:
            if app.waiting is not None:
                view = app.seats[app.waiting].session.view
                key: tuple[object, ...] = ("enter", view.round_number, len(view.plays))  # type: ignore[union-attr]
                if key not in sent:
                    sent.add(key)
                    pipe.send_text("\r")
            elif app.active is not None and app.seats[app.active].my_turn:
                view = app.seats[app.active].session.view
                key = ("play", view.round_number, len(view.plays))  # type: ignore[union-attr]
                if key in sent:
                    return
                sent.add(key)
                if view.round_number == 1:  # type: ignore[union-attr]
                    pipe.send_text(legal_plays(view)[0].text() + "\r")  # type: ignore[arg-type]
                else:
                    pipe.send_text("quit\ry\r")

        app = PassAndPlayApp(
            lambda: open_pass_and_play(
                RuleSet.of(2, target=21), ["Ada", "Bruno"], delay=0, data_dir=tmp_path
            ),
            Display(color=False, glyphs=False),
            input=pipe,
            output=output,
            on_screen=on_screen,
            guard=0,
        )
        assert asyncio.run(asyncio.wait_for(app.run(), 60)) == 0
    last = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", output.text.split(CLEAR_SCREEN)[-1])
    last = last.replace("\r\n", "\n")
    scores = app.seats[0].state.scores
    assert f"Score so far, from the rounds played out: Ada {scores[0]}, Bruno {scores[1]}" in last
    assert "A match left cannot be continued later." in last
    saved = sorted(p.name for p in (tmp_path / "transcripts").glob("*.scopa"))
    assert len(saved) == 2, saved
    for name, file in zip(("Ada", "Bruno"), saved, strict=True):
        assert re.search(rf"{name}: The match so far is saved, UNFINISHED: \S*{file}", last), last
        assert "scopa-net verify " in last
    assert "Your hand" not in last
