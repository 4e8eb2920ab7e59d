"""The domain tags of blind tables (protocol.md section 9): one per use."""

from __future__ import annotations

TAG_CARD_POINT = b"scopa-net/blind/v1/card-point"
TAG_KEY = b"scopa-net/blind/v1/key"
TAG_SIGN = b"scopa-net/blind/v1/sign"
TAG_RERANDOMIZE = b"scopa-net/blind/v1/rerandomize"
LABEL_SHUFFLE = b"scopa-net/blind/v1/shuffle"
TAG_KEY_PROOF = b"scopa-net/blind/v1/key-proof"
TAG_KEY_PROOF_NONCE = b"scopa-net/blind/v1/key-proof-nonce"
TAG_DLEQ = b"scopa-net/blind/v1/dleq"
TAG_DLEQ_NONCE = b"scopa-net/blind/v1/dleq-nonce"
TAG_ROUND = b"scopa-net/blind/v1/round"
TAG_DECK_SIG = b"scopa-net/blind/v1/deck-signature"
TAG_SHARES_SIG = b"scopa-net/blind/v1/shares-signature"
TAG_FIRST_DEALER = b"scopa-net/blind/v1/first-dealer"
TAG_CHAIN = b"scopa-net/blind/v1/round-chain"
