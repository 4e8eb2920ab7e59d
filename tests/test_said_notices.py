"""The notices a command prints before the game's screen (a host's key met for the first time,
the seat taken back, the seats to choose from) cut between words to fit the terminal, counted
in columns. They used to go out whole, and the terminal broke them inside a word
("its ke" / "y is 2800-...")."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from scopa_net.client.seat_store import SeatRecord
from scopa_net.commands.join_host_key import check_host_key
from scopa_net.commands.join_kept import choose_kept_seat
from scopa_net.names import display_width

CJK = "李小龙李小龙李小龙李"


class Terminal(io.StringIO):
    """Standard output as a terminal (as wide as ``COLUMNS`` says)."""

    def isatty(self) -> bool:
        return True


def shown(monkeypatch: pytest.MonkeyPatch, columns: int | None, say) -> list[str]:
    """The rows ``say()`` prints on a terminal ``columns`` wide (None: to a file)."""
    out = Terminal() if columns else io.StringIO()
    monkeypatch.setenv("COLUMNS", str(columns or 80))
    monkeypatch.setattr("sys.stdout", out)
    say()
    return out.getvalue().splitlines()


def fits_with_words_whole(rows: list[str], whole: list[str], columns: int) -> None:
    assert all(display_width(row) <= columns for row in rows), "\n".join(rows)
    assert " ".join(rows).split() == " ".join(whole).split(), "\n".join(rows)


def record(name: str, table_id: int = 3) -> SeatRecord:
    return SeatRecord(
        host="127.0.0.1",
        port=42950,
        host_key="00" * 32,
        table_id=table_id,
        seat=3,
        name=name,
        players=4,
        target=11,
        table_name="Ada's table",
        away=True,
    )


@pytest.mark.parametrize("columns", [30, 50])
def test_the_first_visit_key_notice_fits(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, columns: int
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    key = bytes(range(32))
    rows = shown(
        monkeypatch, columns, lambda: check_host_key("127.0.0.1", 42951, key, accept=False)
    )
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "again"))
    whole = shown(monkeypatch, None, lambda: check_host_key("127.0.0.1", 42951, key, accept=False))
    assert len(whole) == 1
    assert whole[0].startswith("First visit to the host at 127.0.0.1:42951: its key is ")
    fits_with_words_whole(rows, whole, columns)
    assert len(rows) > 1


@pytest.mark.parametrize(("name", "columns"), [("Zoë Müller", 100), (CJK, 60), (CJK, 30)])
def test_the_seat_taken_back_is_said_in_rows_that_fit(
    monkeypatch: pytest.MonkeyPatch, name: str, columns: int
) -> None:
    def take_back() -> None:
        choose_kept_seat([record(name)], input, must=False)

    rows = shown(monkeypatch, columns, take_back)
    whole = shown(monkeypatch, None, take_back)
    assert whole == [
        f'Taking back your seat at table 3 "Ada\'s table" on 127.0.0.1:42950 (seat 3, as '
        f"{name}; you stepped away); `scopa-net join --no-resume` sits down anew instead."
    ]
    fits_with_words_whole(rows, whole, columns)
    assert f"as {name};" in " ".join(rows)


def test_a_list_of_kept_seats_goes_on_under_each_ones_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kept = [record(CJK), record("Zoë Müller", table_id=4)]
    rows = shown(monkeypatch, 50, lambda: choose_kept_seat(kept, lambda _: "1", must=True))
    assert rows[0].startswith("1. resume your seat at table 3")
    second = next(i for i, row in enumerate(rows) if row.startswith("2. "))
    assert all(row.startswith("   ") for row in rows[1:second] + rows[second + 1 :]), rows
    assert all(display_width(row) <= 50 for row in rows), rows


def test_a_command_error_on_a_terminal_breaks_between_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from scopa_net.commands.options import say

    err = Terminal()
    monkeypatch.setenv("COLUMNS", "50")
    monkeypatch.setattr("sys.stderr", err)
    message = f"seat 3 at table 1 is taken by {CJK} (open seats: 1, 2); choose another"
    say(message)
    rows = err.getvalue().splitlines()
    fits_with_words_whole(rows, [f"scopa-net: {message}"], 50)
    assert len(rows) > 1
