"""Keeping score of a game played with real cards: the tally, its hands, and how it ends.

A :class:`Tally` is a value: the rule set (players, target, the variants that change scoring),
the players' names, the hands scored so far, and the hand being entered (the *draft*). Every
change returns a new tally, so undo is taking the previous one back and a saved tally is
exactly its dict (:meth:`Tally.to_dict`).

A hand is entered three ways: quick points (``+2`` for a side), a typed total for a side, or a
guided count (:class:`Guide`): cards, coins, settebello, primiera, sweeps and the variant
lines, scored by :func:`scopa_net.scoring.score_figures`, the same code that scores a round
played on the engine. The match ends as :func:`scopa_net.match.match_winner` says: target
reached and strictly ahead, sides level at the top play on, cappotto where it is on.

No I/O and no clock: the caller stores the dict and stamps the date.
"""

from __future__ import annotations

import enum
import itertools
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from scopa_net.cards import (
    CARDS,
    COINS_MASK,
    RE_BELLO,
    SETTEBELLO,
    Card,
    Rank,
    Suit,
    card,
    mask_of,
)
from scopa_net.errors import NotationError, RuleSetError
from scopa_net.match import match_winner
from scopa_net.names import clean_name, name_too_long
from scopa_net.notation import Scheme, format_card, parse_card
from scopa_net.rules import RuleSet, Variant
from scopa_net.scoring import (
    NAPOLA_LINE,
    PRIMIERA_LINE,
    RoundScore,
    ScoreLine,
    prime_value,
    primiera_key,
    primiera_total,
    score_figures,
)
from scopa_net.typed import shown, small_number

FORMAT_VERSION = 1
#: The formats a finished tally can be exported in.
EXPORT_FORMATS = ("markdown", "csv")
MAX_HAND_POINTS = 99
"""The most one side may be given in one hand (a typed total or quick points)."""
#: The commands typed at the tally prompt, in the order its ``help`` lists them.
COMMAND_WORDS = (
    "count",
    "done",
    "undo",
    "dealer",
    "standings",
    "hands",
    "export",
    "rules",
    "help",
    "quit",
)
#: Other words for some of :data:`COMMAND_WORDS`.
COMMAND_ALIASES = {
    "?": "help",
    "h": "help",
    "exit": "quit",
    "q": "quit",
    "score": "standings",
    "s": "standings",
}
#: Words a name may not begin with: the prompt's commands (a player named Dealer would
#: read as ``dealer``), and the answers to its questions.
RESERVED_NAMES = frozenset(
    {*COMMAND_WORDS, *COMMAND_ALIASES, "nobody", "none", "y", "n", "yes", "no"}
)
#: The variants that change how a hand is scored (the others change only how it is played).
SCORING_VARIANTS = (
    Variant.CAPPOTTO,
    Variant.RE_BELLO,
    Variant.NAPOLA,
    Variant.PRIMIERA_SUM,
    Variant.COURT_PRIME_0,
    Variant.SIX_AS_THREE_PAIRS,
)


class TallyError(ValueError):
    """A request the tally refuses (the person's to fix); the message says what to do."""


class How(enum.Enum):
    """How a side's points for a hand were given."""

    QUICK = "quick"
    TOTAL = "total"
    COUNTED = "counted"


@dataclass(frozen=True, slots=True)
class Step:
    """One entry in the hand being entered: ``QUICK`` adds ``points``, ``TOTAL`` sets them."""

    side: int
    points: int
    how: How


@dataclass(frozen=True, slots=True)
class Hand:
    """A scored hand: points by side, and the score sheet when it was counted line by line."""

    points: tuple[int, ...]
    how: How
    sheet: RoundScore | None = None
    suits: tuple[int, ...] = field(default=(), compare=False)
    """For a counted hand, the suits each side's primiera held, which its sheet shows only
    as totals (shown with the sheet when counted; not saved)."""


@dataclass(frozen=True, slots=True)
class Standing:
    side: int
    label: str
    points: int
    to_go: int


#: Letters that NFKD does not take apart, as they are written in plain Latin letters.
_LATIN = str.maketrans(
    {"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i"}
)


def folded(text: str) -> str:
    """``text`` as names are compared: no case, no accents (``Nicolò`` and ``nicolo`` are
    the same, and ``Søren`` is ``soren``)."""
    apart = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in apart if not unicodedata.combining(ch)).translate(_LATIN)


