"""Helpers shared by the test modules (test modules never import each other)."""

from __future__ import annotations

import os


def env_without_coverage() -> dict[str, str]:
    """This process's environment less coverage.py's variables: a subprocess started with it is
    not measured, for tests that check which modules a fresh interpreter imports (coverage
    itself imports sqlite3)."""
    return {k: v for k, v in os.environ.items() if not k.startswith("COVERAGE_")}
