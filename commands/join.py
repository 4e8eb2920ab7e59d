"""``scopa-net join [HOST[:PORT]]``: find a host, pick or create a table, and play there."""

from __future__ import annotations

import argparse
import errno
import os
import socket
import sys
from collections.abc import AsyncIterator, Callable, Collection, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from scopa_net.commands.options import (
    DEFAULT_BOT_LEVEL,
    DEFAULT_TARGET,
    EXIT_CANCELLED,
    EXIT_KEY_CHANGED,
    EXIT_REFUSED,
    EXIT_TERMINATED,
    EXIT_UNREACHABLE,
    EXIT_USAGE,
    LEVEL_WIRE_NUMBERS,
    CommandError,
    add_blind_option,
    add_bot_options,
    add_command,
    add_display_options,
    add_rule_options,
    at_least,
    blind_table,
    check_bots,
    said_default,
    table_name,
    table_password,
    table_rules,
    think_seconds,
    variants_epilog,
)
from scopa_net.commands.paths import data_dir
from scopa_net.server.config import DEFAULT_PORT
from scopa_net.typed import shown, small_number

if TYPE_CHECKING:
    from scopa_net.client.config import Settings
    from scopa_net.client.network_session import KnownHosts, TableChoice
    from scopa_net.client.seat_store import SeatRecord, SeatStore
    from scopa_net.client.session import Session
    from scopa_net.server.discovery import HostAdvert
    from scopa_net.wire import messages as m

BROWSE_SECONDS = 2.0
PROBE_SECONDS = 5.0
"""How long to wait for a connection to a host before saying there is no answer."""
WELCOME_SECONDS = 3.0
"""How long a connected host has to answer hello (a scopa-net host answers at once)."""


def register(subparsers: argparse._SubParsersAction) -> None:
    p = add_command(
        subparsers,
        "join",
        help="join a table on a host (found on the LAN, or at an address)",
        description="Join a scopa-net host. Without an address, hosts announced on the LAN are "
        "listed to choose from.",
        epilog=variants_epilog(),
    )
    p.add_argument(
        "address",
        nargs="?",
        help=f"HOST or HOST:PORT (default: port {DEFAULT_PORT}; the host in the 'host' "
        "setting, else the LAN is searched)",
    )
    p.add_argument("--table", type=at_least(1), default=None, help="table number (skip the list)")
    p.add_argument(
        "--seat", type=at_least(0), default=None, help="seat wanted (default: any open one)"
    )
    p.add_argument(
        "--password",
        type=table_password,
        default=None,
        help="the table's password, if it has one",
    )
    p.add_argument("--create", action="store_true", help="open a new table instead")
    add_rule_options(p, when="with --create: ")
    p.add_argument(
        "--bots",
        type=int,
        default=None,
        metavar="N",
        help=f"with --create: seats given to computer players {said_default(0)}",
    )
    add_bot_options(
        p,
        level_help="with --create: strength of the computer players (an expert thinks as "
        "long as the host's --think says)",
        think=False,
    )
    add_blind_option(p, when="with --create: ")
    p.add_argument(
        "--table-name",
        type=table_name,
        default=None,
        metavar="NAME",
        help="with --create: the table's name in listings (default: YOUR NAME's table)",
    )
    # Taken only to say where it belongs: the host spends its own CPU on its experts.
    p.add_argument("--think", type=think_seconds, default=None, help=argparse.SUPPRESS)
    resume = p.add_mutually_exclusive_group()
    resume.add_argument(
        "--resume",
        action="store_true",
        help="take back a seat this client kept (asks which if there are several)",
    )
    resume.add_argument(
        "--no-resume",
        action="store_true",
        help="sit down anew (with --create: open the new table) even if a seat is kept for you",
    )
    p.add_argument(
        "--accept-new-key",
        action="store_true",
        help="trust the host's new key when it changed (after a reinstall, say)",
    )
    add_display_options(p)
    p.set_defaults(run=run)


def parse_address(text: str) -> tuple[str, int]:
    """``host``, ``host:port`` or ``[v6]:port``; ValueError with the reason."""
    text = text.strip()
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port_text = rest.removeprefix(":") or str(DEFAULT_PORT)
    elif text.count(":") == 1:
        host, port_text = text.split(":")
    else:
        host, port_text = text, str(DEFAULT_PORT)
    if not host:
        raise ValueError(f"no host in {shown(text)}")
    port = small_number(port_text)
    if port is None or not 0 < port < 65536:
        raise ValueError(
            f"bad port in {shown(text)}: write HOST or HOST:PORT, the port a number from 1 to "
            f"65535 (without one, {DEFAULT_PORT})"
        )
    return host, port


