"""Write reference_games.txt: fixed decks, every legal play at every turn, the final score.

Run it only when a rule has deliberately changed, then review the diff by hand: the test
``tests/test_reference_games.py`` holds the engine to what this file says.

    python tests/data/make_reference_games.py > tests/data/reference_games.txt
"""

from __future__ import annotations

import random

from scopa_net.cards import CARDS
from scopa_net.round import Round
from scopa_net.rules import RuleSet

GAMES = [
    (RuleSet.of(2), 1),
    (RuleSet.of(2), 2),
    (RuleSet.of(3), 3),
    (RuleSet.of(4), 4),
    (RuleSet.of(6), 5),
    (RuleSet.of(6, 11, ["six_as_three_pairs"]), 6),
    (RuleSet.of(4, 11, ["scopone"]), 7),
    (RuleSet.of(4, 11, ["scopone_scientifico", "napola"]), 8),
    (RuleSet.of(2, 11, ["asso_piglia_tutto", "re_bello"]), 9),
    (RuleSet.of(2, 11, ["quindici"]), 10),
    (RuleSet.of(3, 11, ["primiera=sum", "court_prime=0"]), 11),
]


def variants_text(rules: RuleSet) -> str:
    return ",".join(sorted(v.value for v in rules.variants)) or "-"


def main() -> None:
    print("# Reference games for the rules engine. Each game: rule set, dealer, deck order")
    print("# (position 0 first), then for every turn the seat to move and every legal play,")
    print("# sorted, then the play made; last the score lines (figures and points by side).")
    for number, (rules, seed) in enumerate(GAMES, 1):
        rng = random.Random(seed)
        while True:
            deck = list(CARDS)
            rng.shuffle(deck)
            dealer = rng.randrange(rules.players)
            rnd = Round(rules, dealer, deck)
            if not rnd.void:
                break
        print()
        print(f"game {number}")
        print(f"rules {rules.players} {variants_text(rules)}")
        print(f"dealer {dealer}")
        print("deck " + " ".join(str(c) for c in deck))
        while not rnd.finished:
            plays = sorted(str(p) for p in rnd.legal_plays())
            print(f"legal {rnd.turn}: " + " | ".join(plays))
            chosen = plays[rng.randrange(len(plays))]
            print(f"play {chosen}")
            match = next(p for p in rnd.legal_plays() if str(p) == chosen)
            rnd.play(match, exact=True)
        for line in rnd.score().lines:
            figures = " ".join(map(str, line.figures))
            points = " ".join(map(str, line.points))
            print(f"score {line.name}: {figures} / {points}")


if __name__ == "__main__":
    main()
