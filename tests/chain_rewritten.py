"""What a person reads when a host rewrote the chain behind her catch-up (an ordinary or a
blind table): the DEAL CHECK FAILED banner, and `verify` on the evidence her client kept."""

from __future__ import annotations

import re

import pytest

from scopa_net.commands.main import main
from scopa_net.commands.options import EXIT_DEAL_FAILED
from scopa_net.fair.commitments import fingerprint

REWRITTEN = bytes(range(32))
"""The chain hash the cheating host links round 2 to instead of round 1's."""


def stopped_by_the_rewritten_chain(
    stop,
    checked: bytes,
    host_key: object,
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
    capsys.readouterr()
    assert main(["verify", "--pin", fingerprint(host_key), str(stop.evidence)]) == 1
    out = capsys.readouterr().out
    assert re.search(r"^round 1: verified \(dealer ", out, re.M), out
    assert re.search(
        rf"^  round 2: FAILED: broken chain: prev {REWRITTEN.hex()} is not the chain hash "
        rf"of the round before \({checked.hex()}\)$",
        out,
        re.M,
    ), out
    assert out.rstrip().endswith("NOT VERIFIED"), out
