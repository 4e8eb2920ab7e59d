"""The host's settings and limits, each with the number protocol.md documents."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_PORT = 7311


@dataclass(frozen=True, slots=True)
class HostConfig:
    name: str = "scopa-net"
    bind: str = "0.0.0.0"
    port: int = DEFAULT_PORT
    db: str = ":memory:"
    advertise: bool = True
    # Time limits, in seconds.
    handshake_timeout: float = 10.0
    """From accepting a connection to its ``hello``."""
    heartbeat_interval: float = 10.0
    """The host pings a connection that has sent nothing for this long."""
    silence_timeout: float = 30.0
    """A connection that sends nothing at all for this long is closed."""
    frame_timeout: float = 10.0
    """A frame whose first byte has arrived must be complete within this long."""
    send_timeout: float = 10.0
    """A write that the peer does not take within this long closes the connection."""
    grace: float = 60.0
    """How long a seat waits for its player to come back before a bot stands in."""
    away_limit: float = 600.0
    """How long a player may be away, a computer playing for them, before a newcomer may take
    their seat (protocol.md 3.3; the player keeps it if they come back first)."""
    seed_timeout: float = 30.0
    """How long a connected player has to commit, and then to reveal, its seed."""
    bot_delay: float = 0.0
    """Pause before each computer move, so people can follow (0 for tests and load)."""
    think: float = 1.0
    """Seconds an ``expert`` computer player thinks about each move (``--think``)."""
    # Size limits.
    max_lag: int = 512
    """Events a connection may fall behind its seat's log before it is dropped (it resumes)."""
    replay_limit: int = 1000
    """Missed events a resume gets replayed; further behind, it gets a snapshot instead (as
    the latest round began, its events then replayed: ``round_start_catch_up``)."""
    round_start_catch_up: bool = True
    """A seat caught up by snapshot at an ordinary table gets the one from just before the
    latest round opened, then every event since, so that its deal check covers that round
    (protocol.md 3.4). False: a snapshot of the present, as hosts of protocol 4 (and ours
    before) sent: for tests of a client reading one."""
    max_replies: int = 64
    """Replies (acks, errors, listings) queued for one connection before it is dropped."""
    max_connections_per_address: int = 32
    max_connections: int | None = None
    """Connections served at once; None: what the file descriptor limit allows."""
    max_tables: int = 1000
    max_tables_per_address: int = 16
    """Live tables one address may have created."""
    request_rate: float = 20.0
    """Requests a connection may send per second on average (pings and pongs aside)..."""
    request_burst: int = 60
    """...and at once; past that it gets ``rate_limited`` refusals."""
    chat_lines: int = 5
    chat_window: float = 5.0
    """At most ``chat_lines`` lines of chat per seat in any ``chat_window`` seconds."""
    resume_burst: int = 20
    resume_window: float = 10.0
    """At most ``resume_burst`` resumes of one seat in any ``resume_window`` seconds."""
    seat_changes: int = 20
    """Changes of one seat (a ``join``, a ``resume`` bringing its player back, a ``rename``)
    in one round, from its ``round_commit`` to the next: every event of a round is kept for
    replay, and a round may stall as long as a connected person does not play."""
    max_chat_lines: int = 2000
    """Chat lines one table takes in all (a bound on its journal and memory)."""
    pause_after: float = 120.0
    """A table where no connection holds a seat for this long pauses its computer players
    (and one with no player seated at all closes)."""
    abandon_after: float = 1800.0
    """A table whose players have all been away this long closes."""
    memory_trim_interval: float = 60.0
    """How often the host hands freed heap memory back to the system."""
    journal_check: float = 5.0
    """How often the host checks that its journal file is still there."""
    max_inbox: int = 256
    """Requests queued for one table before senders wait."""
