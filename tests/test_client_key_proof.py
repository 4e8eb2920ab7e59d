"""Our client sends nothing secret to a host that does not prove it holds the key it gives
(protocol.md 3.2, 5.3). A machine on the LAN can copy the host's public key from the
announcement into a ``welcome``, but cannot sign this connection's ``challenge`` with it: a
poser of version 5 (no proof, or a wrong one) gets no ``resume`` and no token, and the person
reads one line; the seat stays kept. A poser that says it speaks only 4 (which has no proof) is
not followed to on the LAN either. A real host of version 4 at an address a person typed is
still joined, as before."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from faultproxy import FaultProxy
from helpers import free_port
from hosting import create, seat_kept_for_join, start_host
from other_version import start_host as start_older_host
from poser import posing
from session_watch import until

from scopa_net.client import reconnection
from scopa_net.client.host_link import list_tables
from scopa_net.client.host_search import HostSearch
from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.client.seat_store import SeatStore
from scopa_net.client.session import ConnectionChanged, ConnectionState, Message
from scopa_net.commands.main import main
from scopa_net.commands.options import EXIT_KEY_CHANGED
from scopa_net.fair.commitments import fingerprint
from scopa_net.rules import RuleSet
from scopa_net.server.discovery import HostAdvert
from scopa_net.wire import messages as m

WRONG_PROOF = bytes(64)


@pytest.mark.parametrize("proof", [None, WRONG_PROOF], ids=["no proof", "a wrong proof"])
def test_a_poser_at_the_seat_s_address_gets_no_token(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    proof: bytes | None,
) -> None:
    """Another machine at the address of Ada's kept seat answers with her host's key: before
    the proof, `join` sent it the seat's token in `resume` (and the poser could take the seat
    at the real host). Now the client ends the connection after the `welcome`, says why in one
    line, and keeps the seat."""
    from scopa_net.server import discovery

    monkeypatch.setattr(discovery, "browse_hosts", lambda seconds, interfaces=None: [])
    data, old, record, key = seat_kept_for_join(tmp_path, monkeypatch)
    with posing(key, old, proof=proof) as poser:
        status = main(["join"])
    out, err = capsys.readouterr()
    assert status == EXIT_KEY_CHANGED, out + err
    assert err.splitlines()[-1] == (
        f"scopa-net: the host at 127.0.0.1:{old} could not prove it holds the key it gave "
        f"({fingerprint(key)}): it may be another machine posing as that host; nothing secret "
        f"was sent to it; the host keeps your seat while the table is open: `scopa-net join "
        f"127.0.0.1:{old}` takes it back"
    )
    assert "Traceback" not in err
    for token in record.tokens:
        poser.got_nothing_secret(bytes.fromhex(token))
    assert SeatStore(data).records() == [record]  # kept as it was


def test_a_poser_at_a_typed_address_never_sees_the_password(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    key = bytes(range(32))
    with posing(key) as poser:
        status = main(["join", f"127.0.0.1:{poser.port}", "--table", "1", "--password", "sesamo"])
    out, err = capsys.readouterr()
    assert status == EXIT_KEY_CHANGED, out + err
    assert err.splitlines()[-1] == (
        f"scopa-net: the host at 127.0.0.1:{poser.port} could not prove it holds the key it "
        f"gave ({fingerprint(key)}): it may be another machine posing as that host; nothing "
        "secret was sent to it"
    )
    poser.got_nothing_secret(b"sesamo")


def advert(port: int, key: bytes) -> HostAdvert:
    return HostAdvert("club", port, m.OLDEST_VERSION, 5, False, addresses=("127.0.0.1",), key=key)


@pytest.mark.parametrize("version", [4, 5], ids=["a host of 4", "a host of 5 with no proof"])
async def test_the_lan_follow_takes_no_seat_to_a_host_that_did_not_prove_its_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, version: int
) -> None:
    """Ada's client, its host lost, follows the host's key on the LAN. A machine announcing
    that key and answering with it, in version 5 without a proof or as a host of version 4
    (which cannot prove it), used to be sent the seat's token at once. Now it gets none, the
    person reads why in one line, the address is not tried again, and the real host, found
    after, gets the seat back."""
    monkeypatch.setattr(reconnection, "REPORT_AFTER", tuple(i / 10 for i in range(1000)))
    announced: list[HostAdvert] = []
    said: list[str] = []
    data = tmp_path / "scopa-net"
    store = SeatStore(data)
    db = str(tmp_path / "host.db")
    async with trio.open_nursery() as nursery:
        first = await start_host(nursery, db=db, bot_delay=0.01, grace=600)
        key, old = first.public_key, first.port
        search = HostSearch(lambda seconds: list(announced), after=0.2, every=0.3)
        choice = TableChoice(create=create(RuleSet.of(2, 11), bots=1))
        async with open_network_session(
            "127.0.0.1", old, choice, name="Ada", data_dir=data, store=store, lan_search=search
        ) as session:

            async def read() -> None:
                async for event in session.events:
                    if isinstance(event, Message):
                        said.append(event.text)
                    elif isinstance(event, ConnectionChanged):
                        said.append(f"Connection: {event.state.value} ({event.detail}).")

            nursery.start_soon(read)
            (record,) = store.records()
            tokens = [bytes.fromhex(t) for t in record.tokens]
            await first.shutdown()
            first.journal.close()
            with posing(key, version=version) as poser:
                announced.append(advert(poser.port, key))
                refused = f"127.0.0.1:{poser.port}"
                await until(lambda: any(line.startswith("The host at ") for line in said), 20)
                again = await start_host(nursery, db=db, bot_delay=0.01, grace=600)
                announced.append(advert(again.port, key))
                await until(
                    lambda: (
                        session.connection is ConnectionState.CONNECTED
                        and session.port == again.port
                    ),
                    20,
                )
        nursery.cancel_scope.cancel()
    if version == 4:
        why = (
            f"The host at {refused} is announced on the LAN with the key of your seat's host "
            f"({fingerprint(key)}) but speaks protocol 4, which cannot prove it holds that key: "
            "your seat was not taken there"
        )
    else:
        why = (
            f"The host at {refused} could not prove it holds the key it gave "
            f"({fingerprint(key)}): it may be another machine posing as that host; nothing "
            "secret was sent to it"
        )
    assert said.count(f"{why}; back to 127.0.0.1:{old}.") == 1, said  # never tried again
    for token in tokens:
        poser.got_nothing_secret(token)
    assert f":{poser.port} " not in (data / "known_hosts").read_text()
    (kept,) = store.records()
    assert kept.port == again.port


async def test_a_host_of_4_at_a_typed_address_is_still_joined(tmp_path: Path) -> None:
    """A host of version 4 sends no proof and cannot: a person who typed its address sits
    down there as before (the proof is checked in version 5 only)."""
    port = free_port()
    older = await start_older_host(-1, tmp_path / "host.db", port)
    try:
        with trio.fail_after(20):
            choice = TableChoice(create=create(RuleSet.of(2, 11), bots=1))
            async with open_network_session(
                "127.0.0.1", port, choice, name="Ada", data_dir=tmp_path / "ada"
            ) as session:
                assert session.connection is ConnectionState.CONNECTED
                assert session._link is not None
                assert session._link.conn.version == m.KEY_PROOF_SINCE - 1
    finally:
        older.kill()
        await older.wait()


def test_join_follows_no_key_to_a_host_of_4_and_keeps_the_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing answers at the kept seat's address, and the LAN announces the seat's key at a
    machine that says it speaks only protocol 4 (so it owes no proof) and answers with that
    key: `join` sent it the seat's token. Now it says why in one line and keeps the seat."""
    from scopa_net.server import discovery

    data, old, record, key = seat_kept_for_join(tmp_path, monkeypatch)
    with posing(key, version=4) as poser:
        found = [advert(poser.port, key)]
        monkeypatch.setattr(discovery, "browse_hosts", lambda seconds, interfaces=None: found)
        status = main(["join"])
    out, err = capsys.readouterr()
    assert status == EXIT_KEY_CHANGED, out + err
    assert err.splitlines()[-1] == (
        f"scopa-net: the host at 127.0.0.1:{poser.port} is announced on the LAN with the key "
        f"of your seat's host ({fingerprint(key)}) but speaks protocol 4, which cannot prove "
        f"it holds that key: your seat was not taken there; nor is your host at "
        f"127.0.0.1:{old}, and your seat stays kept: `scopa-net join 127.0.0.1:{old}` tries "
        f"again (`scopa-net join 127.0.0.1:{poser.port}` goes there, if you know that host is "
        "yours)"
    )
    for token in record.tokens:
        poser.got_nothing_secret(bytes.fromhex(token))
    assert [msg.version for msg in poser.received] == [5, 4]  # hello in 5, refused; in 4
    assert SeatStore(data).records() == [record]


