"""What the deal check means for the person at the table, in plain words.

The per-round line ("Deal check: verified (...)") stays short; these lines say once what was
checked and what it protects (protocol.md 5 and 7 for an ordinary table, 9.10 for a blind
one). A client playing at its own process's host says none of this: there the host is the
player's own; alone there (``play``) it says once what the check shows all the same.
"""

from __future__ import annotations

from collections.abc import Sequence

ORDINARY_TABLE = (
    "An ordinary table (not blind): the host sees every hand, yours included; a blind table "
    "(opened with --blind) hides them even from the host."
)
"""Said once at the start of a match at an ordinary table with more than one person."""

SEES_EVERY_HAND = (
    "At this table the host sees every hand (a blind table, opened with --blind, hides them)."
)

OWN_HOST = (
    "What the deal check means here: this game's host runs inside this program, so the check "
    "does not prove the host honest; it shows that every card, play and score was checked "
    "just as at a LAN host, where your own seed in the shuffle proves the host could not "
    "choose the cards. scopa-net verify checks the saved transcript any time."
)
"""Said once, after the first verified round, to a person alone at their own process's host
(``scopa-net play``): nothing there is hidden from the host, which is the player's own."""

CHECKED = "every card you saw, every play and the score were checked"

CARDS_CHECKED = "every card you saw was checked (a seat taken mid-match replays no play)"


def _checked(replayed: bool) -> str:
    return CHECKED if replayed else CARDS_CHECKED


WHY_LEFT_OUT = {
    "no_commit": "no commitment of yours reached the host in time",
    "no_reveal": "the host says your seed did not reach it in time",
    "bad_reveal": "the seed the host shows for you does not match your commitment",
}


def ordinary_meaning(
    mine: str | None, counted: bool, others_left_out: Sequence[str], replayed: bool = True
) -> tuple[str, str]:
    """What a verified round at an ordinary table means for this seat: a key (the same
    meaning is said once a match) and the words. ``mine`` is why this seat's seed was left
    out (None: it counted), ``counted`` whether any person's seed counted, and
    ``others_left_out`` the names of the other people whose seeds were left out;
    ``replayed``: the round's plays and score were checked too (not a seat taken mid-match)."""
    checked = _checked(replayed)
    if not counted:
        return "none", (
            "What the deal check means: no player's seed counted this round (not "
            f"fair-checked), so the host alone chose the deck; {checked}. {SEES_EVERY_HAND}"
        )
    if mine is not None:
        why = WHY_LEFT_OUT.get(mine, mine)
        return "not mine", (
            f"What the deal check means: your seed was left out this round ({why}), so the "
            "other players' seeds shuffled the deck: the host could have chosen the cards only "
            f"with the help of every one of them; {checked}. {SEES_EVERY_HAND}"
        )
    if others_left_out:
        whose = " and ".join(f"{n}'s" for n in others_left_out)
        plural = "seeds" if len(others_left_out) > 1 else "seed"
        return "mine, others out", (
            "What the deal check means: your own random seed went into the shuffle, so the "
            f"host could not choose the cards (with {whose} {plural} left out it could at "
            f"most have picked between the deals with and without them); {checked}. "
            f"{SEES_EVERY_HAND}"
        )
    return "mine", (
        "What the deal check means: your own random seed went into the shuffle, so the host "
        f"could not choose the cards; {checked}. {SEES_EVERY_HAND}"
    )


def blind_meaning(
    took_part: bool, computer_players: bool, replayed: bool = True
) -> tuple[str, str]:
    """What a verified round at a blind table means for this seat (protocol.md 9.10): a key
    and the words. ``took_part``: this seat's client shuffled and opened its own cards (not
    sat out); ``computer_players``: the host plays some seats; ``replayed`` as for
    :func:`ordinary_meaning`."""
    theirs = (
        " The host does see its computer players' cards: it plays those seats."
        if computer_players
        else ""
    )
    if not took_part:
        return "sat out", (
            "What the deal check means: you sat this round out, so a computer played your seat "
            "and the host saw its cards; the others' shuffles were proved, and "
            f"{_checked(replayed)}.{theirs}"
        )
    return "blind", (
        "What the deal check means: your client shuffled the deck under its own secret and "
        "opened your cards itself, so nobody, the host included, could choose the deck, swap "
        f"a card or see your cards before you played them; {_checked(replayed)}.{theirs}"
    )


def help_line(transcripts: str) -> str:
    """The help's line on the fair deal: what checks it and where the transcripts are."""
    return (
        'fair deal: each round\'s deal is checked as it ends (the "Deal check" line). '
        f"Transcripts are saved in {transcripts}; check one any time with "
        "scopa-net verify FILE."
    )
