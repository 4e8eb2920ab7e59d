"""Ada's real client, caught up by snapshot at our real host's blind table (protocol.md 9.7),
against the host made to cheat once she is back: she reads the DEAL CHECK FAILED banner, as a
seat that saw every event would, and the evidence is kept for ``scopa-net verify``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import trio
from chain_rewritten import REWRITTEN, stopped_by_the_rewritten_chain
from helpers import verify_pinned
from hosting import CutOff, create, start_host
from person_screen import (
    Player,
    deal_checks_failed,
    plays_the_first_legal_card,
    sit,
    take_back,
    until,
)

from scopa_net.blind_witness import BlindWitness
from scopa_net.client.network_session import (
    CAUGHT_UP_AT_ROUNDS_YOU_SAW,
    CAUGHT_UP_BETWEEN_ROUNDS,
)
from scopa_net.commands.options import EXIT_DEAL_FAILED
from scopa_net.rules import RuleSet
from scopa_net.server.blind_table import BlindTable
from scopa_net.server.host import Host
from scopa_net.server.table import Phase


async def test_a_dealer_the_host_keeps_after_a_catch_up_stops_her_client(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ada plays our host's computer player at a blind table. Her client dies in round 1 (or
    the redeal of a void one); the round is void once her grace period ends, and the next
    waits for her (its one person). She takes her seat back, behind further than the host
    replays: caught up by a snapshot, that round void in it. From then on the host keeps the
    deal with the seat that dealt the round before, once a round is played out. Before the
    fix her client, caught up, checked no dealer and played the match out; now it stops at
    the first round the host deals out of turn, and the round's reveal (read before she
    leaves) names the same fault."""
    original_end = BlindTable._end_round

    def keeps_the_deal(table: BlindTable) -> None:
        original_end(table)
        if cheating:
            assert table.match is not None
            table.match.dealer = (table.match.dealer - 1) % table.rules.players

    cheating: list[bool] = []
    monkeypatch.setattr(BlindTable, "_end_round", keeps_the_deal)
    hosts: list[Host] = []
    screens: list[Player] = []

    async def ada_comes_back() -> None:
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, replay_limit=1, bot_delay=0, grace=0.5)
            hosts.append(host)
            rules = RuleSet.of(2, 16)
            ada = await sit(
                nursery, host, "Ada", tmp_path, create=create(rules, bots=1, blind=True)
            )
            await until(lambda: ada.session.view is not None and ada.session.view.my_turn)
            (task,) = host.tables.values()
            voids = task.table.voids  # (a random deal void for kings counts one)
            ada.crash()
            # The round void once her grace period ends; the next waits for her, its one person.
            await until(lambda: task.table.voids > voids and task.table.phase is Phase.BETWEEN)
            back = await take_back(nursery, host, ada, tmp_path)
            assert CAUGHT_UP_BETWEEN_ROUNDS in back.text, back.text
            screens.append(back)
            cheating.append(True)
            await plays_the_first_legal_card(back)

    failed = await deal_checks_failed(ada_comes_back, 90)
    (stop,) = failed
    # The round she followed after the catch-up was replayed, plays and score, and she read so.
    before = screens[0].text.partition("A deal check failed")[0]
    assert re.search(r"^Deal check: verified \(dealer (you|bot 1), ", before, re.M), before
    assert "every card you saw, every play and the score were checked" in before, before
    lines = stop.banner.splitlines()
    banner = lines[0]
    assert re.fullmatch(
        r"DEAL CHECK FAILED in round (\d+): misrouted card: round \1's dealer is (Ada|bot 1), "
        r"but (Ada|bot 1) deals it \(the next seat after a round played out, the same after a "
        r"void(, as the snapshot you were caught up with gives it)?\)",
        banner,
    ), banner
    # What she is told it means is the check that stopped her, a deal out of order, as at an
    # ordinary table: not the reveal's record-level "broken chain" (9.9 step 4).
    assert lines[1] == (
        "What this means: cards went where the deal does not send them (to your hand, or to "
        "the table): the host dealt out of order, or the record was changed."
    ), stop.banner
    assert re.fullmatch(
        r"The round's reveal: broken chain: the round was dealt by (Ada|bot 1), but "
        r"(Ada|bot 1) deals it \(the next seat after a round played out, the same after a "
        r"void\)",
        lines[2],
    ), stop.banner
    # Every line she reads says what happened in words: no class name of ours on her screen.
    assert "Error" not in screens[0].text, screens[0].text
    assert stop.exit_status == EXIT_DEAL_FAILED
    evidence = stop.evidence
    assert evidence is not None
    assert evidence.exists()
    status, out = verify_pinned(hosts[0].public_key, evidence, capsys)
    assert status == 1, out
    assert "saved as evidence when the client stopped: round" in out, out
    # Her file (version 8, protocol.md 9.8) begins after the catch-up with what the snapshot
    # told: said so, not read as a record changed, and the round the host dealt out of turn is
    # the one that fails.
    assert "the record was changed after the round (or the file is damaged)" not in out, out
    assert re.search(
        r"^not checked: (round 1|rounds 1 to \d+): this seat did not see (it|them) \((caught up "
        r"by snapshot after round \d+|it sat down in round \d+, or came back then having "
        r"finished no round: the host's snapshot told it the match)\); round \d+ on is replayed "
        r"on the match as the snapshot "
        r"told it \(scores \[\d+, \d+\], .* dealing\): the host's word, not checked here$",
        out,
        re.M,
    ), out
    assert re.search(r"^  round \d+: FAILED: broken chain: the round was dealt by ", out, re.M), out
    assert re.search(
        r"^saved as evidence when the client stopped: round (\d+), misrouted card: round \1's "
        r"dealer is (Ada|bot 1) \(seat \d.*\), but (Ada|bot 1) \(seat \d[^)]*\) deals it",
        out,
        re.M,
    ), out
    assert "Error" not in out, out
    assert out.rstrip().endswith("NOT VERIFIED"), out


