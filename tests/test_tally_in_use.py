"""A tally open in one terminal is not opened again in a second one.

Found by hand: ``scopa-net tally Ada Bruno`` in one terminal and ``scopa-net tally --resume``
in another both opened the same tally; each saved its own hands over the other's, so a hand
scored in the second terminal was gone from the file (and from the first terminal's screen)
as soon as the first scored one. The score keeper that has a tally open now holds its lock.
"""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path

import pytest
from app_driver import RecordingOutput
from helpers import run_scopa_net
from prompt_toolkit.input import create_pipe_input

from scopa_net.client.style import Display
from scopa_net.client.tally_app import run_tally
from scopa_net.client.tally_controller import TallyController
from scopa_net.client.tally_store import TallyStore
from scopa_net.commands.options import EXIT_LOCAL
from scopa_net.tally import Tally

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="advisory locks are POSIX here")

NOON = datetime(2026, 12, 1, 12, 0)


def test_resuming_a_tally_open_elsewhere_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    store = TallyStore(tmp_path / "scopa-net")
    tally = Tally.new(["Ada", "Bruno"], target=11, id="20261201-1200-ada-bruno")
    tally = tally.add(0, 2).commit()
    store.save(tally)
    saved = store.path_of(tally.id).read_bytes()
    assert store.hold(tally.id)  # open in "the first terminal": this test's process
    for which in ((), (tally.id,), ("1",)):
        done = run_scopa_net("tally", "--resume", *which, home=tmp_path)
        assert done.returncode == EXIT_LOCAL, done.stderr  # in use by another (README: 5)
        assert done.stdout == ""
        assert done.stderr == (
            "scopa-net: tally 20261201-1200-ada-bruno is open in another scopa-net tally "
            "on this machine: carry on there, or close it and run this again\n"
        )
    assert store.path_of(tally.id).read_bytes() == saved
    store.close()  # the first terminal's score keeper ends
    assert opens_in_a_second_terminal(tmp_path / "scopa-net", tally.id)


def test_a_tally_begun_at_the_prompt_is_held_from_its_first_save(tmp_path: Path) -> None:
    store = TallyStore(tmp_path)
    controller = TallyController(None, store=store, now=lambda: NOON)
    output = RecordingOutput()
    with create_pipe_input() as pipe:
        pipe.send_text("Ada Bruno\r\r\r+1 ada\rdone\ry\r")
        pipe.close()  # then Ctrl-D: the prompt ends
        run_tally(controller, Display(color=False), plain=True, input=pipe, output=output)
    assert controller.tally is not None
    tally_id = controller.tally.id
    assert not opens_in_a_second_terminal(tmp_path, tally_id)
    store.close()
    assert opens_in_a_second_terminal(tmp_path, tally_id)


def opens_in_a_second_terminal(data: Path, tally_id: str) -> bool:
    """Whether another score keeper's store could open the tally now (as `tally --resume`
    does: by holding its lock), letting it go again at once."""
    second = TallyStore(data)
    try:
        return second.hold(tally_id)
    finally:
        second.close()
