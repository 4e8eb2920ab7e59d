"""A person back by snapshot while the next blind round is being set up without them.

Found with a busy host (notes s44, F4): Bruno's client died, his grace time ran out (round 1
void), and he took his seat back, caught up by snapshot, while round 2, dealt without him,
waited for its keys and shuffles. The snapshot was of round 1's end and did not say that a
round he sits out was under way, so his client took round 2's first deal for a later one of
round 1: plays of cards not on his table, then "Your turn." with no card in his hand.

Real host on loopback TCP that replays a resume at most one missed event (``replay_limit``),
so Bruno is caught up by snapshot; Ada's client is real, her bytes to the host held while
Bruno comes back (a busy machine: the round's setup waits for her key), and both screens are
read as a person reads them.
"""

from __future__ import annotations

from pathlib import Path

import trio
from held_setup import ada_and_bruno_in_play, plays_her_turns
from person_screen import sit, until

from scopa_net.client.seat_store import SeatStore
from scopa_net.rules import RuleSet


async def test_back_by_snapshot_while_a_blind_round_without_him_is_set_up(tmp_path: Path) -> None:
    async with trio.open_nursery() as nursery:
        held = await ada_and_bruno_in_play(nursery, tmp_path, RuleSet.of(3, 11), bots=1)
        host, ada, bruno, ada_link = held.host, held.ada, held.bruno, held.link
        table = host.tables[ada.session.table_id].table
        crashed_in = held.in_play  # 1, or the redeal after a deal void for its kings
        ada_link.held = True  # from now her key for the next round waits
        bruno.crash()  # kill -9: past his grace time round 1 is void
        sat_out = crashed_in + 1  # the round set up without him
        await until(
            lambda: (
                table.blind_round is not None
                and table.blind_round.round_no == sat_out
                and table.blind_round.people == (0,)
                and table.blind_round.public is None
            )
        )
        (record,) = SeatStore(tmp_path / "Bruno").records()
        back = await sit(
            nursery, host, "Bruno", tmp_path, table_id=record.table_id, resume_from=record
        )
        await until(lambda: "Back in your seat" in back.text)
        ada_link.sent.set()
        nursery.start_soon(plays_her_turns, ada.session)
        # (He plays his own turns from the round after: one in play at once if the round he
        # sat out was void for its kings.)
        nursery.start_soon(plays_her_turns, back.session)
        await until(lambda: table.round_no >= sat_out and table.phase.value == "play")
        await until(lambda: len(table.match.round.plays) >= 4 if table.match.round else False)
        played_in = table.round_no  # the round he sat out, or the one dealt after its void
        # His board is the table's: it comes to hold what Ada's holds (a board left at round
        # 1's end, plays of other cards applied to it, never would).
        await until(lambda: back.session.view.table == ada.session.view.table)
        nursery.cancel_scope.cancel()
    text = back.text
    shown = text[text.index("Back in your seat") :]
    sitting_out = round_on_screen(back.lines, sat_out)
    assert "Your turn." not in sitting_out, text
    if played_in == sat_out:
        assert "A computer plays your seat this round" in sitting_out, text
    else:  # void for its kings: over at its deal, his hand never played
        assert "Your hand (a computer plays it this round)" in sitting_out, text
        assert "Void deal: three kings on the table" in sitting_out, text
        assert played_in == sat_out + 1, text
        assert f"Round {played_in} (round {sat_out} dealt again)  dealer" in shown, text


def round_on_screen(lines: list[str], round_no: int) -> str:
    """What a screen printed from round ``round_no``'s first board to the next round's."""
    heads = [n for n, line in enumerate(lines) if line.startswith(f"Round {round_no} ")]
    assert heads, f"no board of round {round_no} on this screen:\n" + "\n".join(lines)
    after = [n for n, line in enumerate(lines) if line.startswith(f"Round {round_no + 1} ")]
    return "\n".join(lines[heads[0] : (after or [len(lines)])[0]])