def check_names(names: Sequence[str]) -> tuple[str, ...]:
    """The names, cleaned; :class:`TallyError` for one the tally cannot take.

    A name is what ``play`` takes (at most 20 columns, spaces inside it allowed, cleaned as
    every screen shows it), less what would read as something else in a ``+1 NAME`` or
    ``NAME 3`` line: ``+``, ``=`` or ``,``, a last word that is a number, a first word that is
    a command. Two names that differ only in case or accents are the same name."""
    out: list[str] = []
    for raw in names:
        name = raw.strip()
        if not name:
            raise TallyError("a name is empty; give each player a name")
        too_long = name_too_long(name)
        if too_long:
            raise TallyError(f"invalid name: {shown(name)}; {too_long}")
        name = clean_name(name)
        if not name:
            raise TallyError(f"invalid name: {shown(raw)}; a name needs a letter or a digit")
        if any(mark in name for mark in "+=,"):
            raise TallyError(f"invalid name: {shown(name)}; a name holds no + = or ,")
        words = name.split()
        if small_number(words[-1]) is not None:
            raise TallyError(
                f"invalid name: {shown(name)}; a name cannot be or end in a number "
                "(it would read as points)"
            )
        command = COMMAND_ALIASES.get(words[0].lower(), words[0].lower())
        if command in COMMAND_WORDS:  # "Dealer 3" was taken for `dealer` and refused
            raise TallyError(
                f"invalid name: {shown(name)}; {shown(name + ' 3')} would read as the command "
                f"{shown(command)}: choose another"
            )
        if words[0].lower() in RESERVED_NAMES:
            raise TallyError(
                f"invalid name: {shown(name)}: {shown(words[0])} is a word the tally uses; "
                "choose another"
            )
        if folded(name) in (folded(n) for n in out):
            raise TallyError(f"two players are called {shown(name)}; names must differ")
        out.append(name)
    return tuple(out)


def _saved_names(names: Sequence[str]) -> tuple[str, ...]:
    """Names read back from a tally: kept as they were saved (an older version took some
    that :func:`check_names` now refuses), but each a name, and all different."""
    out = tuple(names)
    if any(not isinstance(n, str) or not n.strip() for n in out) or len(set(out)) != len(out):
        raise TallyError("a name is empty or given twice; give each player a name")
    return out


