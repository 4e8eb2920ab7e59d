"""Rendering as pure functions of a view: text, styles, ASCII, suit names, the score sheet."""

from __future__ import annotations

import dataclasses
import io
import random
import re

import pytest
from helpers import match_dealt, shuffled_deck
from prompt_toolkit.data_structures import Size
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.output.vt100 import Vt100_Output
from prompt_toolkit.renderer import print_formatted_text as render_fragments

from scopa_net.cards import Suit
from scopa_net.client import render
from scopa_net.client.client_state import ClientState
from scopa_net.client.scoresheet import (
    LINE_TITLES,
    match_summary,
    plain_score_sheet,
    score_sheet,
)
from scopa_net.client.style import SUIT_CLASS, Display, SuitNames, color_wanted
from scopa_net.client.toolbar import toolbar_text
from scopa_net.match import Match
from scopa_net.notation import parse_card
from scopa_net.rules import RuleSet

NAMES = ("Ada", "Bot 1")
GLYPHS = set("♦♥♠♣")


def to_terminal(lines: list[FormattedText], display: Display) -> str:
    """What a colour terminal would receive for these lines."""
    buffer = io.StringIO()
    out = Vt100_Output(buffer, lambda: Size(rows=24, columns=120), term="xterm-256color")
    for line in lines:
        render_fragments(out, [*line, ("", "\n")], display.style())
    out.flush()
    return buffer.getvalue()


@pytest.fixture
def match() -> Match:
    return match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 7h 4h")


def test_board_shows_table_values_hand_turn_stock_and_score(match: Match) -> None:
    text = render.plain(render.board_lines(match.view_for(0), NAMES, Display()))
    assert "Table     2b♣=2  4h♥=4  5s♠=5  7h♥=7" in text
    assert "Your hand 3s♠=3  7d♦=7*  Kb♣=10   (* must capture)" in text
    assert "Stock     30 cards" in text
    assert "Score     Ada: 0   Bot 1: 0" in text  # a name may end in a number
    assert text.splitlines()[-1] == "Your turn."
    other = render.plain(render.board_lines(match.view_for(1), NAMES, Display()))
    assert "Your hand 2h♥=2  2s♠=2  Jd♦=8\n" in other  # marks only on your turn
    assert other.splitlines()[-1] == "Waiting for Ada."


def test_a_seat_sitting_out_a_blind_round_is_told_who_plays_it(match: Match) -> None:
    """9.7: back at a blind table in a round that began without them, a person sees that a
    computer plays their seat, and is never offered a move."""
    view = dataclasses.replace(match.view_for(0), hand=(), blind=True, sitting_out=True)
    assert not view.my_turn
    said = "A computer plays your seat this round; you play again from the next one."
    text = render.plain(render.board_lines(view, NAMES, Display()))
    assert text.splitlines()[-1] == said
    # Printed once, the line stays on screen as the turn moves on: nothing in it may go
    # stale (it said "(waiting for Bot 1)" long after Bot 1 had played). The toolbar, drawn
    # again at every change, says whose turn it is.
    later = dataclasses.replace(view, to_move=1)
    assert render.plain(render.board_lines(later, NAMES, Display())).splitlines()[-1] == said
    # Said once, as the round begins; the boards after it say whose turn it is, as for
    # anyone ("A computer plays for you now." came with every board, ten times a round).
    again = render.plain(render.board_lines(view, NAMES, Display(), told=True))
    assert again.splitlines()[-1] == "Waiting for the computer playing your seat."
    assert render.plain_board(view, NAMES, Display(), told=True)[-1] == (
        "Waiting for the computer playing your seat."
    )
    assert (
        render.plain(render.board_lines(later, NAMES, Display(), told=True)).splitlines()[-1]
        == "Waiting for Bot 1."
    )
    state = ClientState(seat=0, names=NAMES, display=Display(), view=view)
    assert "a computer plays for you" in render.plain([toolbar_text(state)])
    state.view = later
    assert "Bot 1 to play" in render.plain([toolbar_text(state)])


