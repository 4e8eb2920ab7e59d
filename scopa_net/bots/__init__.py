"""Computer players: they decide from a seat's view alone, so they cannot cheat.

Every player is a plain object built with a seed, with one method, ``choose(view) -> Play``.
The same seed and the same view always give the same play, whatever the hidden cards are.
Levels by name are in :mod:`scopa_net.bots.levels`; the duplicate-deal match runner that
compares them is :mod:`scopa_net.bots.arena`.
"""
