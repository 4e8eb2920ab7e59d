"""What a failed check means, in words a player reads, not a cryptographer.

:func:`what_failed` gives one sentence for each kind of failure the verifier reports
(protocol.md 6.2 and 9.9): what does not match, and what can make that happen. It leads a
failure's report; the error itself (its class name and exactly what did not match) follows as
the evidence, unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence

from scopa_net.fair import errors as e
from scopa_net.fair.blind import errors as blind

CHANGED = "the record was changed after the round (or the file is damaged)"

_BY_TYPE: tuple[tuple[type[e.FairnessError], str], ...] = (
    # Subclasses before the classes they refine.
    (
        e.TranscriptFormatError,
        "the file is damaged, or was changed by hand: it is not laid out as a transcript",
    ),
    (e.EmptyTranscriptError, "the file holds no rounds: there is nothing in it to check"),
    (
        e.ChangedPlayError,
        "the host recorded for your seat another play than the one you sent: a host that does "
        "this chooses what your cards take, or plays your cards for you",
    ),
    (
        e.DealerMismatchError,
        "the round was dealt by a seat whose turn it was not (the round's keys draw the "
        "match's first dealer; after that the deal passes to the next seat when a round is "
        "played out, and stays after a void): the host dealt out of turn, or the record was "
        "changed",
    ),
    (
        e.BrokenChainError,
        f"{CHANGED}: this round does not follow on from the round before it, as if a round "
        "was taken out, added or altered",
    ),
    (
        e.ReplayedRoundError,
        "this round repeats an earlier round of the match: the host dealt the same round "
        "twice, or a round was copied in the file",
    ),
    (
        e.RerolledRoundError,
        "the host threw away a round it had opened and opened it again with a new shuffle: a "
        "host that does this can shuffle until it likes the deal, once it has seen the "
        "players' seeds (at a blind table, the first cards it dealt)",
    ),
    (
        e.ComputerPartyError,
        "the host made a seat a computer holds a party of the round, with a key of its own "
        "choosing, as if a person played it: it could then say that person dropped, to call "
        "off a deal it dislikes once it has seen its first cards",
    ),
    (
        e.ComputerSeedError,
        "the host put a seed of its own choosing into the shuffle, for a computer player it "
        "plays: by keeping that seed in or leaving it out after seeing the players' seeds it "
        "can pick between two deals",
    ),
    (
        e.AbsentSeatSeedError,
        "the host put a seed into the shuffle for a player who was away, whose own client "
        "could not have sent it: by keeping that seed in or leaving it out after seeing the "
        "other seeds, the host can pick between two deals",
    ),
    (
        e.SeedsHiddenError,
        "the host signed a receipt for your seed, then sent the table as it stands instead of "
        "the round's seeds, so you cannot see whether it kept your seed in: a host that does "
        "this can leave your seed out unseen, which its receipt was there to prevent",
    ),
    (
        e.BadSignatureError,
        "the host's signature does not match what the file records: the record was changed "
        "after the host signed it (or the file is damaged)",
    ),
    (
        e.DigestMismatchError,
        f"{CHANGED}: its cards do not match what the host committed to before the deal",
    ),
    (
        e.HostSeedMismatchError,
        "the shuffle the host revealed after the round does not give the deck it committed to "
        "before the deal: the host did not deal the deck it promised, or the record was changed",
    ),
    (
        e.CommitmentMismatchError,
        "a player's share of the shuffle is not the one they sealed before the deal: the host "
        "mixed in another, or the record was changed",
    ),
    (
        e.HostLiedError,
        "the host signed a receipt for your share of the shuffle, then shuffled without it: "
        "the host went back on its word, or the record was changed",
    ),
    (
        e.ExclusionMismatchError,
        "a player's share of the shuffle was left out (or kept in) against what the record "
        "shows: the host bent the shuffle, or the record was changed",
    ),
    (
        e.BadReceiptError,
        "the host's receipt for your share of the shuffle does not fit this round: the host "
        "gave a receipt for something else, or the record was changed",
    ),
    (
        e.SwappedCardError,
        "a card in the record is not the card the shuffle put at that place in the deck: "
        "the host dealt a different card, or the record was changed",
    ),
    (
        e.WrongSaltError,
        f"{CHANGED}: a card's secret code is not the one the host committed to with it "
        "before the deal",
    ),
    (
        e.MisroutedCardError,
        "cards went where the deal does not send them (to your hand, or to the table): the "
        "host dealt out of order, or the record was changed",
    ),
    (
        e.DuplicateCardError,
        "the same card, or the same place in the deck, came twice in one round: the host "
        "dealt it twice, or the record was changed",
    ),
    (
        e.CardCheckError,
        "a card is not the one the host committed to before the deal: the host dealt another "
        "card, or the record was changed",
    ),
    (
        e.IllegalPlayRecordedError,
        "a play in the record is against the rules at that point: the host allowed it, or "
        "the record was changed",
    ),
    (
        e.IncompleteRoundError,
        "the plays recorded do not make one whole round (some are missing, or some come after "
        "the end): the host ended it at the wrong time, or the record was changed",
    ),
    (
        e.ScoreMismatchError,
        "the score recorded is not the score the plays give: the host counted wrong, or the "
        "score was changed in the file",
    ),
    (
        e.VoidMismatchError,
        "the deal is recorded as called off (void) when the rules do not call it off, or the "
        "other way round: the host broke the rule, or the record was changed",
    ),
    (
        e.NotRevealedError,
        "this round cannot be checked: the secrets that prove its shuffle were never revealed "
        "(the round did not finish, or they were held back)",
    ),
    (
        e.UnfinishedMatchError,
        "the file names a winner, but the host never signed the end of the match: that result "
        "was not given by the host",
    ),
)

_BLIND: dict[str, str] = {
    blind.BAD_KEY: "the key {who} locked the deck with is not a valid key",
    blind.BAD_SIGNATURE: "a signature by {who} does not match what the file records",
    blind.BAD_DECK: "the locked, shuffled deck from {who} is not a valid deck",
    blind.BAD_SHUFFLE_PROOF: "the deck from {who} is not a shuffle of the deck it was given",
    blind.BAD_SHARES: "the parts {who} gave to unlock the cards are missing, extra or wrong",
    blind.BAD_SHARE: "a part {who} gave to unlock a card is wrong",
    blind.NO_CARD: "a card on the table does not unlock to the card the record shows",
    blind.DUPLICATED_CARD: "the same card came twice in one round",
    blind.BAD_PLAY: "a play's proof that its card came from the player's own hand does not hold",
    blind.MISROUTED: "cards went where the deal does not send them",
    blind.OUT_OF_TURN: "a play was made out of turn",
    blind.WRONG_SECRET: "the secret {who} revealed after the round is not the one behind its key",
    blind.SUBSTITUTED_CARD: "a card was swapped: it is not the card the shuffles put there",
    blind.BAD_VOID: "the round is called off (void) for a reason the record does not bear out",
}


def who_is(party: int | None, people: Sequence[int] = ()) -> str:
    """A party as a person reads it: ``the host`` (party 0), ``seat 3`` for party p >= 1 when
    the round's ``people`` (party p is seat ``people[p - 1]``) are known (the caller names the
    seat's person), else ``party 4 (a player)``."""
    if party is None:
        return "a player or the host"
    if party == 0:
        return "the host"
    return f"seat {people[party - 1]}" if party <= len(people) else f"party {party} (a player)"


