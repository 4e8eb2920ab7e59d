"""``scopa-net verify`` as a person who is no cryptographer reads it.

The verdicts (protocol.md 6.2, 6.3, 9.9) stay as they are, as evidence; around them, a failure
leads with a sentence a player understands, a file that cannot be read says why in plain words
and ends ``NOT VERIFIED`` like every other failure, the summary counts every file given, and a
good match says who won and what its luck-of-the-deal figures mean.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from scopa_net.cards import CARDS, COINS_MASK
from scopa_net.commands.main import main
from scopa_net.commands.verify_summary import Summary
from scopa_net.commands.verify_summary_words import say_summary
from scopa_net.fair import errors
from scopa_net.fair.blind import errors as blind
from scopa_net.fair.plain_words import what_failed
from scopa_net.fair.simulate import simulate_match
from scopa_net.rules import RuleSet

FALLBACK = "a check failed: the record does not hold up"


@pytest.fixture(autouse=True)
def no_real_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """verify reads the client's pinned keys: never the real ones."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


@pytest.fixture(scope="module")
def match() -> list[bytes]:
    """Both seats' transcripts of one short two-player match, as saved."""
    return [t.encode() for t in simulate_match(RuleSet.of(2, 1), 4).transcripts]


def _verify(capsys: pytest.CaptureFixture[str], *paths: Path) -> tuple[int, list[str]]:
    status = main(["verify", "--quiet", *map(str, paths)])
    return status, capsys.readouterr().out.splitlines()


def _all_kinds(kind: type[errors.FairnessError]) -> list[type[errors.FairnessError]]:
    found = []
    for sub in kind.__subclasses__():
        found += [sub, *_all_kinds(sub)]
    return found


def test_every_kind_of_failure_has_its_own_plain_sentence() -> None:
    kinds = [
        k
        for k in _all_kinds(errors.FairnessError)
        if k is not blind.BlindCheckError
        # A file that cannot be read at all says why in its own words (the tests below).
        and not issubclass(
            k, (errors.NotATranscriptError, errors.CutShortError, errors.OtherVersionError)
        )
    ]
    checks = [v for k, v in vars(blind).items() if k.isupper() and isinstance(v, str)]
    sentences = [what_failed(k("detail")) for k in kinds]
    sentences += [what_failed(blind.BlindCheckError(c, "detail", 1)) for c in checks]
    assert len(kinds) > 20
    assert len(checks) > 10
    for sentence in sentences:
        assert sentence != FALLBACK
        assert "Error" not in sentence
        assert "detail" not in sentence
    # One each, but "not revealed" reads the same at either kind of table.
    assert len(set(sentences)) == len(sentences) - 1
    host = what_failed(blind.BlindCheckError(blind.BAD_DECK, "detail", 0))
    assert host == "the locked, shuffled deck from the host is not a valid deck: the host " + (
        "cheated, or the record was changed"
    )


def _changed(data: bytes) -> bytes:
    """A transcript with one card hash of its first round changed."""
    from scopa_net.fair.transcript import decode

    t = decode(data)
    first, *rest = t.rounds
    hashes = (bytes(32), *first.card_hashes[1:])
    first = dataclasses.replace(first, card_hashes=hashes)
    return dataclasses.replace(t, rounds=(first, *rest)).encode()


