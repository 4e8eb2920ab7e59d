"""Lines measured in the terminal's columns: a CJK character takes two, a combining accent
none. A line holding a wide name used to run past the window (the terminal then broke it
inside a word), one holding a combining accent was cut a word early."""

from __future__ import annotations

import functools
import random
import re

import pytest
from app_driver import RecordingOutput, playing, run_app
from helpers import match_dealt
from prompt_toolkit.formatted_text import FormattedText

from scopa_net.cards import CARDS
from scopa_net.client.client_state import ClientState
from scopa_net.client.local_session import open_local_session
from scopa_net.client.render import plain, wrap_line
from scopa_net.client.scoresheet import score_sheet
from scopa_net.client.style import Display
from scopa_net.client.toolbar import toolbar_text
from scopa_net.match import Match
from scopa_net.names import display_width
from scopa_net.rules import RuleSet

CJK = "李小龙李小龙李小龙李"  # 20 columns, the widest name
ACCENTED = "Zoë Müller-Ferretti"
COMBINING = "Zo\u1eb9\u0301 M\u00fcller"  # e with a dot, then a combining acute: no one letter
CHAT = "你好 Zoë, a te!"  # short enough to type at the narrowest prompt in one row


#: The score sheet heads its sides by letter when their names do not fit (a legend names them).
LETTERS = {"A", "B", "="}


def screen(name: str, columns: int | None) -> RecordingOutput:
    """What a terminal ``columns`` wide was given to show of a short match of four, played as
    ``name`` (who says ``CHAT`` first); ``None``: every line whole, as written to a file."""
    rules = RuleSet.of(4, target=1)
    output = RecordingOutput(columns)
    status, _, _ = run_app(
        rules,
        playing(f"say {CHAT}\r"),
        opener=lambda: open_local_session(rules, name=name, seed=7, delay=0),
        output=output,
    )
    assert status == 0
    return output


@functools.cache
def whole_words(name: str) -> frozenset[str]:
    """Every word the same match prints with its lines whole (to a file)."""
    return frozenset(word for row in screen(name, None).printed for word in row.split())


@pytest.mark.parametrize("name", [CJK, ACCENTED, COMBINING])
@pytest.mark.parametrize("columns", [30, 50, 60])
def test_every_row_fits_the_window_and_no_word_is_cut(name: str, columns: int) -> None:
    shown = screen(name, columns)
    wide = [row for row in shown.rows if display_width(row) > columns]  # toolbar included
    assert not wide, "\n".join(wide)
    assert shown.printed
    whole = whole_words(name) | LETTERS
    cut = [row for row in shown.printed if not set(row.split()) <= whole]
    assert not cut, "\n".join(cut)
    words = " ".join(" ".join(shown.printed).split())
    assert f"<{name}> {CHAT}" in words  # the chat line, its words whole
    assert f"Partners: {name} and bot 2" in words  # the name whole in a line of its own
    assert "dealer you" in words  # her own deal (seed 7), not "dealer NAME" on her screen


def test_a_wide_name_breaks_the_board_between_words_at_50_columns() -> None:
    rows = screen(CJK, 50).printed
    captured = next(i for i, row in enumerate(rows) if row.startswith("Captured"))
    assert rows[captured : captured + 3] == [  # 50 columns, though 40 characters
        f"Captured  {CJK} & bot 2: 0 cards, 0",
        "          sweeps",
        "          bot 1 & bot 3: 0 cards, 0 sweeps",
    ]
    assert f"<{CJK}> {CHAT}" in rows  # 39 columns: it fits whole


def test_wrap_line_counts_columns_not_characters() -> None:
    line = FormattedText(
        [("class:winner", f"{CJK} & Zoë Müller win the match"), ("", ", 4 to 2, after 2 rounds.")]
    )
    rows = [plain([row]) for row in wrap_line(line, 50)]
    assert rows == [f"{CJK} & Zoë Müller win the match, 4", "to 2, after 2 rounds."]
    combining = FormattedText([("", f"{COMBINING} wins the match, 11 to 7, after 2 rounds.")])
    assert [plain([row]) for row in wrap_line(combining, 41)] == [
        f"{COMBINING} wins the match, 11 to 7, after",
        "2 rounds.",
    ]
    # A word wider than the line is cut between characters, an accent kept with its letter.
    rows = [plain([row]) for row in wrap_line(FormattedText([("", CJK * 2)]), 11)]
    assert all(display_width(row) <= 11 for row in rows)
    assert "".join(rows) == CJK * 2


PAIRS = ("Ada", "Maximiliano Ferretti", CJK, "Zoë Müller")