def test_board_lists_the_last_play_of_each_seat(match: Match) -> None:
    match.play(parse_card("7d"), 0)
    match.play(parse_card("2h"), 1)
    text = render.plain(render.board_lines(match.view_for(0), NAMES, Display()))
    assert "Last      Ada plays 7d♦ x 7h♥" in text
    assert "Last      Bot 1 plays 2h♥ x 2b♣" in text
    # "Bot 1 2 cards" read as one name and a count, or a name and two numbers: each side's
    # count follows a colon, as on the Score row above it.
    assert "Captured  Ada: 2 cards, 0 sweeps   Bot 1: 2 cards, 0 sweeps" in text


def test_ascii_mode_has_no_glyphs(match: Match) -> None:
    text = render.plain(render.board_lines(match.view_for(0), NAMES, Display(glyphs=False)))
    assert not GLYPHS & set(text)
    assert "Your hand 3s=3  7d=7*  Kb=10" in text


@pytest.mark.parametrize(
    ("suits", "hand", "table"),
    [
        (SuitNames.ENGLISH, "3s♠=3  7d♦=7*  Kb♣=10", "2b♣=2  4h♥=4"),
        (SuitNames.ITALIAN, "3s♠=3  7d♦=7*  Rb♣=10", "2b♣=2  4c♥=4"),
        (SuitNames.FRENCH, "3s♠=3  7d♦=7*  Kc♣=10", "2c♣=2  4h♥=4"),
    ],
)
def test_card_letters_follow_the_suit_names(
    match: Match, suits: SuitNames, hand: str, table: str
) -> None:
    text = render.plain(render.board_lines(match.view_for(0), NAMES, Display(suits=suits)))
    assert f"Your hand {hand}" in text
    assert f"Table     {table}" in text


def test_long_names_follow_the_suit_names() -> None:
    king = parse_card("Kb")
    assert render.card_words(king, Display(suits=SuitNames.ITALIAN)) == "re di bastoni"
    assert render.card_words(king, Display(suits=SuitNames.FRENCH)) == "king of clubs"
    assert render.card_words(king, Display()) == "king of clubs"
    assert render.card_words(parse_card("5d"), Display(suits=SuitNames.FRENCH)) == ("5 of diamonds")


def test_every_card_fragment_carries_its_suit_class(match: Match) -> None:
    cards: list[str] = []
    for line in render.board_lines(match.view_for(0), NAMES, Display()):
        for style, text in line:
            for suit in Suit:
                if text.strip() and text.strip()[-1] == suit.glyph:
                    assert style == SUIT_CLASS[suit]
                    cards.append(text.strip())
            assert "#" not in style
            assert "ansi" not in style
    # Every card shown was checked: the table's four and her hand's three.
    assert sorted(cards) == sorted(["2b♣", "4h♥", "5s♠", "7h♥", "7d♦", "3s♠", "Kb♣"]), cards


def test_colour_only_repeats_the_text(match: Match) -> None:
    lines = render.board_lines(match.view_for(0), NAMES, Display())
    coloured = to_terminal(lines, Display(color=True))
    bare = to_terminal(lines, Display(color=False))
    assert "\x1b[" in coloured
    assert "\x1b[3" not in bare  # no foreground colour codes at all
    strip = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]")
    assert strip.sub("", coloured) == strip.sub("", bare)


@pytest.mark.parametrize(
    ("flag", "env", "expected"),
    [
        (None, {}, True),
        (None, {"NO_COLOR": "1"}, False),
        (None, {"NO_COLOR": ""}, True),
        (None, {"TERM": "dumb"}, False),
        (False, {}, False),
        (True, {"NO_COLOR": "1"}, True),
    ],
)
def test_colour_choice(flag: bool | None, env: dict[str, str], expected: bool) -> None:
    assert color_wanted(flag, env) is expected


def test_plain_board_is_one_fact_per_line(match: Match) -> None:
    lines = render.plain_board(match.view_for(0), NAMES, Display(color=False, glyphs=False))
    assert lines == [
        "Round 1, target 11. Score: Ada: 0, Bot 1: 0.",  # not "Bot 1 0"
        "Dealer: Bot 1.",
        "Table: 2 of clubs (2), 4 of cups (4), 5 of swords (5), 7 of cups (7).",
        "Stock: 30 cards.",
        "Captured: Ada has no cards and no sweeps; Bot 1 has no cards and no sweeps.",
        "Your hand: 3 of swords (3), 7 of coins (7, must capture), king of clubs (10).",
        "Your turn.",
    ]


