"""A referee written from RULES.md and protocol.md alone: it imports nothing from scopa_net.

It deals a deck order by protocol.md section 4, checks every play against RULES.md
("Capturing", "Sweeps", the variants), and scores each round line by line as protocol.md's
"Score lines" table describes the wire (`figures`, `points`, `winner`), then the match by
"Winning the match". ``test_rules_document_replay.py`` plays random matches through the engine
and through this referee and checks they agree on every play, every sheet and every result: the
two documents are enough to replay and score a transcript.

Cards are wire indices (protocol.md section 2): ``index = (value - 1) * 4 + suit``, suit 0 coins.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

COINS = 0
PRIME = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10}


def value(card: int) -> int:
    return card // 4 + 1


def suit(card: int) -> int:
    return card % 4


def mask(cards: Sequence[int]) -> int:
    return sum(1 << c for c in cards)


@dataclass(frozen=True)
class Table:
    """The rule set as `RulesInfo` carries it."""

    players: int
    target: int
    variants: frozenset[str]

    @property
    def sides(self) -> int:  # "Players, seats and sides"
        if self.players in (2, 3):
            return self.players
        return 3 if "six_as_three_pairs" in self.variants else 2

    @property
    def hand_size(self) -> int:  # "Dealing", the table of deals
        return {"scopone": 9, "scopone_scientifico": 10}.get(self._scopone, 3)

    @property
    def opening(self) -> int:
        return 0 if self._scopone == "scopone_scientifico" else 4

    @property
    def _scopone(self) -> str:
        both = self.variants & {"scopone", "scopone_scientifico"}
        return next(iter(both), "")


def deal_targets(table: Table, dealer: int) -> list[list[int | None]]:
    """protocol.md section 4: per deal, where each position goes (a seat, or None: the table)."""
    n = table.players
    deals: list[list[int | None]] = []
    used = 0
    while used < 40:
        targets: list[int | None] = [
            (dealer + 1 + j) % n for _ in range(table.hand_size) for j in range(n)
        ]
        if not deals:
            targets += [None] * table.opening
        deals.append(targets)
        used += len(targets)
    assert used == 40
    return deals


def legal_takes(card: int, on_table: list[int], variants: frozenset[str]) -> list[int]:
    """RULES.md "Capturing" and the variants: the masks ``card`` may take (0: it is laid)."""
    if not on_table:
        return [0]
    if "quindici" in variants:
        groups = [
            mask(g)
            for size in range(1, len(on_table) + 1)
            for g in combinations(on_table, size)
            if value(card) + sum(value(c) for c in g) == 15
        ]
        return groups or [0]
    same = [1 << c for c in on_table if value(c) == value(card)]
    if same:
        return same
    if "asso_piglia_tutto" in variants and value(card) == 1:
        return [mask(on_table)]
    groups = [
        mask(g)
        for size in range(2, len(on_table) + 1)
        for g in combinations(on_table, size)
        if sum(value(c) for c in g) == value(card)
    ]
    return groups or [0]


@dataclass
class Line:
    name: str
    figures: list[int]
    points: list[int]
    winner: int | None


def _strict(keys: Sequence[object]) -> int | None:
    """RULES.md "Ties and three sides": the one side strictly ahead of every other."""
    best = max(keys)  # type: ignore[type-var]
    leaders = [i for i, k in enumerate(keys) if k == best]
    return leaders[0] if len(leaders) == 1 else None


def _one_point(name: str, figures: list[int], winner: int | None) -> Line:
    return Line(name, figures, [int(i == winner) for i in range(len(figures))], winner)


def _holder(figures: list[int]) -> int | None:
    return figures.index(1) if 1 in figures else None


def score(table: Table, piles: list[list[int]], sweeps: list[int]) -> list[Line]:
    """RULES.md "Scoring a round", as protocol.md's "Score lines" puts it on the wire."""
    v = table.variants
    cards = [len(p) for p in piles]
    coins = [sum(suit(c) == COINS for c in p) for p in piles]
    settebello = [int((7 - 1) * 4 + COINS in p) for p in piles]
    keys, totals = [], []
    for p in piles:
        best: dict[int, int] = {}
        for c in p:
            worth = 0 if "court_prime=0" in v and value(c) >= 8 else PRIME[value(c)]
            best[suit(c)] = max(best.get(suit(c), -1), worth)
        total = sum(best.values())
        totals.append(total)
        keys.append((total,) if "primiera=sum" in v else (len(best), total))
    lines = [
        _one_point("cards", cards, _strict(cards)),
        _one_point("coins", coins, _strict(coins)),
        _one_point("settebello", settebello, _holder(settebello)),
        _one_point("primiera", totals, _strict(keys)),
        Line("sweeps", list(sweeps), list(sweeps), None),
    ]
    if "re_bello" in v:
        held = [int((10 - 1) * 4 + COINS in p) for p in piles]
        lines.append(_one_point("re_bello", held, _holder(held)))
    if "napola" in v:
        runs = []
        for p in piles:
            run = 0
            while run < 10 and (run * 4 + COINS) in p:
                run += 1
            runs.append(run if run >= 3 else 0)
        holder = next((i for i, r in enumerate(runs) if r), None)
        lines.append(Line("napola", runs, runs, holder))
    return lines


