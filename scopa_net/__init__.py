"""scopa-net: Scopa between terminals on a LAN, with deals anyone can verify.

The package root is the pure core: cards and notation, the rules engine, scoring, per-seat
views. Nothing here does I/O, reads a clock or uses global randomness. The trio host lives in
``scopa_net.server`` and the terminal client in ``scopa_net.client``.
"""

__version__ = "0.1.0"
