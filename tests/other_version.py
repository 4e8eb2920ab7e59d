"""``python tests/other_version.py DELTA ARGS...``: ``scopa-net ARGS`` as a scopa-net that speaks
only the protocol version DELTA away from this one's newest (a host upgraded, or an older one),
for tests of what a client reads when the versions differ: -1 is a host of the version before,
which a client of this one still speaks to (protocol.md 3.2); +1, one it cannot.
:func:`start_host` starts such a host for a test."""

from __future__ import annotations

import sys
from pathlib import Path

from scopa_net import protocol_versions
from scopa_net.wire import messages


async def start_host(
    delta: int, db: Path, port: int, *flags: str, log: Path | None = None
) -> object:
    """A ``scopa-net host`` of the version ``delta`` away, a process of its own on
    127.0.0.1:``port`` over the journal ``db`` (``hosting.host_command``, ``flags`` after),
    its stderr (its log) written to ``log`` (None: the test's own stderr); returned (a
    ``trio.Process``) once the port answers. The caller kills it."""
    import trio
    from hosting import host_command, until_answering

    argv = [sys.executable, str(Path(__file__)), str(delta), *host_command(db, port, *flags)[3:]]
    if log is None:
        proc = await trio.lowlevel.open_process(argv)
    else:
        with log.open("ab") as stderr:
            proc = await trio.lowlevel.open_process(argv, stderr=stderr)
    try:
        with trio.fail_after(20):
            await until_answering(port)
        return proc
    except BaseException:
        proc.kill()
        await proc.wait()
        raise


if __name__ == "__main__":
    messages.PROTOCOL_VERSION += int(sys.argv.pop(1))
    messages.OLDEST_VERSION = messages.PROTOCOL_VERSION
    protocol_versions.PROTOCOL_VERSION = protocol_versions.OLDEST_VERSION = (
        messages.PROTOCOL_VERSION
    )
    from scopa_net.commands.main import main

    sys.exit(main(sys.argv[1:]))