def test_the_plain_board_says_who_dealt_and_what_each_side_has_taken() -> None:
    """The plain board left out what the sighted board shows: the dealer, and the cards and
    sweeps each side has captured this round."""
    match = match_dealt({0: "7d 3s Kb"}, "5s 2b 2h Ah", players=4, dealer=3)
    match.play(parse_card("Kb"), 0)  # takes the four cards on the table: a sweep
    names = ("Luca", "Ada", "Bruno", "Carla")
    lines = render.plain_board(match.view_for(0), names, Display(color=False))
    assert lines[1] == "Dealer: Carla."
    assert lines[4] == (
        "Captured: Luca & Bruno have 5 cards and 1 sweep; Ada & Carla have no cards and no sweeps."
    )


def test_play_words_say_what_was_taken_and_the_sweep() -> None:
    match = match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 7h 4h")
    record = match.play(parse_card("7d"), 0)
    view = match.view_for(1)
    assert render.play_words(record, view, NAMES, Display()) == (
        "Ada played 7 of coins, taking 7 of cups."
    )


def finished_match(seed: int, rules: RuleSet) -> Match:
    rng = random.Random(seed)
    match = Match(rules, first_dealer=0)
    while match.needs_deal:
        deck = shuffled_deck(rng)
        rnd = match.deal(deck)
        while not rnd.finished:
            match.play(rng.choice(rnd.legal_plays()), rnd.turn, exact=True)
        if match.results:
            return match
    return match


@pytest.mark.parametrize("variants", [(), ("re_bello", "napola")])
def test_score_sheet_has_every_line_with_figures_and_totals(variants: tuple[str, ...]) -> None:
    match = finished_match(5, RuleSet.of(2, 11, variants))
    view = match.view_for(0)
    result = match.results[-1]
    sheet = render.plain(score_sheet(view, result, tuple(match.scores), NAMES)).splitlines()
    assert sheet[0] == "Round 1 score sheet"
    for line, row in zip(result.lines, sheet[2:], strict=False):
        title = LINE_TITLES[line.name][0]
        assert row.startswith(title)
        figures = row[len(title) :].split()[: len(line.figures)]
        assert figures == [str(f) for f in line.figures]
    assert sheet[-2].split()[1:] == [str(t) for t in result.totals]
    assert sheet[-1].split()[1:3] == [str(s) for s in match.scores]
    assert len(sheet) == 2 + len(result.lines) + 2


def test_plain_mode_says_each_line_of_the_sheet_as_a_sentence() -> None:
    """Read line by line, the sheet's columns came out as "Cards 23 17 Luca & Bruno": whose
    23? In plain mode each line says each side's figure with its name, and who scored."""
    from client_fakes import Screen, TableSession

    from scopa_net.client.controller import Controller
    from scopa_net.client.session import RoundOver

    match = finished_match(5, RuleSet.of(4, 6))
    result = match.results[-1]
    session = TableSession(match)
    session.names = ("Luca", "Ada", "Bruno", "Carla")
    screen = Screen()
    controller = Controller(session, Display(color=False), screen.show, list, plain=True)
    controller.handle_event(RoundOver(view=session.view, score=result, match_scores=(2, 1)))
    assert screen.lines[1:] == [  # after the cards the last capture takes
        "Round 1 score sheet.",
        "Cards: Luca & Bruno 15, Ada & Carla 25; the point to Ada & Carla.",
        "Coins: Luca & Bruno 5, Ada & Carla 5; nobody scores.",
        "Settebello: Luca & Bruno 1, Ada & Carla 0; the point to Luca & Bruno.",
        "Primiera: Luca & Bruno 84, Ada & Carla 65; the point to Luca & Bruno.",
        "Sweeps: Luca & Bruno 0, Ada & Carla 0; nobody scores.",
        "Round: Luca & Bruno 2, Ada & Carla 1.",
        "Match: Luca & Bruno 2, Ada & Carla 1, playing to 6.",
    ]
    swept = dataclasses.replace(result.lines[-1], figures=(2, 1), points=(2, 1), winner=None)
    sheet = plain_score_sheet(
        session.view, dataclasses.replace(result, lines=(swept,)), (6, 2), session.names
    )
    assert sheet[1] == (
        "Sweeps: Luca & Bruno 2, Ada & Carla 1; 2 points to Luca & Bruno, 1 point to Ada & Carla."
    )
    assert sheet[-1] == "Match: Luca & Bruno 6, Ada & Carla 2, match over (played to 6)."