@dataclass(frozen=True, slots=True)
class Tally:
    """A game's score, hand by hand. Methods return a new tally and never change this one."""

    rules: RuleSet
    names: tuple[str, ...]
    hands: tuple[Hand, ...] = ()
    draft: tuple[Step, ...] = ()
    started: str = ""
    """When the tally began, as the caller wrote it (an ISO date, say)."""
    id: str = ""
    number: int = 0
    """The number the tally is listed and picked by, kept with it (0: given none when it
    began, as tallies saved before numbers were kept)."""
    first_dealer: int = 0
    """The seat that dealt the first hand (the first name unless ``dealer NAME`` said
    otherwise); the deal then passes round in seating order (RULES.md, Dealer rotation)."""

    def __post_init__(self) -> None:
        names = _saved_names(self.names)  # Tally.new checks them as given
        if len(names) != self.rules.players:
            raise TallyError(
                f"{len(names)} names for {self.rules.players} players; "
                "give one name per player, in seating order"
            )
        object.__setattr__(self, "names", names)

    @classmethod
    def new(
        cls,
        names: Sequence[str],
        *,
        target: int = 11,
        variants: Sequence[str | Variant] = (),
        started: str = "",
        id: str = "",
        number: int = 0,
    ) -> Tally:
        """A tally for these players (2, 3, 4 or 6, in seating order); TallyError if not."""
        names = check_names(names)
        try:
            rules = RuleSet.of(len(names), target, variants)
        except RuleSetError as exc:
            raise TallyError(str(exc)) from None
        return cls(rules, names, started=started, id=id, number=number)

    # --- sides ---------------------------------------------------------------------------

    @property
    def side_count(self) -> int:
        return self.rules.side_count

    def label(self, side: int) -> str:
        """A side named by its players: ``Ada``, or ``Ada & Carla`` for a partnership."""
        return " & ".join(self.names[s] for s in self.rules.seats_of(side))

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(self.label(side) for side in range(self.side_count))

    def side_named(self, text: str) -> int:
        """The side a name names: a player's whole name, else the start of one (``Ad`` for
        Ada), ignoring case and then accents (``nicolo`` for Nicolò), or the side's number."""
        said = " ".join(text.split())
        word = said.lower()
        number = small_number(word)
        if number is not None and 1 <= number <= self.side_count:
            return number - 1
        plain = folded(said)
        seats: list[int] = []
        for found in (
            lambda n: n.lower() == word,
            lambda n: folded(n) == plain,
            lambda n: folded(n).startswith(plain),
        ):
            seats = [s for s, n in enumerate(self.names) if found(n)]
            if seats:
                break
        sides = sorted({self.rules.side_of(s) for s in seats})
        if word and len(sides) == 1:
            return sides[0]
        if len(sides) > 1:
            which = " or ".join(self.names[s] for s in seats)
            raise TallyError(f"{shown(said)} could be {which}; type more of the name")
        raise TallyError(f"nobody here is called {shown(said)}; players: {self.player_list}")

    def seat_named(self, text: str) -> int:
        """The seat a player's name names, as :meth:`side_named` reads names (a whole name,
        else the start of one, case and accents aside); TallyError if none or several."""
        said = " ".join(text.split())
        word, plain = said.lower(), folded(said)
        for found in (
            lambda n: n.lower() == word,
            lambda n: folded(n) == plain,
            lambda n: folded(n).startswith(plain),
        ):
            seats = [s for s, n in enumerate(self.names) if found(n)] if word else []
            if len(seats) == 1:
                return seats[0]
            if seats:
                which = " or ".join(self.names[s] for s in seats)
                raise TallyError(f"{shown(said)} could be {which}; type more of the name")
        raise TallyError(f"nobody here is called {shown(said)}; players: {self.player_list}")

    @property
    def dealer(self) -> int:
        """The seat that deals the hand being entered: one seat on in seating order for
        every hand scored (a void deal is dealt again by the same dealer, and never scored)."""
        return (self.first_dealer + len(self.hands)) % self.rules.players

    def dealt_by(self, seat: int) -> Tally:
        """The tally with ``seat`` dealing the hand being entered (the hands before it dealt
        in turn up to it)."""
        if not 0 <= seat < self.rules.players:
            raise TallyError(f"no seat {seat} at a table of {self.rules.players}")
        return replace(self, first_dealer=(seat - len(self.hands)) % self.rules.players)

    @property
    def player_list(self) -> str:
        return ", ".join(self.names)

    # --- the score -----------------------------------------------------------------------

    @property
    def scores(self) -> tuple[int, ...]:
        totals = [0] * self.side_count
        for hand in self.hands:
            totals = [t + p for t, p in zip(totals, hand.points, strict=True)]
        return tuple(totals)

    @property
    def winner(self) -> int | None:
        """The side that has won, by the rules of the match, or None while play goes on."""
        return match_winner(self.rules, self.scores) if self.hands else None

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def hand_number(self) -> int:
        """The number of the hand being entered (1 for the first)."""
        return len(self.hands) + 1

    def standings(self) -> list[Standing]:
        """Sides from most points to fewest (seating order among equals), with points to go."""
        target = self.rules.target
        rows = [
            Standing(side, self.label(side), points, max(0, target - points))
            for side, points in enumerate(self.scores)
        ]
        return sorted(rows, key=lambda r: (-r.points, r.side))

    def status(self) -> str:
        """One sentence: who won, or what the next hand is for."""
        scores = self.scores
        winner = self.winner
        if winner is not None:
            others = [p for s, p in enumerate(scores) if s != winner]
            how = " by cappotto" if self._cappotto(winner) else ""
            score = "-".join(str(p) for p in [scores[winner], *others])
            return f"{self.label(winner)} {self._verb(winner)}{how}, {score}."
        top = max(scores)
        if top >= self.rules.target:
            level = [self.label(s) for s, p in enumerate(scores) if p == top]
            dealer = self.names[self.dealer]
            return f"{' and '.join(level)} are level at {top}: one more hand, {dealer} to deal."
        dealer = self.names[self.dealer]
        if not self.hands:  # the first dealer is drawn at the table: say how to change it
            return (
                f"Hand 1 next, {dealer} to deal ('dealer NAME' if another does); playing to "
                f"{self.rules.target}."
            )
        return f"Hand {self.hand_number} next, {dealer} to deal; playing to {self.rules.target}."

    def _verb(self, side: int) -> str:
        return "win" if len(self.rules.seats_of(side)) > 1 else "wins"

    def _cappotto(self, side: int) -> bool:
        scores = self.scores
        return (
            self.rules.has(Variant.CAPPOTTO)
            and scores[side] < self.rules.target
            and all(p == 0 for s, p in enumerate(scores) if s != side)
        )

    # --- entering a hand -----------------------------------------------------------------

    @property
    def draft_points(self) -> tuple[int, ...]:
        points = [0] * self.side_count
        for step in self.draft:
            if step.how is How.QUICK:
                points[step.side] += step.points
            else:
                points[step.side] = step.points
        return tuple(points)

    def _open(self) -> None:
        if self.over:
            raise TallyError(f"the game is over: {self.status()} 'undo' takes back the last hand")

    def _check_side(self, side: int) -> None:
        if not 0 <= side < self.side_count:
            raise TallyError(f"no side {side + 1}; sides are 1 to {self.side_count}")

    def add(self, side: int, points: int) -> Tally:
        """Quick points: ``points`` more for ``side`` in the hand being entered."""
        self._open()
        self._check_side(side)
        if points < 1:
            raise TallyError(f"invalid points: {points}; quick points are +1 or more")
        if self.draft_points[side] + points > MAX_HAND_POINTS:
            raise TallyError(f"more than {MAX_HAND_POINTS} points in one hand is not Scopa")
        return replace(self, draft=(*self.draft, Step(side, points, How.QUICK)))

    def set_total(self, side: int, points: int) -> Tally:
        """A typed total: ``side`` made ``points`` this hand (replacing what was entered)."""
        self._open()
        self._check_side(side)
        if not 0 <= points <= MAX_HAND_POINTS:
            raise TallyError(f"invalid total: {points}; a hand's points are 0 to {MAX_HAND_POINTS}")
        return replace(self, draft=(*self.draft, Step(side, points, How.TOTAL)))

    def meeting(self, side: int, points: int, how: How) -> str:
        """What an entry for ``side`` would do to the points entered for it this hand, in
        one sentence; empty when it meets none. A total replaces them; quick points after a
        typed total are added to it."""
        since = [s for s in self.draft if s.side == side]
        totals = [i for i, s in enumerate(since) if s.how is How.TOTAL]
        since = since[totals[-1] :] if totals else since
        if not since:
            return ""
        label = self.label(side)
        if how is How.TOTAL:
            said = " and ".join(
                f"+{s.points}" if s.how is How.QUICK else f"the total {s.points}" for s in since
            )
            return (
                f"{label}'s total for this hand is {points}: it replaces {said} entered before "
                f"('undo' brings {'it' if len(since) == 1 else 'them'} back)."
            )
        if not totals:
            return ""
        now = self.draft_points[side] + points
        return f"+{points} is added to the total typed for {label}: {now} this hand."

    def draft_hand(self) -> Hand:
        """The hand being entered, as it would be scored."""
        if not self.draft:
            raise TallyError("nothing entered for this hand yet: '+1 NAME', 'NAME 3' or 'count'")
        hows = {step.how for step in self.draft}
        return Hand(self.draft_points, How.TOTAL if How.TOTAL in hows else How.QUICK)

    def commit(self, hand: Hand | None = None) -> Tally:
        """Score ``hand`` (by default the one being entered) and start the next."""
        self._open()
        hand = hand if hand is not None else self.draft_hand()
        if len(hand.points) != self.side_count or any(p < 0 for p in hand.points):
            raise TallyError("a hand needs points (0 or more) for every side")
        return replace(self, hands=(*self.hands, hand), draft=())

    def undo(self) -> tuple[Tally, str]:
        """Take back the last entry: a step of the hand being entered, else the last hand."""
        if self.draft:
            step = self.draft[-1]
            word = f"+{step.points}" if step.how is How.QUICK else f"total {step.points}"
            said = f"took back {word} for {self.label(step.side)}"
            return replace(self, draft=self.draft[:-1]), said
        if self.hands:
            hand = self.hands[-1]
            points = ", ".join(f"{self.label(s)} {p}" for s, p in enumerate(hand.points))
            said = f"took back hand {len(self.hands)} ({points})"
            return replace(self, hands=self.hands[:-1]), said
        raise TallyError("nothing to undo")

    # --- saving --------------------------------------------------------------------------

    def to_dict(self) -> dict:
        return {
            "version": FORMAT_VERSION,
            "id": self.id,
            "number": self.number,
            "first_dealer": self.first_dealer,
            "started": self.started,
            "players": self.rules.players,
            "target": self.rules.target,
            "variants": sorted(v.value for v in self.rules.variants),
            "names": list(self.names),
            "hands": [_hand_dict(h) for h in self.hands],
            "draft": [[s.side, s.points, s.how.value] for s in self.draft],
        }

    @classmethod
    def from_dict(cls, data: dict) -> Tally:
        """The tally a :meth:`to_dict` made; TallyError if the data is not one."""
        try:
            if data["version"] != FORMAT_VERSION:
                raise TallyError(f"tally format {data['version']!r} is not one this version reads")
            rules = RuleSet.of(int(data["players"]), int(data["target"]), data["variants"])
            tally = cls(
                rules,
                tuple(data["names"]),
                started=str(data.get("started", "")),
                id=str(data.get("id", "")),
                number=int(data.get("number", 0)),
                first_dealer=int(data.get("first_dealer", 0)) % int(data["players"]),
            )
            sides = tally.side_count
            hands = tuple(_hand_from(h, sides) for h in data["hands"])
            draft = tuple(Step(int(s), int(p), How(h)) for s, p, h in data["draft"])
        except (KeyError, TypeError, ValueError, RuleSetError) as exc:
            if isinstance(exc, TallyError):
                raise
            raise TallyError(f"not a saved tally ({exc})") from None
        return replace(tally, hands=hands, draft=draft)


