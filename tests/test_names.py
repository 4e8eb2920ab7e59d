"""Names and chat made safe for another person's terminal (scopa_net.names)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from scopa_net.names import (
    NAME_CHARS,
    NAME_COLUMNS,
    clean_chat,
    clean_name,
    display_width,
    name_too_long,
    seat_named,
    unique_name,
)

NEVER = set(
    "\u202a\u202b\u202c\u202d\u202e"  # bidi embeddings and overrides
    "\u2066\u2067\u2068\u2069"  # bidi isolates
    "\u200e\u200f\u061c"  # bidi marks
    "\u200b\u200c\u2060\ufeff"  # zero-width characters
    "\u2028\u2029"  # line and paragraph separators
    "\u3164\u115f\u2800"  # characters that draw nothing
)


def _bad(ch: str) -> bool:
    cat = unicodedata.category(ch)
    tag = 0xE0000 <= ord(ch) <= 0xE007F
    return ch in NEVER or tag or cat in ("Cc", "Co", "Cn", "Cs", "Zl", "Zp")


any_text = st.text(
    alphabet=st.one_of(
        st.characters(),
        st.sampled_from([*sorted(NEVER), "\u0301", "\U000e0041", "\ue000", " ", "<", "\u200d"]),
    ),
    max_size=80,
)


@given(any_text)
def test_cleaned_text_holds_nothing_that_hides_or_moves_text(text: str) -> None:
    for cleaned in (clean_chat(text), clean_name(text)):
        assert not any(_bad(ch) for ch in cleaned), ascii(cleaned)
        assert "  " not in cleaned
        assert cleaned == cleaned.strip()
        assert unicodedata.is_normalized("NFC", cleaned)


@given(any_text)
@example("A<\u0301")  # found by this test: the mark once stood after "<", then after "A"
@example("\u00a2\u200d\u2800")  # found too: a joiner kept before a blank that goes
def test_cleaning_twice_changes_nothing(text: str) -> None:
    assert clean_chat(clean_chat(text)) == clean_chat(text)
    assert clean_name(clean_name(text)) == clean_name(text)


@given(any_text)
def test_a_name_is_bounded_and_starts_visibly(text: str) -> None:
    name = clean_name(text)
    assert display_width(name) <= NAME_COLUMNS
    assert len(name) <= NAME_CHARS
    assert "<" not in name
    assert ">" not in name
    if name:
        assert unicodedata.category(name[0])[0] in "LNS"


@given(any_text)
def test_combining_marks_never_pile_up(text: str) -> None:
    run = 0
    for ch in clean_chat(text):
        run = run + 1 if unicodedata.category(ch)[0] == "M" and ch not in "\ufe0e\ufe0f" else 0
        assert run <= 2


def test_the_names_from_the_issue() -> None:
    assert clean_name("\u202etsoH") == "tsoH"
    assert clean_name("\u200b" * 32) == ""
    assert clean_name(" ") == ""
    assert clean_name("W" * 64) == "W" * 20
    assert clean_name("漢" * 30) == "漢" * 10
    assert clean_name("  Ada   Lovelace ") == "Ada Lovelace"
    assert clean_name("<Host>") == "Host"
    assert clean_name("Zoë") == "Zoë"
    assert clean_name("José María") == "José María"
    assert clean_name("\U0001f468\u200d\U0001f469\u200d\U0001f467") == (
        "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    )


def test_a_line_separator_cannot_start_a_new_line() -> None:
    assert clean_chat("LS-1\u2028Host: fake notice") == "LS-1 Host: fake notice"
    assert clean_chat("a\u2029b") == "a b"


def test_letters_with_their_accents_survive() -> None:
    assert clean_chat("e\u0301") == "\u00e9"  # NFC
    assert clean_chat("a\u0301\u0302\u0303\u0304") == "\u00e1\u0302\u0303"


@given(st.lists(st.sampled_from(["Ada", "ada", "Bruno", "Ada (2)"]), max_size=6))
def test_unique_names_never_collide(taken: list[str]) -> None:
    seats: list[str] = []
    for name in taken:
        seats.append(unique_name(name, seats))
    assert len({s.casefold() for s in seats}) == len(seats)


def test_duplicates_are_numbered() -> None:
    assert unique_name("Ada", ["Bruno"]) == "Ada"
    assert unique_name("Ada", ["ada"]) == "Ada (2)"
    assert unique_name("Ada", ["Ada", "Ada (2)"]) == "Ada (3)"
    long = "W" * 20
    assert unique_name(long, [long]) == "W" * 16 + " (2)"


def test_a_name_loses_its_brackets_before_it_is_cleaned() -> None:
    """As protocol.md says: ``<`` and ``>`` go first, so a mark that followed one joins the
    letter before it, in NFC form, as it would if the name were cleaned again."""
    assert clean_name("A<\u0301") == "\u00c1"
    assert clean_name("<Ada>") == "Ada"


def test_a_joiner_stays_only_between_two_symbols_that_stay() -> None:
    assert clean_chat("\u00a2\u200d\u2800") == "\u00a2"  # the braille blank draws nothing
    assert clean_chat("\u2764\u200d\U0001f525") == "\u2764\u200d\U0001f525"


def test_the_name_limit_is_said_in_columns_the_same_way_everywhere(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The limit is in terminal columns (a wide character counts two), but the refusal said
    "a name is at most 20 characters (this one has 40; ...)" of a name of 20 characters, and
    README and --help said "at most 20 characters". All three say columns now (the README's
    settings table is docs/settings.md now)."""
    from scopa_net.commands.main import main

    assert name_too_long("李" * 20) == (
        "a name is at most 20 columns wide (this one takes 40; a wide character such as 李 "
        "takes two)"
    )
    assert name_too_long("a" * 21) == "a name is at most 20 columns wide (this one takes 21)"
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    settings = (Path(__file__).parent.parent / "docs" / "settings.md").read_text(encoding="utf-8")
    assert "(at most 20 columns wide; a wide character such as 李 takes two" in settings
    for command in ("join", "play"):
        assert main([command, "--help"]) == 0
        helped = " ".join(capsys.readouterr().out.split())
        assert "at most 20 columns wide; a wide character such as 李 takes two" in helped
    assert "20 characters" not in readme + settings


def test_a_seat_named_by_a_name_the_host_numbered_has_one_pair_of_brackets() -> None:
    """verify said "Fabio (2) (seat 1, you)" for the second Fabio at a table: two pairs of
    brackets read as two notes about one Fabio."""
    assert seat_named(1, "Fabio (2)", "you") == "Fabio (2) at seat 1 (you)"
    assert seat_named(1, "Fabio (2)") == "Fabio (2) at seat 1"
    assert seat_named(1, "Fabio", "you") == "Fabio (seat 1, you)"
    assert seat_named(1, "", "open") == "seat 1 (open)"
    assert seat_named(1, None) == "seat 1"  # a seat nobody holds, as the host passes it


def test_a_table_named_after_its_number_is_said_once() -> None:
    """The host names a table "table 3" when its owner gave it none: every line says "table
    3", never "table 3 'table 3'"; a name of its own is quoted, an apostrophe read right."""
    from scopa_net.names import table_label

    assert table_label(3, "table 3") == "table 3"
    assert table_label(3, "") == "table 3"
    assert table_label(3, "table 4") == "table 3 'table 4'"
    assert table_label(3, "Kitchen") == "table 3 'Kitchen'"
    assert table_label(2, "Bruno's table") == 'table 2 "Bruno\'s table"'
