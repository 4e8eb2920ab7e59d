"""The tables a host lists, for ``scopa-net join``: each as a person reads it (its seats, this
client's own marked), the table picked or named with ``--table`` (one not listed is asked for
all the same), or the new table ``--create`` opens."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from scopa_net.commands.join_host import ask_host
from scopa_net.commands.join_host_key import check_host_key
from scopa_net.commands.join_password import ask_password
from scopa_net.commands.join_say import say
from scopa_net.commands.options import (
    EXIT_REFUSED,
    EXIT_USAGE,
    LEVEL_WIRE_NUMBERS,
    CommandError,
    blind_table,
    password_setting,
    table_rules,
)
from scopa_net.typed import small_number

if TYPE_CHECKING:
    from scopa_net.client.network_session import TableChoice
    from scopa_net.client.seat_store import SeatRecord, SeatStore
    from scopa_net.wire import messages as m


def seat_open_to_me(info: m.SeatInfo) -> bool:
    """Whether a newcomer may take a listed seat: open, or its player away past the host's
    away limit (protocol.md 3.3: the listing marks the name)."""
    from scopa_net.names import listed_away

    return info.kind == "open" or (info.kind == "human" and listed_away(info.name) is not None)


def listed_seat(info: m.SeatInfo, *, yours: bool = False) -> str:
    """A listed seat's holder, as a person reads it: ``Ada``, ``open``, or ``Ivo (away, a
    computer plays)`` for a seat a newcomer may take from its absent player. ``yours``: a
    seat this client keeps (:func:`your_seats`), marked ``Ada (your seat)``."""
    from scopa_net.names import clean_name, listed_away

    away = listed_away(info.name) if info.kind == "human" else None
    if away is not None:
        return f"{away} ({'your seat; ' if yours else ''}away, a computer plays)"
    name = clean_name(info.name or "") or "open"
    return f"{name} (your seat)" if yours else name


def your_seats(kept: Iterable[SeatRecord], key: bytes) -> set[tuple[int, int]]:
    """The seats (table, seat) this client keeps at the host whose key is ``key``: known by
    the host's key, the table and the seat, never by a name (another may have the same)."""
    return {(r.table_id, r.seat) for r in kept if r.host_key == key.hex()}


def _partners(t: m.TableInfo, listed: list[str]) -> str:
    """``; partners: Nicolò and bot 2 against bot 3 and an open seat`` at a table of
    partners (they sit opposite, which the seat list alone does not say); "" where each plays
    alone. An open seat is said in words ("two open seats"), never as a name: "open & open v
    open & bot 3" read as four players called open."""
    rules = t.rules.to_rules()
    if rules.side_count == rules.players:
        return ""
    sides = (
        _side(
            [listed[s] for s in rules.seats_of(side) if t.seats[s].kind != "open"],
            sum(1 for s in rules.seats_of(side) if t.seats[s].kind == "open"),
        )
        for side in range(rules.side_count)
    )
    return f"; partners: {' against '.join(sides)}"


_OPEN_SEATS = {1: "an open seat", 2: "two open seats", 3: "three open seats"}


def _side(names: list[str], open_seats: int) -> str:
    """One side of partners as the game's own "Partners:" line says it: ``Ada and Carla``,
    ``Ada and an open seat``, ``two open seats``, ``Ada, Carla and an open seat``."""
    parts = [*names, _OPEN_SEATS[open_seats]] if open_seats else names
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def describe_table(t: m.TableInfo, yours: Collection[int] = ()) -> str:
    """A table as the list to choose from shows it; ``yours``: the seats there this client
    keeps (:func:`your_seats`), each marked."""
    from scopa_net.names import table_label

    open_seats = sum(1 for s in t.seats if seat_open_to_me(s))
    listed = [listed_seat(s, yours=n in yours) for n, s in enumerate(t.seats)]
    people = ", ".join(listed) + _partners(t, listed)
    variants = ", ".join(t.rules.variants) or "no variants"
    lock = "  [password]" if t.password else ""
    lock += "  [blind]" if t.blind else ""
    state = "playing" if t.started else "waiting"
    seats = "1 open seat" if open_seats == 1 else f"{open_seats} open seats"
    return (
        f"{table_label(t.id, t.name)}: {t.rules.players} players, "
        f"playing to {t.rules.target}, "
        f"{variants}; {seats} (seats: {people}); {state}{lock}"
    )


