"""``--help`` and ``--version`` answer at once: building the parser imports no heavy library.

Measured by what gets imported (not by wall time, which is noisy on a shared machine): trio,
prompt-toolkit, msgpack, cryptography, zeroconf, sqlite3 and the host are imported only by the
subcommand that runs on them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import env_without_coverage

HEAVY = ("trio", "prompt_toolkit", "msgpack", "cryptography", "zeroconf", "sqlite3", "asyncio")
HEAVY_OURS = (
    "scopa_net.server.host",
    "scopa_net.client.app",
    "scopa_net.client.config",
    "scopa_net.client.network_session",
    "scopa_net.client.tally_app",
    "scopa_net.client.tally_controller",
    "scopa_net.bots",
    "scopa_net.fair",
)

PROGRAM = """
import contextlib, io, json, sys
from scopa_net.commands.main import main
with contextlib.redirect_stdout(io.StringIO()):
    status = main(sys.argv[1:])
print(json.dumps({"status": status, "modules": sorted(sys.modules)}))
"""


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["--version"],
        ["play", "--help"],
        ["join", "--help"],
        ["host", "--help"],
        ["bots", "--help"],
        ["verify", "--help"],
        ["arena", "--help"],
        ["history", "--help"],
        ["tally", "--help"],
    ],
)
def test_help_and_version_import_nothing_heavy(argv: list[str], tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROGRAM, *argv],
        capture_output=True,
        text=True,
        cwd=tmp_path,  # not the checkout, whose scopa_net/ would shadow the installed mapping
        check=True,
        env=env_without_coverage(),
    )
    report = json.loads(result.stdout.splitlines()[-1])
    assert report["status"] == 0
    loaded = report["modules"]
    heavy = [m for m in loaded if m.split(".")[0] in HEAVY or m.startswith(HEAVY_OURS)]
    assert heavy == []
