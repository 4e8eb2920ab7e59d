"""The terminal client (installed as ``scopa_net.client``)."""
