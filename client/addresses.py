"""A host's address as a person types it: ``host:port``, an IPv6 host in brackets."""

from __future__ import annotations


def shown_address(host: str, port: int) -> str:
    """``192.168.1.20:7311``, ``[fe80::1]:7311``: what ``scopa-net join`` takes back."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
