"""One-move facts about a table: which card values sweep it, and the odds a hand holds one."""

from __future__ import annotations

from scopa_net.cards import ACES_MASK, VALUE, indices_of
from scopa_net.rules import RuleSet, Variant

QUINDICI_TOTAL = 15


def sweeping_values(rules: RuleSet, table_mask: int) -> frozenset[int]:
    """Card values (1..10) that would take every card of this table in one play.

    Normally a lone table card is swept by its own value and two or more by their total (no
    single card can match then, as each is smaller than the total), so a table adding up to
    more than 10 is safe from a sweep. Quindici sweeps when the table and the card make 15;
    under asso piglia tutto an ace sweeps any table without an ace on it.
    """
    if not table_mask:
        return frozenset()
    values = [VALUE[c] for c in indices_of(table_mask)]
    total = sum(values)
    if rules.has(Variant.QUINDICI):
        need = QUINDICI_TOTAL - total
        return frozenset({need}) if 1 <= need <= 10 else frozenset()
    found = {total} if total <= 10 else set()
    if rules.has(Variant.ASSO_PIGLIA_TUTTO) and not table_mask & ACES_MASK:
        found.add(1)
    return frozenset(found)


def holds_any(unseen: int, wanted: int, hand: int) -> float:
    """Chance that a hand of ``hand`` cards, drawn from ``unseen`` cards of which ``wanted``
    are wanted ones, holds at least one of them (no replacement)."""
    if wanted <= 0 or hand <= 0:
        return 0.0
    if unseen - wanted < hand:
        return 1.0
    miss = 1.0
    for i in range(hand):
        miss *= (unseen - wanted - i) / (unseen - i)
    return 1.0 - miss
