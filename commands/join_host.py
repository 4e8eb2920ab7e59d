"""Asking a host for its tables and its key, once, for ``scopa-net join``; and why, in a
person's words, when no scopa-net host answers there (no machine, nothing listening, another
program, a host that stopped since it was listed)."""

from __future__ import annotations

import errno
import os
import socket
from typing import TYPE_CHECKING

from scopa_net.commands.options import (
    EXIT_KEY_CHANGED,
    EXIT_REFUSED,
    EXIT_UNREACHABLE,
    CommandError,
)
from scopa_net.commands.paths import data_dir

if TYPE_CHECKING:
    from scopa_net.wire import messages as m


PROBE_SECONDS = 5.0
"""How long to wait for a connection to a host before saying there is no answer."""


WELCOME_SECONDS = 3.0
"""How long a connected host has to answer hello (a scopa-net host answers at once)."""


def probe(host: str, port: int, seconds: float | None = None) -> tuple[m.TableInfo, ...]:
    """The host's tables, asked once; CommandError saying plainly why if there is no host."""
    return ask_host(host, port, seconds)[0]


def ask_host(
    host: str, port: int, seconds: float | None = None, *, listed: str = ""
) -> tuple[tuple[m.TableInfo, ...], bytes]:
    """The host's tables and its key, asked once; CommandError saying why if there is none.
    ``listed``: how the person just saw the host ("it was on the LAN's list"): a host that
    does not answer now has stopped, and the words say so (not how to start one)."""
    import trio

    from scopa_net.client.network_session import (
        HelloHeldError,
        HostUnprovenError,
        SessionError,
        VersionMismatchError,
        connect,
    )
    from scopa_net.client.proven_keys import ProvenKeys
    from scopa_net.client.session_errors import HostStoppingError
    from scopa_net.client.sigterm import run_until_stopped
    from scopa_net.wire import messages as m
    from scopa_net.wire.errors import ProtocolError

    where = f"{host}:{port}"
    seconds = PROBE_SECONDS if seconds is None else seconds
    connected = False
    proven = ProvenKeys(data_dir(os.environ))

    async def ask() -> tuple[tuple[m.TableInfo, ...], bytes]:
        nonlocal connected
        with trio.fail_after(seconds):
            stream = await trio.open_tcp_stream(host, port)
        connected = True

        unused = [stream]

        async def opened() -> trio.abc.Stream:  # the probe's, then another (a hello again)
            return unused.pop() if unused else await trio.open_tcp_stream(host, port)

        with trio.fail_after(min(seconds, WELCOME_SECONDS)):
            link, welcome = await connect(host, port, connector=opened, proven=proven)
            try:
                reply = await link.request(m.ListTables(), m.Tables)
            finally:
                await link.aclose()
        assert isinstance(reply, m.Tables)
        return reply.tables, welcome.host_key

    not_scopa = (
        f"{where} is not a scopa-net host: something listens there but does not speak "
        "scopa-net; check the port"
    )
    try:
        # SIGTERM or Ctrl-C while it waits for the host: Terminated or KeyboardInterrupt,
        # for the command to say it stopped, once the connection is closed.
        return run_until_stopped(ask)
    except trio.TooSlowError as exc:
        if listed and not connected:
            raise CommandError(host_stopped(where, exc, listed), EXIT_UNREACHABLE) from None
        if connected:
            # A scopa-net host answers a hello at once; silence is a stalled network as
            # often as another program, so the words name both.
            wait = min(seconds, WELCOME_SECONDS)
            raise CommandError(
                f"{where} took the connection but sent no scopa-net welcome within "
                f"{wait:.0f} s: the network may be slow (try again), or something other than "
                "a scopa-net host listens there (check the port)",
                EXIT_UNREACHABLE,
            ) from None
        raise CommandError(
            f"no answer from {where} within {seconds:.0f} s; is the machine on, "
            "and the address right?",
            EXIT_UNREACHABLE,
        ) from None
    except VersionMismatchError as exc:
        raise CommandError(str(exc), EXIT_REFUSED) from None
    except HelloHeldError as exc:
        raise CommandError(str(exc), EXIT_UNREACHABLE) from None
    except HostUnprovenError as exc:  # a scopa-net host's answer, but not proof of its key
        raise CommandError(str(exc), EXIT_KEY_CHANGED) from None
    except SessionError as exc:
        if HostStoppingError.said_by(exc):  # its goodbye as it stops: a scopa-net host's
            raise CommandError(str(HostStoppingError.at(where)), EXIT_UNREACHABLE) from None
        raise CommandError(not_scopa, EXIT_UNREACHABLE) from None
    except (ProtocolError, trio.BrokenResourceError):
        raise CommandError(not_scopa, EXIT_UNREACHABLE) from None
    except OSError as exc:
        if connected:
            raise CommandError(not_scopa, EXIT_UNREACHABLE) from None
        if listed:
            raise CommandError(host_stopped(where, exc, listed), EXIT_UNREACHABLE) from None
        raise CommandError(_connect_failure(where, exc), EXIT_UNREACHABLE) from None


def _causes(exc: BaseException) -> list[BaseException]:
    """``exc`` and the errors of every address tried behind it (trio's connect)."""
    causes: list[BaseException] = [exc]
    seen = exc.__cause__ or exc.__context__
    if isinstance(seen, BaseExceptionGroup):
        causes = list(seen.exceptions)
    elif seen is not None:
        causes.append(seen)
    return causes


def host_stopped(where: str, exc: BaseException, listed: str, again: str = "scopa-net join") -> str:
    """A host the person just saw (``listed``: "it listed its tables") that no longer takes
    a connection: it stopped, or does not answer; what to do. Not "start one with `scopa-net
    host`": the person picked it from a list, the port is right."""
    if errno.ECONNREFUSED in {getattr(c, "errno", None) for c in _causes(exc)}:
        return (
            f"the host at {where} has stopped: {listed} a moment ago, and now refuses the "
            f"connection. Ask whoever runs it to start it again, then run `{again}` again."
        )
    return (
        f"the host at {where} is not answering: {listed} a moment ago. Ask whoever runs it "
        f"whether it still runs (or check the network), then run `{again}` again."
    )


def _connect_failure(where: str, exc: OSError) -> str:
    """Why a connection failed, in words, from the errors of every address tried."""
    causes = _causes(exc)
    codes = {getattr(c, "errno", None) for c in causes}
    if isinstance(exc, socket.gaierror) or any(isinstance(c, socket.gaierror) for c in causes):
        # `host --host-name clubnight` announces a name on the LAN that no machine has, and
        # `join clubnight` ended at "check the name": say where that name is listed.
        return (
            f"cannot find a machine called {where.rsplit(':', 1)[0]}; check the name (a "
            "host's name on the LAN is not a machine's: `scopa-net join` alone lists the hosts "
            "announced there, each with its address)"
        )
    if errno.ECONNREFUSED in codes:
        # "check the port" alone left a friend who typed the host's address without its
        # port (7311 by default) nowhere to find it.
        return (
            f"{where} refused the connection: no host is listening on that port; check the "
            "port (a host prints its own as it starts, and `scopa-net join` alone lists the "
            "hosts announced on the LAN with theirs), or start one with `scopa-net host`"
        )
    if codes & {errno.ENETUNREACH, errno.EHOSTUNREACH}:
        return f"cannot reach {where}: no route to that machine; check the address"
    if errno.ETIMEDOUT in codes:
        return f"no answer from {where}; is the machine on, and the address right?"
    reason = next((c.strerror for c in causes if getattr(c, "strerror", None)), str(exc))
    return f"cannot connect to {where}: {reason}"
