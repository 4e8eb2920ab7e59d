"""Every command's output under an encoding that cannot show a name (``LC_ALL=C``,
``PYTHONIOENCODING=ascii``): the name degrades to ``?``, as in ``play``, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import trio
from hosting import MakeHost, create

from scopa_net.bots.levels import make_player
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.network_session import TableChoice, open_network_session
from scopa_net.fair.commitments import fingerprint
from scopa_net.fair.transcript import decode
from scopa_net.rules import RuleSet


def ascii_run(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    """``scopa-net ARGS`` in a process of its own whose output is ASCII only."""
    env = dict(os.environ) | {
        "PYTHONIOENCODING": "ascii",
        "XDG_DATA_HOME": str(home),
        "XDG_CONFIG_HOME": str(home),
    }
    return subprocess.run(
        [sys.executable, "-m", "scopa_net", *args],
        capture_output=True,
        text=True,
        encoding="ascii",
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=60,
        check=False,
    )


async def test_verify_and_history_show_a_name_an_ascii_output_cannot_as_question_marks(
    tmp_path: Path, make_host: MakeHost
) -> None:
    """Zoë Müller plays a match; `verify` of her good transcript stopped with
    UnicodeEncodeError ('ascii' codec can't encode character '\\xeb') and status 1, so it
    looked failed. Now it says "Zo? M?ller" and passes (status 0), and so does `history`."""
    db = tmp_path / "host.db"
    host = await make_host(bot_delay=0.0, db=str(db))
    choice = TableChoice(create=create(RuleSet.of(2, 1), bots=1))
    async with open_network_session(
        "127.0.0.1", host.port, choice, name="Zoë Müller", data_dir=tmp_path / "data"
    ) as session:
        assert await play_as_bot(session, make_player("random", 1)) is not None
    (path,) = (tmp_path / "data" / "transcripts").glob("*.scopa")
    pin = fingerprint(decode(path.read_bytes()).host_key)
    home = tmp_path / "home"

    checked = await trio.to_thread.run_sync(
        lambda: ascii_run("verify", "--pin", pin, str(path), home=home)
    )
    assert (checked.returncode, checked.stderr) == (0, "")
    assert checked.stdout.startswith("Zo? M?ller (seat 0, this file's seat), 2 players")
    listed = await trio.to_thread.run_sync(lambda: ascii_run("history", "--db", str(db), home=home))
    assert (listed.returncode, listed.stderr) == (0, "")
    assert "Zo? M?ller: " in listed.stdout