class Switching(FaultProxy):
    """A proxy that passes its first connection to ``target_port`` and every later one to
    ``then``: another machine answering at the address from the second connection on."""

    def __init__(self, first: int, then: int) -> None:
        super().__init__(first)
        self.then = then
        self.connections = 0

    async def _handle(self, client: trio.SocketStream) -> None:
        if self.connections:
            self.target_port = self.then
        self.connections += 1
        await super()._handle(client)


async def test_a_key_changed_after_join_looked_gets_no_password(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`join` looks at the host (its key checked, or pinned on a first visit), then opens the
    seat's connection. Another host answered that one (it proves a key of its own): the client
    warned in a line on the screen and sent it `create_table` with the password all the same.
    Now it stops there, status 6, and the other host opened no table."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    async with trio.open_nursery() as nursery:
        first = await start_host(nursery, bot_delay=0.01)
        other = await start_host(nursery, bot_delay=0.01)
        proxy = Switching(first.port, other.port)
        await nursery.start(proxy.serve)
        argv = ["join", f"127.0.0.1:{proxy.port}", "--create", "--bots", "1"]
        status = await trio.to_thread.run_sync(main, [*argv, "--password", "sesamo"])
        tables = await list_tables("127.0.0.1", other.port)
        nursery.cancel_scope.cancel()
    out, err = capsys.readouterr()
    assert status == EXIT_KEY_CHANGED, out + err
    assert err.splitlines()[-1].startswith(
        f"scopa-net: WARNING: the host at 127.0.0.1:{proxy.port} now has key "
        f"{fingerprint(other.public_key)}, but it had {fingerprint(first.public_key)} when you "
        "first played there."
    ), err
    assert "Traceback" not in err
    assert tables == ()  # no `create_table` came: nor the password with it
