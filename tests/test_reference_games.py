"""The engine against reference games (tests/data/reference_games.txt), as perft files do.

Each game fixes a rule set, a dealer and a deck order; the file lists every legal play at every
turn and the final score lines. The first turns of game 1 were checked by hand against the
rules; the file changes only when a rule deliberately does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from scopa_net.notation import parse_card, parse_play
from scopa_net.plays import Play
from scopa_net.round import Round
from scopa_net.rules import RuleSet

DATA = Path(__file__).parent / "data" / "reference_games.txt"


@dataclass
class Game:
    number: int
    rules: RuleSet | None = None
    dealer: int = 0
    deck: list = field(default_factory=list)
    turns: list[tuple[int, list[str], str]] = field(default_factory=list)
    score: dict[str, tuple[list[int], list[int]]] = field(default_factory=dict)


def load_games() -> list[Game]:
    games: list[Game] = []
    for raw in DATA.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, rest = line.partition(" ")
        if key == "game":
            games.append(Game(int(rest)))
        elif key == "rules":
            players, variants = rest.split()
            names = [] if variants == "-" else variants.split(",")
            games[-1].rules = RuleSet.of(int(players), 11, names)
        elif key == "dealer":
            games[-1].dealer = int(rest)
        elif key == "deck":
            games[-1].deck = [parse_card(t) for t in rest.split()]
        elif key == "legal":
            seat, _, plays = rest.partition(": ")
            games[-1].turns.append((int(seat), plays.split(" | "), ""))
        elif key == "play":
            seat, plays, _ = games[-1].turns[-1]
            games[-1].turns[-1] = (seat, plays, rest)
        elif key == "score":
            name, _, values = rest.partition(": ")
            figures, points = values.split(" / ")
            games[-1].score[name] = (
                [int(x) for x in figures.split()],
                [int(x) for x in points.split()],
            )
        else:
            raise ValueError(f"unknown line in {DATA.name}: {line!r}")
    return games


GAMES = load_games()


def test_the_reference_file_covers_every_player_count_and_variant() -> None:
    from scopa_net.rules import Variant

    assert {g.rules.players for g in GAMES if g.rules} == {2, 3, 4, 6}
    covered = set().union(*(g.rules.variants for g in GAMES if g.rules))
    assert covered == set(Variant) - {Variant.CAPPOTTO}  # cappotto is a match rule


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"game{g.number}")
def test_reference_game(game: Game) -> None:
    assert game.rules is not None
    rnd = Round(game.rules, game.dealer, game.deck)
    for seat, expected, chosen in game.turns:
        assert rnd.turn == seat
        assert sorted(str(p) for p in rnd.legal_plays()) == expected
        card, group = parse_play(chosen)
        rnd.play(Play(card, group or ()), seat, exact=True)
    assert rnd.finished
    score = {line.name: (list(line.figures), list(line.points)) for line in rnd.score().lines}
    assert score == game.score
