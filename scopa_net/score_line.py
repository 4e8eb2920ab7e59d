"""A match's score in one line, side by side: ``Ada 11 - Bruno 4``.

A score right after a name that ends in a digit reads as part of the name (``bot 1 4``):
where any side's name does, each side's points follow a colon (``Dino: 1 - bot 1: 4``), so
that the line says its scores one way throughout. Elsewhere the line is as it always was.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def after_name(names: Iterable[str]) -> str:
    """What goes between a name and its score wherever scores follow names: ``": "`` when
    any of the names ends in a digit (``bot 1: 4``), else a space (``Ada 4``)."""
    return ": " if any(name[-1:].isdigit() for name in names) else " "


def score_line(sides: Sequence[tuple[str, int]]) -> str:
    """Each side's names (``Ada & Carla``) and points, joined by `` - ``."""
    mark = after_name(name for name, _ in sides)
    return " - ".join(f"{name}{mark}{points}" for name, points in sides)
