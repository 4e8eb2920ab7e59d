"""The trio host (installed as ``scopa_net.server``)."""
