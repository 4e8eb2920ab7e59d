"""The floor under the host's CPU per move: one read and four writes per message, nothing else.

A server process holds ``--connections`` loopback connections in groups of four (a table) and,
for each message a connection sends, reads it and writes 53 bytes to each of the four
connections of its group: the syscalls and wake-ups of one move at the host, without the host's
work. It reads in one of two ways, measured alternately:

* ``tasks``: a trio task per connection waits with ``wait_readable`` and reads (the host's way;
  trio re-arms the socket in epoll at every wait);
* ``poller``: one trio task waits on an epoll of its own, in which every socket is registered
  once, and reads every socket that is ready (no task per connection, no re-arming).

It prints the server's CPU per message for each. A client process sends ``--rate`` messages a
second to random connections and reads everything. Talks only to 127.0.0.1; stops by itself.

    python benchmarks/reader_floor.py [--connections 2000] [--rate 500] [--seconds 15]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import select
import socket
import subprocess
import sys
import time

import trio

PAYLOAD = b"x" * 53
"""About a ``played`` event's frame."""


def serve(mode: str, port_file: str, connections: int, seconds: float) -> None:
    """The server: accept, then read and answer in ``mode`` for ``seconds``; print its CPU."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4096)
    with open(port_file, "w") as out:
        out.write(str(listener.getsockname()[1]))
    socks, fds, index = [], [], {}
    while len(socks) < connections:
        sock, _ = listener.accept()
        sock.setblocking(False)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        index[sock.fileno()] = len(fds)
        socks.append(sock)
        fds.append(sock.fileno())
    handled = [0]

    def answer(fd: int) -> None:
        handled[0] += 1
        first = index[fd] - index[fd] % 4
        for other in fds[first : first + 4]:
            os.write(other, PAYLOAD)

    async def reader(fd: int) -> None:
        while True:
            await trio.lowlevel.wait_readable(fd)
            try:
                if not os.read(fd, 65536):
                    return
            except BlockingIOError:
                continue
            answer(fd)

    async def poller() -> None:
        with select.epoll() as ready:
            for fd in fds:
                ready.register(fd, select.EPOLLIN)
            while True:
                await trio.lowlevel.wait_readable(ready.fileno())
                for fd, _ in ready.poll(0):
                    try:
                        data = os.read(fd, 65536)
                    except BlockingIOError:
                        continue
                    if data:
                        answer(fd)
                    else:
                        ready.unregister(fd)

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            if mode == "tasks":
                for fd in fds:
                    nursery.start_soon(reader, fd)
            else:
                nursery.start_soon(poller)
            await trio.sleep(2)  # warm-up
            cpu, count = time.process_time(), handled[0]
            await trio.sleep(seconds)
            cpu, count = time.process_time() - cpu, handled[0] - count
            print(f"{mode}: {count} messages, {cpu / max(count, 1) * 1e6:.1f} us of CPU each")
            nursery.cancel_scope.cancel()

    trio.run(main)


def client(port: int, connections: int, rate: float, seconds: float) -> None:
    """Send ``rate`` messages a second to random connections, reading whatever comes back,
    for ``seconds`` or until the server is gone."""
    socks = [socket.create_connection(("127.0.0.1", port)) for _ in range(connections)]
    with select.epoll() as ready:
        for sock in socks:
            sock.setblocking(False)
            ready.register(sock.fileno(), select.EPOLLIN)
        due, end = time.monotonic(), time.monotonic() + seconds
        while time.monotonic() < end:
            while due <= time.monotonic():
                try:
                    os.write(random.choice(socks).fileno(), b"p" * 40)
                except (BrokenPipeError, ConnectionResetError):
                    end = 0.0  # the server is done
                due += random.expovariate(rate)
            for fd, _ in ready.poll(max(0.0, due - time.monotonic())):
                with contextlib.suppress(BlockingIOError, ConnectionResetError):
                    os.read(fd, 65536)
    for sock in socks:
        sock.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--connections", type=int, default=2000)
    parser.add_argument("--rate", type=float, default=500.0, help="messages a second")
    parser.add_argument("--seconds", type=float, default=15.0, help="measured, per run")
    parser.add_argument("--runs", type=int, default=2, help="runs of each way")
    parser.add_argument("--serve", nargs=2, metavar=("MODE", "PORT_FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve[0], args.serve[1], args.connections, args.seconds)
        return
    for _ in range(args.runs):
        for mode in ("tasks", "poller"):
            port_file = f"/tmp/reader-floor-{os.getpid()}"
            command = [sys.executable, __file__, "--connections", str(args.connections)]
            command += ["--seconds", str(args.seconds), "--serve", mode, port_file]
            with subprocess.Popen(command) as server:
                try:
                    for _ in range(100):
                        time.sleep(0.1)
                        if os.path.exists(port_file) and os.path.getsize(port_file):
                            break
                    with open(port_file) as found:
                        port = int(found.read())
                    client(port, args.connections, args.rate, args.seconds + 4)
                    server.wait(timeout=30)
                finally:
                    server.kill()
                    if os.path.exists(port_file):
                        os.remove(port_file)


if __name__ == "__main__":
    main()