def say(text: str, *, label: str = "") -> None:
    """A line on standard output, cut between words to fit the terminal (client.said)."""
    from scopa_net.client.said import say as said  # the client's modules only when needed

    said(text, label=label)


def _stopped() -> int:
    """The person stopped at a question (Enter, Ctrl-C or Ctrl-D): say so, in one line."""
    print("scopa-net: stopped; nothing joined", file=sys.stderr)
    return EXIT_CANCELLED


def _choose(
    prompt: str, count: int, ask: Callable[[str], str], enter: str | None = "to stop"
) -> int | None:
    """A number from 1..count typed by the user (None for 'n' or an empty line). ``enter``:
    what Enter does, as the prompt says it (``to stop``, ``for a new seat``), for the line
    that refuses anything else; None where Enter does nothing."""
    while True:
        answer = ask(prompt).strip().lower()
        if answer in ("", "n", "new"):
            return None
        number = small_number(answer)
        if number is not None and 1 <= number <= count:
            return number - 1
        say(f"type a number from 1 to {count}" + (f", or press Enter {enter}" if enter else ""))


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


def choose_lan_host(
    ask: Callable[[str], str], seconds: float = BROWSE_SECONDS, interfaces: list[str] | None = None
) -> tuple[str, int] | None:
    """Browse the LAN for hosts, list them, and return the (address, port) picked.
    ``interfaces``: search through these addresses' interfaces only (by default every up
    interface but loopback)."""
    from scopa_net.client.network_session import KnownHosts
    from scopa_net.client.sigterm import sigterm_raises
    from scopa_net.server.discovery import browse_hosts, browse_interfaces

    where = browse_interfaces() if interfaces is None else interfaces
    if not where:
        raise CommandError(
            "this machine has no LAN address (no network interface is up but loopback), so "
            "there is no LAN to search; give an address: scopa-net join HOST[:PORT]",
            EXIT_UNREACHABLE,
        )
    say(f"looking for hosts on the LAN ({', '.join(where)}) for {seconds:.0f} s...")
    with sigterm_raises():  # SIGTERM meanwhile: "stopped by SIGTERM; nothing joined", 143
        found = browse_hosts(seconds, where)
    if not found:
        raise CommandError(
            "no host found on the LAN; give an address: scopa-net join HOST[:PORT]",
            EXIT_UNREACHABLE,
        )
    pins = KnownHosts(data_dir(os.environ) / "known_hosts")
    for i, h in enumerate(found, 1):
        say(describe_lan_host(h, pins), label=f"{i}. ")
    numbers = "1" if len(found) == 1 else f"1-{len(found)}"
    pick = _choose(f"host number ({numbers}, Enter to stop): ", len(found), ask)
    if pick is None:
        return None
    return lan_host_address(found[pick])


def lan_host_address(chosen: HostAdvert) -> tuple[str, int]:
    """The (address, port) of a host picked from the LAN list. A host whose record says it
    speaks nothing newer than an older version this client speaks is greeted in that one at
    once (:mod:`~scopa_net.client.hello_versions`): an older scopa-net host logs a refused
    ``hello`` as a player who cannot play there."""
    from scopa_net.client.hello_versions import HELLO_VERSIONS

    where = (chosen.addresses[0] if chosen.addresses else "127.0.0.1"), chosen.port
    HELLO_VERSIONS.learn(*where, chosen.protocols[-1], chosen.key)
    return where


