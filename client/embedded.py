"""``scopa-net play`` without a host elsewhere: a host inside this process, and us at its table.

The embedded host is a real host (the same code as ``scopa-net host``) listening on loopback, or
on the LAN with ``--lan`` so friends can ``scopa-net join`` the table you are sitting at; the
client reaches it over TCP like any other, so every deal is checked the same way.

With ``--lan`` the host keeps its journal (and its key) on disk, in ``play-lan/`` under the
data directory, and the player's seat is kept there too: a ``play --lan`` closed mid-match and
run again restarts the host from its journal and takes the seat back, and friends take theirs
back with ``scopa-net join`` as after any host restart. Without ``--lan`` nothing is kept: the
host lives and dies with the game.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

import trio

from scopa_net.client.file_lock import FileLocks
from scopa_net.client.files import make_private_folder
from scopa_net.client.network_session import NetworkSession, TableChoice, open_network_session
from scopa_net.client.seat_store import SeatRecord, SeatStore
from scopa_net.fair.commitments import fingerprint, public_key_bytes
from scopa_net.rules import RuleSet
from scopa_net.server.announce import advertise
from scopa_net.server.config import HostConfig
from scopa_net.server.discovery import join_address, lan_addresses
from scopa_net.server.host import Host, load_host_key
from scopa_net.server.journal import Journal
from scopa_net.server.table import SeatKind, Table
from scopa_net.wire import messages as m

LEVEL_NUMBERS = {"random": 1, "greedy": 2, "strong": 3, "expert": 4}
LAN_DIR = "play-lan"
"""Under the data directory: the journal, key and kept seat of ``play --lan``'s own host."""


class LanTableBusyError(Exception):
    """Another ``play --lan`` of this user is running: its host owns the journal."""


def lan_folder(data_dir: Path) -> Path:
    return data_dir / LAN_DIR


def lan_store(data_dir: Path) -> SeatStore:
    """Where ``play --lan`` keeps the player's own seat (apart from the seats ``join`` keeps:
    ``join`` never offers this one, whose host runs only inside ``play --lan``)."""
    return SeatStore(lan_folder(data_dir))


def _journal_path(data_dir: Path) -> Path:
    return lan_folder(data_dir) / "host.db"


@contextlib.contextmanager
def lan_table_lock(data_dir: Path) -> Iterator[None]:
    """Hold ``play --lan``'s folder for this process; :class:`LanTableBusyError` if another
    ``play --lan`` holds it (two hosts must never share one journal)."""
    folder = lan_folder(data_dir)
    make_private_folder(folder)
    locks = FileLocks(folder, suffix="")
    if not locks.hold("lock"):
        raise LanTableBusyError(str(folder))
    try:
        yield
    finally:
        locks.close()


def kept_lan_seats(data_dir: Path) -> list[SeatRecord]:
    """The player's seats at ``play --lan``'s own host that a re-run can take back: kept on
    disk, by this host's key, at a table whose match its journal has not finished."""
    path = _journal_path(data_dir)
    kept = lan_store(data_dir).records()
    if not kept or not path.exists():
        return []
    journal = Journal(path)
    try:
        key = public_key_bytes(load_host_key(journal)).hex()
        unfinished = {int(t.table_id) for t in journal.tables(finished=False)}
    finally:
        journal.close()
    return [r for r in kept if r.host_key == key and r.table_id in unfinished]


def close_lan_tables(data_dir: Path) -> list[int]:
    """A new ``play --lan`` table instead of the old ones: every match the journal has not
    finished is closed (not restored at the host's start), and the seats kept there are
    forgotten. Returns the numbers of the tables closed."""
    store = lan_store(data_dir)
    for record in store.records():
        store.delete(record)
    path = _journal_path(data_dir)
    if not path.exists():
        return []
    journal = Journal(path)
    try:
        closed = [t.table_id for t in journal.tables(finished=False)]
        for table_id in closed:
            summary = {"abandoned": True, "closed": "play --lan opened a new table"}
            journal.finish_table(table_id, time.time(), summary)
    finally:
        journal.close()
    return [int(t) for t in closed]


