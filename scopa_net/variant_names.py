"""The names players give the variants, for a refusal that says which of ours they meant.

Only ever used to word an error: a variant is still accepted under its own name alone (the
wire's and every command's), so two tables never differ by how a name was spelled.
"""

from __future__ import annotations

import re

#: Other names for a variant (written as :func:`folded` makes them), by our name for it.
OTHER_NAMES: dict[str, tuple[str, ...]] = {
    "asso_piglia_tutto": (
        "scopa_d_assi",
        "scopa_dassi",
        "d_assi",
        "asso_pigliatutto",
        "ace_sweeps",
        "aces_sweep",
    ),
    "napola": ("napoli", "napoletana", "napula"),
    "quindici": ("scopa_di_quindici", "scopa_a_quindici", "scopa_15", "fifteen", "15"),
    "re_bello": ("rebello",),
    "scopone_scientifico": ("scientifico", "scopone_scentifico"),
    "primiera=sum": ("primiera_sum",),
    "court_prime=0": ("court_prime_0",),
    "six_as_three_pairs": ("three_pairs",),
}


def folded(name: str) -> str:
    """``name`` in lower case, each run of spaces, hyphens and apostrophes one underscore."""
    return re.sub(r"[\s\-'’_]+", "_", name.strip().lower())


def meant(name: str, known: tuple[str, ...]) -> str | None:
    """Our name for the variant a player called ``name``, or None if none is near it."""
    key = folded(name)
    for ours in known:
        if key == folded(ours) or key in OTHER_NAMES.get(ours, ()):
            return ours
    return None
