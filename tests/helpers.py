"""Helpers shared by the test modules (test modules never import each other)."""

from __future__ import annotations

import ast
import contextlib
import logging
import os
import random
import re
import secrets
import shutil
import socket
import sqlite3
import struct
import subprocess
import sys
import uuid
from collections.abc import Container, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from scopa_net import round as round_module
from scopa_net.cards import CARDS, Card
from scopa_net.client.seat_store import SeatRecord
from scopa_net.commands.main import main as scopa_net_main
from scopa_net.dealing import TABLE, deal_plan
from scopa_net.fair.blind.cards import CARD_POINTS, card_of
from scopa_net.fair.blind.group import BASE, add, sub
from scopa_net.fair.blind.party import BlindParty, SignedShares
from scopa_net.fair.blind.party_secrets import PartySecrets
from scopa_net.fair.blind.plan import shared_positions
from scopa_net.fair.blind.record import blind_first_dealer, shares_message
from scopa_net.fair.blind.simulate import BlindTable as SimulatedBlindTable
from scopa_net.fair.blind.wire import decode_any
from scopa_net.fair.commitments import fingerprint
from scopa_net.fair.transcript import Transcript
from scopa_net.match import Match
from scopa_net.notation import parse_card
from scopa_net.round import Round
from scopa_net.rules import RuleSet
from scopa_net.server.table import Phase
from scopa_net.wire import messages as m

if TYPE_CHECKING:
    from blind_driver import BlindDriver

#: The rule sets the engine's tests run under: every player count, and each variant that changes
#: how play or scoring goes, alone and with those it interacts with.
RULE_SETS = [
    RuleSet.of(2),
    RuleSet.of(3),
    RuleSet.of(4),
    RuleSet.of(6),
    RuleSet.of(6, 11, ["six_as_three_pairs"]),
    RuleSet.of(4, 11, ["scopone"]),
    RuleSet.of(4, 11, ["scopone_scientifico"]),
    RuleSet.of(2, 11, ["asso_piglia_tutto"]),
    RuleSet.of(4, 11, ["scopone_scientifico", "asso_piglia_tutto"]),
    RuleSet.of(4, 11, ["scopone_scientifico", "asso_piglia_tutto", "napola"]),
    RuleSet.of(2, 11, ["quindici"]),
    RuleSet.of(2, 11, ["quindici", "re_bello"]),
    RuleSet.of(4, 11, ["quindici", "scopone"]),
    RuleSet.of(3, 11, ["primiera=sum", "court_prime=0", "cappotto"]),
]


def shuffled_deck(rng: random.Random) -> list[Card]:
    """The 40 cards in an order drawn from ``rng``."""
    deck = list(CARDS)
    rng.shuffle(deck)
    return deck


def random_round(rules: RuleSet, seed: int) -> Round:
    """The first round that is not void among decks shuffled from ``seed``, dealer at random."""
    rng = random.Random(seed)
    while True:
        deck = shuffled_deck(rng)
        rnd = Round(rules, rng.randrange(rules.players), deck)
        if not rnd.void:
            return rnd


def play_randomly(rnd: Round, rng: random.Random, plays: int | None = None) -> Round:
    """Make ``plays`` random legal plays in ``rnd`` (all of them if None), fewer if the round
    ends first; returns ``rnd``."""
    while not rnd.finished and (plays is None or plays > 0):
        codes = rnd.legal_codes()
        rnd.push_code(codes[rng.randrange(len(codes))])
        plays = None if plays is None else plays - 1
    return rnd


PROTOCOL = Path(__file__).resolve().parent.parent / "protocol.md"


