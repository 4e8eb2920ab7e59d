"""The summary ``scopa-net verify`` writes after several files, in words: the files and
rounds counted, the seeds left out and why, and the luck of the deal by person."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable

from scopa_net.commands.options import plural
from scopa_net.commands.verify_summary import Summary

OUTCOMES = (
    ("verified", "verified"),
    ("partly", "verified as far as the seat saw (rounds it missed not checked)"),
    ("unfinished", "unfinished (no signed end)"),
    ("failed", "failed"),
    ("refused", "refused (host key not trusted)"),
    ("unreadable", "unreadable"),
    ("missing", "missing"),
    ("twice", "given twice (counted once)"),
)
"""What can become of a file given, in the order the summary counts them."""


SEEDS_LEFT_OUT = {
    "no_commit": "the player was away, or their sealed share did not come in time",
    "no_reveal": "the player sealed a share but did not show it in time",
    "bad_reveal": "the share the player showed is not the one they sealed",
}
"""Why a person's seed (their share of a round's shuffle) was left out, in words (5.4)."""


SEED_LEFT_OUT_NAMES = {
    "no_commit": "no commitment",
    "no_reveal": "no seed",
    "bad_reveal": "wrong seed",
}
"""What the summary calls each reason a seed was left out (the protocol's codes are not words)."""


def _left_out_name(why: str) -> str:
    return SEED_LEFT_OUT_NAMES.get(why, why)


def say_summary(out: Callable[[str], None], s: Summary) -> None:
    out("== summary")
    given = sum(len(files) for files in s.outcomes.values())
    counts = [f"{len(s.outcomes[kind])} {words}" for kind, words in OUTCOMES if s.outcomes[kind]]
    out(f"files: {given} given: {', '.join(counts)}")
    for kind, words in OUTCOMES[1:]:
        if s.outcomes[kind]:
            out(f"  {words.split(' (')[0]}: {', '.join(map(str, s.outcomes[kind]))}")
    became = Counter(s.rounds.values())
    skipped = became["not replayed"]
    not_replayed = f"{skipped} not replayed (a round before failed), " if skipped else ""
    out(
        f"rounds: {became['verified']} verified, {became['void']} void, {not_replayed}"
        f"{became['failed']} failed (a round in several files counted once)"
    )
    out(f"rounds not fair-checked (no player seed): {len(s.unchecked)}")
    for round_id in sorted(s.split):
        out(
            f"HOST EQUIVOCATED: round {round_id.hex()} has two different public records, each "
            "signed by the host, in these seats' files: the host showed them different tables"
        )
    if s.absent:
        seats = Counter((seat, s.who(r, seat)) for r, absent in s.absent.items() for seat in absent)
        listed = ", ".join(f"{who}: {n}" for (_, who), n in sorted(seats.items()))
        out(f"blind rounds void for an absent player: {len(s.absent)} ({listed})")
    if s.gone:
        seats = Counter((seat, s.who(r, seat)) for r, gone in s.gone.items() for seat in gone)
        listed = ", ".join(f"{who}: {n}" for (_, who), n in sorted(seats.items()))
        out(
            "blind rounds whose reveal counts a player absent (their seed never came, so "
            f"their shuffle is unchecked): {len(s.gone)} ({listed})"
        )
    if s.stopped:
        who = Counter(
            "the host" if seat is None else s.who(r, seat) for r, seat in s.stopped.items()
        )
        listed = ", ".join(f"{name}: {n}" for name, n in sorted(who.items()))
        out(f"blind rounds void by a seat that stopped without cause: {len(s.stopped)} ({listed})")
    if s.unjudged:
        who = Counter(
            "the host" if seat is None else s.who(r, seat) for r, seat in s.unjudged.items()
        )
        listed = ", ".join(f"{name}: {n}" for name, n in sorted(who.items()))
        out(
            "blind rounds void by a seat that stopped, with cause or not (a player absent at "
            f"the reveal): {len(s.unjudged)} ({listed})"
        )
    by_reason = Counter(why for left in s.exclusions.values() for _, why in left)
    by_seat: dict[tuple[int, str], Counter[str]] = defaultdict(Counter)
    for round_id, left in s.exclusions.items():
        for seat, why in left:
            by_seat[seat, s.who(round_id, seat)][why] += 1
    if by_reason:
        reasons = ", ".join(f"{_left_out_name(why)} ({n})" for why, n in sorted(by_reason.items()))
        out(f"seeds left out, in {plural(len(s.exclusions), 'round')}: {reasons}")
        for seat, who in sorted(by_seat):
            counts = ", ".join(
                f"{_left_out_name(why)} ({n})" for why, n in sorted(by_seat[seat, who].items())
            )
            out(f"  {who}: {counts}")
        out(
            "  (a seed is a player's random share of a round's shuffle; a round with one left "
            "out was shuffled without it:"
        )
        for why in sorted(by_reason):
            out(f"  {_left_out_name(why)}: {SEEDS_LEFT_OUT.get(why, why)}")
        out("  a host that keeps losing one player's share is worth asking about)")
    else:
        out("seeds left out: none (every player's random share counted in every shuffle)")
    # Only the rounds the summary counts verified: a round another copy failed in is not.
    people = sorted(s.people.items())  # by name, as names are compared
    dealt = [(p.label(), _verified(s, p.hands)) for _, p in people]
    dealt += [(f"seat {seat}", _verified(s, s.hands[seat])) for seat in sorted(s.hands)]
    dealt = [(label, rounds) for label, rounds in dealt if rounds]
    if not dealt:
        return
    from scopa_net.fair.stats import seat_tallies

    out(
        "luck of the deal: the cards players watch, dealt to each seat's player in the "
        "verified rounds (each person by the names saved beside the files, over every seat "
        "they held; a seat whose files have none, by its number), beside what fair shuffling "
        "gives on average and the usual range (19 times in 20):"
    )
    for label, rounds in dealt:
        parts = []
        for tally in seat_tallies(rounds.values()):
            low, high = tally.band
            flag = ""
            if not tally.within:
                flag = ", more than usual" if tally.observed > high else ", fewer than usual"
            parts.append(
                f"{tally.name} {tally.observed} (expected {tally.expected:.1f}, usual "
                f"{low:.1f}-{high:.1f}{flag})"
            )
        out(f"  {label}, {plural(len(rounds), 'round')}: " + "; ".join(parts))
    out(
        "This measures luck, not honesty (the checks above are what prove the deals): even with "
        "fair shuffling, about one figure in twenty falls outside its usual range, so one "
        "now and then is expected; the same person outside again and again, over many matches, "
        "is worth a question."
    )


def _verified(s: Summary, hands: dict[bytes, tuple[int, ...]]) -> dict[bytes, tuple[int, ...]]:
    """The hands of ``hands`` dealt in rounds the summary counts verified (the worst of a
    round's copies: one changed copy makes it failed)."""
    return {r: hand for r, hand in hands.items() if s.rounds.get(r) == "verified"}
