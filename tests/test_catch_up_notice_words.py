"""The words a seat caught up by snapshot reads when a round passed unseen (scopa_net/
chain_rejoin.py) are the ones protocol.md 9.7 quotes for ours, word for word: an outsider
reading the document reads what a person reads."""

from __future__ import annotations

from helpers import protocol_section

from scopa_net.chain_rejoin import Rejoin, linked
from scopa_net.fair.commitments import ZERO_CHAIN

SECTION_9_7 = " ".join(protocol_section("### 9.7").split())


def test_a_round_passed_unseen_after_round_1_is_worded_as_9_7_quotes_it() -> None:
    rejoin = Rejoin(2, b"\x01" * 32, None, mid_match=True, dealer=0)
    notice = linked(rejoin, 3, b"\x02" * 32)
    assert notice is not None
    assert notice.startswith("round 3 follows round 1, ")
    assert f'"{notice}"' in SECTION_9_7, notice


def test_a_first_round_seen_after_no_round_dealt_is_worded_as_9_7_quotes_it() -> None:
    rejoin = Rejoin(1, ZERO_CHAIN, None, mid_match=False, dealer=None)
    notice = linked(rejoin, 2, b"\x02" * 32)
    assert notice is not None
    assert notice.startswith("round 2 is the first round you see opened")
    assert f'"{notice}"' in SECTION_9_7, notice