def test_plain_mode_names_the_cards_the_last_capture_takes() -> None:
    """Plain mode said "The last capture also takes the table: 3b, Qh, Kb (...)", in codes."""
    from client_fakes import Screen, TableSession

    from scopa_net.client.controller import Controller
    from scopa_net.client.session import RoundOver

    match = finished_match(5, RuleSet.of(4, 6))
    session = TableSession(match)
    session.names = ("Luca", "Ada", "Bruno", "Carla")
    screen = Screen()
    controller = Controller(session, Display(color=False), screen.show, list, plain=True)
    controller.handle_event(
        RoundOver(view=session.view, score=match.results[-1], match_scores=(2, 1))
    )
    assert screen.lines[0] == (
        "The last capture also takes the table: 3 of clubs, knight of cups, king of clubs "
        "(Ada & Carla)."
    )
    # On Carla's own screen her side is "Ada & you" (its seats in order).
    session.seat = 3
    before = len(screen.lines)
    carla = Controller(session, Display(color=False), screen.show, list, plain=True)
    carla.handle_event(RoundOver(view=session.view, score=match.results[-1], match_scores=(2, 1)))
    assert screen.lines[before].endswith("king of clubs (Ada & you)."), screen.lines


async def test_score_after_taking_a_seat_back_at_a_rounds_end_shows_its_sheet() -> None:
    """A seat taken back after a round's end (its snapshot holds the sheet, protocol.md 3.9)
    said "No round of this match is scored yet: no score sheet." to ``score``."""
    from client_fakes import Screen, TableSession

    from scopa_net.client.controller import Controller

    session = TableSession(finished_match(5, RuleSet.of(4, 6)))
    session.names = ("Luca", "Ada", "Bruno", "Carla")
    screen = Screen()
    controller = Controller(session, Display(color=False), screen.show, list, plain=True)
    await controller.handle_line("score")
    assert screen.lines[0] == "Round 1 score sheet."
    assert screen.lines[-1] == "Match score: Luca & Bruno 2, Ada & Carla 1 (playing to 6)."


def test_score_sheet_names_who_took_each_point() -> None:
    match = finished_match(5, RuleSet.of(2))
    result = match.results[-1]
    sheet = render.plain(score_sheet(match.view_for(0), result, tuple(match.scores), NAMES))
    settebello = next(r for r in sheet.splitlines() if r.startswith("Settebello"))
    holder = result.line("settebello").winner
    assert settebello.endswith(NAMES[holder])


@pytest.mark.parametrize(
    ("scores", "words"),
    [
        ((11, 11), "Ada and Bot 1 are level at 11, the target: one more round decides."),
        ((13, 13), "Ada and Bot 1 are level at 13, past the target: one more round decides."),
        ((9, 9), None),  # level, short of the target: nothing to explain
        ((12, 11), None),  # a winner
    ],
)
def test_a_sheet_says_why_a_match_level_at_the_target_goes_on(
    scores: tuple[int, int], words: str | None
) -> None:
    """A newcomer saw "Match 3 3 playing to 2" and a new round begin, with no word on why."""
    match = finished_match(5, RuleSet.of(2))
    sheet = render.plain(score_sheet(match.view_for(0), match.results[-1], scores, NAMES))
    last = sheet.splitlines()[-1]
    if words is None:
        assert last.startswith("Match")
    else:
        assert last == words


