"""The suite never touches the real user's folders (conftest's ``user_folders_of_its_own``):
CI failed once because the machine's user had a pinned host, and ``verify`` without ``--pin``
read it."""

from __future__ import annotations

import os
from pathlib import Path

from scopa_net.client.config import config_path
from scopa_net.commands.paths import data_dir


def test_each_test_has_empty_data_and_config_folders_of_its_own() -> None:
    data = data_dir(os.environ)
    config = config_path(os.environ)
    real_home = Path(os.path.expanduser("~"))
    for place in (data, config):
        assert not place.is_relative_to(real_home / ".local"), place
        assert not place.is_relative_to(real_home / ".config"), place
    assert not data.exists()
    assert not config.exists()
