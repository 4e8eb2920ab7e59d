"""A host's own words (``bye`` and ``error`` messages) in the one line a command ends with,
over loopback TCP against a host that says what it likes.

The codec refuses C0 and C1 controls, but bidi controls, zero-width characters and line
separators are legal text: a host's ``bye`` could turn the line a person reads around
(``U+202E``) or break it in two (``U+2028``). The client shows a host's words cleaned as it
shows a name or a chat line (:func:`scopa_net.names.clean_text`)."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from bye_host import RefusalAtRequest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hosting import create

from scopa_net.client.launch import session_failure
from scopa_net.client.network_session import SessionError, TableChoice, open_network_session
from scopa_net.client.seat_store import SeatStore
from scopa_net.rules import RuleSet

SAID = "closing \u202eelbat\u202c now\u2028for\u200b the \u2066night\u2069"
"""What the host says: a bidi override and isolate, a line separator and a zero-width space."""
SHOWN = "closing elbat now for the night"
TRICKS = ("\u202e", "\u202c", "\u2066", "\u2069", "\u2028", "\u200b")


@pytest.mark.parametrize("reason", ["bad_field", "wrong_phase"])
async def test_a_hosts_words_in_a_one_line_exit_are_cleaned(tmp_path: Path, reason: str) -> None:
    """``bad_field`` comes as a ``bye``, ``wrong_phase`` as an ``error``: either way the line
    reads the host's words without its bidi controls, zero-width spaces or line breaks."""
    key = Ed25519PrivateKey.generate()
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            host = RefusalAtRequest(key, reason, SAID)
            await nursery.start(host.serve)
            choice = TableChoice(create=create(RuleSet.of(2, 11), bots=1))
            with pytest.raises(SessionError) as refused:
                async with open_network_session(
                    "127.0.0.1", host.port, choice, name="Bea", store=SeatStore(tmp_path)
                ):
                    pass
            nursery.cancel_scope.cancel()
    line = str(session_failure(refused.value))
    assert not any(trick in line for trick in TRICKS), ascii(line)
    assert SHOWN in line, line