def _choose_table(tables: list[m.TableInfo], ask: Callable[[str], str]) -> m.TableInfo | None:
    """The table whose number the user types (the numbers listed), None for Enter or 'n'."""
    ids = [t.id for t in tables]
    shown = ", ".join(map(str, ids[:8])) + (", ..." if len(ids) > 8 else "")
    while True:
        answer = ask(f"table number ({shown}; Enter to stop): ").strip().lower()
        answer = answer.removeprefix("table").strip()
        if answer in ("", "n", "no", "q", "quit"):
            return None
        number = small_number(answer)
        if number is not None and number in ids:
            return tables[ids.index(number)]
        say(f"type one of the table numbers listed ({shown}), or press Enter to stop")


def table_choice(
    args: argparse.Namespace,
    host: str,
    port: int,
    ask: Callable[[str], str],
    *,
    player: str | None = None,
    listed: str = "",
    store: SeatStore | None = None,
    unlisted: list[UnlistedTable] | None = None,
) -> TableChoice | None:
    """The table to sit at (or open), asked of the host; None when the person stopped.
    ``listed``: how the person saw the host just now (see :func:`ask_host`); ``store``: the
    seats this client keeps, each marked in the list where it is one of the host's;
    ``unlisted``: given the table --table names when the host did not list it."""
    unlisted = [] if unlisted is None else unlisted
    from scopa_net.client.network_session import TableChoice
    from scopa_net.wire import messages as m

    if args.create:
        rules = table_rules(args.players, args.target, args.variant)
        bots = args.bots or 0  # check_flags: it leaves a seat for a person
        _, key = ask_host(host, port, listed=listed)
        accepted = check_host_key(host, port, key, accept=args.accept_new_key)
        create = m.CreateTable(
            name=args.table_name or f"{player or args.name or 'a'}'s table"[: m.NAME_LEN],
            rules=m.RulesInfo.of(rules),
            password=password_setting(args.password, os.environ),
            bots=bots,
            bot_level=LEVEL_WIRE_NUMBERS[args.bot_level],
            blind=blind_table(args.blind, rules.players - bots),
        )
        return TableChoice(create=create, accepted_key=accepted)
    tables, key = ask_host(host, port, listed=listed)
    accepted = check_host_key(host, port, key, accept=args.accept_new_key)
    if args.table is not None and all(t.id != args.table for t in tables):
        # Not listed: full, over, or none. Only the host's answer to a join says which
        # (protocol.md 3.3); a seat opened meanwhile is the person's (UnlistedTable).
        unlisted.append(UnlistedTable(args.table, f"{host}:{port}", tables))
        seat, password = args.seat, password_setting(args.password, os.environ)
        return TableChoice(table_id=args.table, seat=seat, password=password, accepted_key=accepted)
    if args.table is not None:
        table = named_table(tables, args.table, args.seat, f"{host}:{port}")
    else:
        joinable = [t for t in tables if any(seat_open_to_me(s) for s in t.seats)]
        if not joinable:
            raise CommandError(every_table_full(args.address, f"{host}:{port}"), EXIT_REFUSED)
        yours = your_seats(store.records(), key) if store is not None else set()
        for t in joinable:
            say(describe_table(t, {seat for table, seat in yours if table == t.id}))
        picked = _choose_table(joinable, ask)
        if picked is None:
            return None
        table = picked
    password = args.password
    if table.password and password is None:  # $SCOPA_NET_PASSWORD goes only where one is asked
        password = password_setting(None, os.environ) or ask_password(table.id)
    return TableChoice(table_id=table.id, seat=args.seat, password=password, accepted_key=accepted)


