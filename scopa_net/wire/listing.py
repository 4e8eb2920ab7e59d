"""Which tables one `tables` answer can carry (protocol.md 1 and 3.3).

A listing holds at most :data:`~scopa_net.wire.messages.MAX_TABLES_LISTED` tables, and its
frame at most :data:`~scopa_net.wire.framing.MAX_FRAME` bytes. Sixty-four six-seat tables whose
names and players' names are as many bytes as the wire takes do not fit in one frame, and a
host that wrote the whole list anyway would fail the request (and every client listing its
tables), so it lists the first ones that fit, in order.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgpack

from scopa_net.wire import messages as m
from scopa_net.wire.codec import encode_payload
from scopa_net.wire.framing import MAX_FRAME

ARRAY_HEADER = 3
"""Bytes of the longest array header a listing of up to 64 tables needs (array 16)."""


def tables_that_fit(infos: Iterable[m.TableInfo]) -> tuple[m.TableInfo, ...]:
    """The first of ``infos`` (at most 64) whose `tables` message fits in one frame."""
    size = len(encode_payload(m.Tables(tables=()))) - 1 + ARRAY_HEADER
    kept: list[m.TableInfo] = []
    for info in infos:
        if len(kept) == m.MAX_TABLES_LISTED:
            break
        size += len(msgpack.packb(info.to_map(), use_bin_type=True))
        if size > MAX_FRAME:
            break
        kept.append(info)
    return tuple(kept)
