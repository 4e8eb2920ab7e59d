"""``python tests/other_version.py DELTA ARGS...``: ``scopa-net ARGS`` as a scopa-net whose
protocol version is DELTA away from this one's (a host upgraded, or an older one), for tests of
what a client reads when the versions differ."""

from __future__ import annotations

import sys

from scopa_net.wire import messages

if __name__ == "__main__":
    messages.PROTOCOL_VERSION += int(sys.argv.pop(1))
    from scopa_net.commands.main import main

    sys.exit(main(sys.argv[1:]))
