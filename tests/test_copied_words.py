"""What a person copies or reads as one thing is never cut by our wrapping (an outside
newcomer's capture at 50 columns): a transcript's path, the `scopa-net verify` command, and a
number with its unit."""

from __future__ import annotations

from prompt_toolkit.formatted_text import FormattedText

from scopa_net.client import render
from scopa_net.client.network_session import CHECK_IT

PATH = "~/.local/share/scopa-net/transcripts/2a4db05cd9e7-table1-seat0.scopa"


def _rows(text: str, columns: int) -> list[str]:
    return [render.plain([row]) for row in render.wrap_line(FormattedText([("", text)]), columns)]


def test_at_50_columns_the_transcript_path_and_its_command_stay_whole() -> None:
    """It read "Transcript saved:" / "~/.local/share/scopa-net/transcripts/2a4db05cd9e7-" /
    "table1-seat0.scopa", and the command was cut likewise after "scopa-net verify"."""
    said = [f"Transcript saved: {PATH}", CHECK_IT, f"  scopa-net verify {PATH}"]
    rows = [row for text in said for row in _rows(text, 50)]
    assert rows == [
        "Transcript saved:",
        PATH,
        "Check it any time with:",
        f"  scopa-net verify {PATH}",
    ]


def test_a_long_word_without_a_slash_is_still_cut() -> None:
    assert _rows("x" * 12, 10) == ["x" * 10, "xx"]


def test_a_number_keeps_its_unit() -> None:
    """It read "Answer within 60" / "s: the table closes then."."""
    line = "Play again with the same players? Answer within 60 s: the table closes then."
    assert _rows(line, 50) == [
        "Play again with the same players? Answer within",
        "60 s: the table closes then.",
    ]