def describe_lan_host(h: HostAdvert, known: KnownHosts) -> str:
    """One announced host, as the LAN list shows it: where it is, its open seats (and
    whether one is at a table with a password), and its key's fingerprint (short: its first
    two groups), "(known)" when this client has pinned that key for it."""
    from scopa_net.fair.commitments import fingerprint
    from scopa_net.version_words import Reader, another_version
    from scopa_net.wire.messages import OLDEST_VERSION, PROTOCOL_VERSION

    where = h.addresses[0] if h.addresses else "?"
    seats = "1 open seat" if h.open_seats == 1 else f"{h.open_seats} open seats"
    if h.password_open is None:  # an older host: it says only that some table has one
        lock = ", some tables have a password" if h.password else ""
    elif h.password_open == 0 or h.open_seats == 0:
        lock = ""
    elif h.password_open >= h.open_seats:
        lock = ", password"
    else:
        lock = f", {h.password_open} of them at a table with a password"
    theirs = h.protocols
    if theirs[-1] < OLDEST_VERSION:  # no version both speak: say whose is older
        lock += "; " + another_version(theirs[-1], PROTOCOL_VERSION, Reader.LAN_LIST)
    elif theirs[0] > PROTOCOL_VERSION:
        lock += "; " + another_version(theirs[0], PROTOCOL_VERSION, Reader.LAN_LIST)
    key = ""
    if h.key is not None:
        key = f", key {'-'.join(fingerprint(h.key).split('-')[:2])}"
        try:  # pinned as `check_host_key` pins it: the address picked, then the port
            pinned = known.pinned(f"{where}:{h.port}") if h.addresses else None
        except (OSError, ValueError):  # unreadable pins: the first visit will say so
            pinned = None
        if pinned == h.key:
            key += " (known)"
        elif known.met_elsewhere(f"{where}:{h.port}", h.key) is not None:
            key += " (known, met at another address)"
        elif pinned is not None:
            key += " (not the key you pinned for it)"
    return f"{h.name} at {where}:{h.port}{key} ({seats}{lock})"


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
    """``; partners: Nicolò & bot 2 v open & bot 3`` at a table of partners (they sit
    opposite, which the seat list alone does not say); "" where each plays alone."""
    rules = t.rules.to_rules()
    if rules.side_count == rules.players:
        return ""
    sides = (
        " & ".join(listed[s] for s in rules.seats_of(side)) for side in range(rules.side_count)
    )
    return f"; partners: {' v '.join(sides)}"


def describe_table(t: m.TableInfo, yours: Collection[int] = ()) -> str:
    """A table as the list to choose from shows it; ``yours``: the seats there this client
    keeps (:func:`your_seats`), each marked."""
    from scopa_net.names import clean_table_name

    open_seats = sum(1 for s in t.seats if seat_open_to_me(s))
    listed = [listed_seat(s, yours=n in yours) for n, s in enumerate(t.seats)]
    people = ", ".join(listed) + _partners(t, listed)
    variants = ", ".join(t.rules.variants) or "no variants"
    lock = "  [password]" if t.password else ""
    lock += "  [blind]" if t.blind else ""
    state = "playing" if t.started else "waiting"
    seats = "1 open seat" if open_seats == 1 else f"{open_seats} open seats"
    return (
        f"table {t.id} {clean_table_name(t.name)!r}: {t.rules.players} players, "
        f"playing to {t.rules.target}, "
        f"{variants}; {seats} (seats: {people}); {state}{lock}"
    )