class IllegalPlayError(Exception):
    pass


@dataclass
class RoundReplay:
    """One round replayed from its deck order and its plays."""

    table: Table
    dealer: int
    deck: Sequence[int]
    hands: list[list[int]] = field(init=False)
    on_table: list[int] = field(init=False)
    piles: list[list[int]] = field(init=False)
    sweeps: list[int] = field(init=False)
    leftover: list[int] = field(init=False)
    void: bool = field(init=False)

    def __post_init__(self) -> None:
        t = self.table
        self.deals = deal_targets(t, self.dealer)
        self.next_deal = 0
        self.position = 0
        self.hands = [[] for _ in range(t.players)]
        self.on_table = []
        self.piles = [[] for _ in range(t.sides)]
        self.sweeps = [0] * t.sides
        self.leftover = []
        self.last_capturer: int | None = None
        self.plays_left = 40 - t.opening
        self.turn = (self.dealer + 1) % t.players  # "Who plays first"
        self._deal()
        kings = sum(value(c) == 10 for c in self.on_table)
        self.void = t.opening > 0 and kings >= 3  # "Kings on the opening table"

    def _deal(self) -> None:
        for target in self.deals[self.next_deal]:
            card = self.deck[self.position]
            self.position += 1
            (self.on_table if target is None else self.hands[target]).append(card)
        self.next_deal += 1

    @property
    def over(self) -> bool:
        return self.void or self.plays_left == 0

    def legal(self) -> list[int]:
        """Every legal play of the seat to move, as play codes (protocol.md section 2)."""
        return sorted(
            card | take << 6
            for card in self.hands[self.turn]
            for take in legal_takes(card, self.on_table, self.table.variants)
        )

    def play(self, seat: int, code: int) -> bool:
        """Apply one play; True if it swept. IllegalPlayError unless the rules allow it."""
        if self.over or seat != self.turn or code not in self.legal():
            raise IllegalPlayError(f"seat {seat} code {code}")
        card, take = code & 63, code >> 6
        side = seat % self.table.sides
        self.hands[seat].remove(card)
        self.plays_left -= 1
        swept = False
        if take:
            taken = [c for c in self.on_table if take >> c & 1]
            self.on_table = [c for c in self.on_table if not take >> c & 1]
            self.piles[side] += [card, *taken]
            self.last_capturer = side
            # "Sweeps": not on the last play, except under scopone_scientifico.
            last = self.plays_left == 0
            if not self.on_table and (not last or "scopone_scientifico" in self.table.variants):
                self.sweeps[side] += 1
                swept = True
        else:
            self.on_table.append(card)
        if self.plays_left == 0:
            # "The end of a round": the last capturer takes the rest; nobody if none.
            if self.last_capturer is not None:
                self.leftover = sorted(self.on_table)
                self.piles[self.last_capturer] += self.on_table
                self.on_table = []
        else:
            self.turn = (seat + 1) % self.table.players
            if not self.hands[self.turn]:
                self._deal()
        return swept

    def score(self) -> list[Line]:
        return score(self.table, self.piles, self.sweeps)


def match_winner(table: Table, scores: list[int]) -> int | None:
    """RULES.md "Winning the match", with `cappotto`."""
    if "cappotto" in table.variants:
        for side, points in enumerate(scores):
            if points >= 7 and all(p == 0 for s, p in enumerate(scores) if s != side):
                return side
    leader = _strict(scores)
    return leader if leader is not None and scores[leader] >= table.target else None
