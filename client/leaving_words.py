"""What the client says when a person leaves a table or steps away: the question, and what
becomes of the seat, for each kind of table and connection."""

from __future__ import annotations

from scopa_net.client.files import shown_path

SEAT_KEPT_WHILE_OPEN = "the host keeps your seat while the table is open"
"""What becomes of a seat as its client stops without leaving it (it gave up getting back to
the host, was stopped, or cannot play there): true even where the table has closed since, as
it may have while the host was out of reach."""

LEAVE_QUESTION = (
    "Leave for good (a computer player takes your seat) or step away (your seat is kept "
    "for you, a computer playing it at once until {again} takes it back)? Type leave, away, "
    "or stay."
)
ALONE_AT_A_BLIND_TABLE_LEAVE_QUESTION = (
    "Leave for good (a computer player takes your seat) or step away (your seat is kept "
    "for you; nobody else plays at this blind table, so it waits for you, no card played, "
    "until {again} takes it back)? Type leave, away, or stay."
)
"""The question where stepping away stops the table: no computer can deal a blind round
(protocol.md 9.1), and no other person plays there."""
OWN_HOST_LEAVE_QUESTION = (
    "Leave for good (a computer player takes your seat) or step away (your seat is kept "
    "for you; {again} takes it back)? Type leave, away, or stay."
)
UNREACHABLE_LEAVE_QUESTION = (
    "The host cannot be reached just now, so whatever you choose it keeps your seat (a "
    "computer plays it once its grace period ends) until {again} takes it back. Leave for good "
    "or step away? Type leave, away, or stay (to keep trying)."
)
"""The question while the client is reconnecting: nothing can reach the host, so neither
answer gives the seat up there, nor puts a computer in it at once."""
UNREACHABLE_GOING = (
    "The host cannot be reached, so it cannot be told that you are {going}: it keeps your "
    "seat (a computer plays it once its grace period ends). {again} takes it back, or with "
    "--no-resume sits down anew; if the host moved, give its new address instead (your seat "
    "goes with the host's key)."
)
"""What leaving or stepping away says while the client is reconnecting: the address it
names is the one it was trying, which a host that moved no longer answers at."""
UNREACHABLE_BEFORE_THE_MATCH = (
    "The host cannot be reached, so it cannot be told that you are stepping away: it keeps "
    "your seat at table {table}, whose match has not begun (if it begins before you are back, "
    "a computer plays for you once your grace period ends). {again} takes it back, or with "
    "--no-resume sits down anew; if the host moved, give its new address instead (your seat "
    "goes with the host's key)."
)
""":data:`UNREACHABLE_GOING` at a table still waiting for players: nothing is played there
until the match begins (protocol.md 3.3: the seat waits out its grace period, then a
computer plays it once there is something to play)."""
OWNER_LEAVE_QUESTION = (
    "Leave for good (this table closes: its host runs in this terminal, so your friends' "
    "match stops too) or step away (the table and your seat are kept; {again} opens them "
    "again)? Type leave, away, or stay."
)
GOING_VOIDS_ROUND = (
    "At this blind table, leaving or stepping away now ends this round for everyone: it is "
    "void, because its cards cannot be played without you, and it is dealt again."
)


def unfinished_lines(session: object) -> list[str]:
    """Where ``session``'s match so far is saved, UNFINISHED, and how to check it; none if
    no round of it was saved."""
    saved = getattr(session, "unfinished_transcript", None)
    if saved is None:
        return []
    where = shown_path(saved)
    return [
        f"The match so far is saved, UNFINISHED: {where}",
        "Check its rounds with:",
        f"  scopa-net verify {where}",  # whole, to copy (wrap_line)
    ]
