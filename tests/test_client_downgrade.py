"""A host that proved its key in protocol 5 is never sent a token or a password by a connection
that offers no proof (protocol.md 3.2, 5.3), over real loopback TCP.

Found reading the fallback to 4: a machine at the address of Ada's kept seat (the real host
gone, another machine given its address, or one in the middle) answered her client's `hello` in
5 as an older host does (`bye bad_version` naming 4, or `bye bad_field` for the challenge), then
welcomed the `hello` in 4, which has no proof, with her host's key, copied from its LAN
announcement: her client sent it the seat's token in `resume`, and a password in `join`. Now a
key that proved itself once must prove itself again: the person reads one line, and the seat
stays kept. The same line tells a club that went back to an older host what to do."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from hosting import seat_kept_for_join
from other_version import start_host as start_older_host
from poser import posing

from scopa_net.client.seat_store import SeatStore
from scopa_net.commands.main import main
from scopa_net.commands.options import EXIT_KEY_CHANGED
from scopa_net.fair.commitments import fingerprint
from scopa_net.wire.errors import ErrorCode

REFUSALS = [ErrorCode.BAD_VERSION.value, ErrorCode.BAD_FIELD.value]


def went_back(port: int, key: bytes) -> str:
    """The line a person reads (protocol 4 at 127.0.0.1:``port``, giving ``key``)."""
    return (
        f"scopa-net: the host at 127.0.0.1:{port} gives the key {fingerprint(key)}, which "
        "proved itself to this client before, but now says it speaks only protocol 4, which "
        "cannot prove it: it may be another machine posing as that host; nothing secret was "
        "sent to it (if whoever runs that host went back to an older scopa-net, ask them to "
        "update it again)"
    )


@pytest.fixture(autouse=True)
def no_lan(monkeypatch: pytest.MonkeyPatch) -> None:
    """No host is announced on the LAN (a `join` that finds no host looks there)."""
    from scopa_net.server import discovery

    monkeypatch.setattr(discovery, "browse_hosts", lambda seconds, interfaces=None: [])


@pytest.mark.parametrize("refusal", REFUSALS)
def test_a_poser_of_4_at_the_seat_s_address_gets_no_token(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    refusal: str,
) -> None:
    data, old, record, key = seat_kept_for_join(tmp_path, monkeypatch)
    with posing(key, old, version=4, refusal=refusal) as poser:
        status = main(["join"])
    out, err = capsys.readouterr()
    assert status == EXIT_KEY_CHANGED, out + err
    assert err.splitlines()[-1] == (
        f"{went_back(old, key)}; the host keeps your seat while the table is open: "
        f"`scopa-net join 127.0.0.1:{old}` takes it back"
    )
    assert "Traceback" not in err
    for token in record.tokens:
        poser.got_nothing_secret(bytes.fromhex(token))
    assert [msg.version for msg in poser.received if msg.TYPE == "hello"] == [5, 4]
    assert SeatStore(data).records() == [record]  # kept as it was


@pytest.mark.parametrize("refusal", REFUSALS)
def test_a_poser_of_4_at_a_pinned_address_never_sees_the_password(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    refusal: str,
) -> None:
    """Ada played at the host before (its key pinned, and proved); sitting down anew at a
    table with a password, her client sent the poser the password in `join`."""
    _, old, _, key = seat_kept_for_join(tmp_path, monkeypatch)
    with posing(key, old, version=4, refusal=refusal) as poser:
        argv = ["join", f"127.0.0.1:{old}", "--no-resume", "--table", "1", "--password", "sesamo"]
        status = main(argv)
    out, err = capsys.readouterr()
    assert status == EXIT_KEY_CHANGED, out + err
    assert err.splitlines()[-1] == went_back(old, key)
    poser.got_nothing_secret(b"sesamo")


async def test_a_club_gone_back_to_a_host_of_4_is_told_to_update_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The honest case: the organiser stopped the host of 5 and started one of 4 on the same
    journal and key. Ada's client cannot tell it from a poser: it sends no token, says so in
    the same line, with what to do (the host updated again takes the seat back), and keeps
    the seat."""
    data, old, record, key = await trio.to_thread.run_sync(
        seat_kept_for_join, tmp_path, monkeypatch
    )
    older = await start_older_host(-1, tmp_path / "host.db", old)
    try:
        status = await trio.to_thread.run_sync(main, ["join"])
    finally:
        older.kill()  # type: ignore[attr-defined]
        await older.wait()  # type: ignore[attr-defined]
    out, err = capsys.readouterr()
    assert status == EXIT_KEY_CHANGED, out + err
    assert err.splitlines()[-1] == (
        f"{went_back(old, key)}; the host keeps your seat while the table is open: "
        f"`scopa-net join 127.0.0.1:{old}` takes it back"
    )
    assert SeatStore(data).records() == [record]
    # docs/versions.md: a club gone back to 4 for good deletes that key's line here.
    assert (data / "proven_hosts").read_text().split() == [key.hex()]


async def test_a_session_whose_host_a_poser_of_4_replaced_stops_without_its_token(
    tmp_path: Path,
) -> None:
    """Ada plays; her host stops, and a machine of 4 answers at its address with its key: her
    client, getting back to its seat, sent it the token. Now the session ends in the same line
    (status 6), the seat kept."""
    from hosting import create, start_host

    from scopa_net.client.launch import session_failure
    from scopa_net.client.network_session import TableChoice, open_network_session
    from scopa_net.client.session_errors import HostUnprovenError
    from scopa_net.rules import RuleSet

    data = tmp_path / "ada"
    store = SeatStore(data)
    failure: HostUnprovenError | None = None
    choice = TableChoice(create=create(RuleSet.of(2, 11), bots=1))
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, bot_delay=0.01, grace=600)
        key, old = host.public_key, host.port
        try:
            with trio.fail_after(30):
                async with open_network_session(
                    "127.0.0.1", old, choice, name="Ada", data_dir=data, store=store
                ) as session:
                    (record,) = store.records()
                    await host.shutdown()
                    with posing(key, old, version=4) as poser:
                        async for _ in session.events:
                            pass
        except* HostUnprovenError as group:
            (failure,) = group.exceptions  # type: ignore[assignment]
        nursery.cancel_scope.cancel()
    assert failure is not None, "the session went on at the poser"
    said = session_failure(failure)
    assert said.status == EXIT_KEY_CHANGED
    assert str(said) == (
        f"{went_back(old, key).removeprefix('scopa-net: ')}; the host keeps your seat while "
        f"the table is open: `scopa-net join 127.0.0.1:{old}` takes it back"
    )
    for token in record.tokens:
        poser.got_nothing_secret(bytes.fromhex(token))
    assert len(store.records()) == 1
