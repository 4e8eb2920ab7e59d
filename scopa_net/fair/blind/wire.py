"""A blind round in a version 6, 4 or 3 transcript file (protocol.md 9.8): to and from msgpack
values.

The reading side is strict like the rest of the transcript reader: every map has exactly its
keys in order, every byte string its size, every list its length, or the file is refused with
the path of what is wrong.
"""

from __future__ import annotations

from typing import Any

from scopa_net.fair.blind.deck import CIPHERTEXT_SIZE, parse_deck
from scopa_net.fair.blind.group import POINT_SIZE
from scopa_net.fair.blind.party_secrets import PartyKey
from scopa_net.fair.blind.proofs import PROOF_SIZE
from scopa_net.fair.blind.record import (
    ROUND_KEYS,
    ROUND_KEYS_V3,
    ROUND_KEYS_V6,
    BlindPlay,
    BlindRound,
    DealShares,
    OpenCard,
)
from scopa_net.fair.blind.seated import BLIND_SEATED_KINDS
from scopa_net.fair.blind.shuffle_proof import SHUFFLE_PROOF_SIZE
from scopa_net.fair.hashing import HASH_SIZE, ROUND_ID_SIZE, SEED_SIZE, SIGNATURE_SIZE
from scopa_net.fair.transcript import (
    BLIND_SEATED_FORMAT_VERSION,
    Transcript,
    decode,
    read_plays,
    read_score,
    read_void,
)

MAX_PARTIES = 7


def _cards(r: Any, value: Any) -> tuple[OpenCard, ...]:
    out = []
    for i, item in enumerate(r.array(value)):
        ri = r.at(i)
        pos, card = ri.array(item, 2)
        out.append(OpenCard(ri.int(pos, 0, 39), ri.int(card, 0, 39)))
    return tuple(out)


def round_from_wire(r: Any, value: Any, players: int, version: int) -> BlindRound:
    """One blind round of a transcript of ``version`` (3: no shuffle proofs; 6: ``seated``);
    ``r`` is the transcript reader positioned at it."""
    seated_file = version == BLIND_SEATED_FORMAT_VERSION
    m = r.map(value, {3: ROUND_KEYS_V3, 6: ROUND_KEYS_V6}.get(version, ROUND_KEYS))
    rp = r.at("people")
    people = tuple(rp.int(s, 0, players - 1) for s in rp.array(m["people"]))
    if list(people) != sorted(set(people)):
        raise rp.fail("expected distinct seats in order", list(people))
    seated = None
    if seated_file:
        rs = r.at("seated")
        seated = tuple(
            rs.at(i).choice(x, BLIND_SEATED_KINDS)
            for i, x in enumerate(rs.array(m["seated"], players))
        )
    parties = len(people) + 1
    rk = r.at("keys")
    keys = []
    for i, item in enumerate(rk.array(m["keys"])):
        ri = rk.at(i)
        point, proof, sign_key = ri.array(item, 3)
        keys.append(
            PartyKey(ri.bin(point, POINT_SIZE), ri.bin(proof, PROOF_SIZE), ri.bin(sign_key, 32))
        )
    if not 1 <= len(keys) <= parties:
        raise rk.fail(f"expected 1..{parties} keys", len(keys))
    rd = r.at("decks")
    decks = tuple(
        parse_deck(rd.at(i).bins(d, CIPHERTEXT_SIZE, 40))
        for i, d in enumerate(rd.array(m["decks"]))
    )
    deck_sigs = r.at("deck_sigs").bins(m["deck_sigs"], SIGNATURE_SIZE, len(decks))
    deck_proofs = None
    if "deck_proofs" in m:
        deck_proofs = r.at("deck_proofs").bins(m["deck_proofs"], SHUFFLE_PROOF_SIZE, len(decks))
    deals = []
    for i, item in enumerate(r.at("deals").array(m["deals"])):
        ri = r.at("deals").at(i)
        relayed = None
        if isinstance(item, dict) and "relayed" in item:
            d = ri.map(item, ("shares", "sigs", "relayed"))
            rr = ri.at("relayed")
            other = rr.map(d["relayed"], ("shares", "sig"))
            relayed = (
                rr.at("shares").bins(other["shares"], POINT_SIZE),
                rr.at("sig").bin(other["sig"], SIGNATURE_SIZE),
            )
        else:
            d = ri.map(item, ("shares", "sigs"))
        rs = ri.at("shares")
        shares = tuple(
            None if s is None else rs.at(j).bins(s, POINT_SIZE)
            for j, s in enumerate(rs.array(d["shares"], parties))
        )
        rg = ri.at("sigs")
        sigs = tuple(
            None if s is None else rg.at(j).bin(s, SIGNATURE_SIZE)
            for j, s in enumerate(rg.array(d["sigs"], parties))
        )
        deals.append(DealShares(shares, sigs, relayed))
    plays = [BlindPlay(*p) for p in read_plays(r, m["plays"], players, PROOF_SIZE)]
    void = read_void(r, m["void"], players)
    score = read_score(r, m["score"])
    seeds = None
    if m["seeds"] is not None:
        rs = r.at("seeds")
        seeds = tuple(
            None if s is None else rs.at(i).bin(s, SEED_SIZE)
            for i, s in enumerate(rs.array(m["seeds"], parties))
        )
    return BlindRound(
        round_id=r.at("round_id").bin(m["round_id"], ROUND_ID_SIZE),
        round_no=r.at("round_no").int(m["round_no"], 1, (1 << 32) - 1),
        prev=r.at("prev").bin(m["prev"], HASH_SIZE),
        dealer=r.at("dealer").opt_int(m["dealer"], 0, players - 1),
        people=people,
        keys=tuple(keys),
        sig=r.at("sig").bin(m["sig"], SIGNATURE_SIZE),
        decks=decks,
        deck_proofs=deck_proofs,
        deck_sigs=deck_sigs,
        deals=tuple(deals),
        hand=_cards(r.at("hand"), m["hand"]),
        table=_cards(r.at("table"), m["table"]),
        plays=tuple(plays),
        void=void,
        score=score,
        seeds=seeds,
        reveal_sig=r.at("reveal_sig").opt_bin(m["reveal_sig"], SIGNATURE_SIZE),
        seated=seated,
    )


def decode_any(data: bytes) -> Transcript:
    """Read a transcript file of any version: 5 or 2 (an ordinary table), 6, 4 or 3 (a blind
    one)."""
    return decode(data, read_blind_round=round_from_wire)
