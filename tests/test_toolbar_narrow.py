"""The game's toolbar on a narrow terminal: the score and whose turn it is always fit."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from app_driver import RecordingOutput
from helpers import match_dealt
from prompt_toolkit.application import Application
from prompt_toolkit.application.current import set_app

from scopa_net.client import render
from scopa_net.client.client_state import ClientState
from scopa_net.client.pass_and_play import PassAndPlayApp
from scopa_net.client.style import Display
from scopa_net.client.toolbar import _versions, toolbar_text
from scopa_net.names import display_width


def _state(names: tuple[str, ...], *, dealer: int = 1) -> ClientState:
    """Seat 0's state, seat ``dealer + 1`` to play, the score 3 to 5."""
    match = match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 7h 4h", dealer=dealer)
    state = ClientState(seat=0, names=names, display=Display(), view=match.view_for(0))
    state.scores = (3, 5)
    return state


def _pass_and_play_bar(state: ClientState, columns: int) -> str:
    """The toolbar pass and play draws for ``state`` on a terminal ``columns`` wide."""
    app = PassAndPlayApp(lambda: None, Display(color=False))  # type: ignore[arg-type,return-value]
    app.seats = [SimpleNamespace(state=state)]  # type: ignore[list-item]
    with set_app(Application(output=RecordingOutput(columns=columns))):
        return render.plain([app._toolbar()])


def test_pass_and_play_at_40_columns_keeps_the_score_and_the_turn() -> None:
    """At 40 columns pass and play's toolbar was cut mid-name: " Round 1 | Nicolò to play |
    Nicolò 0  Zo". It drops the round's word, the target and the stock first."""
    state = _state(("Nicolò", "Zoë"))
    wide = _pass_and_play_bar(state, 120)
    assert wide == " Round 1 | Nicolò to play | Nicolò 3  Zoë 5 (to 11) | stock 30 "
    bar = _pass_and_play_bar(state, 40)
    assert display_width(bar) < 40  # the last column stays free
    assert _pass_and_play_bar(state, 50) == " R1 | Nicolò to play | Nicolò 3  Zoë 5 /11 "
    assert bar == " Nicolò to play | Nicolò 3  Zoë 5 "
    assert _pass_and_play_bar(state, 30) == " Nicolò to play | N 3 · Z 5 "
    assert _pass_and_play_bar(state, 25) == " Ni to play | N 3 · Z 5 "


@pytest.mark.parametrize("columns", [40, 30])
def test_a_long_name_to_play_leaves_room_for_the_score(columns: int) -> None:
    """With a name of 20 columns to play, the toolbar at 40 columns said " Maximiliano
    Gianluca to play " alone: the score was dropped. The player is then named by initials."""
    state = _state(("Ada", "Maximiliano Gianluca"), dealer=0)
    assert render.plain([toolbar_text(state)]).startswith(" Round 1 | Maximiliano Gianluca to")
    bar = render.plain([toolbar_text(state, columns)])
    assert display_width(bar) < columns
    assert "you 3-5" in bar
    assert "MaGi to play" in bar


def test_three_pairs_with_a_long_name_to_play_fit_every_width_in_whole_words() -> None:
    """Three pairs, Maximiliano Gianluca to play: at 30 columns the toolbar was
    " Maximiliano Gianluca to play ", 31 columns, which the terminal cut mid-word. Every width
    from 80 down to 12 now gets a line that fits, cut only between words."""
    import random

    from helpers import shuffled_deck

    from scopa_net.match import Match
    from scopa_net.rules import RuleSet

    names = ("Ada Rossi", "Maximiliano Gianluca", "Nonna Lucía", "Zio Gianni", "bot 4", "bot 5")
    match = Match(RuleSet.of(6, 11, ["six_as_three_pairs"]), first_dealer=0)
    match.deal(shuffled_deck(random.Random(1)))
    state = ClientState(seat=0, names=names, display=Display(), view=match.view_for(0))
    state.scores = (3, 4, 5)
    assert state.view is not None
    assert state.view.to_move == 1
    # Every word any of the toolbar's versions says, whole.
    words = {w for v in _versions(state) for w in "".join(t for _, t, *_ in v).split()}
    for columns in range(80, 11, -1):
        bar = render.plain([toolbar_text(state, columns)])
        assert display_width(bar) < columns, (columns, bar)
        assert set(bar.split()) <= words, (columns, bar)  # no word cut in two
    assert render.plain([toolbar_text(state, 40)]) == " Maximiliano Gianluca to play "
    assert render.plain([toolbar_text(state, 30)]) == " MaGi to play "
