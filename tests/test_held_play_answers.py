"""protocol.md 3.5: a move whose answer was lost with its connection is answered when it is
sent again after the resume, however the seat was caught up: ``ack {duplicate: true}`` naming
its original ``played``, even where the ``snapshot`` that caught the seat up covered that
event, so a client holding that ``played`` (a play of its seat read while its move was
unanswered) has it named by an answer. A raw seat at our real host over loopback."""

from __future__ import annotations

import trio
from hosting import create, start_host
from rawseat import RawSeat

from scopa_net.rules import RuleSet
from scopa_net.wire import messages as m


async def test_a_move_sent_again_after_a_snapshot_is_acknowledged_as_its_original_play() -> None:
    """Ada plays, and her connection is lost with the answer on its way. A computer plays for
    her past the grace period until a later round is under way, far past the host's replay
    limit: she is caught up by snapshot, which stands for her play's event. Her move sent again
    gets ``ack {duplicate: true}`` with that event's ``seq``, not a refusal."""
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0, grace=0.1, replay_limit=8)
            ada = await RawSeat.connect(host.port)
            table_id = await ada.create(create(RuleSet.of(2, 21), bots=1))
            await ada.join(table_id, name="Ada")
            await ada.until(lambda msg: ada.mirror is not None and ada.view.to_move == ada.seat)
            read_before = ada.seq
            play = ada.my_plays()[0]
            move = m.Play(
                move_id=1, after=read_before, card=play.card.index, captured=play.captured_mask
            )
            answered = await ada.play(1, play)
            assert isinstance(answered, m.Ack), answered
            await ada.aclose()  # as if the answer, and every event after it, were lost

            table = host.tables[table_id].table
            while table.dealt_round_no < 3:
                await trio.sleep(0.05)  # a computer plays for her meanwhile
            assert table.seats[0].seq - read_before > 8  # past the replay limit

            back = await RawSeat.connect(host.port)
            assert ada.token is not None
            await back.send(
                m.Resume(table_id=table_id, seat=0, token=ada.token, last_seq=read_before)
            )
            resumed = await back.until(lambda msg: isinstance(msg, m.Resumed))
            assert isinstance(resumed, m.Resumed)
            assert resumed.catch_up == "snapshot"
            snapshot = await back.until(lambda msg: isinstance(msg, m.Snapshot))
            assert isinstance(snapshot, m.Snapshot)
            assert snapshot.seq >= answered.seq  # it stands for her play's event
            await back.send(move)
            again = await back.answer(1)
            assert again == m.Ack(move_id=1, seq=answered.seq, duplicate=True)
            await back.aclose()
            nursery.cancel_scope.cancel()


async def test_a_move_sent_just_before_leave_is_answered_before_left() -> None:
    """3.5: a ``left`` answering the player's own ``leave`` leaves no move unanswered: the table
    answers the requests handed to it in turn, so a ``play`` written in the same burst as the
    ``leave`` gets its ``ack`` before the ``left``."""
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0)
            ada = await RawSeat.connect(host.port)
            table_id = await ada.create(create(RuleSet.of(2, 21), bots=1))
            await ada.join(table_id, name="Ada")
            await ada.until(lambda msg: ada.mirror is not None and ada.view.to_move == ada.seat)
            play = ada.my_plays()[0]
            move = m.Play(
                move_id=1, after=ada.seq, card=play.card.index, captured=play.captured_mask
            )
            await ada.send(move)  # and at once, not waiting for its answer:
            await ada.send(m.Leave(away=True))
            answers = []
            while not isinstance(msg := await ada.receive(), m.Left):
                if isinstance(msg, m.Ack | m.Reject):
                    answers.append(msg)
            assert [type(a) for a in answers] == [m.Ack], answers
            assert answers[0].move_id == 1
            await ada.aclose()
            nursery.cancel_scope.cancel()
