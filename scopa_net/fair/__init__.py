"""Verifiable fair deals: commitments, the public shuffle, transcripts and their verifier.

Pure code like the rest of the core: randomness comes in as bytes, nothing here reads a clock
or the network. The byte-level definitions are written out in protocol.md sections 5 and 6,
with test vectors in section 8.2.
"""