@dataclass(frozen=True)
class UnlistedTable:
    """The table --table names, missing from the host's list (protocol.md 3.3 lists only
    tables with an open seat whose match is not over): the join is sent all the same, and
    the host's refusal says whether the table is full or not there."""

    table_id: int
    where: str
    tables: tuple[m.TableInfo, ...]
    opens_a_table: str = ""
    """The command that opens a table at this host for whoever asks (``bots`` opens its own
    with --create); empty: ``scopa-net join --create``."""

    def refused(self, code: str, password_given: bool, message: str = "") -> str | None:
        """The line for the host's ``code`` refusing the join (``message``: its words), None
        for one not about this. At a table not listed, a seat taken or a password asked for
        is a full table too."""
        from scopa_net.client.full_table import match_over

        if code == "no_such_table":
            return f"{self.where} has no table {self.table_id}; {self._open_tables()}"
        over = match_over(message) if code == "table_full" else None
        if over:
            return (
                f"the match at table {self.table_id} on {self.where} is over, so nobody can "
                f"sit down there now; {self._after_match_over()}"
            )
        if code in ("table_full", "seat_taken") or (code == "bad_password" and not password_given):
            # The host checks the match is not over before the seat asked for (protocol.md
            # 3.3): a seat taken is at a table in play, as is a table_full whose words say
            # so. Other words, or a password asked for, say not which (the table is in no
            # list, full or over alike).
            either = "" if code == "seat_taken" or over is False else ", or its match is over"
            return (
                f"table {self.table_id} on {self.where} is full{either}: run this again once "
                f"someone leaves it; {self._open_tables()}"
            )
        return None

    def _after_match_over(self) -> str:
        """What to do at a host whose table's match is over: open a table, or take a seat
        at another."""
        opener = self.opens_a_table or f"scopa-net join --create {self.where}"
        create = f"open a new table with `{opener}`"
        ids = ", ".join(str(t.id) for t in self.tables)
        if not ids:
            return create
        return (
            f"{create}, or join one with an open seat now: {ids} (`scopa-net join "
            f"{self.where}` lists them)"
        )

    def _open_tables(self) -> str:
        ids = ", ".join(str(t.id) for t in self.tables)
        if ids:
            return f"tables with an open seat now: {ids} (`scopa-net join {self.where}` lists them)"
        return f"no table has an open seat; `scopa-net join --create {self.where}` opens one"


def every_table_full(address: str | None, where: str) -> str:
    """What a person reads when no table has an open seat (the host lists no full table,
    protocol.md 3.3): what they can do, wait for a seat or open a table."""
    again = "scopa-net join" + (f" {address}" if address else "")
    return (
        f"no table has an open seat; wait a little and run `{again}` again (a seat opens "
        f"when someone leaves or a table is opened), or open one with: "
        f"scopa-net join --create {where}"
    )


def named_table(
    tables: tuple[m.TableInfo, ...], table_id: int, seat: int | None, where: str
) -> m.TableInfo:
    """The table asked for with --table, if it has the seat asked for; else CommandError."""
    table = next((t for t in tables if t.id == table_id), None)
    if table is None:
        # The host lists only tables with an open seat (protocol.md, `tables`): a full
        # table, or one whose match is over, is not "no table" to the person who sees it.
        ids = ", ".join(str(t.id) for t in tables)
        hint = (
            f"tables with one: {ids}; `scopa-net join {where}` lists them"
            if ids
            else f"none has one; `scopa-net join --create {where}` opens a table"
        )
        raise CommandError(
            f"{where} has no table {table_id} with an open seat ({hint})", EXIT_REFUSED
        )
    open_seats = [i for i, s in enumerate(table.seats) if seat_open_to_me(s)]
    if seat is not None and not 0 <= seat < len(table.seats):
        raise CommandError(
            f"table {table_id} has seats 0 to {len(table.seats) - 1}, not {seat}", EXIT_USAGE
        )
    if seat is not None and seat not in open_seats:
        free = ", ".join(map(str, open_seats)) or "none"
        if table.seats[seat].kind == "bot":
            taken = (
                f"seat {seat} at table {table_id} is a computer player's, given it when the "
                "table was created"
            )
        else:
            taken = f"seat {seat} at table {table_id} is taken by {listed_seat(table.seats[seat])}"
        raise CommandError(
            f"{taken} (open seats: {free}); leave out --seat to take any open one",
            EXIT_REFUSED,
        )
    if not open_seats:
        raise CommandError(f"table {table_id} has no open seat", EXIT_REFUSED)
    return table