def test_match_summary_names_the_winner() -> None:
    match = finished_match(5, RuleSet.of(2))
    view = match.view_for(0)
    you = render.plain([match_summary(view, 0, (11, 7), 3, NAMES)])
    assert you == "You win the match, 11 to 7, after 3 rounds."
    them = render.plain([match_summary(view, 1, (4, 12), 1, NAMES)])
    assert them == "Bot 1 wins the match, 12 to 4, after 1 round."
    # Every round dealt, as the board and the toolbar number them, the void ones (kings, or a
    # person gone from a blind round) among them: "after 2 rounds (1 void)" ended a match
    # whose toolbar said Round 3.
    voids = render.plain([match_summary(view, 0, (11, 7), 2, NAMES, voids=1)])
    assert voids == "You win the match, 11 to 7, after 3 rounds (1 of them void)."
    voids = render.plain([match_summary(view, 0, (11, 7), 1, NAMES, voids=2)])
    assert voids == "You win the match, 11 to 7, after 3 rounds (2 of them void)."


def test_a_match_of_three_sides_ends_with_each_score_named() -> None:
    """A 3-player match ended "You win the match, 5 to 3 to 0": whose 3, whose 0? Then "Dora
    wins the match 12 to 10 (you) to 10 (Elio)", which reads as nobody speaks. Each other
    score is said after its side's name, as the score sheet heads its columns."""
    match = finished_match(5, RuleSet.of(3))
    names = ("Ada", "Bruno", "Carla")
    summary = render.plain([match_summary(match.view_for(0), 0, (5, 0, 3), 2, names)])
    assert summary == "You win the match with 5 points (Carla 3, Bruno 0), after 2 rounds."
    summary = render.plain([match_summary(match.view_for(1), 2, (5, 0, 7), 2, names)])
    assert (
        summary == "Carla wins the match with 7 points (Ada 5, you 0), after 2 rounds."
    )  # Bruno's


def test_a_match_of_three_teams_ends_without_saying_the_winners_twice() -> None:
    """It read "Chiara & bot 5 win the match, Chiara & bot 5 5 to Zio Gianni & bot 4 4 to
    Nonna Lucía & Åsa 2, after 2 rounds.": the winners twice, and each score lost between
    the names ("bot 4 4")."""
    match = finished_match(5, RuleSet.of(6, 4, ["six_as_three_pairs"]))
    names = ("Nonna Lucía", "Zio Gianni", "Chiara", "Åsa", "bot 4", "bot 5")
    summary = render.plain([match_summary(match.view_for(0), 2, (2, 4, 5), 2, names)])
    assert summary == (
        "Chiara & bot 5 win the match with 5 points (Zio Gianni & bot 4: 4, you & Åsa: 2), "
        "after 2 rounds."  # on Nonna Lucía's screen
    )


def test_the_sheet_that_ends_a_match_says_the_match_is_over() -> None:
    """The last sheet's Match row read "playing to 3" though the match was over."""
    match = finished_match(5, RuleSet.of(2, 3))
    view, result = match.view_for(0), match.results[-1]
    going = render.plain(score_sheet(view, result, (2, 1), NAMES)).splitlines()[-1]
    assert going.endswith("   playing to 3")
    over = render.plain(score_sheet(view, result, (4, 1), NAMES)).splitlines()[-1]
    assert over.endswith("   match over (played to 3)")


def test_toolbar_shows_turn_score_stock_and_connection(match: Match) -> None:
    state = ClientState(seat=0, names=NAMES, display=Display(), view=match.view_for(0))
    state.scores = (3, 5)
    text = render.plain([toolbar_text(state)])
    assert "YOUR TURN" in text
    assert "Ada: 3  Bot 1: 5 (to 11)" in text  # "Bot 1 5" read as one name
    state.names = ("Ada", "Bruno")
    assert "Ada 3  Bruno 5 (to 11)" in render.plain([toolbar_text(state)])  # no digit: as was
    assert "stock 30" in text
    assert "local game" in text
    assert all(style.startswith("class:") or not style for style, _ in toolbar_text(state))
    state.view = match.view_for(1)
    assert "Ada to play" in render.plain([toolbar_text(state)])