def lan_join_lines(
    bind: str, bound: int, wanted: int, *, password: bool = False
) -> tuple[str, ...]:
    """How friends join a table opened with ``play --lan``, for the screen and ``who``;
    ``password``: the table has one, which their ``join`` asks them for, typed unseen (never
    the password itself, nor ``--password``, which other users of their machine could read)."""
    addresses = lan_addresses(bind)
    moved = f" (port {wanted} was taken)" if wanted and bound != wanted else ""
    if not addresses:
        return (f"This machine has no LAN address: friends cannot join. Port {bound}{moved}.",)
    lines = [f"Friends join this table on port {bound}{moved} with:"]
    lines += [f"  scopa-net join {join_address(a, bound)}" for a in addresses]
    if password:
        lines.append("It asks them for the table's password, the one you gave: tell them yourself")
    return tuple(lines)


def seats_for_people(table: Table) -> int:
    """How many of a table's seats are people's (sat at, kept, or open), not computers'."""
    return sum(1 for seat in table.seats if seat.kind is not SeatKind.BOT)


@contextlib.contextmanager
def host_log_kept_off_the_screen() -> Iterator[None]:
    """The embedded host's log lines go nowhere while it runs: with no handler set, Python
    wrote its warnings to this terminal, through the game's screen (the player reads what
    matters from the host's notices, ``Host: ...``)."""
    logger = logging.getLogger("scopa_net.host")  # every host module's (server/*.py)
    quiet = logging.NullHandler()
    logger.addHandler(quiet)
    try:
        yield
    finally:
        logger.removeHandler(quiet)


@asynccontextmanager
async def _running_host(
    config: HostConfig, *, any_port_if_taken: bool
) -> AsyncIterator[tuple[Host, int, trio.Nursery]]:
    """A host serving ``config`` (on any free port if its port is taken and
    ``any_port_if_taken``): the host, the port it listens on, and a nursery for tasks that live
    as long as it does.

    The host runs shielded from the cancel that closes the game's screen (SIGTERM, Ctrl-C, the
    end of the match), so that it is still there to tell its players it stopped
    (:func:`_stop_for_friends`); it is cut off once the body is done, however it ended."""
    journals = contextlib.ExitStack()  # every journal opened is closed, however the game ends

    def host_of(config: HostConfig) -> Host:
        return Host(config, journals.enter_context(Journal(config.db)))

    with journals:
        async with trio.open_nursery() as nursery:
            host = host_of(config)
            hosting = trio.CancelScope(shield=True)
            try:
                bound = await nursery.start(_serve_shielded, host, hosting)
            except (OSError, ExceptionGroup) as exc:
                taken = isinstance(exc, OSError) or exc.subgroup(OSError) is not None
                if not config.port or not taken or not any_port_if_taken:
                    raise
                host.journal.close()
                config = replace(config, port=0)  # the port is taken: any free one will do
                host = host_of(config)
                hosting = trio.CancelScope(shield=True)
                bound = await nursery.start(_serve_shielded, host, hosting)
            try:
                yield host, bound, nursery
            finally:
                hosting.cancel()  # stopped by now, or too slow to stop: the rest is cut off
                nursery.cancel_scope.cancel()


async def _serve_shielded(
    host: Host, hosting: trio.CancelScope, *, task_status: trio.TaskStatus[int]
) -> None:
    with hosting:
        await host.serve(task_status=task_status)


async def _stop_for_friends(host: Host) -> None:
    """Stop the host as ``scopa-net host`` stops at Ctrl-C or SIGTERM: friends read that the
    host was stopped and that their seats are kept (not that the connection was lost), and
    the journal is flushed. Bounded, and done even while the game is being cancelled."""
    shielded, bounded = trio.CancelScope(shield=True), trio.move_on_after(3)
    with shielded, bounded, contextlib.suppress(trio.BrokenResourceError):
        await host.shutdown(grace=1.0)


