"""The seats this client keeps, for ``scopa-net join``: which it may take back (not one
another terminal here plays), the one picked, a host that moved with them, and the game played
on in a seat taken back (the seat forgotten when the host no longer holds it)."""

from __future__ import annotations

import argparse
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from scopa_net.client.leaving_words import SEAT_KEPT_WHILE_OPEN
from scopa_net.commands.join_host import ask_host
from scopa_net.commands.join_say import choose_number, say
from scopa_net.commands.options import EXIT_REFUSED, EXIT_UNREACHABLE, EXIT_USAGE, CommandError
from scopa_net.names import table_label

if TYPE_CHECKING:
    from scopa_net.client.config import Settings
    from scopa_net.client.seat_store import SeatRecord, SeatStore
    from scopa_net.client.session import Session


def describe_seat(record: SeatRecord, *, address: bool = True) -> str:
    """A kept seat, for the question which one to take back (``address``: say where the
    host is; not for ``play --lan``, whose host is this machine)."""
    table = table_label(record.table_id, record.table_name or "")
    where = f" on {record.address}" if address else ""
    how = "you stepped away" if record.away else "your client stopped"
    return f"resume your seat at {table}{where} (seat {record.seat}, as {record.name}; {how})"


def choose_kept_seat(
    kept: list[SeatRecord],
    ask: Callable[[str], str],
    *,
    must: bool,
    address: bool = True,
    instead: str = "`scopa-net join --no-resume` sits down anew",
    anew: str = "a new seat",
) -> SeatRecord | None:
    """The seat to take back: the only one without asking (saying so, and ``instead``: how
    not to, unless ``must``), else the one picked (Enter: ``anew``, unless ``must``)."""
    if len(kept) == 1:
        text = describe_seat(kept[0], address=address).removeprefix("resume your seat")
        say(f"Taking back your seat{text}" + ("." if must else f"; {instead} instead."))
        return kept[0]
    for i, record in enumerate(kept, 1):
        say(describe_seat(record, address=address), label=f"{i}. ")
    numbers = f"1-{len(kept)}"  # the numbers listed, not seat numbers
    prompt = f"which one ({numbers}): " if must else f"which one ({numbers}; Enter for {anew}): "
    while True:
        pick = choose_number(prompt, len(kept), ask, None if must else f"for {anew}")
        if pick is not None:
            return kept[pick]
        if not must:
            return None


def kept_seats(
    store: SeatStore, args: argparse.Namespace, address: tuple[str, int] | None
) -> list[SeatRecord]:
    """The seats this client keeps that this command may take back: at the address given
    (any, without one) and at the table given, and not being played by another client here
    (said, one line each; with --resume and no other seat, an error); none with --no-resume.
    With --create too: the same command run again after the client stopped takes the seat
    back rather than open another table (docs/hosting.md, "A seat you hold")."""
    if args.no_resume:
        say_still_kept(store, address)
        return []
    kept = store.for_address(*address) if address else store.records()
    if args.table is not None:
        kept = [r for r in kept if r.table_id == args.table]
    return _not_played_here(store, args, kept)


def _not_played_here(
    store: SeatStore, args: argparse.Namespace, seats: list[SeatRecord]
) -> list[SeatRecord]:
    """``seats`` but those whose client still runs here (a second terminal): not taken from
    it, said one line each; with --resume and no other seat, an error."""
    playing = [r for r in seats if store.in_use(r)]
    if playing and args.resume and len(playing) == len(seats):
        raise CommandError(
            f"{_played_elsewhere(playing[0])}: play on there, or close it and run this again",
            EXIT_REFUSED,
        )
    for record in playing:
        say(f"Y{_played_elsewhere(record)[1:]}; not taking it from there.")
    return [r for r in seats if r not in playing]


def say_still_kept(store: SeatStore, address: tuple[str, int] | None) -> None:
    """With --no-resume: one line saying that the seats kept (at ``address``, or anywhere
    without one) stay kept, and the command that takes them back."""
    kept = store.for_address(*address) if address else store.records()
    if len(kept) == 1:
        (record,) = kept
        say(
            f"Your seat at table {record.table_id} on {record.address} (seat {record.seat}, as "
            f"{record.name}) stays kept while its match lasts: `scopa-net join "
            f"{record.address} --table {record.table_id}` takes it back."
        )
    elif kept:
        tables = ", ".join(f"{r.table_id} on {r.address}" for r in kept)
        say(
            f"Your seats at tables {tables} stay kept while their matches last: "
            "`scopa-net join --resume` offers them back."
        )


def moved_seats(
    store: SeatStore, args: argparse.Namespace, host: str, port: int
) -> list[SeatRecord]:
    """The seats kept at another address for the host that answers at ``host:port``: a host
    restarted elsewhere (another port, another machine) with its journal and key. The seat
    store knows a seat by the address it was taken at; the host's key says it is the same
    host. Asked only when some seat is kept elsewhere (and not with --no-resume)."""
    if args.no_resume:
        return []
    elsewhere = [r for r in store.records() if (r.host, r.port) != (host, port)]
    if args.table is not None:
        elsewhere = [r for r in elsewhere if r.table_id == args.table]
    if not elsewhere:
        return []
    _, key = ask_host(host, port)
    moved = [r for r in elsewhere if r.host_key == key.hex()]
    return _not_played_here(store, args, moved)


