"""Typed lines into commands, and tab completion of what is legal now."""

from __future__ import annotations

import pytest
from helpers import match_dealt
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from scopa_net.client.asking import Asking
from scopa_net.client.client_state import ClientState
from scopa_net.client.commands import (
    COMMANDS,
    Choose,
    CommandError,
    PlayCard,
    Rename,
    Say,
    Simple,
    parse_command,
)
from scopa_net.client.completion import PlayCompleter
from scopa_net.client.style import Display, SuitNames
from scopa_net.notation import Scheme, parse_card
from scopa_net.view import SeatView


def cards(text: str) -> tuple:
    return tuple(parse_card(t) for t in text.split())


@pytest.mark.parametrize(
    ("line", "card", "group"),
    [
        ("7d", "7d", None),
        ("7 coins", "7d", None),
        ("  settebello ", "7d", None),
        ("re di denari", "Kd", None),
        ("7d x 5s+2b", "7d", "5s 2b"),
        ("7 coins takes 5 swords, 2 clubs", "7d", "5s 2b"),
        ("7d 5s 2b", "7d", "5s 2b"),
    ],
)
def test_plays_in_any_notation(line: str, card: str, group: str | None) -> None:
    expected = None if group is None else cards(group)
    assert parse_command(line) == PlayCard(card=parse_card(card), group=expected)


def test_suit_letters_follow_the_chosen_names() -> None:
    assert parse_command("7c", Scheme.ITALIAN) == PlayCard(card=parse_card("7h"))
    assert parse_command("7c", Scheme.FRENCH) == PlayCard(card=parse_card("7b"))
    with pytest.raises(CommandError, match=r"'7c'.*cups \(coppe\) or clubs"):
        parse_command("7c")


@pytest.mark.parametrize("name", sorted(set(COMMANDS) - {"say", "rules", "name"}))
def test_named_commands(name: str) -> None:
    assert parse_command(name) == Simple(name=name)
    assert parse_command(name.upper()) == Simple(name=name)


def test_say_keeps_the_text_as_typed() -> None:
    assert parse_command("say  Buona Fortuna! ") == Say(text="Buona Fortuna!")


def test_name_and_rename_take_the_rest_of_the_line() -> None:
    assert parse_command("name  Ada  Lovelace ") == Rename(name="Ada  Lovelace")
    assert parse_command("rename Bruno") == Rename(name="Bruno")
    assert parse_command("NAME") == Rename(name="")


def test_play_before_a_card_means_the_card() -> None:
    assert parse_command("play 4d") == PlayCard(card=parse_card("4d"))
    assert parse_command("Play 7d x 5s+2b") == PlayCard(card=parse_card("7d"), group=cards("5s 2b"))
    assert parse_command("play 7") == Choose(number=7)  # as "7" alone: a rank or a choice
    with pytest.raises(CommandError) as info:
        parse_command("play")
    assert str(info.value) == "invalid command: 'play': play what? (play 7d, or just 7d)"
    with pytest.raises(CommandError, match=r"invalid card: 'help'"):
        parse_command("play help")


def test_a_number_is_a_choice() -> None:
    assert parse_command(" 2 ") == Choose(number=2)


@pytest.mark.parametrize(
    ("line", "quoted"),
    [("8d", "'8d'"), ("zz", "'zz'"), ("say", "'say'"), ("score 3", "'score 3'"), ("7x", "'7x'")],
)
def test_errors_quote_the_line(line: str, quoted: str) -> None:
    with pytest.raises(CommandError) as info:
        parse_command(line)
    assert quoted in str(info.value)


def test_an_empty_line_is_refused() -> None:
    with pytest.raises(CommandError, match="empty"):
        parse_command("   ")


# --- completion ----------------------------------------------------------------------------------


def state_for(view: SeatView, suits: SuitNames = SuitNames.ENGLISH) -> ClientState:
    return ClientState(
        seat=view.seat, names=("You", "Bot 1"), display=Display(suits=suits), view=view
    )


def complete(state: ClientState, text: str) -> list[str]:
    completer = PlayCompleter(state)
    doc = Document(text, len(text))
    return [
        c.text for c in completer.get_completions(doc, CompleteEvent(completion_requested=True))
    ]


