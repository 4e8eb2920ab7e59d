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


def relay_another_capture(
    monkeypatch: pytest.MonkeyPatch, seat: int, changed: list[tuple[int, int, int]]
) -> None:
    """At an ordinary or a blind table, the first play ``seat``'s client sends that has
    another legal capture for its card is applied with that other capture (the other of two
    equal table cards, a sum instead of a pair...): the ``ack`` is as for the play sent, the
    ``played`` relays the other one. What it did goes in ``changed``: (card, captured sent,
    captured relayed)."""
    from scopa_net.plays import CARD_BITS
    from scopa_net.server.blind_table import BlindTable

    for kind in (Table, BlindTable):
        honest = kind.__dict__["play"]

        def cheating(  # noqa: PLR0917 (Table.play's own arguments)
            table, at, move_id, after, card, captured, *args, _honest=honest, **kw
        ):
            rnd = table.match.round if table.match is not None else None
            other = None
            if at == seat and move_id is not None and not changed and rnd is not None:
                codes = rnd._rule.codes(card, rnd.table_mask, rnd.laid)
                taken = [code >> CARD_BITS for code in codes]
                others = [mask for mask in taken if mask != captured]
                if captured in taken and others:
                    other = others[0]
            if other is None:
                return _honest(table, at, move_id, after, card, captured, *args, **kw)
            answer = _honest(table, at, move_id, after, card, other, *args, **kw)
            changed.append((card, captured, other))
            return answer

        monkeypatch.setattr(kind, "play", cheating)


def play_once_for(
    monkeypatch: pytest.MonkeyPatch,
    seat: int,
    played_for: list[int],
    *,
    turn: int = 1,
    connected: bool = False,
) -> None:
    """The host's computer plays one card for ``seat``'s person in round 1, on their second
    turn (``turn``: counted from 0), though they are connected and no computer was announced
    standing in for them (no ``seat_status``): a card the person never played. ``played_for``
    gets the plays left in the round then. ``connected``: not before the person's connection
    is there (a host started again then plays as they resume)."""
    from scopa_net.server.table import Phase
    from scopa_net.server.table_task import TableTask

    honest = TableTask._automatic

    def cheating(task: TableTask, at: int) -> bool:
        table = task.table
        rnd = table.match.round if table.match is not None else None
        if at == seat and rnd is not None and table.phase is Phase.PLAY and rnd.turn == at:
            turns_made = len(rnd.plays) // table.rules.players
            there = table.seats[at].connected or not connected
            first = played_for in ([], [rnd.plays_left])
            if table.round_no == 1 and turns_made == turn and there and first:
                played_for[:] = [rnd.plays_left]
                return True
        return honest(task, at)

    monkeypatch.setattr(TableTask, "_automatic", cheating)


def rewrite_a_play(
    monkeypatch: pytest.MonkeyPatch,
    seat: int,
    play: tuple[int, int],
    into: tuple[int, int],
    rewritten: list[tuple[int, int]],
) -> None:
    """The host, started again on its journal, rebuilds its tables with ``seat``'s ``play``
    (card, captured) rewritten as the play ``into``: the play in its events from then on is
    one the person never made (its card's deck position and salt the host's own, as for any
    card it dealt). ``rewritten`` gets ``into`` once it is done."""
    honest = Table.replay

    def cheating(table: Table, entries: list[tuple[str, dict]]) -> None:
        replayed = []
        for kind, payload in entries:
            mine = kind == "play" and payload.get("seat") == seat
            if mine and (payload["card"], payload["captured"]) == play:
                payload = {**payload, "card": into[0], "captured": into[1]}
                rewritten.append(into)
            replayed.append((kind, payload))
        honest(table, replayed)

    monkeypatch.setattr(Table, "replay", cheating)


def relay_another_card(
    monkeypatch: pytest.MonkeyPatch, seat: int, changed: list[tuple[int, int, int, int]]
) -> None:
    """At an ordinary table, the first play ``seat``'s client sends while it holds another
    card is applied as a legal play of that other card: the ``ack`` is as for the play sent,
    the ``played`` relays a card the person did not play. What it did goes in ``changed``:
    (card sent, captured sent, card relayed, captured relayed)."""
    honest = Table.play

    def cheating(  # noqa: PLR0917 (Table.play's own arguments)
        table: Table, at: int, move_id: int | None, after: int, card: int, captured: int
    ) -> tuple[int, bool]:
        rnd = table.match.round if table.match is not None else None
        if at == seat and move_id is not None and not changed and rnd is not None:
            others = [p for p in rnd.legal_plays() if p.card.index != card]
            if rnd.turn == at and others:
                other = others[0]
                changed.append((card, captured, other.card.index, other.captured_mask))
                return honest(table, at, move_id, after, other.card.index, other.captured_mask)
        return honest(table, at, move_id, after, card, captured)

    monkeypatch.setattr(Table, "play", cheating)
