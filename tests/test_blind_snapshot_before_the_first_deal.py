"""The snapshot of a blind table whose round 1 was void before its first deal (protocol.md 3.9
`snapshot`, 9.7).

Round 1's keys all came, so it drew the match's first dealer (9.5.5), and then the person's
shuffle never came: round 1 is void (`absent`) with nothing dealt. The person takes the seat
back, caught up by snapshot, before round 2 is dealt. Nothing was dealt yet, so the snapshot
shows `round_no` 0 and, as its field text says, `dealer` 0 ("meaning nothing"), and `voids`
counts only void rounds `round_no` counts (none yet): `round_no` less `voids` is the number
of rounds played out, never below 0. The person picks a key whose draw makes seat 1 the
first dealer, so a host that shows the drawn dealer is caught every time. Every frame the
host sends is checked field by field too (``document_fields``).

Real host over loopback TCP; the person is a bare protocol seat.
"""

from __future__ import annotations

import trio
from field_watching import Watches
from helpers import key_drawing_dealer
from hosting import create, start_host
from rawseat import RawSeat

from scopa_net.rules import RuleSet
from scopa_net.server.blind_table import key_info
from scopa_net.wire import messages as m


async def test_a_snapshot_after_a_void_before_the_first_deal_shows_round_0_dealer_0() -> None:
    rules = RuleSet.of(2, 11)
    watches = Watches()
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0, seed_timeout=0.5, replay_limit=0)
        stream = await trio.open_tcp_stream("127.0.0.1", host.port)
        ada = await RawSeat.over(watches.raw(stream, "ada"), auto_seeds=False)
        table_id = await ada.create(create(rules, bots=1, blind=True))
        await ada.join(table_id, name="Ada")
        opened = await ada.until(lambda msg: isinstance(msg, m.BlindRound))
        assert isinstance(opened, m.BlindRound)
        assert opened.round_no == 1
        mine = key_drawing_dealer(opened, 1, rules.players)
        await ada.send(m.BlindKey(round_id=opened.round_id, key=key_info(mine.key)))
        keys = await ada.until(lambda msg: isinstance(msg, m.BlindKeys))
        assert isinstance(keys, m.BlindKeys)
        assert keys.dealer == 1  # round 1 drew the first dealer
        # Ada never shuffles: past the deadline round 1 is void, nothing dealt.
        void = await ada.until(lambda msg: isinstance(msg, m.RoundVoid | m.BlindDeal))
        assert isinstance(void, m.RoundVoid)
        await ada.until(lambda msg: isinstance(msg, m.RoundReveal))
        assert ada.token is not None
        last_seq = ada.seq
        await ada.aclose()

        stream = await trio.open_tcp_stream("127.0.0.1", host.port)
        back = await RawSeat.over(watches.raw(stream, "ada back"), auto_seeds=False)
        await back.send(m.Resume(table_id=table_id, seat=0, token=ada.token, last_seq=0))
        resumed = await back.until(lambda msg: isinstance(msg, m.Resumed))
        assert isinstance(resumed, m.Resumed)
        assert resumed.catch_up == "snapshot"
        snap = await back.until(lambda msg: isinstance(msg, m.Snapshot))
        assert isinstance(snap, m.Snapshot)
        assert snap.seq >= last_seq  # after round 1's reveal
        assert snap.round_no == 0
        assert snap.dealer == 0
        assert snap.voids <= snap.round_no
        assert snap.voids == 0
        assert not snap.redeal
        await back.aclose()
        nursery.cancel_scope.cancel()
    assert watches.problems == []
