"""How ``scopa-net join`` talks with the person at the terminal: a line cut to fit it, and a
number typed from a list."""

from __future__ import annotations

from collections.abc import Callable

from scopa_net.typed import small_number


def say(text: str, *, label: str = "") -> None:
    """A line on standard output, cut between words to fit the terminal (client.said)."""
    from scopa_net.client.said import say as said  # the client's modules only when needed

    said(text, label=label)


def choose_number(
    prompt: str, count: int, ask: Callable[[str], str], enter: str | None = "to stop"
) -> int | None:
    """A number from 1..count typed by the user (None for 'n' or an empty line). ``enter``:
    what Enter does, as the prompt says it (``to stop``, ``for a new seat``), for the line
    that refuses anything else; None where Enter does nothing."""
    while True:
        answer = ask(prompt).strip().lower()
        if answer in ("", "n", "new"):
            return None
        number = small_number(answer)
        if number is not None and 1 <= number <= count:
            return number - 1
        numbers = "1" if count == 1 else f"a number from 1 to {count}"  # not "from 1 to 1"
        say(f"type {numbers}" + (f", or press Enter {enter}" if enter else ""))