def _hand_dict(hand: Hand) -> dict:
    out: dict = {"points": list(hand.points), "how": hand.how.value}
    if hand.sheet is not None:
        out["sheet"] = [
            [line.name, list(line.figures), list(line.points), line.winner]
            for line in hand.sheet.lines
        ]
    return out


def _hand_from(data: dict, sides: int) -> Hand:
    points = tuple(int(p) for p in data["points"])
    if len(points) != sides or any(p < 0 for p in points):
        raise ValueError("a hand with the wrong number of sides")
    sheet = None
    if "sheet" in data:
        sheet = RoundScore(
            tuple(
                ScoreLine(str(n), tuple(map(int, f)), tuple(map(int, p)), w)
                for n, f, p, w in data["sheet"]
            )
        )
    return Hand(points, How(data["how"]), sheet)


# --- counting a hand line by line ----------------------------------------------------------


class Ask(enum.Enum):
    """The guided count's questions, in the order they are asked."""

    CARDS = "cards"
    COINS = "coins"
    SETTEBELLO = "settebello"
    PRIMIERA = "primiera"
    SWEEPS = "sweeps"
    RE_BELLO = "re_bello"
    NAPOLA = "napola"


@dataclass(frozen=True, slots=True)
class PrimieraCount:
    """One side's primiera as the calculator worked it out."""

    best: tuple[Card, ...]
    """The best card of each suit held, in suit order."""
    suits: int
    total: int
    key: tuple[int, ...]


