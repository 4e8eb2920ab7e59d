"""Ada's real client caught up by snapshot at our real host's blind table, where the snapshot
stands at the last round she checked herself, or at no round dealt (protocol.md 9.7): she
takes her own chain up again, and her transcript of the match goes on from round 1, so that
``scopa-net verify`` checks it whole. (A host that rewrites the chain behind such a snapshot:
tests/test_lan_blind_catch_up_cheat.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from caught_up_at_rounds_seen import caught_up_and_played_out, saved_a_transcript_that_verifies


@pytest.mark.parametrize("before_round_1", [False, True])
async def test_a_blind_seat_caught_up_at_a_round_it_saw_saves_a_transcript_that_verifies(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    before_round_1: bool,
) -> None:
    """Ada's network goes down between two rounds (or before anything is dealt, as Bruno sits
    down to start the match) and she is caught up by snapshot. The snapshot stands at the
    last round she saw (or at none): her client follows the match on, saves its transcript at
    the end, from round 1, and ``verify`` says VERIFIED (before, she read "No transcript is
    saved for this match" after round 1, and her client saved none)."""
    host, ada = await caught_up_and_played_out(
        tmp_path, monkeypatch, blind=True, before_round_1=before_round_1
    )
    saved_a_transcript_that_verifies(host, ada, tmp_path, capsys, before_round_1=before_round_1)