def protocol_section(heading: str, *, nested: bool = True) -> str:
    """The text of protocol.md under the heading line that starts with ``heading`` (``"### 8.1"``
    or a whole title), up to the next heading of the same or a higher level; with ``nested``
    false, up to the next heading of any level (the section's own text, without subsections)."""
    text = PROTOCOL.read_text(encoding="utf-8")
    found = re.search(rf"^{re.escape(heading)}.*\n", text, re.MULTILINE)
    assert found, f"protocol.md has no heading {heading!r}"
    level = len(heading.split(" ", maxsplit=1)[0])
    stop = re.compile(rf"^#{{1,{level if nested else 6}}} ", re.MULTILINE).search(text, found.end())
    return text[found.end() : stop.start() if stop else len(text)]


def env_without_coverage() -> dict[str, str]:
    """This process's environment less coverage.py's variables: a subprocess started with it is
    not measured, for tests that check which modules a fresh interpreter imports (coverage
    itself imports sqlite3)."""
    return {k: v for k, v in os.environ.items() if not k.startswith("COVERAGE_")}


def env_with_home(home: Path) -> dict[str, str]:
    """This process's environment with scopa-net's data and configuration under ``home``."""
    return dict(os.environ, XDG_DATA_HOME=str(home), XDG_CONFIG_HOME=str(home))