def describe_seat(record: SeatRecord, *, address: bool = True) -> str:
    """A kept seat, for the question which one to take back (``address``: say where the
    host is; not for ``play --lan``, whose host is this machine)."""
    table = f" {record.table_name!r}" if record.table_name else ""
    where = f" on {record.address}" if address else ""
    how = "you stepped away" if record.away else "your client stopped"
    return (
        f"resume your seat at table {record.table_id}{table}{where} "
        f"(seat {record.seat}, as {record.name}; {how})"
    )


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
        pick = _choose(prompt, len(kept), ask, None if must else f"for {anew}")
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
    back rather than open another table (README, "A seat you hold")."""
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


def check_flags(args: argparse.Namespace) -> None:
    """Refuse flags that do nothing here or contradict each other, before connecting."""
    if args.blind is not None and not args.create:
        flag = "--blind" if args.blind else "--no-blind"
        raise CommandError(
            f"{flag} is for a table you open with --create; a table's listing says if it is blind"
        )
    if args.resume and args.seat is not None:
        raise CommandError(
            "--seat picks a seat when you sit down anew, --resume takes back the seat this "
            "client kept: give one or the other"
        )
    if args.create:
        there = [f"--{flag}" for flag in ("table", "seat") if getattr(args, flag) is not None]
        if there:
            raise CommandError(
                f"{' and '.join(there)} {'is' if len(there) == 1 else 'are'} for joining a "
                "table that is there, --create opens a new one: give one or the other"
            )
        rules = table_rules(args.players, args.target, args.variant)
        check_bots(args.bots or 0, rules.players)
        return
    lone = {
        "--players": args.players is not None,
        "--target": args.target != DEFAULT_TARGET,
        "--variant": bool(args.variant),
        "--bots": args.bots is not None,
        "--bot-level": args.bot_level != DEFAULT_BOT_LEVEL,
        "--table-name": args.table_name is not None,
    }
    given = [flag for flag, yes in lone.items() if yes]
    if given:
        raise CommandError(
            f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} for a table you open with "
            "--create; without it you join a table that is there, with its own rules"
        )


def run(args: argparse.Namespace, ask: Callable[[str], str] | None = None) -> int:
    from dataclasses import replace

    from scopa_net.client.app import only_error
    from scopa_net.client.config import ConfigError
    from scopa_net.client.host_search import HostSearch
    from scopa_net.client.launch import run_game_screen, settings_from
    from scopa_net.client.network_session import (
        HostLostError,
        RefusedError,
        open_network_session,
    )
    from scopa_net.client.seat_store import SeatStore
    from scopa_net.client.sigterm import Terminated, typed

    ask = ask or typed  # SIGTERM at a question: "stopped by SIGTERM; nothing joined", 143
    check_flags(args)
    if args.think is not None:
        raise CommandError(
            "how long an expert thinks is the host's setting: start the host with "
            "`scopa-net host --think SECONDS`"
        )
    try:
        settings = settings_from(args)
    except ConfigError as exc:
        print(f"scopa-net: {exc}", file=sys.stderr)
        return EXIT_USAGE
    store = SeatStore(data_dir(os.environ))
    try:
        address = args.address or settings.host
        parsed: tuple[str, int] | None = None
        if address:
            try:
                parsed = parse_address(address)
            except ValueError as exc:
                # An address from the settings, not typed: say where it came from.
                where = (
                    "" if args.address else " (the host setting, in client.toml or $SCOPA_NET_HOST)"
                )
                raise CommandError(f"{exc}{where}") from None
        dropped = False
        while (record := _kept_seat_to_take(store, args, parsed, ask, dropped=dropped)) is not None:
            status = _take_back(record, store, settings, args)
            if status is not None:
                return status
            dropped = True  # the host no longer held it (said, forgotten): on to the next
        if parsed is not None:
            host, port = parsed
        else:
            found = choose_lan_host(ask)
            if found is None:
                return _stopped()
            host, port = found
        listed = "" if parsed is not None else "it was on the LAN's list"
        unlisted: list[UnlistedTable] = []  # --table names a table the host did not list
        choice = _table_choice(
            args,
            host,
            port,
            ask,
            player=settings.name,
            listed=listed,
            store=store,
            unlisted=unlisted,
        )
    except Terminated:
        print()  # below the question's line, as for Ctrl-C
        raise CommandError("stopped by SIGTERM; nothing joined", EXIT_TERMINATED) from None
    except (KeyboardInterrupt, EOFError):
        print()
        return _stopped()
    if choice is None:  # Enter at the table number: stopped, as the question says
        return _stopped()

    seen = "it answered" if args.create else "it listed its tables"
    again = "scopa-net join" + (f" {args.address}" if args.address else "")
    refused: list[RefusedError] = []  # the host's no to the seat chosen, before the game

    @asynccontextmanager
    async def open_session() -> AsyncIterator[Session]:
        entered = False
        try:
            async with open_network_session(
                host,
                port,
                choice,
                name=settings.name,
                data_dir=store.folder.parent,
                store=store,
                offer_rematch=True,  # the screen asks "play again?" after the match
                lan_search=HostSearch(),  # a host that moves is looked for by its key
            ) as session:
                entered = True
                yield session
        except Exception as exc:
            inner = only_error(exc)
            if not entered and isinstance(inner, RefusedError):
                refused.append(inner)
            if entered or not isinstance(inner, OSError):
                raise
            # It answered a moment ago (the list): it stopped since, or the network did.
            words = host_stopped(f"{host}:{port}", inner, seen, again)
            raise HostLostError(words) from None

    typed = args.password is None and choice.password is not None  # at the password prompt
    tries = 1
    while True:
        refused.clear()
        try:
            return run_game_screen(open_session, settings, plain=args.plain)
        except CommandError:
            code = refused[0].code if refused else ""
            said = unlisted[0].refused(code, choice.password is not None) if unlisted else None
            if said is not None:
                raise CommandError(said, EXIT_REFUSED) from None
            if code == "bad_password" and typed and tries < PASSWORD_TRIES:
                tries += 1
            elif code in CHOOSE_AGAIN and args.table is None and not args.create:
                tries = 1
            else:
                raise  # a table given on the command line: one line, and a status
        try:
            if code == "bad_password":
                say(
                    f"Wrong password for table {choice.table_id}: type it again (Ctrl-C or "
                    "Ctrl-D gives up)."
                )
                choice = replace(choice, password=ask_password(choice.table_id or 0))
                continue
            say(CHOOSE_AGAIN[code].format(table=choice.table_id, seat=choice.seat))
            picked = _table_choice(
                args, host, port, ask, player=settings.name, listed=listed, store=store
            )
        except (KeyboardInterrupt, EOFError):
            print()
            return _stopped()
        if picked is None:  # Enter at the table number
            return _stopped()
        choice = picked
        typed = args.password is None and choice.password is not None


CHOOSE_AGAIN = {
    "table_full": "Table {table} is full now: someone took its last seat while you chose. "
    "The tables with an open seat now:",
    "no_such_table": "Table {table} is gone now (its match ended, or it closed). The tables "
    "with an open seat now:",
    "seat_taken": "Seat {seat} at table {table} was taken while you chose. The tables with an "
    "open seat now:",
}
"""What a person who picked a table at the prompt reads when the host refuses the seat, by
the host's code, before the list again, fresh from the host."""


