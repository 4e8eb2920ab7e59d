"""A host's address as a person types it: ``host:port``, an IPv6 host in brackets."""

from __future__ import annotations


def shown_address(host: str, port: int) -> str:
    """``192.168.1.20:7311``, ``[fe80::1]:7311``: what ``scopa-net join`` takes back."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def of_this_machine(host: str) -> bool:
    """Whether ``host`` is one of this machine's own addresses: ``localhost``, or an IP
    address a socket can be bound to (every loopback address, and each address of this
    machine's interfaces). Another name is not looked up (that may wait on the network)."""
    import ipaddress
    import socket

    if host.lower() == "localhost":
        return True
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.bind((host, 0))
    except (OSError, UnicodeError):
        return False
    return True
