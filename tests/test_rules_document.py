"""RULES.md and protocol.md name everything the engine and the wire use, and say it right.

An outsider replays and scores a transcript from these two documents alone, so a variant, a
refusal reason or a score line the code knows and the documents do not would leave them
guessing. The figures the documents state (capture values, the prime scale, the deal sizes,
the play code) are checked against the engine here too.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from helpers import protocol_section

from scopa_net.cards import PRIME_VALUE, Rank
from scopa_net.client import rulebook
from scopa_net.errors import IllegalReason, RuleSetError
from scopa_net.notation import parse_play
from scopa_net.plays import Play, play_code
from scopa_net.rules import RuleSet, Variant
from scopa_net.wire.messages import ILLEGAL_REASONS, LINE_NAMES

ROOT = Path(__file__).resolve().parent.parent
RULES_MD = ROOT / "RULES.md"
PACKAGED = ROOT / "scopa_net" / "RULES.md"
PROTOCOL = ROOT / "protocol.md"

RULES_TEXT = RULES_MD.read_text(encoding="utf-8")
PROTOCOL_TEXT = PROTOCOL.read_text(encoding="utf-8")
DOC = rulebook.sections(RULES_TEXT)


def headings_under(parent: str) -> set[str]:
    return {s.title for s in DOC if s.parent == parent}


def first_column(table_text: str) -> list[str]:
    """The backticked names in the first column of the markdown tables of a text."""
    return re.findall(r"^\| `([^`]+)` \|", table_text, flags=re.MULTILINE)


def table_rows(block: str) -> list[list[str]]:
    return [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in block.splitlines()
        if line.startswith("|") and not re.fullmatch(r"[\s|:-]+", line)
    ]


# --- one document, shipped -------------------------------------------------------------------


def test_the_root_rules_document_is_the_packaged_one() -> None:
    assert RULES_MD.read_bytes() == PACKAGED.read_bytes(), (
        "RULES.md and scopa_net/RULES.md differ: edit one and copy it over the other"
    )


def test_the_rules_document_is_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "RULES.md" in config["tool"]["setuptools"]["package-data"]["scopa_net"]
    assert rulebook.read_document() == RULES_TEXT


def test_the_readme_and_protocol_point_to_it() -> None:
    assert "](RULES.md)" in PROTOCOL_TEXT
    assert "RULES.md" in (ROOT / "README.md").read_text(encoding="utf-8")


# --- every name the code uses is documented --------------------------------------------------


@pytest.mark.parametrize("variant", [v.value for v in Variant])
def test_every_variant_has_its_section_and_its_protocol_row(variant: str) -> None:
    assert variant in headings_under(rulebook.VARIANTS)
    assert rulebook.lead(rulebook.find(DOC, variant, rulebook.VARIANTS))
    assert variant in first_column(protocol_section("#### Variant names", nested=False))


def test_no_variant_is_documented_that_the_code_does_not_know() -> None:
    documented = headings_under(rulebook.VARIANTS) - {"Combining variants"}
    assert documented == {v.value for v in Variant}
    assert set(first_column(protocol_section("#### Variant names", nested=False))) == documented


@pytest.mark.parametrize("reason", [r.name.lower() for r in IllegalReason])
def test_every_refusal_reason_is_documented(reason: str) -> None:
    assert reason in ILLEGAL_REASONS
    assert f"`{reason}`" in RULES_TEXT
    assert reason in first_column(protocol_section("### 3.5 Moves", nested=False))


def test_the_protocol_lists_no_refusal_reason_the_code_lacks() -> None:
    listed = first_column(protocol_section("### 3.5 Moves", nested=False))
    assert sorted(listed) == sorted(r.name.lower() for r in IllegalReason)


@pytest.mark.parametrize("line", LINE_NAMES)
def test_every_score_line_has_its_section_and_its_protocol_row(line: str) -> None:
    assert line in headings_under(rulebook.SCORING)
    assert line in first_column(protocol_section("#### Score lines", nested=False))
    assert line in rulebook.SCORE_LINES


def test_the_score_lines_are_listed_in_sheet_order() -> None:
    documented = [s.title for s in DOC if s.parent == rulebook.SCORING and s.level == 3]
    assert documented[: len(LINE_NAMES)] == list(LINE_NAMES)
    assert first_column(protocol_section("#### Score lines", nested=False)) == list(LINE_NAMES)


def test_the_brief_sections_exist() -> None:
    for heading in (
        rulebook.CAPTURING,
        rulebook.SWEEPS,
        rulebook.SCORING,
        rulebook.MATCH,
        rulebook.TIPS_HEADING,
    ):
        assert rulebook.lead(rulebook.find(DOC, heading))


# --- the figures the document states are the engine's ----------------------------------------

_RANK_WORDS = {"ace": Rank.ACE, "knave": Rank.KNAVE, "knight": Rank.KNIGHT, "king": Rank.KING}


def _rank(word: str) -> Rank:
    return _RANK_WORDS[word] if word in _RANK_WORDS else Rank(int(word))


def test_capture_values_and_prime_scale() -> None:
    tables = {
        rows[1][0]: dict(zip(rows[0][1:], rows[1][1:], strict=True))
        for rows in (table_rows(b) for b in rulebook.blocks(RULES_TEXT))
        if len(rows) == 2
    }
    capture = tables["capture value"]
    assert {_rank(k): int(v) for k, v in capture.items()} == {r: int(r) for r in Rank}
    prime = tables["prime value"]
    assert {_rank(k): int(v) for k, v in prime.items()} == PRIME_VALUE


_TABLES = {
    "2 players": RuleSet.of(2),
    "3 players": RuleSet.of(3),
    "4 players": RuleSet.of(4),
    "6 players": RuleSet.of(6),
    "`scopone` (4 players)": RuleSet.of(4, variants=["scopone"]),
    "`scopone_scientifico` (4 players)": RuleSet.of(4, variants=["scopone_scientifico"]),
}


def test_the_deal_table() -> None:
    body = rulebook.find(DOC, "Dealing").body
    rows = {row[0]: row[1:] for row in table_rows(body) if row[0] in _TABLES}
    assert set(rows) == set(_TABLES)
    for name, rules in _TABLES.items():
        expected = [rules.hand_size, rules.opening_table_cards, rules.deals_per_round]
        assert [int(x) for x in rows[name]] == expected, name


def test_the_sides_table() -> None:
    body = rulebook.find(DOC, "Players, seats and sides").body
    rows = table_rows(body)[1:]
    cases = {
        "2": RuleSet.of(2),
        "3": RuleSet.of(3),
        "4": RuleSet.of(4),
        "6": RuleSet.of(6),
        "6 with `six_as_three_pairs`": RuleSet.of(6, variants=["six_as_three_pairs"]),
    }
    assert [row[0] for row in rows] == list(cases)
    for row in rows:
        rules = cases[row[0]]
        assert int(row[1]) == rules.side_count
        for side in range(rules.side_count):
            seats = rules.seats_of(side)
            if len(seats) > 1:
                listed = " and ".join(str(s) for s in seats)
                listed = listed if len(seats) == 2 else ", ".join(map(str, seats))
                assert listed in row[2], (row, seats)


@pytest.mark.parametrize(
    ("players", "variants"),
    [
        (5, []),
        (7, []),
        (2, ["scopone"]),
        (6, ["scopone_scientifico"]),
        (4, ["scopone", "scopone_scientifico"]),
        (2, ["asso_piglia_tutto", "quindici"]),
        (4, ["six_as_three_pairs"]),
        (2, ["no_such_variant"]),
    ],
)
def test_the_refused_combinations_are_refused(players: int, variants: list[str]) -> None:
    body = rulebook.find(DOC, "Combining variants").body
    for name in variants:
        if name in {v.value for v in Variant}:
            assert f"`{name}`" in body
    with pytest.raises(RuleSetError):
        RuleSet.of(players, 11, variants)


def test_the_combination_the_document_gives_as_allowed_is_allowed() -> None:
    RuleSet.of(4, 11, ["scopone_scientifico", "asso_piglia_tutto", "napola"])
    RuleSet.of(2, 11, ["primiera=sum", "court_prime=0"])


# --- the play code of protocol.md section 2 --------------------------------------------------


def play_code_vectors() -> list[dict[str, str]]:
    body = protocol_section("## 2. Cards and plays on the wire", nested=False)
    cases = []
    for block in re.findall(r"^```vectors\n(.*?)^```", body, re.MULTILINE | re.DOTALL):
        for chunk in re.split(r"\n\s*\n", block.strip()):
            fields = {}
            for line in chunk.splitlines():
                key, _, value = line.partition(":")
                fields[key.strip()] = value.strip()
            cases.append(fields)
    return cases


PLAY_CODES = play_code_vectors()


def test_the_protocol_has_play_code_vectors() -> None:
    assert len(PLAY_CODES) >= 3
    assert all(c["case"] == "play-code" for c in PLAY_CODES)
    assert any(c["captured"] == "0" for c in PLAY_CODES)


@pytest.mark.parametrize("case", PLAY_CODES, ids=[c["play"] for c in PLAY_CODES])
def test_play_code_vector(case: dict[str, str]) -> None:
    card, captured, code = int(case["card"]), int(case["captured"]), int(case["code"])
    assert play_code(card, captured) == code
    assert code & 63 == card
    assert code >> 6 == captured
    assert code.to_bytes(8, "big").hex() == case["u64"]
    notation = re.search(r"\(([^)]+)\)$", case["play"])
    assert notation is not None
    played, group = parse_play(notation.group(1))
    play = Play(played, group or ())
    assert (play.card.index, play.captured_mask, play.code) == (card, captured, code)
    assert Play.from_code(code) == play
