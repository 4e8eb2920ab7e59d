"""A host that rewrote the chain behind a seat's catch-up (an ordinary or a blind table): what
the seat's witness says (driven without sockets by a ``table_driver.CatchesUp`` driver), and
what a person reads: the DEAL CHECK FAILED banner, and `verify` on the evidence her client
kept."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from helpers import ROUND_1_VERIFIED, verify_pinned

from scopa_net.commands.options import EXIT_DEAL_FAILED
from scopa_net.fair.blind.verifier import verify_any
from scopa_net.fair.errors import BrokenChainError

if TYPE_CHECKING:
    from table_driver import CatchesUp

REWRITTEN = bytes(range(32))
"""The chain hash the cheating host links round 2 to instead of round 1's."""


def witness_stops_at_round_2_rewritten(driver: CatchesUp) -> None:
    """Seat 0 of ``driver`` (Ada) sees round 1 revealed and replays it. While she is away the
    host links round 2 to :data:`REWRITTEN` instead of round 1's chain hash, and catches her up
    with the snapshot of round 2's start, which stands at round 1: her witness stops at round
    2's opening with a broken chain in those words, and her evidence, holding round 2 as it
    was opened, is refused by the verifier on its own."""
    driver.run_until_round_over(1)
    witness = driver.witnesses[0]
    checked = witness.rounds[-1].chain_hash()
    driver.table.chain = REWRITTEN  # the cheat: round 2 links elsewhere
    driver.table.start_round(driver.rng.randbytes(16), driver.rng.randbytes(32))
    driver.caught_up_at_the_round_opened(0, 2)
    assert witness.takes_chain_up
    with pytest.raises(BrokenChainError) as stopped:
        driver.run()
    assert str(stopped.value) == (
        f"round 2 links to {REWRITTEN.hex()}, not to round 1's chain hash {checked.hex()}, "
        "which this seat checked (the snapshot you were caught up with stands at that round)"
    )
    evidence = witness.evidence(stopped.value)
    assert [r.round_no for r in evidence.rounds] == [1, 2]
    assert evidence.stopped is not None
    assert evidence.stopped.round_no == 2
    verdict = verify_any(evidence)
    assert verdict.rounds[0].ok
    assert isinstance(verdict.rounds[1].error, BrokenChainError)
    assert not verdict.ok


def witness_stops_at_round_1_linked_elsewhere(driver: CatchesUp) -> None:
    """The host links round 1 to :data:`REWRITTEN`, not the zero hash, and catches seat 0 up
    with the snapshot of nothing dealt: her witness, checking the match from its start, stops
    as round 1 is opened, with a broken chain in those words."""
    driver.table.chain = REWRITTEN  # the cheat
    driver.open_unread(1)
    driver.caught_up_at_the_round_opened(0, 1)
    with pytest.raises(BrokenChainError) as stopped:
        driver.run()
    assert str(stopped.value) == (
        f"round 1 links to {REWRITTEN.hex()}, not to the zero hash (no round was dealt before it)"
    )
    assert driver.witnesses[0].current is None  # stopped as round 1 was opened


def stopped_by_the_rewritten_chain(
    stop,
    checked: bytes,
    host_key: bytes,
    capsys: pytest.CaptureFixture[str],
    *,
    stops_here_line: int,
) -> None:
    """``stop`` (a :func:`person_screen.deal_checks_failed` stop) is her client's at round 2,
    linked to :data:`REWRITTEN` instead of round 1's chain hash ``checked``: the banner says so
    (its "The game stops here" line at ``stops_here_line``) in words about the host, not about
    a file, and `verify --pin` on the evidence, with the host's ``host_key``, refuses round 2."""
    lines = stop.banner.splitlines()
    assert lines[0] == (
        f"DEAL CHECK FAILED in round 2: broken chain: round 2 links to {REWRITTEN.hex()}, "
        f"not to round 1's chain hash {checked.hex()}, which this seat checked (the "
        "snapshot you were caught up with stands at that round)"
    ), stop.banner
    assert lines[stops_here_line] == ("The game stops here: this host's deal cannot be trusted."), (
        stop.banner
    )
    # Live there is no file that could have been changed or damaged: the host rewrote it.
    assert (
        "What this means: what the host sent does not follow on from the rounds this seat saw "
        "and checked: the host opened a round on another record than theirs (it rewrote the "
        "match behind this seat's back), or sent a step of a round out of turn."
    ) in lines, stop.banner
    assert "the record was changed" not in stop.banner, stop.banner
    assert stop.exit_status == EXIT_DEAL_FAILED
    assert stop.evidence is not None
    assert stop.evidence.exists()
    status, out = verify_pinned(host_key, stop.evidence, capsys)
    assert status == 1, out
    assert ROUND_1_VERIFIED.search(out), out
    assert re.search(
        rf"^  round 2: FAILED: broken chain: prev {REWRITTEN.hex()} is not the chain hash "
        rf"of the round before \({checked.hex()}\)$",
        out,
        re.M,
    ), out
    assert out.rstrip().endswith("NOT VERIFIED"), out
