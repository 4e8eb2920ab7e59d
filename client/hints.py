"""Help that teaches: the strongest computer player's advice, and a coach that warns.

Both work from the seat's own view (:class:`~scopa_net.view.SeatView`) and nothing else: the
cards still unseen are counted, never looked at.

- :func:`hint_for`: the play the strong player would make now, with one line saying why in a
  person's words ("7c takes 3s+4d and leaves 15 on the table: no single card can sweep it").
- :func:`coach_warnings`: before a play, what it gives away that another play would not: an
  easy sweep, the settebello, or a seven left on the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scopa_net.bots.observed import Observed
from scopa_net.bots.strong import StrongPlayer
from scopa_net.bots.tactics import sweeping_values
from scopa_net.cards import COINS_MASK, RE_BELLO, SETTEBELLO, VALUE, Card, Rank, Suit, mask_of
from scopa_net.client.moves import legal_plays
from scopa_net.notation import Scheme, card_name, format_card
from scopa_net.plays import Play
from scopa_net.rules import Variant
from scopa_net.view import SeatView

#: The strong player's budget for a hint: enough to choose well, quick enough to wait for.
HINT_PLAYOUTS = 300
HINT_SEED = 0
SETTEBELLO_WARNING = "it leaves the settebello on the table for the next player"


@dataclass(frozen=True, slots=True)
class Hint:
    play: Play
    reason: str


def _cards(cards: Sequence[Card], scheme: Scheme, words: bool = False) -> str:
    """``5s+2b``, or in ``words`` (plain mode) ``5 of swords and 2 of clubs``."""
    if not words:
        return "+".join(format_card(c, scheme) for c in cards)
    named = [card_name(c, scheme) for c in cards]
    return " and ".join([", ".join(named[:-1]), named[-1]] if len(named) > 1 else named)


def _table_after(view: SeatView, play: Play) -> int:
    table = mask_of(view.table)
    if play.captured:
        return table & ~play.captured_mask
    return table | play.card.bit


def _sweepers(view: SeatView, after: int) -> tuple[frozenset[int], int]:
    """The card values that would sweep a table ``after``, and how many such cards are unseen."""
    values = sweeping_values(view.rules, after)
    unseen = Observed.from_view(view).unseen
    return values, sum(1 for c in unseen if VALUE[c] in values)


def _last_play(view: SeatView) -> bool:
    return Observed.from_view(view).plays_left == 1


def explain(
    view: SeatView, play: Play, scheme: Scheme = Scheme.NEUTRAL, *, words: bool = False
) -> str:
    """One line on what ``play`` does and what it leaves the next player; with ``words``
    (plain mode) each card by its name ("7 of swords"), not its code ("7s")."""
    card = card_name(play.card, scheme) if words else format_card(play.card, scheme)
    after = _table_after(view, play)
    taken = play.captured
    if taken:
        text = f"{card} takes {_cards(taken, scheme, words)}"
        prizes = []
        won = (play.card, *taken)
        if SETTEBELLO in won and words:  # its name says which card it is
            prizes.append("the settebello")
        elif SETTEBELLO in won:  # named with its card: it may be the one played, not taken
            prizes.append(f"the settebello {format_card(SETTEBELLO, scheme)}")
        named = SETTEBELLO.bit  # the coins named as prizes of their own, not counted again
        if view.rules.has(Variant.RE_BELLO) and RE_BELLO in won:  # a point of its own
            prizes.append("the re bello" + ("" if words else f" {format_card(RE_BELLO, scheme)}"))
            named |= RE_BELLO.bit
        if view.rules.has(Variant.NAPOLA):  # the ace, two and three of coins start a run
            run = [c for c in won if c.suit == Suit.COINS and c.rank <= Rank.THREE]
            if run:
                prizes.append(f"the {_cards(run, scheme, words)} for the napola")
                named |= mask_of(run)
        sevens = [c for c in won if c.rank == Rank.SEVEN and c != SETTEBELLO]
        if sevens:
            which = "the" if words else "the seven" if len(sevens) == 1 else "the sevens"
            prizes.append(f"{which} {_cards(sevens, scheme, words)} for the primiera")
        coins = (mask_of(won) & COINS_MASK & ~named).bit_count()
        if coins:
            prizes.append(f"{coins} coin{'s' * (coins != 1)}")
        if prizes:
            text += f" (winning {', '.join(prizes)})"
    elif any(o.captured for o in legal_plays(view)) or not view.my_turn:
        text = f"{card} takes nothing"
    else:
        text = f"No card of yours can take anything: {card} takes nothing"
    if not after:
        if taken and not _last_play(view):
            return f"{text}: a sweep, a point"
        return f"{text} and clears the table"
    total = sum(VALUE[c.index] for c in view.table if after & c.bit)
    total += play.card.value if not taken else 0
    if _last_play(view):
        return f"{text}; it is the last card of the round"
    values, unseen = _sweepers(view, after)
    if not values:
        return f"{text} and leaves {total} on the table: no single card can sweep it"
    value = min(values)
    if not unseen:
        return f"{text} and leaves {total} on the table: the cards that could sweep it are gone"
    return (
        f"{text} and leaves {total} on the table: {'an' if value == 8 else 'a'} {value} "
        f"would sweep it, {unseen} still unseen"
    )


def hint_for(
    view: SeatView,
    scheme: Scheme = Scheme.NEUTRAL,
    *,
    playouts: int = HINT_PLAYOUTS,
    words: bool = False,
) -> Hint:
    """The play the strong player would make from this view, and why (``words``: as for
    :func:`explain`). ValueError when it is not this seat's turn."""
    if not view.my_turn or view.round_over:
        raise ValueError("it is not your turn")
    play = StrongPlayer(HINT_SEED, playouts=playouts).choose(view)
    return Hint(play, explain(view, play, scheme, words=words))


def coach_warnings(view: SeatView, play: Play, scheme: Scheme = Scheme.NEUTRAL) -> list[str]:
    """What ``play`` gives away that some other legal play would not; empty when nothing."""
    options = legal_plays(view)
    if len(options) < 2 or _last_play(view):
        return []
    warnings = []
    after = _table_after(view, play)
    values, unseen = _sweepers(view, after)
    if values and unseen:

        def safe(other: Play) -> bool:
            left = _table_after(view, other)
            return not left or not _sweepers(view, left)[1]

        if any(safe(o) for o in options):
            total = sum(c.value for c in view.table if after & c.bit)
            total += 0 if play.captured else play.card.value
            warnings.append(
                f"it leaves {total} on the table: an easy sweep for a {min(values)} "
                f"({unseen} still unseen)"
            )
    if after & SETTEBELLO.bit and any(not _table_after(view, o) & SETTEBELLO.bit for o in options):
        warnings.append(SETTEBELLO_WARNING)
    sevens = [o for o in options if any(c.rank == Rank.SEVEN for c in o.captured)]
    if (
        sevens
        and SETTEBELLO_WARNING not in warnings
        and not any(c.rank == Rank.SEVEN for c in play.captured)
    ):
        best = sevens[0]
        warnings.append(
            f"it passes up a seven: {best.text(scheme)} would take {_cards(best.captured, scheme)}"
        )
    return warnings