def four_at_a_table(scores: tuple[int, int] = (1, 5), seat: int = 0) -> ClientState:
    """The state of ``seat`` at a table of four named :data:`PAIRS`, its first round dealt."""
    match = match_dealt(
        {0: "7d 3s Kb", 1: "2h 2s Jd", 2: "Ad Ah As", 3: "4d 4s 4b"},
        "5s 2b 7h 4h",
        players=4,
        dealer=3,
    )
    view = match.view_for(seat)
    return ClientState(seat=seat, names=PAIRS, display=Display(), view=view, scores=scores)


@pytest.mark.parametrize("columns", [30, 50, 60, 80, 100])
def test_the_toolbar_fits_in_columns_and_says_whose_score_is_whose(columns: int) -> None:
    state = four_at_a_table(seat=2)  # 李小龙, with Ada (seats 0 and 2 are a pair)
    bar = plain([toolbar_text(state, columns)])
    assert display_width(bar) < columns, bar  # the last column stays free
    assert "YOUR TURN" in bar or "to play" in bar, bar
    if columns >= 50:
        sides = (f"Ada & {CJK}", "Maximiliano Ferretti & Zoë Müller")
        assert all(side in bar for side in sides) or "you 1-5" in bar, bar
    assert re.search(r"(?<!you )\b\d+-\d+", bar) is None, bar  # never figures with no owner


def test_a_wide_pair_name_gives_way_to_you_first_not_bare_figures() -> None:
    state = four_at_a_table(scores=(1, 5), seat=1)  # the second pair: you 5-1
    assert plain([toolbar_text(state, 200)]).count("&") == 2
    assert "you 5-1 /11" in plain([toolbar_text(state, 50)])


FAMILY = ("Asa", "Bruno", "Chiara", "Teo", "Zio", "Nonna Lucía")


@pytest.mark.parametrize(
    ("variants", "names", "tags"),
    [
        ([], FAMILY[3:], ["T", "Z", "NL"]),
        (["six_as_three_pairs"], FAMILY, ["A&T", "B&Z", "C&NL"]),
        ([], ("Teo", "Tina", "bot 2"), ["Te", "Ti", "b2"]),  # two T: two letters
    ],
)
@pytest.mark.parametrize(("columns", "paused"), [(60, False), (60, True), (46, False)])
def test_three_sides_short_score_says_whose_each_figure_is_in_one_order(
    variants: list[str], names: tuple[str, ...], tags: list[str], columns: int, paused: bool
) -> None:
    """With three sides the short score read "you 1-3-1 /4": which figure was whose, and
    each person saw another order. Now each side's initials come before its points, in
    the same order at every screen, the reader's own side called "you" (or, where they
    fit, the sides' names)."""
    rules = RuleSet.of(len(names), 4, variants)
    match = Match(rules)
    deck = list(CARDS)
    random.Random(3).shuffle(deck)
    match.deal(deck)
    for seat in range(rules.players):
        state = ClientState(
            seat=seat, names=names, display=Display(), view=match.view_for(seat), scores=(1, 3, 1)
        )
        state.paused = paused
        bar = plain([toolbar_text(state, columns)])
        assert display_width(bar) < columns, bar
        mine = rules.side_of(seat)
        told = [("you" if side == mine else tag) for side, tag in enumerate(tags)]
        short = " · ".join(f"{tag} {p}" for tag, p in zip(told, (1, 3, 1), strict=True))
        whole = [" & ".join(names[s] for s in rules.seats_of(side)) for side in range(3)]
        named = "  ".join(f"{side} {p}" for side, p in zip(whole, (1, 3, 1), strict=True))
        assert short in bar or named in bar, bar
        assert re.search(r"\d-\d", bar) is None, bar


def finished_round(players: int, seed: int = 3) -> Match:
    """A match of ``players`` with its first round played out at random."""
    rng = random.Random(seed)
    match = Match(RuleSet.of(players, 11), first_dealer=0)
    while not match.results:
        deck = list(CARDS)
        rng.shuffle(deck)
        rnd = match.deal(deck)
        while not rnd.finished:
            match.play(rng.choice(rnd.legal_plays()), rnd.turn, exact=True)
    return match


def test_the_score_sheet_heads_a_wide_pair_name_over_its_figures() -> None:
    match = finished_round(4)
    view = match.view_for(0)
    names = ("Ada", "Bruno", "Zoë Müller", "李小龙")
    sheet = plain(score_sheet(view, match.results[-1], match.scores, names, 80)).splitlines()
    header, cards = sheet[1], sheet[2]
    assert "Bruno & 李小龙" in header, sheet
    # The header's names end in the column where the figures under them end.
    name_end = display_width(header[: header.index("李小龙") + 3])
    figures = cards.split()[1:3]
    figure_end = display_width(cards[: cards.index(figures[1], 12) + len(figures[1])])
    assert name_end == figure_end, "\n".join(sheet)
    assert all(display_width(row) <= 80 for row in sheet)
