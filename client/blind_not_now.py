"""This seat's blind stage messages the host answered "not now" (protocol.md 9.5, 3.6): a
``blind_key``, ``blind_shuffle``, ``blind_shares`` or ``blind_reveal`` refused ``error storage``
(its journal cannot be written just now) or ``error rate_limited`` was not taken, and the round
still waits for it. As a seed does (:mod:`~scopa_net.client.seeds_not_now`), the very message
refused goes again, byte for byte (never one made anew: a second key, deck or set of shares
would let a host that saw both choose between two deals, 9.5), after the pauses of
:mod:`~scopa_net.client.not_now`, until the host takes it or its stage is over: any other
answer to it (``wrong_phase``), the host's event that ends the stage, or a new connection (the
resume sends what the round still waits on, 9.7).
"""

from __future__ import annotations

from scopa_net.client.not_now import WHY
from scopa_net.client.seeds_not_now import SeedsNotNow
from scopa_net.wire import messages as m

BLIND_SENDS = ("blind_key", "blind_shuffle", "blind_shares", "blind_reveal")
"""What a seat sends at a blind table, as an ``error``'s ``ref`` names them."""

WHAT_GOES = {
    "blind_key": "Your key for the coming shuffle",
    "blind_shuffle": "Your shuffle of the deck",
    "blind_shares": "Your part in opening the cards just dealt",
    "blind_reveal": "Your random seed for the round just over",
}
"""What the person reads goes again, by message type."""


def blind_goes_again(ref: str, code: str) -> str:
    """The one line a person reads while their blind message ``ref`` waits for a host that
    refused it for now (the words of a seed's wait, :func:`~.seeds_not_now.seed_goes_again`)."""
    return f"{WHAT_GOES[ref]} goes to the host again in a moment, by itself: {WHY[code]}."


class BlindNotNow(SeedsNotNow):
    """The blind stage messages refused for now, when each goes again, whether it was said."""

    SENDS = BLIND_SENDS

    def _goes_again(self, ref: str, code: str) -> str:
        return blind_goes_again(ref, code)

    def moved_on(self, event: m.Message) -> None:
        """A table event: one that ends a held message's stage ends its wait (a new round;
        the keys relayed; this seat's deck relayed, or the deal opened; the deal its shares
        are for relayed; the seeds relayed; a void ends every stage but the seed's)."""
        if isinstance(event, m.BlindRound):
            self.forget_all()
        elif isinstance(event, m.BlindKeys):
            self._forget("blind_key")
        elif isinstance(event, m.BlindDeck):
            shuffle = self._sent.get("blind_shuffle")
            if isinstance(shuffle, m.BlindShuffle) and shuffle.deck == event.deck:
                self._forget("blind_shuffle")
        elif isinstance(event, m.BlindOpen):
            self._forget("blind_shuffle")  # (every deck is out)
        elif isinstance(event, m.BlindDeal):
            shares = self._sent.get("blind_shares")
            if isinstance(shares, m.BlindShares) and shares.deal == event.deal:
                self._forget("blind_shares")
        elif isinstance(event, m.RoundVoid):
            for ref in ("blind_key", "blind_shuffle", "blind_shares"):
                self._forget(ref)
        elif isinstance(event, m.BlindReveals | m.RoundReveal):
            self._forget("blind_reveal")