def _same_machine_and_port(moved: list[SeatRecord], host: str, port: int) -> bool:
    """Whether every seat in ``moved`` was kept at this machine, on ``port``, as ``host`` is:
    a seat kept under the LAN address taken back through 127.0.0.1 on the host's machine.
    Nothing moved then; "the host of your seat moved" would alarm for nothing."""
    from scopa_net.client.addresses import of_this_machine

    if any(r.port != port for r in moved) or not of_this_machine(host):
        return False
    return all(of_this_machine(r.host) for r in moved)


def _move_to(
    moved: list[SeatRecord],
    *,
    host: str,
    port: int,
    store: SeatStore,
    ask: Callable[[str], str],
    args: argparse.Namespace,
) -> SeatRecord | None:
    """The seat picked among ``moved`` (saying where the host was and is), kept from now on
    at ``host:port``, its lock held, its record at the old address forgotten; None when the
    person pressed Enter for a new seat."""
    from dataclasses import replace

    here = [replace(r, host=host, port=port) for r in moved]
    was = ", ".join(sorted({r.address for r in moved}))
    if _same_machine_and_port(moved, host, port):  # the same host reached another way
        say(
            f"Your seat was kept under {was}, another address of this machine for the same "
            f"host; it is kept under {here[0].address} from now on."
        )
    else:
        say(f"The host of your seat moved: it was at {was}, and answers at {here[0].address} now.")
    picked = choose_kept_seat(here, ask, must=args.resume)
    if picked is None:
        return None
    if not store.hold(picked):
        raise CommandError(
            f"your seat at table {picked.table_id} was just taken back by another scopa-net "
            "on this machine: play on there",
            EXIT_REFUSED,
        )
    try:
        store.save(picked)  # first the new record, then the old one goes: never neither
    except OSError:  # the game says in one line why it cannot keep the seat, once it begins
        return picked
    store.delete(moved[here.index(picked)])
    return picked


def _played_elsewhere(record: SeatRecord) -> str:
    return (
        f"your seat at table {record.table_id} on {record.address} (seat {record.seat}, as "
        f"{record.name}) is being played by another scopa-net on this machine"
    )


def kept_seat_to_take(
    store: SeatStore,
    args: argparse.Namespace,
    parsed: tuple[str, int] | None,
    ask: Callable[[str], str],
    *,
    dropped: bool,
) -> SeatRecord | None:
    """The kept seat to take back (asked when there are several; its lock held), or None to
    sit down anew. ``dropped``: a seat kept was found gone at its host on the way."""
    kept = kept_seats(store, args, parsed if args.address else None)
    if not kept and args.address and parsed is not None:
        moved = moved_seats(store, args, *parsed)
        record = (
            _move_to(moved, host=parsed[0], port=parsed[1], store=store, ask=ask, args=args)
            if moved
            else None
        )
        if record is not None:
            return record
    if args.resume and not kept:
        if dropped:  # the host said no to the seats kept: README's status 4
            raise CommandError(
                "no other seat is kept for you; `scopa-net join` sits down anew", EXIT_REFUSED
            )
        where = f" at {args.address}" if args.address else ""
        # No host was asked: the person's flag does not fit (README: status 2).
        raise CommandError(f"no seat is kept for you{where}; join without --resume", EXIT_USAGE)
    record = None
    if kept and args.create:
        record = choose_kept_seat(
            kept,
            ask,
            must=args.resume,
            instead="add --no-resume to open a new table",
            anew="a new table",
        )
    elif kept:
        record = choose_kept_seat(kept, ask, must=args.resume)
    if record is not None and not store.hold(record):  # taken back elsewhere since the list
        raise CommandError(
            f"your seat at table {record.table_id} was just taken back by another "
            "scopa-net on this machine: play on there",
            EXIT_REFUSED,
        )
    return record


def take_back(
    record: SeatRecord, store: SeatStore, settings: Settings, args: argparse.Namespace
) -> int | None:
    """Play on in a seat kept on disk (the host replays the match to it); the status, or None
    when the host no longer holds the seat: said in one line (where its transcript is), and
    its record forgotten, for ``join`` to go on to the other seats kept, or a new one."""
    from scopa_net.client.app import only_error
    from scopa_net.client.host_search import HostSearch
    from scopa_net.client.launch import run_game_screen
    from scopa_net.client.network_session import (
        KeptSeatGoneError,
        TableChoice,
        open_network_session,
    )

    gone: list[str] = []

    @asynccontextmanager
    async def open_session() -> AsyncIterator[Session]:
        try:
            async with open_network_session(
                record.host,
                record.port,
                TableChoice(table_id=record.table_id, seat=record.seat),
                name=record.name,
                data_dir=store.folder.parent,
                store=store,
                resume_from=record,
                offer_rematch=True,
                lan_search=HostSearch(),  # not where it was: looked for on the LAN by its key
            ) as session:
                yield session
        except BaseException as exc:
            if isinstance(only_error(exc), KeptSeatGoneError):
                gone.append(str(only_error(exc)))
            raise

    try:
        return run_game_screen(open_session, settings, plain=args.plain)
    except CommandError as exc:
        if gone:
            store.release(record)
            say(gone[0])
            return None
        if exc.status != EXIT_UNREACHABLE or SEAT_KEPT_WHILE_OPEN in str(exc):
            raise  # not a failure to reach the host, or one that says the seat is kept
        where = "" if record.address in str(exc) else f" ({record.address})"
        raise CommandError(
            f"{exc}{where}; {SEAT_KEPT_WHILE_OPEN}: "
            f"`scopa-net join {record.address}` tries again, `scopa-net join --no-resume` "
            "sits down anew",
            EXIT_UNREACHABLE,
        ) from None