def primiera_count(cards: Sequence[Card], rules: RuleSet) -> PrimieraCount:
    """The primiera of a side that took ``cards`` (or just its best card per suit)."""
    mask = mask_of(cards)
    suits, total = primiera_total(mask, rules)
    best = []
    for suit in Suit:
        held = [c for c in cards if c.suit == suit]
        if held:
            best.append(max(held, key=lambda c: (prime_value(c.rank, rules), -c.value)))
    return PrimieraCount(tuple(best), suits, total, primiera_key(mask, rules))


def primiera_words(count: PrimieraCount, rules: RuleSet, scheme: Scheme = Scheme.NEUTRAL) -> str:
    """``7d 21 + 6h 18 + As 16 = 55, 3 suits``."""
    if not count.best:
        return "no cards: 0, no suits"
    parts = " + ".join(f"{format_card(c, scheme)} {prime_value(c.rank, rules)}" for c in count.best)
    return f"{parts} = {count.total}, {count.suits} suit{'s' * (count.suits != 1)}"


_NOBODY = {"nobody", "none", "-", "0", "no one", "neither"}


_EXAMPLES = {2: ("22 18", "5 5"), 3: ("14 13 13", "4 3 3")}
"""By the number of sides, the count's examples of cards and of coins taken."""


class Guide:
    """The guided count of one hand: a question at a time, each answer checked as it comes.

    ``question`` is what to ask now; :meth:`answer` takes the reply (TallyError, and nothing
    changes, when it cannot be used); when ``done``, :meth:`hand` is the scored hand.
    """

    def __init__(self, tally: Tally, scheme: Scheme = Scheme.NEUTRAL) -> None:
        self.tally = tally
        self.rules = tally.rules
        self.scheme = scheme
        self.sides = tally.side_count
        self.labels = tally.labels
        asks = [Ask.CARDS, Ask.COINS, Ask.SETTEBELLO]
        self._plan: list[tuple[Ask, int | None]] = [(a, None) for a in asks]
        self._plan += [(Ask.PRIMIERA, side) for side in range(self.sides)]
        self._plan.append((Ask.SWEEPS, None))
        if self.rules.has(Variant.RE_BELLO):
            self._plan.append((Ask.RE_BELLO, None))
        if self.rules.has(Variant.NAPOLA):
            self._plan.append((Ask.NAPOLA, None))
        self._at = 0
        self.cards: tuple[int, ...] = ()
        self.coins: tuple[int, ...] = ()
        self.settebello: int | None = None
        self.primiera: list[PrimieraCount] = []
        self._primiera_cards: list[tuple[Card, ...]] = []
        self.sweeps: tuple[int, ...] = ()
        self.re_bello: int | None = None
        self.napola: tuple[int, ...] = ()

    @property
    def done(self) -> bool:
        return self._at >= len(self._plan)

    @property
    def asking(self) -> tuple[Ask, int | None]:
        return self._plan[self._at]

    @property
    def question(self) -> str:
        ask, side = self.asking
        order = ", ".join(self.labels)
        rest = "; one number: the rest go to the other side" * (self.sides == 2)
        if ask is Ask.CARDS:  # examples a pack can give: 40 cards, 10 coins in all
            return f"Cards taken by {order} (e.g. {_EXAMPLES[self.sides][0]}{rest}):"
        if ask is Ask.COINS:
            return f"Coins taken by {order} (e.g. {_EXAMPLES[self.sides][1]}{rest}):"
        if ask is Ask.SETTEBELLO:
            return f"Who took the settebello (7 of coins)? ({self._who_choices()}):"
        if ask is Ask.PRIMIERA:
            assert side is not None
            example = self._example(side)
            return (
                f"Primiera for {self.labels[side]}: best card of each suit, or all cards taken "
                f"({f'{example}; ' if example else ''}- for none):"
            )
        if ask is Ask.SWEEPS:
            return f"Sweeps (scope) by {order} (e.g. {' '.join(['0'] * self.sides)}):"
        if ask is Ask.RE_BELLO:
            return f"Who took the re bello (king of coins)? ({self._who_choices()}):"
        return f"Napola, the run of coins from the ace (0, or 3 to 10), by {order}:"

    def _example(self, side: int) -> str:
        """A primiera ``side`` could have by the answers so far, to show how to type one
        (``7d 6h As Kb``): the settebello only when it took it, a coin only when it took
        coins, no card named for another side, no more suits than its cards; "" for none."""
        gone = {c for taken in self._primiera_cards for c in taken}
        if self.settebello != side:
            gone.add(SETTEBELLO)
        # A rank each suit shows first when free (the example's variety), else its best free.
        liked = {Suit.COINS: 7, Suit.CUPS: 6, Suit.SWORDS: 1, Suit.CLUBS: 10}
        plain = self.cards[side] - self.coins[side]
        suits = [Suit.COINS] * bool(self.coins[side]) + [Suit.CUPS, Suit.SWORDS, Suit.CLUBS][
            : min(3, plain)
        ]
        shown_cards = []
        for suit in suits:
            free = [c for c in CARDS if c.suit == suit and c not in gone]
            if not free:
                continue
            first = card(liked[suit], suit)
            shown_cards.append(first if first in free else max(free, key=self._prime))
        return " ".join(format_card(c, self.scheme) for c in shown_cards)

    def _who_choices(self) -> str:
        return _or_list(self.holders)

    @property
    def holders(self) -> list[str]:
        """What may answer "who took the settebello (re bello)?": the players of the sides
        that took coins, and ``nobody`` only while some coins were taken by no side."""
        names = [
            self.tally.names[seat]
            for seat in range(len(self.tally.names))
            if self.coins[self.rules.side_of(seat)]
        ]
        return names if self._all_coins_taken else [*names, "nobody"]

    @property
    def _all_coins_taken(self) -> bool:
        return sum(self.coins) == COINS_MASK.bit_count()

    def answer(self, text: str) -> str:
        """Take the reply to the current question; a line saying what was understood."""
        if self.done:
            raise TallyError("the count is complete")
        ask, side = self.asking
        said = self._answer(ask, side, text.strip())
        self._at += 1
        return said

    def _answer(self, ask: Ask, side: int | None, text: str) -> str:
        if ask is Ask.CARDS:
            self.cards = self._numbers(text, "cards", 40, complement=True)
            return f"Cards: {self._by_side(self.cards)}."
        if ask is Ask.COINS:
            coins = self._numbers(text, "coins", 10, complement=True)
            for s, (n, c) in enumerate(zip(coins, self.cards, strict=True)):
                if n > c:
                    raise TallyError(f"{self.labels[s]} took {c} cards, so not {n} coins")
            self.coins = coins
            return f"Coins: {self._by_side(self.coins)}."
        if ask is Ask.SETTEBELLO:
            self.settebello = self._holder(text, "the settebello")
            return f"Settebello: {self._name(self.settebello)}."
        if ask is Ask.PRIMIERA:
            assert side is not None
            cards = self._cards(text, side)
            count = primiera_count(cards, self.rules)
            self._primiera_cards.append(cards)
            self.primiera.append(count)
            words = primiera_words(count, self.rules, self.scheme)
            return f"Primiera, {self.labels[side]}: {words}."
        if ask is Ask.SWEEPS:
            self.sweeps = self._numbers(text, "sweeps", 40, complement=False)
            return f"Sweeps: {self._by_side(self.sweeps)}."
        if ask is Ask.RE_BELLO:
            re_bello = self._holder(text, "the re bello")
            for other, taken in enumerate(self._primiera_cards):
                if RE_BELLO in taken and other != re_bello:
                    raise TallyError(f"Kd is among {self.labels[other]}'s cards")
            self.re_bello = re_bello
            return f"Re bello: {self._name(self.re_bello)}."
        runs = self._numbers(text, "napola", 10, complement=False)
        if sum(1 for r in runs if r) > 1:
            raise TallyError("only one side can hold the ace of coins, so only one napola")
        for s, run in enumerate(runs):
            if run and not 3 <= run <= 10:
                raise TallyError(f"a napola is a run of 3 to 10 coins, not {run}")
            if run > self.coins[s]:
                raise TallyError(f"{self.labels[s]} took {self.coins[s]} coins, so no run of {run}")
            self._check_run(s, run)
        self.napola = runs
        return f"Napola: {self._by_side(self.napola)}."

    def _check_run(self, side: int, run: int) -> None:
        """Refuse a napola of ``run`` for ``side`` when a card of it went elsewhere by an
        earlier answer: named in another side's primiera, or the settebello or re bello
        given to another side."""
        holders = {c: other for other, cs in enumerate(self._primiera_cards) for c in cs}
        if self.settebello is not None:
            holders.setdefault(SETTEBELLO, self.settebello)
        if self.re_bello is not None:
            holders.setdefault(RE_BELLO, self.re_bello)
        for rank in range(1, run + 1):
            coin = card(Rank(rank), Suit.COINS)
            holder = holders.get(coin, side)
            if holder != side:
                raise TallyError(
                    f"{format_card(coin, self.scheme)} is among {self.labels[holder]}'s cards, "
                    f"so {self.labels[side]} has no run of {run} coins from the ace"
                )

    def _by_side(self, figures: Sequence[int]) -> str:
        return ", ".join(f"{label} {n}" for label, n in zip(self.labels, figures, strict=True))

    def _name(self, side: int | None) -> str:
        return "nobody" if side is None else self.labels[side]

    def _numbers(self, text: str, what: str, whole: int, *, complement: bool) -> tuple[int, ...]:
        words = text.replace(",", " ").split()
        read = [small_number(w) for w in words]
        if not words or None in read:
            raise TallyError(f"invalid {what}: {shown(text)}; {self._accepted(complement)}")
        numbers = [n for n in read if n is not None]
        if complement and max(numbers) > whole:  # say what is wrong with it, not the shape
            raise TallyError(
                f"invalid {what}: {shown(text)}; there are {whole} {what} in the pack, "
                f"so no side took {max(numbers)}"
            )
        if complement and self.sides == 2 and len(numbers) == 1:
            numbers.append(whole - numbers[0])
        if len(numbers) != self.sides:
            raise TallyError(f"invalid {what}: {shown(text)}; {self._accepted(complement)}")
        if sum(numbers) > whole:
            raise TallyError(f"invalid {what}: {shown(text)}; there are only {whole} in the pack")
        if complement and sum(numbers) != whole:  # every card is someone's by the hand's end
            raise TallyError(
                f"invalid {what}: {shown(text)} make {sum(numbers)}; all {whole} are taken by the "
                "end of a hand"
            )
        return tuple(numbers)

    def _accepted(self, complement: bool) -> str:
        """What a question asking for numbers accepts, in words: one per side, or (between two
        sides, where the rest are the other's) the first side's alone."""
        shape = f"type {self.sides} whole numbers, one per side in order ({', '.join(self.labels)})"
        if complement and self.sides == 2:
            first, second = self.labels
            return f"{shape}, or {first}'s alone: the rest go to {second}"
        return shape

    def _holder(self, text: str, what: str) -> int | None:
        if text.lower() in _NOBODY:
            if self._all_coins_taken:  # the card is a coin, so one of those sides has it
                raise TallyError(
                    f"all {sum(self.coins)} coins were taken ({self._by_side(self.coins)}), "
                    f"so someone took {what}: type {_or_list(self.holders)}"
                )
            return None
        if not text:
            raise TallyError(f"who took {what}? type a name, or 'nobody'")
        side = self.tally.side_named(text)
        if not self.coins[side]:
            raise TallyError(f"{self.labels[side]} took no coins, so not {what}")
        return side

    def _cards(self, text: str, side: int) -> tuple[Card, ...]:
        if text.lower() in _NOBODY:
            self._check_primiera((), side)
            return ()
        cards: list[Card] = []
        for word in text.replace(",", " ").replace("+", " ").split():
            try:
                c = parse_card(word, self.scheme)
            except NotationError as exc:
                such = self._example(side) or format_card(SETTEBELLO, self.scheme)
                raise TallyError(f"{exc}; type cards such as {such}") from None
            if c in cards:
                raise TallyError(f"{format_card(c, self.scheme)} is named twice")
            for other, taken in enumerate(self._primiera_cards):
                if c in taken:
                    raise TallyError(
                        f"{format_card(c, self.scheme)} went to {self.labels[other]} already"
                    )
            cards.append(c)
        if not cards:
            raise TallyError("type the cards, or '-' for none")
        label = self.labels[side]
        holder = self.settebello
        if SETTEBELLO in cards and holder is not None and holder != side:
            raise TallyError(f"{self.labels[holder]} took the settebello, not {label}")
        if SETTEBELLO in cards and holder is None:
            raise TallyError(f"you said nobody took the settebello; {label} has it here")
        coins = mask_of(cards) & COINS_MASK
        if len(cards) > self.cards[side]:
            raise TallyError(f"{label} took {self.cards[side]} cards, not {len(cards)}")
        if coins.bit_count() > self.coins[side]:
            raise TallyError(f"{label} took {self.coins[side]} coins, not {coins.bit_count()}")
        self._check_primiera(cards, side)
        self._check_suits_shared(cards, side)
        return tuple(cards)

    def _check_primiera(self, cards: Sequence[Card], side: int) -> None:
        """Refuse a primiera the count says ``side`` cannot have: its best coin is the
        settebello when it took it, it holds coins when it took any, and it holds at least a
        suit for every ten other cards it took (and no more of them than it took)."""
        label = self.labels[side]
        coins = [c for c in cards if c.suit == Suit.COINS]
        others = [c for c in cards if c.suit != Suit.COINS]
        taken = self.coins[side]
        if self.settebello == side and SETTEBELLO not in cards:
            best = format_card(SETTEBELLO, self.scheme)
            named = ""
            if coins:
                named = f", not {format_card(max(coins, key=self._prime), self.scheme)}"
            raise TallyError(
                f"{label} took the settebello, so {label}'s best coin is {best}{named}: "
                "type it with the best card of each other suit"
            )
        if taken and not coins:
            raise TallyError(
                f"{label} took {taken} coin{'s' * (taken != 1)}, so the primiera holds coins: "
                f"type {label}'s primiera again with {label}'s best coin in it"
            )
        plain = self.cards[side] - taken  # the cards taken that are not coins
        if len(others) > plain:
            raise TallyError(f"{label} took {plain} cards besides coins, not {len(others)}")
        least = -(-plain // 10)  # ten cards a suit: 11 of them hold two suits at least
        held = len({c.suit for c in others})
        if held < least:
            raise TallyError(
                f"{label} took {plain} cards besides coins (ten a suit), so at least {least} "
                f"other suit{'s' * (least != 1)}, not {held}: type {label}'s primiera again "
                "with the best card of each"
            )

    def _check_suits_shared(self, cards: Sequence[Card], side: int) -> None:
        """Refuse a primiera that, with those given before it, claims more of a suit than the
        pack holds: a side holds only the suits its primiera names, so one that took ten
        cards besides coins and names only cups took every cup, and no other side has one.

        For every set of suits, the sides whose primiera names only those suits need their
        cards besides coins from them, less what the other sides named of them (Hall's
        condition: the counts can then be shared out)."""
        given = [*self._primiera_cards, tuple(cards)]
        sides = range(len(given))  # the sides answered so far, in order, this one last
        plain = [self.cards[s] - self.coins[s] for s in sides]
        named = [{c.suit for c in given[s] if c.suit != Suit.COINS} for s in sides]
        suits = [suit for suit in Suit if suit != Suit.COINS]
        for size in (1, 2):
            for chosen in itertools.combinations(suits, size):
                only = [s for s in sides if named[s] and named[s] <= set(chosen)]
                if not only:
                    continue
                held = {
                    s: [c for c in given[s] if c.suit in chosen] for s in sides if s not in only
                }
                held = {s: found for s, found in held.items() if found}
                left = 10 * size - sum(len(found) for found in held.values())
                need = sum(plain[s] for s in only)
                if need <= left:
                    continue
                who = _and_list([self.labels[s] for s in only])
                kinds = _and_list([_suits_word(suit, self.scheme) for suit in chosen])
                holding = _and_list(
                    [
                        f"{self.labels[s]} {' '.join(format_card(c, self.scheme) for c in found)}"
                        for s, found in held.items()
                    ]
                )
                raise TallyError(
                    f"{who} took {need} cards besides coins, all {kinds} by the primiera, but "
                    f"{10 * size - left} of the {10 * size} {kinds} went elsewhere ({holding}): "
                    f"only {left} are left for {who}; type {self.labels[side]}'s primiera "
                    "again, or 'undo' to go back"
                )

    def _prime(self, card: Card) -> tuple[int, int]:
        return prime_value(card.rank, self.rules), -card.value

    def sheet(self) -> RoundScore:
        """The hand scored line by line, by the game's own scoring."""
        if not self.done:
            raise TallyError("the count is not finished")
        return score_figures(
            self.rules,
            cards=self.cards,
            coins=self.coins,
            settebello=self.settebello,
            primiera=[p.key for p in self.primiera],
            sweeps=self.sweeps,
            re_bello=self.re_bello,
            napola=self.napola,
        )

    def hand(self) -> Hand:
        sheet = self.sheet()
        return Hand(sheet.totals, How.COUNTED, sheet, tuple(p.suits for p in self.primiera))


def _suits_word(suit: Suit, scheme: Scheme) -> str:
    """A suit's name in ``scheme``, as :func:`scopa_net.notation.card_name` writes it."""
    if scheme is Scheme.ITALIAN:
        return suit.italian
    return suit.french if scheme is Scheme.FRENCH else suit.name.lower()


def _and_list(words: Sequence[str]) -> str:
    """``Ada``, ``Ada and Bruno``, ``Ada, Bruno and Carla``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _or_list(words: Sequence[str]) -> str:
    """``Ada``, ``Ada or Bruno``, ``Ada, Bruno or Carla``."""
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} or {words[-1]}"


#: Names of the sheet's lines as a person reads them.
LINE_NAMES = {
    "cards": "Cards",
    "coins": "Coins",
    "settebello": "Settebello",
    PRIMIERA_LINE: "Primiera",
    "sweeps": "Sweeps",
    "re_bello": "Re bello",
    NAPOLA_LINE: "Napola",
}


def sheet_rows(tally: Tally, sheet: RoundScore) -> list[tuple[str, list[str], str]]:
    """(line, figures by side, who scored) for each line of a counted hand."""
    rows = []
    for line in sheet.lines:
        figures = [str(f) for f in line.figures]
        if line.winner is not None and sum(line.points) == 1:
            who = f"{tally.label(line.winner)} +1"
        elif any(line.points):
            who = ", ".join(f"{tally.label(s)} +{p}" for s, p in enumerate(line.points) if p)
        else:
            who = "nobody" + (" (tied)" if any(line.figures) else "")
        rows.append((LINE_NAMES.get(line.name, line.name), figures, who))
    return rows
