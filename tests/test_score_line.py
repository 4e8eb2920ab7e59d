"""A match's score in one line (scopa_net.score_line), as history and the host's log say it."""

from __future__ import annotations

from scopa_net.score_line import score_line


def test_a_score_never_reads_as_part_of_a_name_that_ends_in_a_digit() -> None:
    assert score_line([("Ada", 11), ("Bruno", 4)]) == "Ada 11 - Bruno 4"  # as it always was
    assert score_line([("Dino, then a computer", 1), ("bot 1", 4)]) == (
        "Dino, then a computer: 1 - bot 1: 4"
    )
    assert score_line([("Ada & bot 2", 3), ("Lea & Fabio (2)", 11)]) == (
        "Ada & bot 2: 3 - Lea & Fabio (2): 11"
    )
