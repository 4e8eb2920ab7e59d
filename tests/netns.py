"""Two "machines" on one LAN: two Linux network namespaces joined by a virtual cable.

Each namespace has its own loopback and one end of a veth pair, with an address from a private
range that exists inside these two namespaces only: nothing they send can leave them. Needs
root and ``ip`` (iproute2); :func:`why_not` says why it cannot be done here. Always
:meth:`TwoMachines.remove` them (a ``with`` block does).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import uuid
from dataclasses import dataclass

SUBNET = "10.231.{n}.{host}"
"""The cable's addresses (RFC 1918), chosen per run so that two runs never meet."""


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check, timeout=20)


def why_not() -> str:
    """Why two namespaces cannot be made here ("" when they can)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "network namespaces need root"
    if shutil.which("ip") is None:
        return "no `ip` command (install iproute2)"
    probe = f"snprobe{uuid.uuid4().hex[:6]}"
    made = _ip("netns", "add", probe, check=False)
    if made.returncode != 0:
        return f"`ip netns add` is refused here: {made.stderr.strip()}"
    _ip("netns", "del", probe, check=False)
    return ""


@dataclass
class Machine:
    namespace: str
    address: str

    def command(self, *argv: str) -> list[str]:
        """``argv`` run inside this machine's namespace."""
        return ["ip", "netns", "exec", self.namespace, *argv]


class TwoMachines:
    def __init__(self) -> None:
        tag = uuid.uuid4().hex[:6]
        n = int(tag[:2], 16)
        self.a = Machine(f"sna{tag}", SUBNET.format(n=n, host=1))
        self.b = Machine(f"snb{tag}", SUBNET.format(n=n, host=2))
        self._veth = (f"sva{tag}", f"svb{tag}")
        self._made: list[str] = []

    def __enter__(self) -> TwoMachines:
        try:
            self._make()
        except BaseException:
            self.remove()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()

    def _make(self) -> None:
        for machine in (self.a, self.b):
            _ip("netns", "add", machine.namespace)
            self._made.append(machine.namespace)
        end_a, end_b = self._veth
        _ip("link", "add", end_a, "netns", self.a.namespace, "type", "veth", "peer", "name",
            end_b, "netns", self.b.namespace)  # fmt: skip
        for machine, end in ((self.a, end_a), (self.b, end_b)):
            ns = machine.namespace
            _ip("-n", ns, "link", "set", "lo", "up")
            _ip("-n", ns, "addr", "add", f"{machine.address}/24", "dev", end)
            _ip("-n", ns, "link", "set", end, "multicast", "on", "up")
            # mDNS goes to 224.0.0.251 on the cable (the namespace has no other way out).
            _ip("-n", ns, "route", "add", "224.0.0.0/4", "dev", end)

    def remove(self) -> None:
        """Delete the namespaces (and with them the cable); safe to call twice."""
        while self._made:
            namespace = self._made.pop()
            pids = _ip("netns", "pids", namespace, check=False).stdout.split()
            for pid in pids:  # what the test started there and left running
                with contextlib.suppress(OSError, ValueError):
                    os.kill(int(pid), 9)
            _ip("netns", "del", namespace, check=False)
