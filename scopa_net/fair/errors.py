"""What can be wrong with a fair deal or a transcript, one type per fault.

Every type is a :class:`FairnessError` (a ``ValueError``) whose message says exactly what does
not match. :class:`TranscriptFormatError` is a file that cannot be read at all; the others are
a well-formed record that does not hold up.
"""

from __future__ import annotations


class FairnessError(ValueError):
    """Something in a deal or a transcript does not verify."""


class TranscriptFormatError(FairnessError):
    """A transcript file that is not a well-formed, canonically encoded transcript."""


class NotATranscriptError(TranscriptFormatError):
    """A file that is not one msgpack value at all: another kind of file, or one damaged past
    reading."""


class OtherVersionError(TranscriptFormatError):
    """A transcript of a version this code does not read: made by another version of
    scopa-net, not damaged."""


class CutShortError(NotATranscriptError):
    """A file that ends part-way through its value (or holds no bytes at all): damaged, or read
    while it was still being written."""


class HostSeedMismatchError(FairnessError):
    """The revealed host seed does not reproduce the committed card hashes or digest."""


class CommitmentMismatchError(FairnessError):
    """A seat's revealed seed does not match the commitment it made."""


class CardCheckError(FairnessError):
    """A dealt or played card is not the one committed at its deck position."""


class SwappedCardError(CardCheckError):
    """A different card arrived than the one committed at that position."""


class WrongSaltError(CardCheckError):
    """The right card arrived with the wrong salt."""


class MisroutedCardError(CardCheckError):
    """A card was dealt to a seat or place the deal plan does not send that position to."""


class ReplayedRoundError(FairnessError):
    """A round id seen before in the same match."""


class RerolledRoundError(FairnessError):
    """A round opened again: a ``round_commit`` while the round in play was not finished and
    revealed, or one whose number a ``round_commit`` of the match already had (a re-roll)."""


class ComputerSeedError(FairnessError):
    """A commitment relayed for a computer player's seat (``kind`` bot): the host plays that
    seat, so the seed would be the host's own choice (protocol.md 5.4)."""


class ComputerPartyError(FairnessError):
    """A blind round's ``people`` name a seat no person holds (a computer player's, or an open
    seat): the host would play that party itself (protocol.md 9.5.1)."""


class AbsentSeatSeedError(FairnessError):
    """A commitment relayed for a person's seat whose player was not connected when the round
    opened and has not come back since: no client of theirs sent it (protocol.md 5.4)."""


class SeedsHiddenError(FairnessError):
    """The host signed a receipt for this seat's seed, then caught the seat up by snapshot past
    the round's ``seed_reveals``: whether the seed counted cannot be checked (protocol.md 5.4)."""


class BrokenChainError(FairnessError):
    """A round does not link to the round before it (chain hash or round number)."""


class DealerMismatchError(BrokenChainError):
    """A blind round dealt by another seat than the match's dealer: the first deal's as the
    keys draw it, a later one's as the rotation gives it (protocol.md 9.5.3, 9.9 step 4). A
    *broken chain*, as protocol.md names it: the record's dealer does not follow on from the
    rounds before."""


class ChangedPlayError(FairnessError):
    """The host recorded a play for this seat other than the one its client sent (another
    capture, another card, or a play it never sent): seen by the seat as the ``played`` event
    arrives (protocol.md 3.5); the transcript holds only the play the host relayed."""


class BadSignatureError(FairnessError):
    """A host signature that does not verify under the host's key."""


class IllegalPlayRecordedError(FairnessError):
    """A recorded play that the rules do not allow at that point."""


class ScoreMismatchError(FairnessError):
    """A round score or match result that replaying the plays does not give."""


class VoidMismatchError(FairnessError):
    """A void round that should not be void, or a void deal that was played on."""


class NotRevealedError(FairnessError):
    """A round whose host seed or seat seeds were never revealed."""


class DigestMismatchError(FairnessError):
    """The committed card hashes do not hash to the committed digest."""


class IncompleteRoundError(FairnessError):
    """A revealed round whose plays stop before the round is over, or go on after it."""


class ExclusionMismatchError(FairnessError):
    """A seat left out of the joint seed (or kept in it) against what the record shows."""


class HostLiedError(ExclusionMismatchError):
    """The host signed a receipt for a seat's good seed, then left that seed out."""


class BadReceiptError(FairnessError):
    """A seed receipt that does not verify, or that names another round, seat or seed."""


class DuplicateCardError(CardCheckError):
    """A deck position or a card that arrived a second time in one round."""


class UnfinishedMatchError(FairnessError):
    """A match end that is missing its signature, or a result that claims an end unsigned."""


class EmptyTranscriptError(FairnessError):
    """A transcript with no rounds: there is nothing in it to verify."""
