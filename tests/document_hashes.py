"""protocol.md section 5.1's hashes and 5.5's random stream and shuffle, written from the
document alone (nothing from scopa_net), and the document's ```vectors blocks read as
fields. Shared by the tests that rebuild the document's bytes without our code:
``test_protocol_from_the_document.py`` (section 5) and ``blind_document_verifier.py``
(section 9)."""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterator
from pathlib import Path

DOC = (Path(__file__).resolve().parent.parent / "protocol.md").read_text(encoding="utf-8")


def cases(text: str = DOC) -> dict[str, dict[str, str]]:
    """Every vectors block of ``text`` (the whole document unless told) by its ``case`` name;
    a name used twice keeps its last block. An indented line continues the value of the line
    before it (a long hex value broken over lines, as 9.11 writes one)."""
    out = {}
    for block in re.findall(r"^```vectors\n(.*?)^```", text, re.MULTILINE | re.DOTALL):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            if line[:1].isspace():  # 9.11: the value of the line before, continued
                fields[list(fields)[-1]] += line.strip()
                continue
            key, _, value = line.partition(":")
            key = key.strip()
            fields[key] = value.strip()
        out[fields["case"]] = fields
    return out


def u8(n: int) -> bytes:
    return n.to_bytes(1, "big")


def u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def lp(x: bytes) -> bytes:
    return len(x).to_bytes(4, "big") + x


def h(tag: str, *fields: bytes) -> bytes:
    return hashlib.sha256(lp(tag.encode()) + b"".join(lp(f) for f in fields)).digest()


def words(key: bytes, label: str, round_id: bytes) -> Iterator[int]:
    j = 0
    while True:
        block = hmac.new(key, lp(label.encode()) + lp(round_id) + j.to_bytes(4, "big"), "sha256")
        data = block.digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(data[i : i + 4], "big")
        j += 1


def below(stream: Iterator[int], n: int) -> int:
    limit = 2**32 - (2**32 % n)
    while True:
        w = next(stream)
        if w < limit:
            return w % n


def shuffle(key: bytes, label: str, round_id: bytes) -> list[int]:
    stream = words(key, label, round_id)
    a = list(range(40))
    for i in range(39, 0, -1):
        j = below(stream, i + 1)
        a[i], a[j] = a[j], a[i]
    return a
