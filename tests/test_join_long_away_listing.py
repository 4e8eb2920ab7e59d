"""What `scopa-net join` says of a listed seat a newcomer may take from a player away too long,
and of a seat a table was created with for a computer player.

The listing is the host's (protocol.md 3.3: the seat's name ends in ` <away>`; see
tests/test_seat_taken_after_long_away.py). Before, Lea read "no table has an open seat" and
"has no table 1 with an open seat" for Ivo's seat, and a seat named that was a computer
player's read "is taken by bot 1".
"""

from __future__ import annotations

import pytest

from scopa_net.commands.join_tables import describe_table, named_table
from scopa_net.commands.options import CommandError
from scopa_net.rules import RuleSet
from scopa_net.wire import messages as m


def _table(*seats: m.SeatInfo) -> m.TableInfo:
    return m.TableInfo(
        id=1,
        name="club",
        rules=m.RulesInfo.of(RuleSet.of(len(seats), 11)),
        password=False,
        seats=seats,
        bot_level=1,
        started=True,
    )


ADA = m.SeatInfo(kind="human", name="Ada", connected=True)
IVO_AWAY = m.SeatInfo(kind="human", name="Ivo <away>", connected=False)
BOT = m.SeatInfo(kind="bot", name="bot 2", connected=True)


def test_the_lobby_names_whose_seat_a_newcomer_takes() -> None:
    assert describe_table(_table(ADA, IVO_AWAY, BOT)) == (
        "table 1 'club': 3 players, playing to 11, no variants; 1 open seat (seats: Ada, "
        "Ivo (away, a computer plays), bot 2); playing"
    )


def test_joining_the_table_or_the_seat_of_a_player_away_too_long_is_offered() -> None:
    tables = (_table(ADA, IVO_AWAY, BOT),)
    assert named_table(tables, 1, None, "club:7311") is tables[0]
    assert named_table(tables, 1, 1, "club:7311") is tables[0]


def test_a_seat_named_that_is_a_computer_players_says_so() -> None:
    tables = (_table(ADA, IVO_AWAY, BOT),)
    with pytest.raises(CommandError) as refused:
        named_table(tables, 1, 2, "club:7311")
    assert str(refused.value) == (
        "seat 2 at table 1 is a computer player's, given it when the table was created "
        "(open seats: 1); leave out --seat to take any open one"
    )


def test_a_person_who_dropped_but_is_not_away_long_keeps_the_seat() -> None:
    ivo = m.SeatInfo(kind="human", name="Ivo", connected=False)
    with pytest.raises(CommandError) as refused:
        named_table(
            (_table(ADA, ivo, m.SeatInfo(kind="open", name=None, connected=False)),), 1, 1, "c"
        )
    assert str(refused.value).startswith("seat 1 at table 1 is taken by Ivo (open seats: 2)")
