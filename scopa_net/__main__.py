"""``python -m scopa_net`` is the ``scopa-net`` command."""

import os
import sys

try:
    from scopa_net.commands.main import main
except ModuleNotFoundError as exc:
    if exc.name != "scopa_net.commands":
        raise
    # Run in a checkout without an editable install: the current folder's scopa_net/ is the
    # core alone; the build maps commands/, client/ and server/ into the installed package.
    import scopa_net

    folder = os.path.dirname(scopa_net.__file__)
    print(
        f"scopa-net: `python -m scopa_net` found {folder}, a checkout's core alone (commands/, "
        "client/ and server/ sit beside it): run `scopa-net`, or run it from another folder, "
        "or install with `python -m pip install -e .`",
        file=sys.stderr,
    )
    raise SystemExit(5) from None  # EXIT_LOCAL: this machine cannot (as installed here)

raise SystemExit(main())
