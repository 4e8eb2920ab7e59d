"""Hints and the coach: the advice, the words, and that only the seat's own view counts."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace

from app_driver import RecordingOutput
from prompt_toolkit.input import PipeInput, create_pipe_input

from scopa_net.cards import CARDS
from scopa_net.client import render
from scopa_net.client.app import ClientApp
from scopa_net.client.asking import Asking
from scopa_net.client.client_state import ClientState
from scopa_net.client.hints import SETTEBELLO_WARNING, coach_warnings, explain, hint_for
from scopa_net.client.local_session import open_local_session
from scopa_net.client.moves import legal_plays
from scopa_net.client.style import Display
from scopa_net.match import Match
from scopa_net.notation import parse_card, parse_play
from scopa_net.plays import Play
from scopa_net.rules import RuleSet
from scopa_net.view import SeatView

HANG_GUARD = 30


def opening_view(hand: str, table: str) -> SeatView:
    """Seat 0 to lead with this hand and table (the other cards hidden, wherever they are)."""
    match = Match(RuleSet.of(2), first_dealer=1)
    match.deal(CARDS)
    view = match.view_for(0)
    return replace(
        view,
        hand=tuple(parse_card(c) for c in hand.split()),
        table=tuple(parse_card(c) for c in table.split()),
    )


def play(text: str) -> Play:
    card, group = parse_play(text)
    return Play(card, group or ())


def test_the_reason_says_what_a_play_takes_and_leaves() -> None:
    view = opening_view("7b Qs 2h", "3s 4d Kh 5b")
    assert explain(view, play("7b x 3s+4d")) == (
        "7b takes 3s+4d (winning the seven 7b for the primiera, 1 coin) and leaves 15 on the "
        "table: "
        "no single card can sweep it"
    )
    view = opening_view("Kh 5s Qb", "As 2h 3b Kd")
    assert explain(view, play("Kh x Kd")) == (
        "Kh takes Kd (winning 1 coin) and leaves 6 on the table: a 6 would sweep it, 4 still unseen"
    )
    assert explain(view, play("5s")) == (
        "5s takes nothing and leaves 21 on the table: no single card can sweep it"
    )
    view = opening_view("6h 5s Qb", "As 2h 3b 4d")
    assert explain(view, play("Qb x As+2h+3b+4d")) == (
        "Qb takes As+2h+3b+4d (winning 1 coin): a sweep, a point"
    )
    # The settebello played, a seven taken: the hint read "7d takes 7h (the settebello, a
    # seven for the primiera...)", as if 7h were the settebello. Each prize names its card.
    view = opening_view("7d Qs 2h", "7h 4s Kb 2b")
    assert explain(view, play("7d x 7h")) == (
        "7d takes 7h (winning the settebello 7d, the seven 7h for the primiera) and leaves 16 "
        "on the table: no single card can sweep it"
    )
    view = opening_view("7h Qs 2h", "7d 4s Kb 2b")
    assert explain(view, play("7h x 7d")).startswith(
        "7h takes 7d (winning the settebello 7d, the seven 7h for the primiera)"
    )


def test_the_coach_warns_of_an_easy_sweep_when_another_play_avoids_it() -> None:
    view = opening_view("Kh 5s Qb", "As 2h 3b Kd")
    assert coach_warnings(view, play("Kh x Kd")) == [
        "it leaves 6 on the table: an easy sweep for a 6 (4 still unseen)"
    ]
    assert coach_warnings(view, play("5s")) == []


def test_the_coach_warns_of_giving_away_the_settebello_and_passing_up_a_seven() -> None:
    view = opening_view("7h 4s 3b", "7d Kb Qh Js")
    assert coach_warnings(view, play("4s")) == [SETTEBELLO_WARNING]
    assert coach_warnings(view, play("7h x 7d")) == []
    view = opening_view("7h 4s 3b", "7s Kb Qh Js")
    assert coach_warnings(view, play("4s")) == ["it passes up a seven: 7h x 7s would take 7s"]


def test_the_hint_is_a_legal_play_and_hidden_cards_do_not_change_it() -> None:
    rules = RuleSet.of(2)
    first = Match(rules, first_dealer=1)
    first.deal(CARDS)
    rnd = first.round
    assert rnd is not None
    # Swap a card of the other hand with one still in the stock: seat 0 sees the same game.
    theirs = rnd.hand(1)[0]
    seen = {*rnd.hand(0), *rnd.hand(1), *rnd.table_cards}
    stock_card = next(c for c in CARDS if c not in seen)
    deck = list(CARDS)
    i, j = deck.index(theirs), deck.index(stock_card)
    deck[i], deck[j] = deck[j], deck[i]
    second = Match(rules, first_dealer=1)
    second.deal(deck)
    assert second.round is not None
    assert second.round.hand(1) != rnd.hand(1)
    view = first.view_for(0)
    assert second.view_for(0) == view
    hint = hint_for(view, playouts=60)
    assert hint == hint_for(second.view_for(0), playouts=60)
    assert hint.play in legal_plays(view)
    assert hint.reason.startswith(str(hint.play.card))


def test_the_hand_shows_values_and_marks_the_cards_that_must_capture() -> None:
    view = opening_view("7h 4s 3b", "7d Kb Qh Js")
    text = render.plain([render.board_lines(view, ("Ada", "Bo"), Display(glyphs=False))[-2]])
    assert text == "Your hand 7h=7*  4s=4  3b=3   (* must capture)"
    words = render.plain_board(view, ("Ada", "Bo"), Display(glyphs=False))
    assert "Your hand: 7 of cups (7, must capture), 4 of swords (4), 3 of clubs (3)." in words


def run_coached(answer: str, *, first: str = "hint\r") -> tuple[str, ClientState]:
    """A match with --coach on in which Ada plays her first legal play each turn, asks for a
    hint on the first turn, and answers the coach's question with ``answer``."""
    output = RecordingOutput()
    states: list[ClientState] = []

    def driver(state: ClientState, pipe: PipeInput) -> Callable[[], None]:
        done: set[tuple[object, ...]] = set()

        def on_change() -> None:
            view = state.view
            if view is None or not view.my_turn or state.match_over:
                return
            if state.asking is Asking.CONFIRM_PLAY:
                key = (view.round_number, len(view.plays), "coach")
                if key in done:  # asked again at the same turn: play it this time
                    if (*key, "again") not in done:
                        done.add((*key, "again"))
                        pipe.send_text("y\r")
                    return
                done.add(key)
                pipe.send_text(f"{answer}\r")
                if answer != "y":  # then play what the coach would not warn about
                    quiet = [p for p in legal_plays(view) if not coach_warnings(view, p)]
                    pipe.send_text((quiet or legal_plays(view))[-1].text() + "\r")
                return
            key = (view.round_number, len(view.plays), "play")
            if key in done:
                return
            if not done:
                pipe.send_text(first)
            done.add(key)
            pipe.send_text(legal_plays(view)[0].text() + "\r")

        return on_change

    with create_pipe_input() as pipe:

        def on_state(state: ClientState) -> None:
            states.append(state)
            state.listeners.append(driver(state, pipe))

        app = ClientApp(
            lambda: open_local_session(RuleSet.of(2, target=1), name="Ada", seed=11, delay=0),
            Display(color=False),
            input=pipe,
            output=output,
            on_state=on_state,
            coach=True,
        )

        async def main() -> int:
            return await asyncio.wait_for(app.run(), HANG_GUARD)

        assert asyncio.run(main()) == 0
    return output.text, states[0]


