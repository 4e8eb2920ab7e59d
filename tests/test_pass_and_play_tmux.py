"""Pass and play in a real terminal: two people, one keyboard, driven under tmux.

Skipped when tmux is not installed. At every screen the test checks, with the scrollback
included (``capture-pane -S -``), that one person's hand is never there while the other's
prompt is shown, and that each turn starts on a cleared screen.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from tmux_player import Tmux, scopa_net

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

#: Bound on the whole run so a broken client fails instead of hanging (not a speed check).
HANG_GUARD = 120
NAMES = ("Ada", "Bruno")


def prompt_of(screen: str) -> str:
    """The prompt line: the last line that is not blank and not the toolbar."""
    lines = [line for line in screen.splitlines() if line.strip()]
    lines = [line for line in lines if not line.startswith(" Round ")]
    return lines[-1] if lines else ""


def test_two_people_share_a_terminal_and_never_see_each_others_hand() -> None:
    args = ["play", "--pass-and-play", "--names", "Ada,Bruno"]
    args += ["--target", "1", "--bot-delay", "0", "--ascii", "--handover-pause", "0"]
    data = tempfile.mkdtemp(prefix="scopa-tmux-")
    with Tmux() as tmux:
        game = tmux.start(scopa_net(data, *args), columns=110, rows=40)
        seen_hands: dict[str, dict[int, set[str]]] = {name: {} for name in NAMES}
        handovers = {name: 0 for name in NAMES}
        plays = {name: 0 for name in NAMES}
        last_action = ""
        deadline = time.monotonic() + HANG_GUARD
        screen = ""
        while time.monotonic() < deadline:
            screen = tmux.screen(game)
            if "CLIENT-EXIT=" in screen:
                break
            check_screen(screen, seen_hands)
            prompt = prompt_of(screen)
            waiting = re.match(r"(\w+): press Enter", prompt)
            playing = re.match(r"(\w+)> *$", prompt)
            if waiting and last_action != f"enter {screen}":
                handovers[waiting[1]] += 1
                last_action = f"enter {screen}"
                tmux.keys(game, "Enter")
            elif playing and playing[1] in NAMES:
                hand = re.findall(r"^Your hand +(.+)$", screen, re.MULTILINE)
                # Once per hand shown: a screen redrawn (slowly, under load) before the play
                # takes effect shows the same hand, and typing it again would answer the next
                # person's handover with a card.
                turn = f"play {playing[1]} {round_of(screen)} {hand[-1] if hand else ''}"
                if hand and last_action != turn:
                    cards = seen_hands[playing[1]].setdefault(round_of(screen), set())
                    cards.update(cards_in(hand[-1]))
                    plays[playing[1]] += 1
                    last_action = turn
                    first = re.match(r"\w+", hand[-1])
                    assert first is not None
                    tmux.type(game, first[0])
            elif prompt.startswith("y/n?") and last_action != "rematch":
                last_action = "rematch"
                tmux.type(game, "n")
            elif re.match(r"1-\d+\?", prompt):
                tmux.type(game, "1")
            time.sleep(0.15)
        assert "CLIENT-EXIT=0" in screen, screen[-3000:]
        assert re.search(r"(Ada|Bruno) wins the match", screen), screen[-3000:]
        for name in NAMES:
            assert plays[name] >= 1
            assert handovers[name] >= 1
            assert f"{name}'s deal check: verified" in screen, screen[-3000:]
        transcripts = sorted(p.name for p in Path(data, "scopa-net", "transcripts").iterdir())
        assert [t.rsplit("-", 1)[-1] for t in transcripts] == ["seat0.scopa", "seat1.scopa"]


def check_screen(screen: str, seen_hands: dict[str, dict[int, set[str]]]) -> None:
    """No hand but the prompted person's, and nothing from before the last turn's clear."""
    prompt = prompt_of(screen)
    assert screen.count("press Enter when") <= 1, screen  # the scrollback was cleared
    hands = re.findall(r"^Your hand +(.+)$", screen, re.MULTILINE)
    assert len(hands) <= 1, screen
    # The prompt names whose turn it is ("Ada: press Enter" before the hand, "Ada>" after;
    # the prompt may be redrawn a moment after the hand is printed, so both count).
    person = re.match(r"(\w+)(?:: press Enter|> *$)", prompt)
    if person and hands:
        owner = person[1]
        turn = screen.rfind(f"{owner}'s turn: press Enter when {owner} has the keyboard")
        assert 0 <= turn < screen.find("Your hand"), f"not {owner}'s hand:\n{screen}"
        # Cards never pass from hand to hand: nothing here was in the other's hand this round.
        held = cards_in(hands[0])
        for other, shown in seen_hands.items():
            if other != owner:
                assert not held & shown.get(round_of(screen), set()), screen


def cards_in(hand: str) -> set[str]:
    """The cards of a "Your hand" line (each written like 7d=7, marked 7d=7* if it must take)."""
    return set(re.findall(r"([A2-7JQK][dhsb])=", hand))


def round_of(screen: str) -> int:
    """The round of the board on screen (a carried score sheet may name the one before)."""
    found = re.findall(r"^Round (\d+)  dealer", screen, re.MULTILINE)
    return int(found[-1]) if found else 0


SHELL_PROMPT = "SHELL$ "


def test_ctrl_z_leaves_no_hand_on_the_shells_screen_and_fg_shows_it_again() -> None:
    """Ctrl-Z at a person's prompt left their hand on the shell's screen under "[1]+
    Stopped", for the next person to read; the screen is now cleared first."""
    args = ["play", "--pass-and-play", "--names", "Ada,Bruno", "--ascii"]
    args += ["--bot-delay", "0", "--handover-pause", "0"]
    data = tempfile.mkdtemp(prefix="scopa-tmux-")
    with Tmux() as tmux:
        name = tmux.start(f"env PS1={SHELL_PROMPT!r} bash --norc --noprofile -i", rows=30)
        tmux.wait_for(name, re.escape(SHELL_PROMPT))
        tmux.type(name, scopa_net(data, *args))
        tmux.wait_for(name, r"(Ada|Bruno): press Enter")
        tmux.keys(name, "Enter")
        tmux.wait_for(name, r"^Your hand .*\n.*\n(Ada|Bruno)>")
        tmux.keys(name, "C-z")
        stopped = tmux.wait_for(name, r"^\[1\]\+\s+Stopped.*\n" + re.escape(SHELL_PROMPT.rstrip()))
        assert "Your hand" not in tmux.screen(name), tmux.screen(name)  # scrollback included
        tmux.type(name, "fg")
        tmux.wait_for(name, r"^Your hand ", stopped.end())
        tmux.type(name, "quit")
        tmux.type(name, "y")
        tmux.wait_for(name, r"Leaving the table")