async def test_a_chain_rewritten_behind_a_snapshot_of_her_last_round_stops_her_client(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ada plays round 1 out against our host's computer player at a blind table; her client
    checks it. Her network goes down before round 2, and the host links round 2 to another
    chain hash than round 1's. Her client resumes and is caught up with the snapshot of round
    2's start, which stands at round 1: she reads the DEAL CHECK FAILED banner at round 2's
    ``blind_round`` (before, the link was taken as it came after any snapshot, and she played
    on), and ``verify`` refuses the evidence, which holds round 2 as it was opened."""
    monkeypatch.setattr(BlindTable, "pause_before_round", property(lambda table: 2.0))
    hosts: list[Host] = []
    screens: list[Player] = []
    checked: list[bytes] = []

    async def ada_comes_back() -> None:
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, replay_limit=1, bot_delay=0.01, grace=5)
            hosts.append(host)
            network = CutOff(host.port)
            ada = await sit(
                nursery, host, "Ada", tmp_path,
                create=create(RuleSet.of(2, 16), bots=1, blind=True), connector=network.connect,
            )  # fmt: skip
            screens.append(ada)
            (task,) = host.tables.values()
            nursery.start_soon(plays_the_first_legal_card, ada)
            await until(
                lambda: (
                    isinstance(ada.session.witness, BlindWitness) and ada.session.witness.verdicts
                )
            )
            witness = ada.session.witness
            assert isinstance(witness, BlindWitness)
            checked.append(witness.rounds[-1].chain_hash())
            await network.cut()  # (round 2 starts 2 s after round 1's end)
            assert task.table.needs_round
            task.table.chain = REWRITTEN  # the cheat
            await until(lambda: task.table.round_no == 2)
            network.up = True  # her client resumes by itself

    failed = await deal_checks_failed(ada_comes_back, 60)
    (stop,) = failed
    assert CAUGHT_UP_AT_ROUNDS_YOU_SAW in screens[0].text, screens[0].text
    # She took no part in round 2 (refused as it was opened): no seed of hers goes, and
    # nothing is waited for.
    assert "Your seed for the round goes to the host" not in screens[0].text, screens[0].text
    stopped_by_the_rewritten_chain(
        stop, checked[0], hosts[0].public_key, capsys, stops_here_line=-2
    )