def _kept_seat_to_take(
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


def _take_back(
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
        if exc.status != EXIT_UNREACHABLE or "your seat is kept" in str(exc):
            raise  # not a failure to reach the host, or one that says the seat is kept
        where = "" if record.address in str(exc) else f" ({record.address})"
        raise CommandError(
            f"{exc}{where}; your seat is still kept: `scopa-net join {record.address}` tries "
            "again, `scopa-net join --no-resume` sits down anew",
            EXIT_UNREACHABLE,
        ) from None


def probe(host: str, port: int, seconds: float | None = None) -> tuple[m.TableInfo, ...]:
    """The host's tables, asked once; CommandError saying plainly why if there is no host."""
    return ask_host(host, port, seconds)[0]


def ask_host(
    host: str, port: int, seconds: float | None = None, *, listed: str = ""
) -> tuple[tuple[m.TableInfo, ...], bytes]:
    """The host's tables and its key, asked once; CommandError saying why if there is none.
    ``listed``: how the person just saw the host ("it was on the LAN's list"): a host that
    does not answer now has stopped, and the words say so (not how to start one)."""
    import trio

    from scopa_net.client.network_session import (
        HelloHeldError,
        HostUnprovenError,
        SessionError,
        VersionMismatchError,
        connect,
    )
    from scopa_net.client.proven_keys import ProvenKeys
    from scopa_net.client.sigterm import run_until_stopped
    from scopa_net.wire import messages as m
    from scopa_net.wire.errors import ProtocolError

    where = f"{host}:{port}"
    seconds = PROBE_SECONDS if seconds is None else seconds
    connected = False
    proven = ProvenKeys(data_dir(os.environ))

    async def ask() -> tuple[tuple[m.TableInfo, ...], bytes]:
        nonlocal connected
        with trio.fail_after(seconds):
            stream = await trio.open_tcp_stream(host, port)
        connected = True

        unused = [stream]

        async def opened() -> trio.abc.Stream:  # the probe's, then another (a hello again)
            return unused.pop() if unused else await trio.open_tcp_stream(host, port)

        with trio.fail_after(min(seconds, WELCOME_SECONDS)):
            link, welcome = await connect(host, port, connector=opened, proven=proven)
            try:
                reply = await link.request(m.ListTables(), m.Tables)
            finally:
                await link.aclose()
        assert isinstance(reply, m.Tables)
        return reply.tables, welcome.host_key

    not_scopa = (
        f"{where} is not a scopa-net host: something listens there but does not speak "
        "scopa-net; check the port"
    )
    try:
        # SIGTERM or Ctrl-C while it waits for the host: Terminated or KeyboardInterrupt,
        # for the command to say it stopped, once the connection is closed.
        return run_until_stopped(ask)
    except trio.TooSlowError as exc:
        if listed and not connected:
            raise CommandError(host_stopped(where, exc, listed), EXIT_UNREACHABLE) from None
        if connected:
            # A scopa-net host answers a hello at once; silence is a stalled network as
            # often as another program, so the words name both.
            wait = min(seconds, WELCOME_SECONDS)
            raise CommandError(
                f"{where} took the connection but sent no scopa-net welcome within "
                f"{wait:.0f} s: the network may be slow (try again), or something other than "
                "a scopa-net host listens there (check the port)",
                EXIT_UNREACHABLE,
            ) from None
        raise CommandError(
            f"no answer from {where} within {seconds:.0f} s; is the machine on, "
            "and the address right?",
            EXIT_UNREACHABLE,
        ) from None
    except VersionMismatchError as exc:
        raise CommandError(str(exc), EXIT_REFUSED) from None
    except HelloHeldError as exc:
        raise CommandError(str(exc), EXIT_UNREACHABLE) from None
    except HostUnprovenError as exc:  # a scopa-net host's answer, but not proof of its key
        raise CommandError(str(exc), EXIT_KEY_CHANGED) from None
    except (ProtocolError, SessionError, trio.BrokenResourceError):
        raise CommandError(not_scopa, EXIT_UNREACHABLE) from None
    except OSError as exc:
        if connected:
            raise CommandError(not_scopa, EXIT_UNREACHABLE) from None
        if listed:
            raise CommandError(host_stopped(where, exc, listed), EXIT_UNREACHABLE) from None
        raise CommandError(_connect_failure(where, exc), EXIT_UNREACHABLE) from None


def _causes(exc: BaseException) -> list[BaseException]:
    """``exc`` and the errors of every address tried behind it (trio's connect)."""
    causes: list[BaseException] = [exc]
    seen = exc.__cause__ or exc.__context__
    if isinstance(seen, BaseExceptionGroup):
        causes = list(seen.exceptions)
    elif seen is not None:
        causes.append(seen)
    return causes


def host_stopped(where: str, exc: BaseException, listed: str, again: str = "scopa-net join") -> str:
    """A host the person just saw (``listed``: "it listed its tables") that no longer takes
    a connection: it stopped, or does not answer; what to do. Not "start one with `scopa-net
    host`": the person picked it from a list, the port is right."""
    if errno.ECONNREFUSED in {getattr(c, "errno", None) for c in _causes(exc)}:
        return (
            f"the host at {where} has stopped: {listed} a moment ago, and now refuses the "
            f"connection. Ask whoever runs it to start it again, then run `{again}` again."
        )
    return (
        f"the host at {where} is not answering: {listed} a moment ago. Ask whoever runs it "
        f"whether it still runs (or check the network), then run `{again}` again."
    )


def _connect_failure(where: str, exc: OSError) -> str:
    """Why a connection failed, in words, from the errors of every address tried."""
    causes = _causes(exc)
    codes = {getattr(c, "errno", None) for c in causes}
    if isinstance(exc, socket.gaierror) or any(isinstance(c, socket.gaierror) for c in causes):
        return f"cannot find a machine called {where.rsplit(':', 1)[0]}; check the name"
    if errno.ECONNREFUSED in codes:
        return (
            f"{where} refused the connection: no host is listening on that port "
            "(start one with `scopa-net host`, or check the port)"
        )
    if codes & {errno.ENETUNREACH, errno.EHOSTUNREACH}:
        return f"cannot reach {where}: no route to that machine; check the address"
    if errno.ETIMEDOUT in codes:
        return f"no answer from {where}; is the machine on, and the address right?"
    reason = next((c.strerror for c in causes if getattr(c, "strerror", None)), str(exc))
    return f"cannot connect to {where}: {reason}"


def _table_choice(
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
            password=args.password,
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
        seat, password = args.seat, args.password
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
    if table.password and password is None:
        password = ask_password(table.id)
    return TableChoice(table_id=table.id, seat=args.seat, password=password, accepted_key=accepted)


@dataclass(frozen=True)
class UnlistedTable:
    """The table --table names, missing from the host's list (protocol.md 3.3 lists only
    tables with an open seat whose match is not over): the join is sent all the same, and
    the host's refusal says whether the table is full or not there."""

    table_id: int
    where: str
    tables: tuple[m.TableInfo, ...]

    def refused(self, code: str, password_given: bool) -> str | None:
        """The line for the host's ``code`` refusing the join, None for one not about this.
        At a table not listed, a seat taken or a password asked for is a full table too."""
        if code == "no_such_table":
            return f"{self.where} has no table {self.table_id}; {self._open_tables()}"
        if code in ("table_full", "seat_taken") or (code == "bad_password" and not password_given):
            return (
                f"table {self.table_id} on {self.where} is full, or its match is over: run this "
                f"again once someone leaves it; {self._open_tables()}"
            )
        return None

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


PASSWORD_TRIES = 3


def terminal_to_type_at() -> bool:
    """Whether a person can type a password here unseen: the input is a terminal."""
    return sys.stdin.isatty()


def ask_password(table_id: int) -> str:
    """The password of a table that has one: typed without echo at a terminal, or read as
    a line from a script's input (getpass's fallback warned there, and an empty line ended in
    a traceback)."""
    import getpass

    if not terminal_to_type_at():
        typed = sys.stdin.readline().rstrip("\r\n")
        if not typed:
            raise CommandError(
                f"table {table_id} has a password: give it with --password (no terminal here "
                "to type it at, and no line of input to read it from)",
                EXIT_REFUSED,  # README: a wrong or missing password is the host saying no
            )
        try:
            return table_password(typed)
        except argparse.ArgumentTypeError as exc:
            raise CommandError(f"not joined: the password read from the input: {exc}") from None
    from scopa_net.client.sigterm import Terminated, sigterm_raises

    for _ in range(PASSWORD_TRIES):
        try:
            with sigterm_raises():  # getpass gives the echo back: the terminal is not left mute
                typed = getpass.getpass(f"password for table {table_id}: ")
        except Terminated:
            print(file=sys.stderr)  # below the prompt's line
            raise CommandError("stopped by SIGTERM; nothing joined", EXIT_TERMINATED) from None
        try:
            return table_password(typed)
        except argparse.ArgumentTypeError as exc:
            say(f"{exc}: type it again")
    raise CommandError(f"not joined: no password typed for table {table_id}")


def check_host_key(host: str, port: int, key: bytes, *, accept: bool) -> bytes | None:
    """Stop before choosing a table if the host's key is not the one pinned for it (unless
    ``accept``: then pin the new one). A host met for the first time is pinned at once (on
    first contact, protocol.md 5.3), and its fingerprint shown for the person to compare.
    Returns the new key accepted when it could not be pinned (said in one line): the game
    takes it without warning again that it changed; else None."""
    from scopa_net.client.files import why_not_written
    from scopa_net.client.network_session import KnownHosts
    from scopa_net.fair.commitments import fingerprint

    known = KnownHosts(data_dir(os.environ) / "known_hosts")
    address = f"{host}:{port}"
    pinned = known.pinned(address)
    if pinned is None:
        elsewhere = known.met_elsewhere(address, key)
        try:
            known.pin(address, key)
            then = " From now on a key you have not met is refused at this address."
        except OSError:  # the game says in one line why, once it has begun
            then = ""
        if elsewhere is not None:
            say(
                f"The host at {address} signs with key {fingerprint(key)}, the key of the "
                f"host you met at {elsewhere}: the same host, at another address.{then}"
            )
            return None
        say(
            f"First visit to the host at {address}: its key is {fingerprint(key)}. The host "
            f"prints its key when it starts: compare the two.{then}"
        )
        return None
    if pinned == key:
        return None
    elsewhere = known.met_elsewhere(address, key)
    if elsewhere is not None and not accept:
        say(
            f"The host at {address} now signs with key {fingerprint(key)}, the key of the host "
            f"you met at {elsewhere}, not {fingerprint(pinned)}, the one you met here: joining "
            f"that host. Both keys stay trusted, each for the host that holds it."
        )
        return None
    if accept:
        try:
            known.pin(address, key)
        except OSError as exc:
            say(
                f"Could not pin the new key {fingerprint(key)} for {address}: "
                f"{why_not_written(exc, known.path)}. The game goes on with it, but the next "
                "`scopa-net join` to this host meets the old key and stops again."
            )
            return key
        say(f"pinned the new key {fingerprint(key)} for {address} in {known.path}")
        return None
    raise CommandError(known.changed_warning(address, key, pinned), EXIT_KEY_CHANGED)


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
