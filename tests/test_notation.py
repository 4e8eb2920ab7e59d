"""Card and play notation: the forms players type, and the c clash."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scopa_net.cards import CARDS, RE_BELLO, SETTEBELLO, Rank, Suit, card
from scopa_net.errors import AmbiguousNotationError, NotationError
from scopa_net.notation import Scheme, card_name, format_card, parse_card, parse_play
from scopa_net.plays import Play

SEVEN_COINS = card(7, Suit.COINS)


@pytest.mark.parametrize(
    "text",
    [
        "7d",
        "7D",
        "7♦",
        "7 coins",
        "7 denari",
        "7 of coins",
        "7 di denari",
        "seven of diamonds",
        "settebello",
        "Settebello",
        " 7d ",
        "sette denari",
    ],
)
def test_forms_of_the_seven_of_coins(text: str) -> None:
    assert parse_card(text) == SEVEN_COINS


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("re bello", RE_BELLO),
        ("Kd", RE_BELLO),
        ("Rd", RE_BELLO),
        ("re di denari", RE_BELLO),
        ("Jh", card(Rank.KNAVE, Suit.CUPS)),
        ("Fh", card(Rank.KNAVE, Suit.CUPS)),
        ("Q♠", card(Rank.KNIGHT, Suit.SWORDS)),
        ("cavallo di spade", card(9, Suit.SWORDS)),
        ("Ab", card(Rank.ACE, Suit.CLUBS)),
        ("1 bastoni", card(Rank.ACE, Suit.CLUBS)),
        ("ace of clubs", card(Rank.ACE, Suit.CLUBS)),
        ("4 ♣", card(4, Suit.CLUBS)),
        ("2 cups", card(2, Suit.CUPS)),
        ("2 coppe", card(2, Suit.CUPS)),
        ("knave of swords", card(8, Suit.SWORDS)),
        ("king hearts", card(10, Suit.CUPS)),
    ],
)
def test_forms_players_type(text: str, expected: object) -> None:
    assert parse_card(text) == expected


def test_bare_c_is_refused_as_ambiguous_unless_a_scheme_says() -> None:
    with pytest.raises(AmbiguousNotationError, match=r"'7c'.*cups.*clubs"):
        parse_card("7c")
    assert parse_card("7c", Scheme.ITALIAN) == card(7, Suit.CUPS)
    assert parse_card("7c", Scheme.FRENCH) == card(7, Suit.CLUBS)
    # Whole words are never ambiguous.
    assert parse_card("7 clubs") == card(7, Suit.CLUBS)
    assert parse_card("7 coppe") == card(7, Suit.CUPS)


SCREEN_GLYPH = {Suit.COINS: "♦", Suit.CUPS: "♥", Suit.SWORDS: "♠", Suit.CLUBS: "♣"}
"""The symbol the client writes after a card's letters (``Jd♦``)."""


@pytest.mark.parametrize("scheme", list(Scheme))
def test_a_card_copied_from_the_screen_parses_back(scheme: Scheme) -> None:
    """`2d♦`, as the screen shows the card, was refused with "unknown suit 'd♦'"; the letter
    and its symbol are now taken together, and they must agree."""
    for c in CARDS:
        shown = format_card(c, scheme) + SCREEN_GLYPH[c.suit]
        assert parse_card(shown, scheme) == c
    assert parse_play("2d♦ x 2s♠+Ab♣") == (
        card(2, Suit.COINS),
        (card(2, Suit.SWORDS), card(Rank.ACE, Suit.CLUBS)),
    )
    assert parse_card("7c♥") == card(7, Suit.CUPS)  # the symbol settles a bare c
    assert parse_card("7c♣") == card(7, Suit.CLUBS)
    with pytest.raises(NotationError, match=r"'7h♣': 'h' and '♣' are different suits"):
        parse_card("7h♣")
    with pytest.raises(NotationError, match="different suits"):
        parse_card("7c♣", Scheme.ITALIAN)  # c is coppe there


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "empty"),
        ("10d", "no 8, 9 or 10"),
        ("8s", "no 8"),
        ("7x", "unknown suit"),
        ("zd", "unknown rank"),
        ("7", "expected a rank followed by a suit"),
        ("seven of coins please", "expected"),
    ],
)
def test_bad_notation_names_the_problem_and_quotes_the_input(text: str, why: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_card(text)
    assert why in str(info.value)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("scheme", list(Scheme))
def test_every_card_round_trips_in_every_scheme(scheme: Scheme) -> None:
    for c in CARDS:
        assert parse_card(format_card(c, scheme), scheme) == c
        assert parse_card(card_name(c, scheme), scheme) == c
        assert parse_card(str(c)) == c


def test_canonical_form_avoids_the_letter_c() -> None:
    assert {format_card(c)[-1] for c in CARDS} == {"d", "h", "s", "b"}
    assert str(SETTEBELLO) == "7d"


@pytest.mark.parametrize(
    "text",
    [
        "7d x 5s+2b",
        "7d: 5s 2b",
        "7d takes 5s, 2b",
        "7d 5s 2b",
        "7 coins > 5 swords, 2 clubs",
        "7d x 2b + 5s",
    ],
)
def test_play_forms(text: str) -> None:
    played, group = parse_play(text)
    assert played == SEVEN_COINS
    assert group is not None
    assert set(group) == {card(5, Suit.SWORDS), card(2, Suit.CLUBS)}


def test_play_without_a_group_and_bad_groups() -> None:
    assert parse_play("settebello") == (SEVEN_COINS, None)
    with pytest.raises(NotationError, match="twice"):
        parse_play("7d x 5s 5s")
    with pytest.raises(NotationError):
        parse_play("7d x")
    with pytest.raises(AmbiguousNotationError):
        parse_play("7d x 5c 2b")


@given(st.sampled_from(CARDS), st.sets(st.sampled_from(CARDS), max_size=4))
def test_play_text_round_trips(played: object, taken: set) -> None:
    play = Play(played, tuple(taken))  # type: ignore[arg-type]
    parsed, group = parse_play(play.text())
    assert parsed == play.card
    assert set(group or ()) == set(play.captured)
    assert Play.from_code(play.code) == play


@given(st.text(max_size=30))
def test_any_text_parses_or_raises_notation_error(text: str) -> None:
    try:
        parse_card(text)
        parse_play(text)
    except NotationError:
        pass