def test_the_board_of_a_round_just_scored_counts_it_in_the_score() -> None:
    """A seat taken back after a round's end reads the board of that round (a snapshot keeps
    the match's points apart from the round's until the next deal): its Score row counts the
    round, as the result line beside it does, not the points before it ("3 3" beside "5 to
    3")."""
    rng = random.Random(4)
    match = Match(RuleSet.of(2), first_dealer=0)
    rnd = match.deal(shuffled_deck(rng))
    while not rnd.finished:
        match.play(rng.choice(rnd.legal_plays()), rnd.turn, exact=True)
    view = match.view_for(0)
    assert view.round_over
    assert view.scores_now != view.scores
    a, b = view.scores_now
    assert f"Score     Ada: {a}   Bot 1: {b}" in render.plain(
        render.board_lines(view, NAMES, Display())
    )
    assert f"Score: Ada: {a}, Bot 1: {b}." in " ".join(render.plain_board(view, NAMES, Display()))


def _round_of(plays: str, rules: RuleSet) -> tuple:
    """A finished round's view and sheet from plays written ``0:7d x 7h; 1:2d x 2h``: each
    side's pile is what its plays took, as the sheet's figures say."""
    from scopa_net.plays import Play, PlayRecord
    from scopa_net.scoring import score_round

    records = []
    piles = [0] * rules.side_count
    for part in plays.split(";"):
        seat, text = part.strip().split(":")
        card, _, taken = text.partition(" x ")
        play = Play(parse_card(card), tuple(parse_card(t) for t in taken.split("+") if t))
        records.append(PlayRecord(int(seat), play, sweep=False))
        for c in (play.card, *play.captured):
            piles[rules.side_of(int(seat))] |= c.bit
    view = dataclasses.replace(
        match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 7h 4h").view_for(0),
        rules=rules,
        plays=tuple(records),
        leftover=(),
        round_over=True,
    )
    return view, score_round(rules, piles, [0] * rules.side_count)


def test_a_sheet_says_when_more_suits_beat_a_higher_primiera_total() -> None:
    """The sheet showed "Primiera 63 48 Bot 1": the point to the lower total, with nothing
    on the sheet to say why. By the default rule the side holding more suits wins whatever
    the totals (RULES.md, primiera); the suit count is on no row, so a line says it."""
    rules = RuleSet.of(2)
    view, score = _round_of("0:7d x 7h; 0:7s x Js; 1:2d x 2h; 1:2s x 2b", rules)
    sheet = render.plain(score_sheet(view, score, (0, 1), NAMES)).splitlines()
    assert "Primiera          63      48   Bot 1" in sheet
    said = (
        "Primiera counts suits first: Ada held 3 suits, Bot 1 held 4; "
        "the most suits win whatever the totals."
    )
    assert said in sheet
    plain = plain_score_sheet(view, score, (0, 1), NAMES)
    primiera = plain.index("Primiera: Ada: 63, Bot 1: 48; the point to Bot 1.")  # not "Bot 1 48"
    assert plain[primiera + 1] == said
    # Where the totals alone tell who won, or under primiera=sum, nothing more is said.
    view, score = _round_of("0:7d x 7h; 0:7s x 7b; 1:2d x 2h; 1:2s x 2b", rules)
    assert not any("suits" in row for row in plain_score_sheet(view, score, (0, 1), NAMES))
    by_sum = RuleSet.of(2, 11, ["primiera=sum"])
    view, score = _round_of("0:7d x 7h; 0:7s x Js; 1:2d x 2h; 1:2s x 2b", by_sum)
    assert score.line("primiera").winner == 0
    assert not any("suits" in row for row in plain_score_sheet(view, score, (1, 0), NAMES))


def test_a_match_won_by_cappotto_says_so() -> None:
    """With cappotto a side 7-0 up wins short of the target, but the sheet said "Match 7 0
    match over (played to 11)" and "You win the match, 7 to 0": over at 7, playing to 11,
    with no word of why (the score keeper said "by cappotto")."""
    match = finished_match(5, RuleSet.of(2, 11, ["cappotto"]))
    view, result = match.view_for(0), match.results[-1]
    sheet = render.plain(score_sheet(view, result, (7, 0), NAMES)).splitlines()
    assert sheet[-1].endswith("   match over by cappotto (played to 11)")
    assert plain_score_sheet(view, result, (0, 8), NAMES)[-1] == (
        "Match: Ada: 0, Bot 1: 8, match over by cappotto (played to 11)."
    )
    you = render.plain([match_summary(view, 0, (7, 0), 1, NAMES)])
    assert you == "You win the match by cappotto, 7 to 0, after 1 round."
    # Reaching the target 12-0 is an ordinary win, as it would be without cappotto.
    assert render.plain([match_summary(view, 0, (12, 0), 2, NAMES)]) == (
        "You win the match, 12 to 0, after 2 rounds."
    )
    assert render.plain(score_sheet(view, result, (12, 0), NAMES)).endswith(
        "   match over (played to 11)"
    )


