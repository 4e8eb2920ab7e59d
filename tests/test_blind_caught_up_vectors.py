"""protocol.md 9.11's worked transcripts of a blind seat caught up by snapshot mid-match
(``blind-caught-up-8``, one catch-up, and ``blind-caught-up-10``, two): the files in
``interop/vectors`` are exactly what ``tests/blind_caught_up_vectors.py`` makes and what the
document says of them (size, hash, contents), and ours, the outsiders' blind verifier written
from protocol.md alone and the JavaScript verifier all give the verdict the document gives."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess

import pytest
from blind_caught_up_vectors import CASES, ROOT, Case, made
from blind_document_verifier import verify as outsiders_verify
from helpers import protocol_section

from scopa_net.fair.blind.verifier import verify_any
from scopa_net.fair.blind.wire import decode_any

NODE = shutil.which("node")


def documented() -> dict[str, dict[str, str]]:
    """9.11's ``vectors`` blocks, by case name."""
    body = protocol_section("### 9.11 Test vectors")
    cases = {}
    for block in re.findall(r"^```vectors\n(.*?)^```", body, re.MULTILINE | re.DOTALL):
        lines = [line for line in block.splitlines() if not line.startswith(" ")]
        fields = dict(line.split(": ", 1) for line in lines)  # (a value's further lines left)
        cases[fields["case"]] = fields
    return cases


def numbers(text: str) -> list[int]:
    return [int(n) for n in text.split()]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_the_file_is_the_one_the_document_describes(case: Case) -> None:
    words = documented()[case.name]
    data = (ROOT / words["file"]).read_bytes()
    assert data == made(case), "the file differs from what the script makes: write it again"
    assert len(data) == int(words["size"])
    assert hashlib.sha256(data).hexdigest() == words["sha256"]
    t = decode_any(data)
    assert t.version == int(words["version"])
    assert t.host_key.hex() == words["host_key"]
    assert t.seat == int(words["seat"])
    assert [r.round_no for r in t.rounds] == numbers(words["rounds"])
    assert all(r.seated == ("computer", "person") for r in t.rounds)
    for i, told in enumerate(t.caught_ups):
        assert told.round_no == int(words[f"caught_up.{i}.round_no"])
        assert list(told.scores) == numbers(words[f"caught_up.{i}.scores"])
        assert told.dealer == int(words[f"caught_up.{i}.dealer"])
    assert f"caught_up.{len(t.caught_ups)}.round_no" not in words
    assert list(t.result.scores) == numbers(words["result.scores"])
    assert t.result.winner == int(words["result.winner"])


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_ours_and_the_outsiders_verifier_give_the_documented_verdict(case: Case) -> None:
    words = documented()[case.name]
    assert words["verdict"] == "verified as far as this seat saw"
    data = (ROOT / words["file"]).read_bytes()
    verdict = verify_any(decode_any(data))
    assert [(r.round_no, r.ok) for r in verdict.rounds] == [
        (n, True) for n in numbers(words["verified"])
    ], verdict.lines()
    said = "\n".join(verdict.lines()).splitlines()
    unseen = [line for line in said if line.startswith("not checked: ")]
    assert [int(re.findall(r"round (\d+):", line)[0]) for line in unseen] == numbers(
        words["not_checked"]
    ), verdict.lines()
    assert verdict.lines()[-1].startswith("match result: verified"), verdict.lines()
    outsiders = outsiders_verify(data)
    assert [(v.round_no, v.ok) for v in outsiders.rounds] == [
        (n, True) for n in numbers(words["verified"])
    ]
    assert outsiders.partly, outsiders
    assert not outsiders.ok, outsiders


@pytest.mark.slow
@pytest.mark.skipif(NODE is None, reason="node is not on PATH: the JavaScript verifier cannot run")
def test_the_javascript_verifier_gives_the_documented_verdict() -> None:
    """Slow (seconds of BigInt curve arithmetic a round): run with --runslow."""
    assert NODE is not None
    files = [ROOT / documented()[case.name]["file"] for case in CASES]
    done = subprocess.run(
        [NODE, ROOT / "interop" / "js-verifier" / "verify.mjs", "--json", *map(str, files)],
        check=False,
        capture_output=True,
        text=True,
        timeout=600,
    )
    reports = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["status"] for r in reports] == ["partly"] * len(files), done.stderr
