"""A person who answered yes to playing again, whose client then died, takes the seat back
after everyone agreed: the ``agreed`` vote comes in the replay, to a client started afresh
that never sent that yes itself. The seat keeps the answer (protocol.md 3.11), so the new
match is hers, not one "you did not agree to". Real host over loopback TCP."""

from __future__ import annotations

from pathlib import Path

import trio
from hosting import create, start_host
from person_screen import Player, plays_the_first_legal_card, sit, until

from scopa_net.client.asking import Asking
from scopa_net.client.seat_store import SeatRecord, SeatStore
from scopa_net.rules import RuleSet
from scopa_net.server.host import Host


async def ada_and_bruno(nursery: trio.Nursery, tmp_path: Path) -> tuple[Host, Player, Player]:
    """A host, and Ada and Bruno at the table she opens, a match to 1, both offered to play
    again once it is over."""
    host = await start_host(nursery, bot_delay=0.0, grace=60.0)
    ada = await sit(
        nursery, host, "Ada", tmp_path, create=create(RuleSet.of(2, 1)), offer_rematch=True
    )
    table_id = ada.session.table_id
    bruno = await sit(nursery, host, "Bruno", tmp_path, table_id=table_id, offer_rematch=True)
    return host, ada, bruno


async def test_a_yes_kept_with_the_seat_takes_her_into_the_new_match(tmp_path: Path) -> None:
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            host, ada, bruno = await ada_and_bruno(nursery, tmp_path)
            table_id = ada.session.table_id
            for player in (ada, bruno):
                nursery.start_soon(plays_the_first_legal_card, player)
            await until(lambda: bruno.controller.state.asking is Asking.REMATCH)
            await until(lambda: ada.controller.state.asking is Asking.REMATCH)
            await ada.type("y")
            await until(lambda: "rematch: waiting for you" in bruno.text)  # her yes is in
            (record,) = SeatStore(tmp_path / "Ada").records()
            assert record.rematch_yes == 1
            ada.crash()
            await bruno.type("y")
            await until(lambda: "a new match begins" in bruno.text)
            (record,) = SeatStore(tmp_path / "Ada").records()
            back = await sit(
                nursery, host, "Ada", tmp_path, table_id=table_id, resume_from=record,
                offer_rematch=True,
            )  # fmt: skip
            await until(lambda: back.session.view is not None and back.session.match_no == 2)
            assert "did not agree to" not in back.text, back.text
            assert "Back in your seat" in back.text, back.text
            nursery.cancel_scope.cancel()


def kept(tmp_path: Path) -> SeatRecord:
    """Ada's one seat record on disk."""
    (record,) = SeatStore(tmp_path / "Ada").records()
    return record


async def test_her_plays_of_the_match_before_a_rematch_do_not_carry_over(tmp_path: Path) -> None:
    """Ada plays a match out and everyone agrees to play again; her seat's record then keeps
    only the plays the host acknowledged in the new match (those of the match before are
    never replayed to a client taking the seat back). Her client dies after a few plays
    there, and ``join`` takes the seat back: the replay holds those plays, taken as hers,
    and she plays on with nothing stopping her client."""
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            host, ada, bruno = await ada_and_bruno(nursery, tmp_path)
            table_id = ada.session.table_id
            playing = trio.CancelScope()

            async def ada_plays() -> None:
                with playing:
                    await plays_the_first_legal_card(ada)

            nursery.start_soon(ada_plays)
            nursery.start_soon(plays_the_first_legal_card, bruno)
            await until(lambda: bruno.controller.state.asking is Asking.REMATCH)
            await until(lambda: ada.controller.state.asking is Asking.REMATCH)
            before = kept(tmp_path).acked
            assert before  # (her plays of match 1)
            await ada.type("y")
            await bruno.type("y")
            await until(lambda: "a new match begins" in ada.text)
            await until(lambda: len(kept(tmp_path).acked or ()) >= 3)
            playing.cancel()
            ada.crash()
            record = kept(tmp_path)
            assert record.match_no == 2
            assert record.acked is not None
            assert all(p.seq > record.match_seq for p in record.acked), record
            back = await sit(
                nursery, host, "Ada", tmp_path, table_id=table_id, resume_from=record,
                offer_rematch=True,
            )  # fmt: skip
            await until(lambda: "Back in your seat" in back.text)
            nursery.start_soon(plays_the_first_legal_card, back)
            await until(lambda: kept(tmp_path).last_played > record.last_played)
            nursery.cancel_scope.cancel()
    assert "DEAL CHECK FAILED" not in back.text, back.text
    assert back.session.deal_failure is None
