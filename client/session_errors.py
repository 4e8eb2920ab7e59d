"""What ends or refuses a network seat, as the errors its session raises, and the words for a
play the host refused (protocol.md 3.5, 3.8).

Each error says in its message what happened; a command turns it into one line for the person.
"""

from __future__ import annotations

from pathlib import Path

from scopa_net.client.session import SessionEndedError
from scopa_net.errors import IllegalPlayError, IllegalReason
from scopa_net.fair.commitments import fingerprint
from scopa_net.version_words import Reader, another_version, hosts_version
from scopa_net.wire import messages as m
from scopa_net.wire.errors import ErrorCode


class SessionError(Exception):
    """The host refused us (no such table, bad password, full...) or went away for good."""


class MoveUnansweredError(SessionError, SessionEndedError):
    """The session ended (host gone, seat lost...) before the host answered a move sent."""


class RefusedError(SessionError):
    """The host answered a request with ``error``; ``code`` says why, and ``why`` why that,
    where a client acts on it (protocol.md 3.8). ``version``: the protocol the connection
    spoke (before 5, an ``error`` had no ``why``; None: not known). ``current_seq``: with
    ``stale``, the host's newest seq for this seat (version 5 on; None before)."""

    def __init__(
        self,
        code: str,
        message: str,
        why: str | None = None,
        version: int | None = None,
        current_seq: int | None = None,
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.why = why
        self.version = version
        self.current_seq = current_seq


class HostLostError(SessionError):
    """No answer from the host for the whole reconnect window; ``hint`` says how to come
    back (the seat is kept on disk)."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.hint = hint


class HostStoppingError(HostLostError):
    """The host said goodbye (``bye shutting_down``) to a request before any seat was taken:
    it is stopping, most often to start again; nothing was joined or opened."""

    @classmethod
    def at(cls, where: str, *, opening: bool = False) -> HostStoppingError:
        """The one line for a host at ``where`` that said so as the person joined (or, with
        ``opening``, opened a table): what did not happen, and what to do."""
        return cls(
            f"the host at {where} is stopping: it said goodbye as you "
            f"{'opened your table' if opening else 'joined'}, so "
            f"{'no table was opened' if opening else 'nothing was joined'}. Once whoever runs "
            "it has started it again, run the same command again."
        )

    @staticmethod
    def said_by(exc: BaseException) -> bool:
        """Whether ``exc`` is a host's goodbye as it stops (``bye shutting_down``)."""
        return isinstance(exc, ByeError) and exc.reason == ErrorCode.SHUTTING_DOWN.value


class HostEndedError(HostLostError):
    """While this client was taking its seat back, the host ended the connection for a reason
    that trying again cannot change (protocol.md 3.8), or kept refusing it for now (slow down,
    its disk) past this client's tries; ``hint`` says how to come back."""


class ByeError(SessionError):
    """The host ended the connection with ``bye`` before answering a request: ``reason`` is
    its code, ``message`` its words."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(f"the host closed the connection: {message}")
        self.reason = reason
        self.message = message


PASSING_BYES = frozenset(
    code.value
    for code in (
        ErrorCode.TIMEOUT,
        ErrorCode.TOO_MANY_CONNECTIONS,
        ErrorCode.SHUTTING_DOWN,
        ErrorCode.RATE_LIMITED,
        ErrorCode.STORAGE,
        ErrorCode.INTERNAL,
        ErrorCode.QUIT,
    )
)
"""``bye`` reasons about the connection, not the seat (protocol.md 3.6, 3.8): a handshake held
up past the host's 10 s, a host full, stopping, slowing us down, unable to save, failed on its
own account, or done with this connection. A client taking its seat back tries again (the
resume itself then says whether the seat is still there). Every other reason is final: another
version, a broken protocol (it would break again), or the seat taken from another client."""


class HostBrokeProtocolError(HostLostError):
    """The host sent the same message the protocol forbids again after the seat was taken
    back: trying again would only replay it. ``hint`` says how to come back."""


class OwnProtocolError(HostLostError):
    """This client sent what its own protocol state machine refuses (a LocalProtocolError):
    a bug in this client, which reconnecting would only repeat. ``hint`` says how to come
    back to the seat kept."""


PASSING_REFUSALS = frozenset((ErrorCode.RATE_LIMITED.value, ErrorCode.STORAGE.value))
"""Codes that are about the moment, not the request: the host slowing this client down, or
unable to save just now. Answering a ``resume`` (``error``, protocol.md 3.8), the seat is still
there: the reconnection loop tries again. Answering a ``play`` (``reject``, 3.5), they say
nothing of the move: it goes again (:mod:`~scopa_net.client.not_now`)."""


class ResumeDeferredError(RefusedError):
    """The host refused to give the seat back for now (:data:`PASSING_REFUSALS`): trying again
    in a moment takes it back."""


class SeatLostError(SessionError):
    """The host no longer holds the seat for us (the match ended, or it was given up)."""


class ClosedOnRestartError(SeatLostError):
    """The host would not give the seat back because it closed the table as it restarted
    (``why: table_closed_on_restart``, protocol.md 3.8)."""


class KeptSeatGoneError(SeatLostError):
    """A seat kept on disk that this client came to take back is no longer held by the host
    (its record is forgotten): ``join`` says so in one line and goes on."""


class TableClosedError(SessionError):
    """The host closed the table before its match ended (its owner left it for good): the
    match stopped, and there is no seat left to take back."""


EXIT_DEAL_FAILED = 7
"""The exit status of a client that stopped because a fair-deal check failed (the same as
``scopa_net.commands.options.EXIT_DEAL_FAILED``, which the command line documents)."""


class DealCheckFailedError(SessionError):
    """A fair-deal check failed: the seat stopped playing. ``banner`` is what the player reads
    (the check, the round, where the evidence is); ``evidence`` is the saved transcript."""

    exit_status = EXIT_DEAL_FAILED

    def __init__(self, banner: str, evidence: Path | None) -> None:
        super().__init__(banner)
        self.banner = banner
        self.evidence = evidence


class UnexpectedReplyError(SessionError):
    """The host answered a join with something other than the seat's snapshot."""


class VersionMismatchError(SessionError):
    """The host speaks another protocol version and said so (``bye bad_version``, protocol.md
    3.2); ``host_version`` is the one its message names, None if it names none we can read."""

    def __init__(self, message: str, where: str = "the host") -> None:
        self.host_version = hosts_version(message)
        self.message = message
        self.hint = ""
        """How to come back to a seat kept on disk, once the versions agree ("" if none)."""
        super().__init__(
            another_version(self.host_version, m.PROTOCOL_VERSION, Reader.PLAYER, where)
        )


class HelloHeldError(ByeError):
    """The host closed a new connection for a hello that came too late (``bye timeout``,
    protocol.md 3.2): the network held this client's first message past the host's deadline.
    A passing ``bye`` still (:data:`PASSING_BYES`): a client taking its seat back tries again."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(ErrorCode.TIMEOUT.value, message)
        self.args = (
            f"the network between you and the host at {where} held this client's first "
            "message past the host's deadline, so the host closed the connection; try again "
            "(on a network this slow, once it is better)",
        )


class HostKeyChangedError(SessionError):
    """The host at this address signs with a different key than the one pinned."""


class HostUnprovenError(HostKeyChangedError):
    """The host did not prove that it holds the key its ``welcome`` gives (protocol.md 5.3): a
    host of version 5 with no ``key_proof`` or a wrong one, or, at an address this client
    followed its host's key to on the LAN, a host of version 4, which cannot prove it. Nothing
    secret was sent to it. ``hint``: how to come back to a seat kept on disk ("" if none)."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.hint = hint


def unproven(where: str, key: bytes) -> str:
    """What a person reads when the host at ``where`` could not prove it holds ``key``."""
    return (
        f"the host at {where} could not prove it holds the key it gave ({fingerprint(key)}): "
        "it may be another machine posing as that host; nothing secret was sent to it"
    )


class HostWentBackError(HostUnprovenError):
    """The host gave a key that proved itself to this client before, but refused the newest
    version and speaks only ``version``, which has no proof (protocol.md 3.2): nothing secret
    was sent to it."""

    def __init__(self, where: str, key: bytes, version: int) -> None:
        super().__init__(went_back(where, key, version))
        self.key = key
        self.version = version


def went_back(where: str, key: bytes, version: int) -> str:
    """What a person reads when the host at ``where`` gives ``key``, which proved itself to
    this client in protocol 5, but says it speaks only ``version``, which cannot prove it
    (protocol.md 3.2): a poser there, or the host's organiser went back to an older
    scopa-net, and then only they can mend it."""
    return (
        f"the host at {where} gives the key {fingerprint(key)}, which proved itself to this "
        f"client before, but now says it speaks only protocol {version}, which cannot prove "
        "it: it may be another machine posing as that host; nothing secret was sent to it (if "
        "whoever runs that host went back to an older scopa-net, ask them to update it again)"
    )


class PlayRefusedError(IllegalPlayError):
    """A play the host refused for something other than the rules (the table moved on, its
    disk, ...); nothing was played."""

    def __init__(self, text: str, why: str, *, resent: bool = False) -> None:
        said = (
            f"Your move {text} was not played: {why}." if resent else f"not played: {text!r}: {why}"
        )
        ValueError.__init__(self, said)
        self.reason = None  # type: ignore[assignment]
        self.text = text


REFUSALS = {
    ErrorCode.STALE.value: "the table changed before it reached the host; look again and play",
    ErrorCode.WRONG_PHASE.value: "no round is being played just now",
    ErrorCode.MOVE_ID_TAKEN.value: "the host holds another move under this move's number",
}
"""What each ``reject`` code (protocol.md 3.5) means to the person whose play it refused
(``storage`` and ``rate_limited`` refuse none: the move goes again, client/not_now.py)."""


RESENT_REFUSALS = {
    ErrorCode.STALE.value: "the table moved on while the connection was down; look again",
    ErrorCode.WRONG_PHASE.value: "the round was over when it reached the host",
}
"""What a ``reject`` means for a move sent again after the connection came back (or the seat
was taken back): the person typed it before the drop, and the table went on without it."""


def refused_play(answer: m.Reject, text: str, *, resent: bool = False) -> IllegalPlayError:
    """The error for a play the host refused: the rule it broke, or what else stopped it
    (with the host's own words for a code this client does not know). ``resent``: the move
    went again after a lost connection, and is said as a move that was not played."""
    if not resent:
        if answer.reason is not None and answer.reason.upper() in IllegalReason.__members__:
            return IllegalPlayError(IllegalReason[answer.reason.upper()], text)
        if answer.code == ErrorCode.NOT_YOUR_TURN.value:
            return IllegalPlayError(IllegalReason.NOT_YOUR_TURN, text)
    why = (
        (RESENT_REFUSALS.get(answer.code) if resent else None)
        or REFUSALS.get(answer.code)
        or answer.message
        or answer.code
    )
    return PlayRefusedError(text, why, resent=resent)
