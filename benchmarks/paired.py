"""Two round_duplicates runs on the same decks, compared deck by deck.

Each run's ``--margins`` file holds A's margin over B on every deck it finished. When two
runs share the seed and player B (say ``hard`` against ``medium``, then a changed ``hard``
against ``medium``), the decks are the same, so the difference of the two margins deck by
deck has far less spread than either run: the luck of the cards cancels.

    python benchmarks/paired.py new-margins.txt old-margins.txt

It prints the mean difference (first minus second) over the decks both runs finished, with a
95% interval, and each run's own mean on those decks.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from scopa_net.bots.stats import mean_interval


def read_margins(path: Path) -> dict[int, float]:
    margins = {}
    for line in path.read_text().splitlines():
        deck, margin = line.split()
        margins[int(deck)] = float(margin)
    return margins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path)
    args = parser.parse_args()
    first, second = read_margins(args.first), read_margins(args.second)
    decks = sorted(first.keys() & second.keys())
    if len(decks) < 2:
        raise SystemExit(f"only {len(decks)} decks in both files: need at least 2")
    diff = mean_interval([first[d] - second[d] for d in decks])
    print(f"{len(decks)} decks in both runs")
    print(f"first {mean_interval([first[d] for d in decks]).text()}")
    print(f"second {mean_interval([second[d] for d in decks]).text()}")
    print(f"first minus second, points a round [95% CI over decks]: {diff.text()}")


if __name__ == "__main__":
    main()
