"""``python -m scopa_net`` is the ``scopa-net`` command."""

from scopa_net.cli import main

raise SystemExit(main())