def run_scopa_net(
    *args: str, home: Path | None = None, input: str | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``scopa-net ARGS`` as a person runs it: in a process of its own, with no input (or
    ``input`` through a pipe, as from a script), and its data and configuration under
    ``home`` when given (in the folder ``cwd``, when given)."""
    env = dict(os.environ) if home is None else env_with_home(home)
    return subprocess.run(
        [sys.executable, "-m", "scopa_net", *args],
        capture_output=True,
        text=True,
        env=env,
        input=input,
        stdin=subprocess.DEVNULL if input is None else None,
        timeout=60,
        check=False,
        cwd=cwd,
    )


def kept_seat(port: int, **fields: object) -> SeatRecord:
    """Ada's seat 1 at table 3 of a two-player match on 127.0.0.1:``port``, as a client keeps
    it on disk (one token), with ``fields`` changed."""
    record = SeatRecord(
        host="127.0.0.1",
        port=port,
        host_key="ab" * 32,
        table_id=3,
        seat=1,
        name="Ada",
        players=2,
        target=11,
    )
    return replace(record, **fields).with_token(b"\x01" * 16)  # type: ignore[arg-type]


# --- decks that deal chosen cards -------------------------------------------------------


def seat_for_reconnection(data_dir: Path, **fields: object) -> SimpleNamespace:
    """A stand-in for what :class:`~scopa_net.client.reconnection.Reconnection` reads of a
    seat: at club:7311, match 1, data and transcripts under ``data_dir``, no match end seen;
    ``fields``: the rest (``seat``, ``table_id``, ``_transcripts``, ...)."""
    return SimpleNamespace(
        address="club:7311",
        match_no=1,
        data_dir=data_dir,
        transcripts_folder=data_dir / "transcripts",
        _match_ended=False,
        **fields,
    )


def named(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


def deck_dealing(
    rules: RuleSet, dealer: int, hands: Mapping[int, str], table: str = ""
) -> list[Card]:
    """A deck whose first deal gives ``hands[seat]`` (all of each hand) and lays ``table``;
    every other card fills the remaining positions in index order."""
    first = deal_plan(rules, dealer)[0]
    wanted: dict[int, list[Card]] = {seat: named(text) for seat, text in hands.items()}
    wanted[TABLE] = named(table)
    used = {c for cards in wanted.values() for c in cards}
    spare = [c for c in CARDS if c not in used]
    deck: list[Card] = []
    for target in first.targets:
        pool = wanted.get(target)
        deck.append(pool.pop(0) if pool else spare.pop(0))
    deck += spare
    assert len(set(deck)) == 40
    return deck


def match_dealt(
    hands: Mapping[int, str], table: str, *, players: int = 2, target: int = 11, dealer: int = 1
) -> Match:
    """A match whose first round is dealt as asked; seat ``dealer + 1`` moves first."""
    rules = RuleSet.of(players, target)
    match = Match(rules, first_dealer=dealer)
    match.deal(deck_dealing(rules, dealer, hands, table))
    return match


# --- loopback ports and LAN discovery -----------------------------------------------------


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def unique_name(prefix: str) -> str:
    """``prefix`` and a random suffix: an mDNS name no other run (or test) announces."""
    return f"{prefix} {uuid.uuid4().hex[:8]}"


MDNS_GROUP = "224.0.0.251"
LOOPBACK = socket.inet_aton("127.0.0.1")


def multicast_loops_back(timeout: float = 1.0) -> bool:
    """Whether a datagram sent to the mDNS group through the loopback interface comes back (it
    does not in some sandboxes and containers)."""
    try:
        with (
            socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as rx,
            socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as tx,
        ):
            rx.bind(("", 0))
            port = rx.getsockname()[1]
            membership = struct.pack("4s4s", socket.inet_aton(MDNS_GROUP), LOOPBACK)
            rx.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, membership)
            rx.settimeout(timeout)
            # The probe leaves through the loopback interface only: nothing goes on the LAN.
            tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, LOOPBACK)
            tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 1)
            tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 1)
            probe = uuid.uuid4().bytes
            tx.sendto(probe, (MDNS_GROUP, port))
            while True:
                data, _ = rx.recvfrom(64)
                if data == probe:
                    return True
    except OSError:
        return False


def require_multicast() -> None:
    """Skip the calling test, saying why, where multicast does not loop back."""
    if not multicast_loops_back():
        pytest.skip(
            f"multicast to {MDNS_GROUP} does not come back on this machine (no multicast "
            "route?): LAN discovery cannot be tested here"
        )


class SwappedSharesParty(BlindParty):
    """A dishonest blind party: its first two shares of every deal swapped, and signed, so a
    seat reading either position finds no card there (protocol.md 9.6, 9.9)."""

    def open_deal(self, k: int) -> SignedShares:
        honest = super().open_deal(k)
        shares = (honest.shares[1], honest.shares[0], *honest.shares[2:])
        self._sent[k] = shares
        message = shares_message(self.round_id, self.party, k, shares)
        return SignedShares(shares, self.secrets.sign(message))


def one_wrong_share(cheat: int, target: int) -> type[BlindParty]:
    """A blind party class whose party ``cheat`` is dishonest: in deal 1 it signs, for the
    first position it shares that goes to ``target`` (a seat, or ``TABLE``), its honest share
    plus ``B``, so that card opens to no card point (protocol.md 9.6). Other parties are
    honest."""

    class OneWrongShare(BlindParty):
        altered = False

        def open_deal(self, k: int) -> SignedShares:
            honest = super().open_deal(k)
            if self.party != cheat or k != 1 or self.altered:
                return honest
            self.altered = True
            deal = self.plan[0]
            positions = shared_positions(deal, self.people, cheat)
            i = next(i for i, p in enumerate(positions) if deal.targets[p - deal.start] == target)
            shares = list(honest.shares)
            shares[i] = add(shares[i], BASE)
            self._sent[k] = tuple(shares)
            sig = self.secrets.sign(shares_message(self.round_id, cheat, k, shares))
            return SignedShares(tuple(shares), sig)

    return OneWrongShare


def shift_a_table_card(
    host: BlindParty, k: int, shares: Sequence[Sequence[bytes]], avoid: Container[int] = ()
) -> tuple[int, int, tuple[bytes, ...], bytes]:
    """What a cheating host could do once it holds every person's shares of deal ``k``
    (``shares`` by party, its own honest ones first): a share of its own for the deal's first
    table position that opens that position to another card, the first card not in
    ``avoid``, signed with its round key (protocol.md 9.5.6). Returns the position, the card
    chosen, the host's altered shares and their signature."""
    deal = host.plan[k - 1]
    mine = shared_positions(deal, host.people, 0)
    pos = next(p for p in mine if deal.targets[p - deal.start] == TABLE)
    others = None
    for party in range(1, len(shares)):
        theirs = shared_positions(deal, host.people, party)
        share = shares[party][theirs.index(pos)]
        others = share if others is None else add(others, share)
    assert others is not None
    v = host.deck[pos].v
    true_card = card_of(sub(v, add(others, shares[0][mine.index(pos)])))
    chosen = next(c for c in range(40) if c != true_card and c not in avoid)
    altered = list(shares[0])
    altered[mine.index(pos)] = sub(sub(v, others), CARD_POINTS[chosen])
    assert card_of(sub(v, add(others, altered[mine.index(pos)]))) == chosen  # it would work
    sig = host.secrets.sign(shares_message(host.round_id, 0, k, altered))
    return pos, chosen, tuple(altered), sig


ROUND_1_VERIFIED = re.compile(
    r"^round 1: (verified \(dealer |void deal \(kings on the table\), dealer .*; verified(;|$))",
    re.M,
)
"""``verify``'s line of round 1 checked: played out, or void for its kings (about 1 deal in
600, every time under ``--blind-void=first``: tests/blind_void.py)."""


def verify_pinned(
    host_key: bytes, path: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    """``scopa-net verify --pin FINGERPRINT path``, the fingerprint of ``host_key`` (the host's
    public key), run in this process: its exit status and what it printed (only that)."""
    capsys.readouterr()
    status = scopa_net_main(["verify", "--pin", fingerprint(host_key), str(path)])
    return status, capsys.readouterr().out


def verified_as_far_as_seen(
    transcripts: Path, host_key: bytes, version: int, capsys: pytest.CaptureFixture[str]
) -> tuple[Transcript, str]:
    """The one transcript in the folder ``transcripts``, of a seat caught up mid-match: of
    ``version`` (7 ordinary, 8 blind) with a ``caught_up``, and ``verify --pin`` of it ends
    "VERIFIED as far as this seat saw the match" (status 1), no round FAILED. The transcript
    and what verify printed."""
    (saved,) = transcripts.glob("*.scopa")
    transcript = decode_any(saved.read_bytes())
    assert transcript.version == version
    assert transcript.caught_up is not None
    status, out = verify_pinned(host_key, saved, capsys)
    assert status == 1, out
    assert "FAILED" not in out, out
    assert out.rstrip().splitlines()[-1].startswith("VERIFIED as far as this seat saw the match"), (
        out
    )
    return transcript, out


def imported_modules(path: Path) -> set[str]:
    """The top-level modules a Python file imports (for the guards that an outsider's module,
    written from the documents alone, imports nothing of ours)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.add((node.module or "").split(".")[0])
    return found


def no_kings_void(monkeypatch: pytest.MonkeyPatch) -> None:
    """No opening table is void for its kings in this test: about one opening in 630 holds
    three kings, a true outcome that is not what a test of a played-out round is about (fresh
    clones have met it). Host, clients and verifier must share the test's process, so that all
    of them read the opening alike."""
    monkeypatch.setattr(round_module, "is_void_opening", lambda table_mask: False)


def drive_until_waiting_on(driver: BlindDriver, phase: Phase, seat: int) -> None:
    """Step a blind table's driver until the table, in ``phase``, waits on ``seat``."""
    table = driver.table
    for _ in range(300):
        driver.catch_up()
        if table.phase is phase and any(s == seat for s, _ in table.to_act()):
            return
        driver.step()
    raise AssertionError(f"the table never waited on seat {seat} in {phase}")


def one_blind_round(seed: int) -> tuple[SimulatedBlindTable, Ed25519PrivateKey]:
    """A 2-player blind round of two people in one process, shuffled and its first deal
    opened, and the key that signs as its host."""
    rng = random.Random(seed)
    key = Ed25519PrivateKey.from_private_bytes(rng.randbytes(32))
    table = SimulatedBlindTable(RuleSet.of(2), rng, (0, 1))
    table.keys_and_shuffle(None)  # the dealer from the keys, as the match's first deal
    table.trace_deck()
    table.open_deal(1)
    return table, key


class TickingClock:
    """Virtual time: every reading moves it on by ``step`` seconds."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        self.now += self.step
        return self.now


def kings_on_the_table(players: int, people: int | None = None) -> tuple[bytes, bytes, bytes]:
    """A round id, a host seed and one seed for every person's seat (``people``, by default
    every seat: a computer's sends none) whose shuffle puts three or more kings on the opening
    table (a void deal): for a test that plans a real host's first deal."""
    from scopa_net.fair.commitments import HostDeck, joint_seed
    from scopa_net.fair.shuffle import deck_permutation

    rng = random.Random(2024)
    start = 3 * players
    while True:
        round_id, host_seed, seed = rng.randbytes(16), rng.randbytes(32), rng.randbytes(32)
        deck = HostDeck.derive(host_seed, round_id)
        joint = joint_seed(round_id, deck.digest, [seed] * (players if people is None else people))
        order = deck.deck(deck_permutation(joint, round_id))
        if sum(1 for c in order[start : start + 4] if c >= 36) >= 3:
            return round_id, host_seed, seed


def blind_perm(seed: bytes, round_id: bytes) -> tuple[int, ...]:
    """A blind party's shuffle from its seed (protocol.md 9.3): output position ``i`` takes
    input position ``perm[i]``."""
    from scopa_net.fair.blind.tags import LABEL_SHUFFLE
    from scopa_net.fair.shuffle import RandomStream, fisher_yates

    return fisher_yates(RandomStream(seed, LABEL_SHUFFLE, round_id))


def blind_kings_seed(
    rules: RuleSet, round_id: bytes, seeds: Mapping[int, bytes], party: int, start: bytes
) -> bytes:
    """A seed for blind ``party`` that, with every other party's seed (``seeds``, by party),
    shuffles three or more kings onto the round's opening table (a void deal, 9.5): the first
    of ``sha256(start || k)``, k = 0, 1, ... that does (about one in 600). The opening table's
    positions do not depend on the dealer."""
    import hashlib

    from scopa_net.cards import KINGS_MASK
    from scopa_net.dealing import seat_positions

    parties = len(seeds) + 1
    perms = {p: blind_perm(s, round_id) for p, s in seeds.items()}
    table = seat_positions(rules, 0, TABLE, first_deal_only=True)
    for k in range(100_000):
        seed = hashlib.sha256(start + k.to_bytes(4, "big")).digest()
        perms[party] = blind_perm(seed, round_id)
        kings = 0
        for pos in table:
            for p in reversed(range(parties)):
                pos = perms[p][pos]
            kings += bool((1 << pos) & KINGS_MASK)
        if kings >= 3:
            return seed
    raise AssertionError("no seed of 100,000 puts three kings on the table")


def blind_kings_on_the_table(rules: RuleSet, people: int) -> tuple[bytes, bytes, list[bytes]]:
    """A round id, a host seed and a seed for each of ``people`` persons' parties (parties 1
    on) whose blind shuffle deals three or more kings to the opening table: the blind form of
    :func:`kings_on_the_table`, for a test that plans a blind round's seeds."""
    rng = random.Random(2024)
    round_id = rng.randbytes(16)
    seeds = {p: rng.randbytes(32) for p in range(people)}  # the host's (party 0) and others
    last = blind_kings_seed(rules, round_id, seeds, people, rng.randbytes(32))
    return round_id, seeds[0], [*(seeds[p] for p in range(1, people)), last]


class SeededSecrets:
    """The ``secrets`` module as a seat draws its seed from it, for a test to put in its
    place: the seat seed (``len(seed)`` bytes) is always ``seed``, all else the real one's."""

    def __init__(self, seed: bytes) -> None:
        self._seed = seed

    def __getattr__(self, name: str) -> object:
        return getattr(secrets, name)

    def token_bytes(self, n: int) -> bytes:
        return self._seed if n == len(self._seed) else secrets.token_bytes(n)


def plan_first_round(monkeypatch: pytest.MonkeyPatch, round_id: bytes, host_seed: bytes) -> None:
    """A real host deals its first round with ``round_id`` and ``host_seed`` (as from
    ``kings_on_the_table``), every later one as it draws them."""
    from scopa_net.server.table import Table

    start_round = Table.start_round

    def first_round_planned(table: Table, rid: bytes, host: bytes) -> None:
        start_round(table, *((round_id, host_seed) if table.round_no == 0 else (rid, host)))

    monkeypatch.setattr(Table, "start_round", first_round_planned)


def before_the_first_deal(seq: int, seat: int = 0) -> m.Snapshot:
    """A snapshot of a two-player table whose match has not dealt yet (round 0), for
    ``seat``."""
    players = 2
    return m.Snapshot(
        seq=seq,
        table_id=3,
        seat=seat,
        side=seat,
        rules=m.RulesInfo(players=players, target=11, variants=()),
        dealer=1,
        round_no=0,
        to_move=None,
        hand=(),
        table=(),
        hand_counts=(0,) * players,
        stock=0,
        pile_counts=(0,) * players,
        sweeps=(0,) * players,
        scores=(0,) * players,
        plays=(),
        void_deal=False,
        round_over=False,
        leftover=(),
        round_score=None,
        winner=None,
    )


@contextmanager
def unwritable(folder: Path) -> Iterator[None]:
    """``folder`` can be read but nothing made in it, for root too (immutable, by chattr)."""
    if os.geteuid() != 0:
        folder.chmod(0o500)
        try:
            yield
        finally:
            folder.chmod(0o700)
        return
    made = shutil.which("chattr") and subprocess.run(
        ["chattr", "+i", str(folder)], capture_output=True, check=False
    )
    if not made or made.returncode:
        pytest.skip("as root, a folder cannot be made unwritable here (no chattr)")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


def host_said(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The host's log lines at INFO and above, as its organiser reads them."""
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "scopa_net.host" and r.levelno >= logging.INFO
    ]


def key_drawing_dealer(opened: m.BlindRound, dealer: int, players: int) -> PartySecrets:
    """Party 1's secrets for a blind round whose keys (the host's in ``opened``, and these)
    draw ``dealer`` as the match's first dealer (9.5.5): a person alone with the host can."""
    from scopa_net.server.blind_table import party_key

    host_key = party_key(opened.key)
    for _ in range(200):
        mine = PartySecrets(secrets.token_bytes(32), opened.round_id, 1)
        if blind_first_dealer(opened.round_id, (host_key, mine.key), players) == dealer:
            return mine
    raise AssertionError("no key drew that dealer")


def held_open(path: Path) -> list[str]:
    """The descriptors this process holds open on ``path`` (Linux's /proc/self/fd): a
    journal refused must leave none, even while something still refers to it."""
    if not Path("/proc/self/fd").is_dir():
        pytest.skip("no /proc/self/fd here to see which files are open")
    target = os.path.realpath(path)
    held = []
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):  # the descriptor listdir itself held is gone
            if os.readlink(f"/proc/self/fd/{fd}") == target:
                held.append(fd)
    return held


def connections_opened(monkeypatch: pytest.MonkeyPatch) -> list[sqlite3.Connection]:
    """Every SQLite connection opened from now on in this test, kept here: one left open is
    still open when the test looks (:func:`still_open`), whatever the collector does."""
    opened: list[sqlite3.Connection] = []
    connect = sqlite3.connect

    def connect_and_keep(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        opened.append(connect(*args, **kwargs))
        return opened[-1]

    monkeypatch.setattr(sqlite3, "connect", connect_and_keep)
    return opened


def still_open(connections: list[sqlite3.Connection]) -> list[sqlite3.Connection]:
    """Those of ``connections`` not closed."""
    left = []
    for connection in connections:
        try:
            connection.total_changes  # noqa: B018 (a closed connection refuses it)
        except sqlite3.ProgrammingError:
            continue
        left.append(connection)
    return left