def test_a_changed_file_leads_with_what_it_means_then_the_evidence(
    match: list[bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "changed.scopa"
    path.write_bytes(_changed(match[0]))
    status, out = _verify(capsys, path)
    assert status == 1
    lead = out.index(
        "round 1: the record was changed after the round (or the file is damaged): its cards "
        "do not match what the host committed to before the deal"
    )
    assert out[lead + 1].startswith("  round 1: FAILED: digest mismatch: the 40 card hashes")
    assert out[-1] == "NOT VERIFIED"


@pytest.mark.parametrize(
    ("damage", "lead", "evidence"),
    [
        (lambda data: b"", "empty file: there is no transcript in it to check", None),
        (
            lambda data: data[: len(data) // 2],
            "cut short (damaged, or still being written): it cannot be checked",
            "  invalid transcript: cut short: the file ends inside its value after ",
        ),
        (
            # One bit flipped in the first byte (its map's count): "cut short: the file ends
            # inside its value", of a file that was whole.
            lambda data: bytes([data[0] ^ 1]) + data[1:],
            "not a scopa-net transcript (another kind of file, or one damaged past reading)",
            "  invalid transcript: not a scopa-net transcript file (it does not begin as one: "
            "damaged at its start, or another kind of file)",
        ),
        (
            lambda data: data.replace(b"format", b"fnrmat", 1),
            "a damaged scopa-net transcript (or one changed by hand): part of it is not laid out "
            "as a transcript, so nothing in it can be checked",
            "  invalid transcript: transcript: unexpected key 'fnrmat' where 'format' was due",
        ),
        (
            lambda data: data.replace(b"\xa7version\x05", b"\xa7version\x0b", 1),
            "a transcript of another version of scopa-net, which this one cannot read: verify "
            "it with the version that saved it",
            "  invalid transcript: transcript.version: expected version 2, 3, 4, 5, 6, 7, 8, 9 "
            "or 10, got 11",
        ),
        (
            # "not one msgpack value: list is not allowed for map key when strict_map_key=True"
            lambda data: data.replace(b"\xa6format", b"\x96format", 1),
            "not a scopa-net transcript (another kind of file, or one damaged past reading)",
            "  invalid transcript: not a scopa-net transcript file (not one msgpack value: a map "
            "key that is a list, where keys are always text)",
        ),
        (
            # "'utf-8' codec can't decode byte 0xff in position 1: invalid start byte"
            lambda data: data.replace(b"\xa6format", b"\xa6f\xffrmat", 1),
            "not a scopa-net transcript (another kind of file, or one damaged past reading)",
            "  invalid transcript: not a scopa-net transcript file (not one msgpack value: a piece "
            "of text holds bytes that are not UTF-8 text)",
        ),
    ],
    ids=[
        "empty",
        "cut short",
        "first byte flipped",
        "header changed",
        "another version",
        "a key not text",
        "not UTF-8",
    ],
)
def test_a_file_that_cannot_be_read_says_why_and_is_not_verified(
    match: list[bytes],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    *,
    damage: object,
    lead: str,
    evidence: str | None,
) -> None:
    path = tmp_path / "damaged.scopa"
    path.write_bytes(damage(match[0]))  # type: ignore[operator]
    status, out = _verify(capsys, path)
    assert status == 1
    assert out[0] == f"{path}: {lead}"
    if evidence is None:
        assert len(out) == 2, out
    else:
        assert out[1].startswith(evidence), out
    assert out[-1] == "NOT VERIFIED"


def test_the_summary_counts_every_file_given_and_what_became_of_it(
    match: list[bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good, corrupt, empty = (tmp_path / n for n in ("good.scopa", "corrupt.scopa", "empty.scopa"))
    good.write_bytes(match[0])
    corrupt.write_bytes(_changed(match[1]))
    empty.write_bytes(b"")
    missing = tmp_path / "missing.scopa"
    status, out = _verify(capsys, good, corrupt, empty, missing, good)
    assert status == 1
    assert f"{missing}: cannot read: no such file (check its name and folder)" in out
    summary = out[out.index("== summary") + 1 :]
    assert summary[:6] == [
        "files: 5 given: 1 verified, 1 failed, 1 unreadable, 1 missing, "
        "1 given twice (counted once)",
        f"  failed: {corrupt}",
        f"  unreadable: {empty}",
        f"  missing: {missing}",
        f"  given twice: {good}",
        summary[5],
    ]
    assert summary[5].startswith("rounds: "), summary
    assert summary[5].endswith(" failed (a round in several files counted once)"), summary


def test_the_summary_counts_void_rounds_apart_from_those_verified(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "rounds: 6 verified, 0 failed" for 3 rounds played and 3 void: a void round (dealt
    again) is verified, but it is not a round played, so it is counted apart."""
    sim = simulate_match(RuleSet.of(2, 1), 513)  # round 1: three kings on the table, void
    paths = [tmp_path / f"seat{seat}.scopa" for seat in (0, 1)]
    for path, t in zip(paths, sim.transcripts, strict=True):
        path.write_bytes(t.encode())
    played = len(sim.transcripts[0].rounds) - 1
    status, out = _verify(capsys, *paths)
    assert status == 0
    assert (
        f"rounds: {played} verified, 1 void, 0 failed (a round in several files counted once)"
        in out
    )


def test_the_summary_writes_each_seat_s_count_after_a_colon() -> None:
    """ "(seat 0 1, seat 1 1, seat 2 1)" read as a list of numbers; each seat's count now
    follows a colon."""
    summary = Summary()
    summary.absent = {bytes([n]): (n,) for n in range(3)}
    lines: list[str] = []
    say_summary(lines.append, summary)
    assert "blind rounds void for an absent player: 3 (seat 0: 1, seat 1: 1, seat 2: 1)" in lines


def test_a_verified_match_says_who_won_in_the_seats_words(
    match: list[bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from scopa_net.fair.transcript import decode

    t = decode(match[1])
    path = tmp_path / "seat1.scopa"
    path.write_bytes(match[1])
    status, out = _verify(capsys, path)
    assert status == 0
    scores, winner = t.result.scores, t.result.winner
    assert winner is not None
    seat = ["seat 0", "seat 1 (this file's seat)"]  # no names beside: not "you"
    assert out[-2] == (
        f"match result: verified: {seat[winner]} won the match with {scores[winner]} points, "
        f"against {scores[1 - winner]} for {seat[1 - winner]}"
    )
    assert out[-1] == "VERIFIED"
    assert not any("side " in line or "scores (" in line for line in out), out


def test_the_luck_of_the_deal_is_explained_and_no_alarm() -> None:
    """A seat dealt no coins in 12 rounds is outside the usual range: the summary says which
    way, what the figures measure, and that one outside now and then is expected."""
    no_coins = tuple(c.index for c in CARDS if not COINS_MASK >> c.index & 1)[:10]
    summary = Summary()
    for n in range(12):
        summary.hands[0][bytes([n]) * 16] = no_coins
        summary.rounds[bytes([n]) * 16] = "verified"  # as verify counts a round verified
    lines: list[str] = []
    say_summary(lines.append, summary)
    assert "seeds left out: none (every player's random share counted in every shuffle)" in lines
    assert lines[-3].startswith("luck of the deal: the cards players watch, dealt to each seat")
    assert "coins 0 (expected 30.0, usual " in lines[-2]
    assert lines[-2].endswith(", fewer than usual)"), lines[-2]
    assert "OUTSIDE" not in "\n".join(lines)
    assert lines[-1].startswith("This measures luck, not honesty")
    assert "one now and then is expected" in lines[-1]


def test_a_changed_copy_is_not_taken_for_a_host_that_equivocated(
    match: list[bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A round that fails proves no host signature: a changed copy beside the good file said
    "HOST EQUIVOCATED ... each signed by the host", accusing an honest host."""
    from scopa_net.fair.transcript import decode

    t = decode(match[0])
    first, *rest = t.rounds
    plays = (dataclasses.replace(first.plays[0], salt=bytes(16)), *first.plays[1:])
    first = dataclasses.replace(first, plays=plays)
    good, changed = tmp_path / "good.scopa", tmp_path / "changed.scopa"
    good.write_bytes(match[0])
    changed.write_bytes(dataclasses.replace(t, rounds=(first, *rest)).encode())
    status, out = _verify(capsys, good, changed)
    assert status == 1
    assert not any("EQUIVOCATED" in line for line in out), out


def test_the_readme_s_verify_before_any_game_says_there_are_no_transcripts_yet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`scopa-net verify ~/.local/share/scopa-net/transcripts/*` before any game: the shell
    passes the pattern on as it is, and verify said ".../transcripts/*: cannot read: no such
    file". Then it said "play a game first" to a person who had just won a match joined
    mid-way (no transcript was saved of one; now, only of a blind one): the words are now true
    of both."""
    folder = tmp_path / "data" / "scopa-net" / "transcripts"  # XDG_DATA_HOME: tmp_path/data
    status, out = _verify(capsys, folder / "*")
    assert status == 1
    assert out == [
        f"{folder}/*: no transcripts here yet: a match saves one as its rounds are played; for "
        "a match you joined mid-way at a blind table, which saves none, the host can write "
        "yours (scopa-net history --export TABLE --seat SEAT, on the host's machine)",
        "NOT VERIFIED",
    ]
    status, out = _verify(capsys, tmp_path / "*.scopa")  # a pattern elsewhere: what it is
    assert out[0] == f"{tmp_path}/*.scopa: no file in {tmp_path} matches *.scopa"


def test_a_file_under_a_key_not_pinned_names_the_keys_trusted_and_never_offers_its_own(
    match: list[bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file signed under a key this client never pinned said "if you trust this host, give
    --pin KEY" with the file's own key: the way on a re-signed file wants. It now names the
    key pinned for the host this client knows, says to compare the file's key with the one the
    host showed, and ends NOT VERIFIED as the README promises."""
    from scopa_net.fair.commitments import fingerprint
    from scopa_net.fair.transcript import decode

    fp = fingerprint(decode(match[0]).host_key)
    known = bytes(range(32))
    pinned = tmp_path / "data" / "scopa-net" / "known_hosts"
    pinned.parent.mkdir(parents=True)
    pinned.write_text(f"127.0.0.1:42830 {known.hex()}\n", encoding="utf-8")
    path = tmp_path / "resigned.scopa"
    path.write_bytes(match[0])
    status, out = _verify(capsys, path)
    assert status == 1
    assert out[2:] == [
        f"REFUSED: host key {fp} is not a key you trust: your client knows "
        f"{fingerprint(known)} (the host at 127.0.0.1:42830)",
        f"  anyone can sign a file under a key of their own: compare {fp} with the fingerprint "
        "the host showed when you joined it (in its `host` output, or at your first join); "
        f"only if they are the same, verify again with --pin {fp}",
        "NOT VERIFIED",
    ]
    status, out = _verify(capsys, path, path.with_name("nothing.scopa"))
    assert "files: 2 given: 1 refused (host key not trusted), 1 missing" in out
    # --pin given: the keys given are named.
    status = main(["verify", "--pin", fingerprint(known), str(path)])
    out = capsys.readouterr().out.splitlines()
    assert out[2] == (
        f"REFUSED: host key {fp} is not a key you trust: you gave --pin {fingerprint(known)}"
    )
    assert out[-1] == "NOT VERIFIED"


def test_the_summary_counts_each_round_once_and_apart_when_its_play_was_not_replayed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both seats' files of one match, and a copy changed in round 1: the summary said
    "rounds: 8 verified, 0 void, 1 failed" beside "seat 0, 4 rounds", counting each round once
    per file, and the copy's rounds after the failed one (cards checked, play not replayed) as
    verified. Each round now counts once, the worst of its copies."""
    match = [t.encode() for t in simulate_match(RuleSet.of(2, 5), 4).transcripts]
    rounds = 3
    seats = [tmp_path / f"seat{seat}.scopa" for seat in (0, 1)]
    for path, data in zip(seats, match, strict=True):
        path.write_bytes(data)
    status, out = _verify(capsys, *seats)
    assert status == 0
    counted = "(a round in several files counted once)"
    assert f"rounds: {rounds} verified, 0 void, 0 failed {counted}" in out, out
    changed = tmp_path / "changed.scopa"
    changed.write_bytes(_changed(match[0]))
    status, out = _verify(capsys, changed)
    assert "round 2: commitments and cards verified; play not replayed (round 1 failed)" in out
    status, out = _verify(capsys, changed, tmp_path / "nothing.scopa")
    after = rounds - 1
    skipped = f"{after} not replayed (a round before failed)"
    assert f"rounds: 0 verified, 0 void, {skipped}, 1 failed {counted}" in out
    status, out = _verify(capsys, *seats, changed)
    assert f"rounds: {after} verified, 0 void, 1 failed {counted}" in out, out


def test_a_file_too_big_to_be_a_transcript_is_not_read_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 300 MB file of zeros was read whole (340 MB of memory), then called "a damaged
    scopa-net transcript ... 300000000 bytes is over the limit". Its size is now looked at
    before it is read, and said in megabytes."""
    import resource

    path = tmp_path / "zeros.scopa"
    with path.open("wb") as f:
        f.truncate(300_000_000)  # sparse: no disk used
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    status, out = _verify(capsys, path)
    grown_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert status == 1
    assert out == [
        f"{path} is 300 MB: a transcript is at most 4.2 MB; this is not one",
        "NOT VERIFIED",
    ]
    assert grown_kb < 50_000, grown_kb
    status, out = _verify(capsys, path, tmp_path / "nothing.scopa")
    assert "files: 2 given: 1 unreadable, 1 missing" in out


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda r: r.update({"round^id": r.pop("round_id")}), "unexpected key 'round^id'"),
        (lambda r: r.pop("hand"), "missing key 'hand'"),
        (lambda r: r.update({"x" * 300: 1}), f"unexpected key '{'x' * 76}..."),
        (lambda r: r.update({"round_id": r.pop("round_id")}), "key 'round_no' where 'round_id' "),
    ],
    ids=["renamed", "missing", "long", "out of order"],
)
def test_a_damaged_key_is_named_not_every_key_expected(
    match: list[bytes],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    change: object,
    words: str,
) -> None:
    """A key changed in a round gave a line of 300 characters and more, listing every key
    expected and every key found; the line now names the key at fault."""
    import msgpack

    top = msgpack.unpackb(match[0], raw=False)
    change(top["rounds"][0])  # type: ignore[operator]
    path = tmp_path / "keys.scopa"
    path.write_bytes(msgpack.packb(top, use_bin_type=True))
    status, out = _verify(capsys, path)
    assert status == 1
    assert out[1].startswith(f"  invalid transcript: transcript.rounds[0]: {words}"), out
    assert len(out[1]) < 200, out[1]


def test_an_illegal_play_in_the_record_names_the_seat_not_you(
    match: list[bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two plays swapped: the evidence said "it is not your turn" of whichever seat played,
    as if to the reader; it now says whose turn it was not."""
    from scopa_net.fair.transcript import decode

    t = decode(match[0])
    first, *rest = t.rounds
    plays = list(first.plays)
    plays[0], plays[1] = plays[1], plays[0]
    first = dataclasses.replace(first, plays=tuple(plays))
    path = tmp_path / "swapped.scopa"
    path.write_bytes(dataclasses.replace(t, rounds=(first, *rest)).encode())
    status, out = _verify(capsys, path)
    assert status == 1
    seat = plays[0].seat
    who = f"seat {seat} (this file's seat)" if seat == t.seat else f"seat {seat}"
    evidence = [line for line in out if "FAILED: illegal play: " in line]
    assert evidence, out
    assert evidence[0].startswith(f"  round 1: FAILED: illegal play: play 1 by {who}:")
    assert evidence[0].endswith(f": it is not the turn of {who}"), evidence
    assert "your" not in evidence[0]


@pytest.mark.parametrize("before", [2, 0], ids=["third of four files", "one file"])
@pytest.mark.parametrize("by", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_ctrl_c_says_how_many_files_were_checked_and_which_was_not_finished(
    match: list[bytes], tmp_path: Path, before: int, by: str
) -> None:
    """Ctrl-C during a long verify ended with "scopa-net: stopped" after a file's header and
    no verdict. The file it stops in is a pipe open for writing that nothing is written to
    (verify waits there, as in a long file), so Ctrl-C lands in it for sure. SIGTERM (``kill``)
    ended it with nothing but the shell's "Terminated": it says the same, and 143. SIGHUP (its
    terminal closed: an SSH session dropped, the output going to a log) killed it with no word
    in the log: it says the same, and 129."""
    import os
    import signal
    import subprocess
    import sys
    import time

    if by == "SIGHUP" and signal.getsignal(signal.SIGHUP) == signal.SIG_IGN:
        pytest.skip("SIGHUP is ignored here (nohup): verify would inherit that")

    good = [tmp_path / f"good{n}.scopa" for n in range(before)]
    for n, path in enumerate(good):
        path.write_bytes(match[n % 2])
    waiting = tmp_path / "waiting.scopa"
    os.mkfifo(waiting)
    later = tmp_path / "later.scopa"  # files go in the order played: this one after the pipe
    later.write_bytes(match[0])
    after = waiting.stat().st_mtime + 60
    os.utime(later, (after, after))
    paths = [*good, waiting, *([later] if good else [])]
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    command = [sys.executable, "-m", "scopa_net", "verify", "--quiet", *map(str, paths)]
    default = signal.signal(signal.SIGINT, signal.default_int_handler)  # as a terminal starts it
    try:
        run = subprocess.Popen(
            command, env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
    finally:
        signal.signal(signal.SIGINT, default)
    writer = None
    try:
        deadline = time.monotonic() + 10
        while writer is None:  # verify has opened the pipe once a writer can open it
            try:
                writer = os.open(waiting, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:
                assert run.poll() is None, "verify ended before the pipe"
                assert time.monotonic() < deadline
                time.sleep(0.01)
        _until_reading(run.pid, deadline)
        run.send_signal(getattr(signal, by))
        _, err = run.communicate(timeout=10)
    finally:
        run.kill()
        if writer is not None:
            os.close(writer)
    assert run.returncode == {"SIGINT": 130, "SIGTERM": 143, "SIGHUP": 129}[by]
    how = {
        "SIGINT": "stopped",
        "SIGTERM": "stopped by SIGTERM",
        "SIGHUP": "stopped by SIGHUP (the terminal closed)",
    }[by]
    stopped = (
        f"{how} after checking 2 of 4 files; {waiting} was not finished, and no summary was written"
        if before
        else f"{how}: {waiting} was not finished"
    )
    assert err.strip().splitlines()[-1] == f"scopa-net: {stopped}", err


READ_SYSCALL = {"x86_64": "0", "aarch64": "63"}
"""The number of the read system call in /proc/PID/syscall, by machine."""


def _until_reading(pid: int, deadline: float) -> None:
    """Wait until process ``pid`` is blocked reading (not still opening the pipe): a SIGINT
    that lands while a pipe's open is woken by its writer was lost now and then (the open went
    on waiting; 1 run in 4 of this test hung, on the day's kernel, before and after the day's
    changes), while one that lands in a read is a KeyboardInterrupt at once. Where the system
    does not say (no /proc, another machine), a moment is given instead."""
    import platform
    import time

    number = READ_SYSCALL.get(platform.machine())
    syscall = Path(f"/proc/{pid}/syscall")
    if number is None or not syscall.exists():
        time.sleep(0.3)
        return
    while not syscall.read_text().startswith(f"{number} "):
        assert time.monotonic() < deadline, f"verify never read the pipe: {syscall.read_text()}"
        time.sleep(0.01)


def test_each_file_says_when_it_was_saved_and_files_go_in_the_order_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An outside tester gave `verify transcripts/*` a club's files after two evenings: no file
    said a date or time, and the shell's order put "...-match2", "...-match3" first and match
    1 last. Each file now says when it was saved (its own time, as a transcript records
    none), and the files go in the order their matches were played: by that time, and the
    matches of one seat at one table by their number, even copied files that share one time."""
    import os
    import time

    rules = RuleSet.of(2, 1)
    folder = tmp_path / "transcripts"
    folder.mkdir()
    names = ["k-table1-seat0.scopa", "k-table1-seat0-match2.scopa", "k-table1-seat0-match3.scopa"]
    names.insert(1, "k-table2-seat1.scopa")  # another table, between matches 1 and 2
    evening = time.mktime((2026, 12, 7, 21, 0, 0, 0, 0, -1))
    for n, name in enumerate(names):
        path = folder / name
        path.write_bytes(simulate_match(rules, n + 10).transcripts[0].encode())
        os.utime(path, (evening + 60 * n, evening + 60 * n))
    given = sorted(folder.iterdir())  # as the shell gives them
    status, out = _verify(capsys, *given)
    assert status == 0, out
    heads = [line for line in out if line.startswith("== ") and line != "== summary"]
    assert heads == [f"== {folder / name}" for name in names], out
    saved = [line for line in out if line.startswith("saved ")]
    assert saved == [
        f"saved 2026-12-07 21:0{n} (the file's time: a transcript records none)" for n in range(4)
    ]
    assert "files: 4 given: 4 verified" in out
    for path in given:  # copied: one time for all
        os.utime(path, (evening, evening))
    status, out = _verify(capsys, *given)
    heads = [line for line in out if line.startswith("== ") and line != "== summary"]
    played = [folder / name for name in names if "table1" in name]
    assert [h for h in heads if "table1" in h] == [f"== {p}" for p in played], out


def test_since_goes_by_the_file_s_time_so_a_copy_without_it_counts_as_saved_then(
    match: list[bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """README: `--since` goes by each file's modification time, so a file copied without
    keeping its time counts as saved when it was copied. A file saved on 1 December is left
    out of `--since 2026-12-07`; its copy by `cp` (no time kept) is checked, its copy by
    `cp -p` left out with it."""
    import os
    import shutil
    import time

    saved = tmp_path / "saved" / "table1-seat0.scopa"
    saved.parent.mkdir()
    saved.write_bytes(match[0])
    first = time.mktime((2026, 12, 1, 21, 0, 0, 0, 0, -1))
    os.utime(saved, (first, first))
    copies = {"cp": tmp_path / "cp", "cp -p": tmp_path / "cp-p"}
    for folder in copies.values():
        folder.mkdir()
    shutil.copy(saved, copies["cp"])  # its time: now
    shutil.copy2(saved, copies["cp -p"])  # its time kept
    said = {}
    for how, folder in {"saved": saved.parent, **copies}.items():
        status = main(["verify", "--brief", "--since", "2026-12-07", str(folder)])
        said[how] = (status, capsys.readouterr().out)
    assert said["saved"][0] == said["cp -p"][0] == 1, said
    assert "NOT VERIFIED: nothing checked" in said["saved"][1], said
    assert "NOT VERIFIED: nothing checked" in said["cp -p"][1], said
    assert said["cp"][0] == 0, said
    assert "table1-seat0.scopa: VERIFIED" in said["cp"][1], said


def test_the_summary_names_each_seat_as_the_names_beside_the_files_do(
    match: list[bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The rounds' lines said "seat 1 (Bruno)", the summary "seat 1, 4 rounds: settebello
    ..." and "(seat 1: 1)": the summary names seats as the rest of verify does."""
    paths = []
    for seat, t in enumerate(match):
        paths.append(tmp_path / f"seat{seat}.scopa")
        paths[-1].write_bytes(t)
        paths[-1].with_suffix(".names").write_text("Ada\nBruno\n", encoding="utf-8")
    status, out = _verify(capsys, *paths)
    assert status == 0
    luck = [line for line in out if line.startswith("  ") and " round" in line]
    assert [line.split(",")[0] for line in luck] == ["  Ada (seat 0)", "  Bruno (seat 1)"], out
    summary = Summary()
    summary.names.update({0: ["Ada"], 1: ["Ivo, then Lea"]})
    summary.absent = {b"\x01": (1,)}
    lines: list[str] = []
    say_summary(lines.append, summary)
    assert "blind rounds void for an absent player: 1 (Ivo, then Lea (seat 1): 1)" in lines


def test_a_file_that_ends_before_the_match_s_end_says_so_without_alarm(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A match the host stopped in the middle read "UNFINISHED: the match stopped before its
    end", as if it were over: the file ends before the end, and the match may go on."""
    from scopa_net.fair.transcript import MatchResult

    t = simulate_match(RuleSet.of(2, 4), 4).transcripts[1]
    kept = t.rounds[:-1]
    scores = tuple(sum(r.score[side] for r in kept if r.score) for side in range(2))
    path = tmp_path / "t.scopa"
    path.write_bytes(dataclasses.replace(t, rounds=kept, result=MatchResult(scores, None)).encode())
    status, out = _verify(capsys, path)
    assert status == 1
    (result,) = [line for line in out if line.startswith("match result:")]
    assert result.startswith(
        "match result: UNFINISHED: this file ends before the match's end, where the host signs "
        "the final result; points so far: "
    ), result
    # "if the match goes on to its end, a file saved then is complete" promised a file to
    # a person who had left the table for good: no later file comes to his seat.
    assert out[-1] == (
        "UNFINISHED: this file ends before the match's end, so it is not verified (it is "
        "saved complete only if this seat is at the table when the match ends: a seat that "
        "left for good gets no later file)"
    )
    assert not any("stopped" in line for line in out), out


def test_the_heading_of_a_seat_that_changed_hands_names_everyone_who_held_it(
    match: list[bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An export of seat 1, held by Ivo then Lea, began "seat 1 (Lea, this file's seat)"
    though Ivo played it first: the heading names the seat as the match result does."""
    path = tmp_path / "t.scopa"
    path.write_bytes(match[1])
    path.with_suffix(".names").write_text("Ada\nLea\nmatch\tAda\tIvo, then Lea\n", "utf-8")
    status, out = _verify(capsys, path)
    assert status == 0
    assert out[0].startswith("Ivo, then Lea (seat 1, this file's seat), 2 players"), out


def test_a_seat_the_host_numbered_for_a_taken_name_is_yours(
    match: list[bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    """Gina plays as Fabio; a Fabio sat at the table already, so the host called her seat
    "Fabio (2)" and the client saved that beside her transcript: verify on her machine calls
    her seat "you", not "this file's seat"."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("SCOPA_NET_NAME", "Fabio")
    path = tmp_path / "seat1.scopa"
    path.write_bytes(match[1])
    path.with_suffix(".names").write_text("Fabio\nFabio (2)\n", encoding="utf-8")
    status, out = _verify(capsys, path)
    assert status == 0
    # Not "Fabio (2) (seat 1, you)": two pairs of brackets read as two notes.
    assert out[0].startswith("Fabio (2) at seat 1 (you), 2 players"), out


def test_a_broken_chain_met_live_does_not_speak_of_a_file() -> None:
    """At play there is no file: a broken chain a seat meets live says the host sent what does
    not follow on from the rounds the seat checked, not "the record was changed (or the file
    is damaged)"; in a file it still says so, and a dealer out of turn keeps its own words."""
    chain = errors.BrokenChainError("round 2 links to 00, not to 11")
    live = what_failed(chain, live=True)
    assert live.startswith("what the host sent does not follow on from the rounds this seat")
    assert "file" not in live
    assert "record was changed" not in live
    assert what_failed(chain).startswith("the record was changed after the round")
    dealer = errors.DealerMismatchError("detail")
    assert what_failed(dealer, live=True) == what_failed(dealer)


def test_the_luck_of_the_deal_counts_only_the_rounds_the_summary_counts_verified(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A suspicious player checked her file with a copy she had changed by hand: the summary
    said "rounds: 0 verified, ..., 2 failed", then the luck of the deal "in the verified
    rounds" counted "seat 0, 2 rounds". A round that failed in one copy is not verified."""
    match = [t.encode() for t in simulate_match(RuleSet.of(2, 5), 4).transcripts]
    rounds = 3
    mine, changed = tmp_path / "seat0.scopa", tmp_path / "changed.scopa"
    mine.write_bytes(match[0])
    changed.write_bytes(_changed(match[0]))
    status, out = _verify(capsys, mine, changed)
    assert status == 1
    counted = "(a round in several files counted once)"
    assert f"rounds: {rounds - 1} verified, 0 void, 1 failed {counted}" in out, out
    (luck,) = [line for line in out if line.startswith("  seat 0, ")]
    assert luck.startswith(f"  seat 0, {rounds - 1} rounds: "), luck
    status, out = _verify(capsys, changed)
    assert not [line for line in out if line.startswith("luck of the deal")], out
