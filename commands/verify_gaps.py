"""What a transcript cannot show ``scopa-net verify``: the one line said of a file that does not
record who held each seat (protocol.md 6.3), in full and in ``--brief``'s line a file."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scopa_net.fair.transcript import Transcript

UNSEATED_WORDS = (
    "not checked: this file (a host's export, or an older client's: transcript version 2) does "
    "not record which seats were computer players or away, so a seed the host slipped in for "
    "one of them cannot be refused here; the file the seat's own client saved records it"
)
"""Said of an ordinary table's transcript that does not say who could send each seat's seed
(protocol.md 6.1, 6.3)."""
UNSEEN_BRIEF = "not checked: the rounds this seat did not see (caught up by snapshot, 6.2)"
"""``--brief``'s words for a file of a seat caught up by snapshot (version 7, protocol.md 6.3)."""
UNSEATED_BRIEF = (
    "not checked: a seed slipped in for a computer player or a seat away (transcript version 2)"
)


def unseated_blind_words(version: int) -> str:
    """Said of a blind table's transcript that does not say which seats a computer held
    (version 4 or 3, protocol.md 9.8)."""
    return (
        f"not checked: this file (a host's export, or an older client's: blind transcript "
        f"version {version}) does not record which seats a computer held, so a round that "
        "made a computer's seat a party (a party the host plays itself) cannot be refused here; "
        "the file the seat's own client saved records it"
    )


def unseated_blind_brief(version: int) -> str:
    """``--brief``'s words for :func:`unseated_blind_words`: what was not checked, not a claim
    that it happened (a host's export of a table with no computer reads it too)."""
    return (
        "not checked: whether a computer's seat was made a party (blind transcript version "
        f"{version})"
    )


def gap_words(transcript: Transcript) -> str | None:
    """The line ``verify`` says of ``transcript`` if it cannot show who held each seat."""
    if transcript.records_seated:
        return None
    if transcript.blind:
        return unseated_blind_words(transcript.blind_version)
    return UNSEATED_WORDS


def gap_brief(line: str) -> str | None:
    """``--brief``'s words for a line :func:`gap_words` says, else None."""
    if line == UNSEATED_WORDS:
        return UNSEATED_BRIEF
    for version in (3, 4):
        if line == unseated_blind_words(version):
            return unseated_blind_brief(version)
    return None
