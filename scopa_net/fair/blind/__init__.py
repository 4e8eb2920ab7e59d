"""Host-blind dealing (mental poker): no party, the host included, reads a card before it is
dealt to it or played.

ElGamal masking over the prime-order subgroup of edwards25519 (libsodium through PyNaCl): every
party shuffles and re-randomizes the deck under its own secret, each deal is opened by
decryption shares, a play carries a proof that it names the card its position holds, and every
party's seed is revealed at the round's end so anyone can re-derive the whole round. The byte
level is protocol.md section 9. Sans-IO like the rest of the core: seeds come in as bytes.
"""
