"""The ``scopa-net`` command: one module per subcommand, a thin layer over the core, the host
and the client. Installed as :mod:`scopa_net.commands`."""
