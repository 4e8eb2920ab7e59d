"""The random player: any legal play, each equally likely."""

from __future__ import annotations

from scopa_net.bots.base import decision_rng
from scopa_net.bots.observed import Observed
from scopa_net.plays import Play
from scopa_net.view import SeatView


class RandomPlayer:
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: SeatView) -> Play:
        codes = Observed.from_view(view).legal_codes()
        return Play.from_code(decision_rng(self.seed, view).choice(codes))