async def test_score_shows_each_sides_primiera_card_by_card() -> None:
    """To check the sheet by hand a player needs each side's best card per suit; the sheet
    gave "Primiera 84 65" alone, and every capture of the round would have had to be
    remembered. `score` now lists them after the sheet, summed to the sheet's figures."""
    from client_fakes import Screen, TableSession

    from scopa_net.client.controller import Controller
    from scopa_net.client.session import RoundOver

    match = finished_match(5, RuleSet.of(4, 6))
    session = TableSession(match)
    session.names = ("Luca", "Ada", "Bruno", "Carla")
    for plain, luca, ada in (
        (
            False,
            "7d♦ 21 + 7h♥ 21 + 7s♠ 21 + 7b♣ 21 = 84 (4 suits).",
            "5d♦ 15 + Ah♥ 16 + 6s♠ 18 + Ab♣ 16 = 65 (4 suits).",
        ),
        (
            True,
            "7 of coins 21 + 7 of cups 21 + 7 of swords 21 + 7 of clubs 21 = 84 (4 suits).",
            "5 of coins 15 + ace of cups 16 + 6 of swords 18 + ace of clubs 16 = 65 (4 suits).",
        ),
    ):
        screen = Screen()
        controller = Controller(session, Display(color=False), screen.show, list, plain=plain)
        controller.handle_event(
            RoundOver(view=session.view, score=match.results[-1], match_scores=(2, 1))
        )
        assert not any(line.startswith("Primiera, ") for line in screen.lines)  # not at the end
        await controller.handle_line("score")
        assert screen.lines[-3:] == [
            f"Primiera, Luca & Bruno: {luca}",
            f"Primiera, Ada & Carla: {ada}",
            "Match score: Luca & Bruno 2, Ada & Carla 1 (playing to 6).",
        ]


def test_the_reader_s_own_deal_reads_as_their_own_plays_do() -> None:
    """Ada's board said "dealer Ada" on her own screen, where her plays read "You play" and
    her side "you & Carla"."""
    names = ("Ada", "Bruno")
    mine = match_dealt({0: "7d 3s Kb"}, "5s 2b 2h Ah", dealer=0).view_for(0)
    theirs = match_dealt({0: "7d 3s Kb"}, "5s 2b 2h Ah", dealer=1).view_for(0)
    assert render.plain_board(mine, names, Display(color=False))[1] == "Dealer: you."
    assert render.plain_board(theirs, names, Display(color=False))[1] == "Dealer: Bruno."
    heading = render.plain(render.board_lines(mine, names, Display(color=False), you=0)[:1])
    assert "  dealer you  " in heading, heading
    assert "Ada" not in heading, heading
    heading = render.plain(render.board_lines(theirs, names, Display(color=False), you=0)[:1])
    assert "  dealer Bruno  " in heading, heading


def test_a_side_of_the_reader_s_wins_as_you_and_a_partner() -> None:
    """Bruno's side won and he read "Bruno & bot 3 win the match" on his own screen, where
    his side is "you & bot 3" on every other line."""
    match = finished_match(5, RuleSet.of(4, 3))
    names = ("Ada", "Bruno", "Carla", "bot 3")
    bruno = render.plain([match_summary(match.view_for(1), 1, (1, 5), 1, names)])
    assert bruno == "You & bot 3 win the match, 5 to 1, after 1 round."
    ada = render.plain([match_summary(match.view_for(0), 1, (1, 5), 1, names)])
    assert ada == "Bruno & bot 3 win the match, 5 to 1, after 1 round."
