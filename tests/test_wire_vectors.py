"""protocol.md and the codec cannot drift: the vectors and message tables are read from the doc.

Section 8.1 holds frames in hex with the message they encode (or the error they must raise);
section 3.9-3.10 holds a table of fields per message. Both are parsed from the markdown here.
"""

from __future__ import annotations

import json
import re
from dataclasses import fields
from typing import Any

import msgpack
import pytest
from helpers import protocol_section

from scopa_net.wire import messages as m
from scopa_net.wire.codec import decode, encode, message_from_map
from scopa_net.wire.errors import RemoteProtocolError
from scopa_net.wire.framing import FrameReader
from scopa_net.wire.records import CATALOGUE, Record


def parse_cases(text: str) -> list[dict[str, str]]:
    """Every ``case:`` block inside fenced code: its keys, with continuation lines joined."""
    cases: list[dict[str, str]] = []
    for block in re.findall(r"```\n(.*?)```", text, flags=re.S):
        current: dict[str, str] | None = None
        key = ""
        for line in block.splitlines():
            if not line.strip():
                continue
            match = re.match(r"(\w+): (.*)", line)
            if match:
                key, value = match.groups()
                if key == "case":
                    current = {}
                    cases.append(current)
                assert current is not None, line
                current[key] = value
            else:
                assert current is not None, line
                assert key == "frame", line
                current[key] += line.strip()
    return cases


VECTORS = parse_cases(protocol_section("### 8.1"))
GOOD = [c for c in VECTORS if "message" in c]
BAD = [c for c in VECTORS if "refused" in c]


def from_json(value: Any) -> Any:
    return json.loads(value, object_hook=lambda d: bytes.fromhex(d["$bin"]) if "$bin" in d else d)


def test_the_doc_has_vectors() -> None:
    assert len(GOOD) >= 5
    assert len(BAD) >= 5


@pytest.mark.parametrize("case", GOOD, ids=[c["case"] for c in GOOD])
def test_message_vectors(case: dict[str, str]) -> None:
    frame = bytes.fromhex(case["frame"].replace(" ", ""))
    raw = from_json(case["message"])
    msg = message_from_map(raw)
    assert encode(msg) == frame
    assert decode(frame[4:]) == msg
    # Plain msgpack of the JSON, keys in the order written, gives the same bytes.
    assert msgpack.packb(raw, use_bin_type=True) == frame[4:]
    assert int.from_bytes(frame[:4], "big") == len(frame) - 4


@pytest.mark.parametrize("case", BAD, ids=[c["case"] for c in BAD])
def test_refused_vectors(case: dict[str, str]) -> None:
    reader = FrameReader()
    reader.receive_data(bytes.fromhex(case["frame"].replace(" ", "")))

    def read_message() -> object:
        payload = reader.next_frame()
        assert isinstance(payload, bytes)
        return decode(payload)

    with pytest.raises(RemoteProtocolError) as info:
        read_message()
    assert info.value.code.value == case["refused"]


def test_section_1_s_example_frame() -> None:
    """Section 1's example, `ping {nonce: 1}`: its payload, its length and its frame, as the
    text gives them (the one vector outside section 8)."""
    text = " ".join(protocol_section("## 1.", nested=False).split())
    found = re.search(
        r"Example: `ping \{nonce: (\d+)\}` is the payload `([0-9a-f ]+)` .*?, (\d+) bytes, so "
        r"the frame is `([0-9a-f ]+)` followed by those bytes",
        text,
    )
    assert found, "section 1 has no example frame"
    nonce, payload, size, prefix = found.groups()
    payload_bytes = bytes.fromhex(payload.replace(" ", ""))
    assert len(payload_bytes) == int(size)
    frame = bytes.fromhex(prefix.replace(" ", "")) + payload_bytes
    assert encode(m.Ping(nonce=int(nonce))) == frame
    assert decode(payload_bytes) == m.Ping(nonce=int(nonce))


def field_tables(text: str) -> dict[str, list[tuple[str, str]]]:
    """``#### `name``` or ``#### map `Name``` headings and the (field, type) rows under them."""
    tables: dict[str, list[tuple[str, str]]] = {}
    for match in re.finditer(r"^#### (?:map )?`(\w+)`\n(.*?)(?=^###|\Z)", text, flags=re.S | re.M):
        rows = re.findall(r"^\| `(\w+)` \| (.*?) \| .* \|$", match.group(2), flags=re.M)
        tables[match.group(1)] = rows
    return tables


DOC_TABLES = field_tables(protocol_section("### 3.9") + protocol_section("### 3.10"))
RECORDS: dict[str, type[Record]] = {
    **CATALOGUE,
    **{
        r.__name__: r
        for r in (
            m.RulesInfo,
            m.TableInfo,
            m.SeatInfo,
            m.DealtCard,
            m.PlayInfo,
            m.ScoreLineInfo,
            m.KeyInfo,
        )
    },
}


def test_every_message_and_nested_map_is_documented() -> None:
    assert sorted(DOC_TABLES) == sorted(RECORDS)


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_documented_fields_match_the_catalogue(name: str) -> None:
    expected = [(f.name, f.metadata["spec"].describe()) for f in fields(RECORDS[name])]
    assert DOC_TABLES[name] == expected