def _blind_words(error: blind.BlindCheckError, people: Sequence[int]) -> str:
    if error.check == blind.NOT_REVEALED:
        return what_failed(e.NotRevealedError(str(error)))
    who = who_is(error.party, people)
    what = _BLIND.get(error.check, "a check of the shuffle or the deal failed")
    if error.signed_both:
        return (
            f"{what.format(who=who)}: {who} signed two different versions of its part, and "
            "the file holds both signatures, which no change to the file could make: "
            f"{who} cheated"
        )
    if error.check == blind.BAD_SIGNATURE:
        return f"{what.format(who=who)}: the record was changed after it was signed (or is damaged)"
    return f"{what.format(who=who)}: {who} cheated, or the record was changed"


LIVE_BROKEN_CHAIN = (
    "what the host sent does not follow on from the rounds this seat saw and checked: the "
    "host opened a round on another record than theirs (it rewrote the match behind this "
    "seat's back), or sent a step of a round out of turn"
)
"""What a broken chain means to a seat that meets it live: there is no file yet that could
have been changed or damaged. The host's new round links to another chain than the one this
seat checked (after a catch-up, say), or skips a number, or a round's steps come out of
order."""


def what_failed(error: e.FairnessError, people: Sequence[int] = (), *, live: bool = False) -> str:
    """One sentence a player understands: what does not match, and what can cause that.
    ``people``: a blind round's seats by party (party p >= 1 is seat ``people[p - 1]``), so that
    a party at fault is named by its seat. ``live``: met by a seat at play (no file to have
    been changed or damaged), not read from a file."""
    if isinstance(error, blind.BlindCheckError):
        return _blind_words(error, people)
    if live and type(error) is e.BrokenChainError:  # (not a dealer out of turn)
        return LIVE_BROKEN_CHAIN
    for kind, words in _BY_TYPE:
        if isinstance(error, kind):
            return words
    return "a check failed: the record does not hold up"
