"""``python -m scopa_net`` is the ``scopa-net`` command."""

from scopa_net.commands.main import main

raise SystemExit(main())
