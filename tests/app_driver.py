"""Drive the whole client app (prompt-toolkit on asyncio, trio as its guest) through a pipe,
recording what it writes: for the app's tests and the fair-deal alarm tests."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable

from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

from scopa_net.client.app import ClientApp
from scopa_net.client.asking import Asking
from scopa_net.client.client_state import ClientState
from scopa_net.client.local_session import open_local_session
from scopa_net.client.moves import legal_plays
from scopa_net.client.style import Display
from scopa_net.rules import RuleSet
from scopa_net.view import SeatView

#: A bound so that a broken app fails the test instead of hanging it (not a speed check).
HANG_GUARD = 60


class RecordingOutput(DummyOutput):
    """A terminal ``columns`` wide (80, as DummyOutput's) that keeps the text written to it.

    Given ``columns``, it says its size to the game, which cuts its lines to fit (as on a
    terminal); not given, the game's lines are written whole, as to a file."""

    def __init__(self, columns: int | None = None) -> None:
        self.parts: list[str] = []
        self._drawn: list[str] = []  # what was written, a line break at each cursor move
        self._printed: list[str] = []  # what was printed above the prompt
        self._printing = False
        self.sized = columns is not None
        self.columns = 80 if columns is None else columns

    def fileno(self) -> int:
        if not self.sized:
            raise io.UnsupportedOperation("fileno")  # as a file that is no terminal
        return super().fileno()  # NotImplementedError: no file, a size of its own

    def get_size(self) -> Size:
        return Size(rows=40, columns=self.columns)

    def write(self, data: str) -> None:
        self.parts.append(data)
        self._drawn.append(data)
        if self._printing:
            self._printed.append(data)

    def write_raw(self, data: str) -> None:
        self.write(data)

    def enable_autowrap(self) -> None:
        # Lines printed above the prompt start so (the prompt's redraw ends so, then moves).
        self._printing = True

    def _moved(self, *_: object) -> None:
        self._drawn.append("\n")
        self._printing = False
        self._printed.append("\n")

    cursor_up = cursor_down = cursor_forward = cursor_backward = cursor_goto = _moved
    erase_down = erase_end_of_line = erase_screen = disable_autowrap = _moved

    @property
    def rows(self) -> list[str]:
        """Each row the terminal was given to show, without trailing spaces: the text split
        at line ends and at the cursor's moves (the prompt redrawn, the toolbar)."""
        return _rows(self._drawn)

    @property
    def printed(self) -> list[str]:
        """The rows of the lines the game printed above the prompt (not the prompt's own
        redraws, typed text or toolbar), without trailing spaces."""
        return _rows(self._printed)

    @property
    def text(self) -> str:
        return "".join(self.parts)


def _rows(parts: list[str]) -> list[str]:
    rows = "".join(parts).replace("\r", "\n").split("\n")
    return [row.rstrip(" ") for row in rows if row.strip()]


Driver = Callable[[ClientState, PipeInput], Callable[[], None]]


def run_app(
    rules: RuleSet,
    driver: Driver,
    *,
    seed: int = 7,
    opener=None,
    plain: bool = False,
    output: RecordingOutput | None = None,
) -> tuple[int, str, ClientState]:
    """Run the app to its end; ``driver`` types into it whenever the state changes (on
    ``output``: by default one that takes the game's lines whole, as a file)."""
    output = output or RecordingOutput()
    states: list[ClientState] = []
    with create_pipe_input() as pipe:

        def on_state(state: ClientState) -> None:
            states.append(state)
            state.listeners.append(driver(state, pipe))

        def open_session():
            return open_local_session(rules, name="Ada", seed=seed, delay=0)

        app = ClientApp(
            opener or open_session,
            Display(color=False),
            plain=plain,
            input=pipe,
            output=output,
            on_state=on_state,
        )

        async def main() -> int:
            return await asyncio.wait_for(app.run(), HANG_GUARD)

        status = asyncio.run(main())
    return status, output.text, states[0] if states else None


def new_turn(state: ClientState, answered: set[tuple[int, int]]) -> SeatView | None:
    """The view when it is this seat's turn in the match and that turn is not in
    ``answered`` yet (then added to it); None otherwise."""
    view = state.view
    if view is None or not view.my_turn or state.match_over:
        return None
    key = (view.round_number, len(view.plays))
    if key in answered:
        return None
    answered.add(key)
    return view


def playing(first_line: str | None = None, rematch: tuple[str, ...] = ()) -> Driver:
    """Type the first legal play on each turn (after ``first_line`` on the first turn); at
    each "play again?" answer the next of ``rematch``, then "n"."""

    def driver(state: ClientState, pipe: PipeInput) -> Callable[[], None]:
        answered: set[tuple[int, int]] = set()
        answers = list(rematch)
        typed: list[bool] = [False]  # whether the question on screen is answered

        def on_change() -> None:
            if state.asking is not Asking.REMATCH:
                typed[0] = False
            elif not typed[0]:
                typed[0] = True
                answered.clear()  # a new match counts its rounds from 1 again
                pipe.send_text((answers.pop(0) if answers else "n") + "\r")
                return
            first = not answered
            view = new_turn(state, answered)
            if view is None:
                return
            if first and first_line is not None:
                pipe.send_text(first_line(view) if callable(first_line) else first_line)
            pipe.send_text(legal_plays(view)[0].text() + "\r")

        return on_change

    return driver


def leaving_in_round(round_no: int, answer: str = "y") -> Driver:
    """Type the first legal play on each turn until round ``round_no``; at its first turn,
    leave the table (``quit``, then ``answer``: ``leave`` where a kept seat asks leave, away
    or stay)."""

    def driver(state: ClientState, pipe: PipeInput) -> Callable[[], None]:
        answered: set[tuple[int, int]] = set()

        def on_change() -> None:
            view = new_turn(state, answered)
            if view is None:
                return
            if view.round_number >= round_no:
                pipe.send_text(f"quit\r{answer}\r")
            else:
                pipe.send_text(legal_plays(view)[0].text() + "\r")

        return on_change

    return driver