@asynccontextmanager
async def open_embedded_game(
    rules: RuleSet,
    *,
    name: str,
    level: str = "greedy",
    delay: float = 0.8,
    think: float = 1.0,
    lan: bool = False,
    port: int = 0,
    password: str | None = None,
    humans: int = 1,
    data_dir: Path | None = None,
    offer_rematch: bool = False,
    blind: bool = False,
    resume_from: SeatRecord | None = None,
    bind: str | None = None,
    any_port_if_taken: bool = True,
) -> AsyncIterator[NetworkSession]:
    """Start a host, open a table with computer players in all but ``humans`` seats, sit down.
    ``offer_rematch``: the session stays after the match for a vote on playing again.
    ``think``: seconds an ``expert`` computer player thinks about each move.

    With ``lan`` the host listens on every interface, on ``port`` if it is free (else on any
    free port, unless ``any_port_if_taken`` is false: a port the person named), and the
    session's ``where_to_join`` says how friends reach it. With ``lan`` and a ``data_dir`` the
    host's journal and the player's seat are kept on disk (the caller holds
    :func:`lan_table_lock`), and ``resume_from`` (from :func:`kept_lan_seats`) takes that seat
    back instead of opening a new table. ``bind``: the address to listen on (by
    default every interface with ``lan``, else loopback)."""
    kept = lan and data_dir is not None
    db = str(_journal_path(data_dir)) if kept and data_dir is not None else ":memory:"
    config = HostConfig(
        name=f"{name}'s table",
        bind=bind or ("0.0.0.0" if lan else "127.0.0.1"),
        port=port,
        db=db,
        advertise=lan,
        bot_delay=delay,
        think=think,
    )
    with host_log_kept_off_the_screen():
        async with _running_host(config, any_port_if_taken=any_port_if_taken) as (
            host,
            bound,
            nursery,
        ):
            store = lan_store(data_dir) if kept and data_dir is not None else None
            if resume_from is not None and store is not None:
                # The host may listen on another port this time: the record follows it.
                store.delete(resume_from)
                resume_from = store.save(replace(resume_from, host="127.0.0.1", port=bound))
                choice = TableChoice(table_id=resume_from.table_id, seat=resume_from.seat)
            else:
                resume_from = None
                create = m.CreateTable(
                    name=f"{name}'s table"[: m.NAME_LEN],
                    rules=m.RulesInfo.of(rules),
                    password=password,
                    bots=rules.players - humans,
                    bot_level=LEVEL_NUMBERS.get(level, 2),
                    blind=blind,
                )
                choice = TableChoice(create=create)
            async with open_network_session(
                "127.0.0.1",
                bound,
                choice,
                name=name if resume_from is None else resume_from.name,
                data_dir=data_dir,
                pin_host=False,  # this process's own host: nothing to pin
                offer_rematch=offer_rematch,
                store=store,
                resume_from=resume_from,
            ) as session:
                session.embedded_port = bound  # type: ignore[attr-defined]
                if store is not None:
                    session.take_back_with = "`scopa-net play --lan`"
                    # It opens the table where it was, whatever flags this run was given.
                    session.take_back_note = (
                        f"it opens this table again on port {bound}, with its players and "
                        "rules: no other flag is needed"
                    )
                if resume_from is not None and session.table_id in host.tables:
                    # A table taken back: its seats say who may join, not this run's --humans.
                    humans = seats_for_people(host.tables[session.table_id].table)
                session.hosts_friends = lan and humans > 1  # type: ignore[attr-defined]
                if session.hosts_friends and session.table_id in host.tables:
                    # Leaving for good ends the table for the friends: the table task does it
                    # as it answers the leave, before this terminal's game closes.
                    host.tables[session.table_id].owner = session.seat
                if lan and humans == 1:
                    # Every other seat is a computer's: nobody can join, whatever the LAN.
                    # A table taken back keeps its seats, whatever this run's --humans.
                    instead = (
                        "`scopa-net play --lan --no-resume --humans N` opens a new one with "
                        "seats for friends"
                        if resume_from is not None
                        else "`--humans N` leaves seats for friends"
                    )
                    session.where_to_join = (
                        f"Every other seat is a computer's, so nobody can join this table; "
                        f"{instead}.",
                    )
                    for line in session.where_to_join:
                        session.notice(line)
                elif lan:
                    # Announced once the table is open, so the first announcement already counts
                    # its open seats (before it, a friend searching saw "0 open seats").
                    nursery.start_soon(advertise, host)
                    session.where_to_join = (
                        *lan_join_lines(config.bind, bound, port, password=bool(password)),
                        f"This table's host key is {fingerprint(host.public_key)}: a friend's "
                        "join shows it on their first visit, to compare.",
                    )
                    for line in session.where_to_join:
                        session.notice(line)
                try:
                    yield session
                finally:
                    if kept:  # friends may be at the table: they are told the host stopped
                        await _stop_for_friends(host)
        if kept and data_dir is not None and session.left_for_good:
            close_lan_tables(data_dir)  # nothing to take back: a later run opens a new table
