"""Section 5's new bytes, rebuilt from protocol.md's words alone, against its own vectors.

Nothing from scopa_net is imported: the hashes, the shuffle, the deal, the receipt, the joint
seed over the seeds that count, the chain hash with its exclusions and the signed end are
written as the document states them (section 5.1 and 5.5 in ``document_hashes``), with
hashlib, hmac and an Ed25519 library. If the
document and the implementation ever disagree on a byte, a vector stops matching here.
"""

from __future__ import annotations

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from document_hashes import below, cases, h, lp, shuffle, words

CASES = cases()


# --- the cases --------------------------------------------------------------------------------


def commit(round_id: bytes, seat: int, seed: bytes) -> bytes:
    return h("scopa-net/v1/seat-commit", round_id, bytes([seat]), seed)


def test_receipt_from_the_document() -> None:
    c = CASES["receipt"]
    key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(c["host_key_seed"]))
    round_id, seat = bytes.fromhex(c["round_id"]), int(c["seat"])
    seed_hash = commit(round_id, seat, bytes.fromhex(c["seed"]))
    assert seed_hash.hex() == c["seed_hash"]
    msg = (
        lp(b"scopa-net/v1/seed-receipt-signature")
        + lp(round_id)
        + lp(bytes([seat]))
        + lp(seed_hash)
    )
    assert msg.hex() == c["receipt_msg"]
    assert key.sign(msg).hex() == c["receipt_sig"]


def test_exclusion_and_chain_from_the_document() -> None:
    c = CASES["exclusion-3"]
    n = int(c["players"])
    round_id, host_seed = bytes.fromhex(c["round_id"]), bytes.fromhex(c["host_seed"])
    # 5.2: the host's list.
    order = shuffle(host_seed, "scopa-net/v1/host-order", round_id)
    salts = [h("scopa-net/v1/card-salt", round_id, host_seed, bytes([i]))[:16] for i in range(40)]
    hashes = [h("scopa-net/v1/card-hash", round_id, bytes([order[i]]), salts[i]) for i in range(40)]
    digest = h("scopa-net/v1/deck-digest", round_id, *hashes)
    # 5.4: what the record shows decides which seeds count.
    commits = [bytes.fromhex(c[f"commit.{s}"]) for s in range(n)]
    seeds = [None if c[f"seed.{s}"] == "nil" else bytes.fromhex(c[f"seed.{s}"]) for s in range(n)]
    excluded = [None if x == "-" else x for x in c["excluded"].split()]
    counted = [
        s for s in range(n) if seeds[s] is not None and commit(round_id, s, seeds[s]) == commits[s]
    ]
    assert counted == [int(x) for x in c["counted"].split()]
    for s in range(n):
        want = None if s in counted else ("no_reveal" if seeds[s] is None else "bad_reveal")
        assert excluded[s] == want
    joint = h("scopa-net/v1/joint-seed", round_id, digest, *(seeds[s] for s in counted))
    assert joint.hex() == c["joint_seed"]
    assert h("scopa-net/v1/joint-seed", round_id, digest).hex() == c["joint_seed_no_player"]
    # 5.6 and section 4: the deck, the first dealer, the opening table.
    perm = shuffle(joint, "scopa-net/v1/deck-shuffle", round_id)
    deck = [order[p] for p in perm]
    assert deck == [int(x) for x in c["deck"].split()]
    dealer = below(words(joint, "scopa-net/v1/first-dealer", round_id), n)
    assert dealer == int(c["first_dealer"])
    table_positions = range(3 * n, 3 * n + 4)  # after the first deal of three cards each
    assert [deck[p] for p in table_positions] == [int(x) for x in c["table"].split()]

    # 5.7: the chain hash, with commitments and seeds by seat and the exclusion codes.
    def slots(values: list[bytes | None]) -> bytes:
        return bytes([len(values)]) + b"".join(
            b"\x00" if v is None else b"\x01" + v for v in values
        )

    codes = {None: 0, "no_commit": 1, "no_reveal": 2, "bad_reveal": 3}
    table = b"".join(bytes([p, deck[p]]) + salts[perm[p]] for p in table_positions)

    def chain(plays: bytes) -> bytes:
        return h(
            "scopa-net/v1/round-chain",
            round_id,
            (1).to_bytes(4, "big"),
            bytes(32),
            digest,
            slots(commits),
            slots(seeds),
            bytes(codes[x] for x in excluded),
            table,
            plays,  # every play joined: one field
            b"",  # not void
            b"",  # no offender
            host_seed,
        )

    assert chain(b"").hex() == c["chain"]  # no plays yet
    plays = b""
    for entry in CASES["chain-plays"]["plays"].split():
        seat, code, pos, salt = entry.split("/")
        assert int(code) & 63 == deck[int(pos)]
        assert bytes.fromhex(salt) == salts[perm[int(pos)]]
        plays += bytes([int(seat)]) + int(code).to_bytes(8, "big") + bytes([int(pos)])
        plays += bytes.fromhex(salt)
    assert chain(plays).hex() == CASES["chain-plays"]["chain"]


def test_signed_end_from_the_document() -> None:
    c = CASES["end"]
    key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(c["host_key_seed"]))
    scores = b"".join(int(x).to_bytes(4, "big") for x in c["scores"].split())
    winner = bytes([int(c["winner"])])
    msg = (
        lp(b"scopa-net/v1/match-end-signature")
        + lp(bytes.fromhex(c["chain"]))
        + lp(scores)
        + lp(winner)
    )
    assert msg.hex() == c["end_msg"]
    assert key.sign(msg).hex() == c["end_sig"]
