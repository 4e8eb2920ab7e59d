"""Shared pytest options: ``--runslow`` runs the long forms of the fault and soak tests."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--runslow", action="store_true", default=False, help="run many more seeds and kills"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="long run: give --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
