"""Renumbering a table event for another seat is the same as building it with that seq."""

from __future__ import annotations

import pytest

from scopa_net.wire import messages as m
from scopa_net.wire.errors import LocalProtocolError


def test_with_seq_equals_a_fresh_build() -> None:
    event = m.Played(seq=3, seat=1, card=5, captured=1 << 9, sweep=False, pos=7, salt=b"s" * 16)
    copy = event.with_seq(11)
    assert copy == m.Played(
        seq=11, seat=1, card=5, captured=1 << 9, sweep=False, pos=7, salt=b"s" * 16
    )
    assert event.seq == 3


def test_with_seq_checks_the_number_and_the_kind() -> None:
    event = m.Chat(seq=1, seat=None, text="ciao")
    with pytest.raises(LocalProtocolError, match="seq"):
        event.with_seq(0)
    with pytest.raises(LocalProtocolError, match="not numbered"):
        m.Ping(nonce=1).with_seq(2)