def test_completes_cards_in_hand_and_groups_on_my_turn() -> None:
    match = match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 3h 4h")
    state = state_for(match.view_for(0))
    sevens = complete(state, "7")
    assert sevens[0] == "7d"
    assert set(sevens[1:]) == {"7d x 2b+5s", "7d x 3h+4h"}
    assert complete(state, "7d x 3") == ["7d x 3h+4h"]
    assert complete(state, "k") == ["Kb"]
    # Every command name, and nothing that is not a card in hand.
    everything = complete(state, "")
    assert set(COMMANDS) <= set(everything)
    assert "Jd" not in everything
    assert "2h" not in everything


def test_completion_offers_no_cards_on_another_seats_turn() -> None:
    match = match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 3h 4h")
    state = state_for(match.view_for(1))
    assert complete(state, "") == list(COMMANDS)
    assert complete(state, "7") == []
    assert complete(state, "s") == ["score", "say"]


def test_completion_uses_the_chosen_letters() -> None:
    match = match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 3h 4h")
    state = state_for(match.view_for(0), SuitNames.ITALIAN)
    assert "Rb" in complete(state, "r")
    assert "7d x 3c+4c" in complete(state, "7d")


def test_completion_offers_the_pending_choices() -> None:
    match = match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 3h 4h")
    state = state_for(match.view_for(0))
    state.asking = Asking.WHICH_GROUP
    state.choices = tuple(p for p in match.round.legal_plays() if p.card == parse_card("7d"))
    assert complete(state, "")[:2] == ["1", "2"]


@pytest.mark.parametrize("word", ["quit", "exit", "q", "leave", "away"])
def test_the_words_of_the_leave_question_are_the_quit_command(word: str) -> None:
    """`away` and `leave` are what "leave, away or stay?" offers; typed at the prompt they
    read as cards ("invalid card: 'away': unknown suit 'way'")."""
    assert parse_command(word) == Simple(name="quit")


def test_a_long_bad_line_is_echoed_cut_short() -> None:
    """A 100,000-character line came back whole inside its error."""
    with pytest.raises(CommandError) as caught:
        parse_command("q" * 100_000)
    assert str(caught.value).startswith(f"{'q' * 40!r}... is not a card or a command")
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (f"say {'a' * 1001}", "a message is at most 1000 characters; yours has 1001"),
        ("name \x1b[2J\x1b[31mEvil", "a name cannot hold a control character"),
        ("say hi\x07", "a message cannot hold a control character"),
    ],
)
def test_text_the_wire_would_refuse_is_refused_here(line: str, message: str) -> None:
    """A say of more than 1,000 characters reached the codec, which stopped the client on an
    internal error (and the others read that the person lost the connection)."""
    with pytest.raises(CommandError, match=message):
        parse_command(line)


def test_a_long_name_is_left_to_the_rename_which_says_what_the_name_stays() -> None:
    """A name's length is refused where the current name is known (test_lan_names_screens),
    not here with other words."""
    assert parse_command(f"name {'Z' * 33}") == Rename(name="Z" * 33)


@pytest.mark.parametrize("word", ["asdf", "fg", "maybe", "kz"])
def test_a_word_that_is_no_card_nor_command_says_so(word: str) -> None:
    """`asdf` was told "unknown suit 'sdf'", `maybe` "unknown rank 'm'": a word that is no
    card nor command says it is neither, and where the commands are."""
    with pytest.raises(CommandError) as caught:
        parse_command(word)
    said = f"{word!r} is not a card or a command (type 'help' for the commands)"
    assert str(caught.value) == said


@pytest.mark.parametrize(
    ("word", "hint"),
    [
        ("7x", "unknown suit 'x'"),
        ("Kz", "unknown suit 'z'"),
        ("Qx", "unknown suit 'x'"),
        ("Jq", "unknown suit 'q'"),
    ],
)
def test_a_card_mistyped_still_names_its_wrong_suit(word: str, hint: str) -> None:
    """`Qx`, close to the 'q' that leaves, was told "unknown command 'qx'": a card mistyped
    is told it is no card, why, and how a card is written."""
    with pytest.raises(CommandError) as caught:
        parse_command(word)
    assert str(caught.value) == (
        f"invalid card: {word!r}: {hint}; a card is a rank and a suit, such as 7 of coins or 7d "
        "(type 'help' for the commands)"
    )
