"""``python tests/other_version.py DELTA ARGS...``: ``scopa-net ARGS`` as a scopa-net that speaks
only the protocol version DELTA away from this one's newest (a host upgraded, or an older one),
for tests of what a client reads when the versions differ: -1 is a host of the version before,
which a client of this one still speaks to (protocol.md 3.2); +1, one it cannot."""

from __future__ import annotations

import sys

from scopa_net.wire import messages

if __name__ == "__main__":
    messages.PROTOCOL_VERSION += int(sys.argv.pop(1))
    messages.OLDEST_VERSION = messages.PROTOCOL_VERSION
    from scopa_net.commands.main import main

    sys.exit(main(sys.argv[1:]))