def test_a_coached_match_with_a_hint() -> None:
    text, state = run_coached("y")
    assert "Hint: " in text
    assert "Coach: before you play" in text
    assert "Play it anyway?" in text
    assert "The hint would be " in text
    assert state.match_over


def test_saying_no_to_the_coach_plays_nothing() -> None:
    text, state = run_coached("n", first="")
    assert "Not played; choose again ('hint' suggests a play)." in text
    assert state.match_over


def test_under_re_bello_the_reason_names_the_re_bello() -> None:
    """With re_bello on, taking the king of coins scores a point of its own, yet the hint
    read "Kh takes Kd (winning 1 coin)", the same words as any coin."""
    view = opening_view("Kh 5s Qb", "As 2h 3b Kd")
    re_bello = replace(view, rules=RuleSet.of(2, 11, ["re_bello"]))
    assert explain(re_bello, play("Kh x Kd")).startswith("Kh takes Kd (winning the re bello Kd)")
    assert explain(re_bello, play("Kh x Kd"), words=True).startswith(
        "king of cups takes king of coins (winning the re bello)"
    )
    # Without the variant the king of coins is a coin like any other.
    assert explain(view, play("Kh x Kd")).startswith("Kh takes Kd (winning 1 coin)")


def test_under_napola_the_reason_names_the_coins_of_the_napola() -> None:
    """With napola on, the ace, two and three of coins start a run worth 3 points or more,
    yet taking one read "(winning 1 coin)", the same words as any coin."""
    view = opening_view("Ah 5s Qb", "Ad 2h 3b Kd")
    napola = replace(view, rules=RuleSet.of(2, 11, ["napola"]))
    assert explain(napola, play("Ah x Ad")).startswith(
        "Ah takes Ad (winning the Ad for the napola)"
    )
    assert explain(napola, play("Ah x Ad"), words=True).startswith(
        "ace of cups takes ace of coins (winning the ace of coins for the napola)"
    )
    assert explain(view, play("Ah x Ad")).startswith("Ah takes Ad (winning 1 coin)")
