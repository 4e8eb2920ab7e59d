"""Cheats for a dishonest host: the real host with one method of its table replaced (what a
host built from protocol.md could do), for the tests that must catch them."""

from __future__ import annotations

import pytest

from scopa_net.server.table import Table


def leave_out_after_its_receipt(monkeypatch: pytest.MonkeyPatch, seat: int) -> None:
    """The host takes the seat's good seed (and signs the receipt), then deals without it."""
    original = Table._deal_round

    def cheating(self: Table) -> None:
        if self.round is not None and self.round_no == 1:
            self.round.seeds[seat] = None  # "it never came"
        original(self)

    monkeypatch.setattr(Table, "_deal_round", cheating)
