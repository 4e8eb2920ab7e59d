"""What can be wrong at a blind table: one error type, naming the check and the party at fault.

Every check of protocol.md 9.6 and 9.9 raises :class:`BlindCheckError` (a
:class:`~scopa_net.fair.errors.FairnessError`); ``check`` is its short name and ``party`` the
party the record proves at fault (None when the record cannot yet say who).
"""

from __future__ import annotations

from scopa_net.fair.errors import FairnessError

BAD_KEY = "bad key"
BAD_SIGNATURE = "bad party signature"
BAD_DECK = "bad deck"
BAD_SHUFFLE_PROOF = "bad shuffle proof"
BAD_SHARES = "bad shares"
NO_CARD = "no card"
DUPLICATED_CARD = "duplicated card"
BAD_PLAY = "bad play proof"
MISROUTED = "misrouted card"
OUT_OF_TURN = "out of turn"
WRONG_SECRET = "wrong secret"
SUBSTITUTED_CARD = "substituted card"
BAD_SHARE = "bad share"
BAD_VOID = "bad void"
NOT_REVEALED = "not revealed"


class BlindCheckError(FairnessError):
    """A blind-table check failed. ``party`` is the party at fault, when the record shows it;
    ``signed_both`` when the record holds that party's signature on two different versions of
    the same thing (so no change to the file could have made the failure)."""

    def __init__(
        self, check: str, detail: str, party: int | None = None, *, signed_both: bool = False
    ) -> None:
        self.check = check
        self.party = party
        self.signed_both = signed_both
        who = "" if party is None else f" (party {party})"
        super().__init__(f"{check}{who}: {detail}")
