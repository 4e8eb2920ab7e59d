"""Key bindings of the prompt."""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.application.current import get_app
from prompt_toolkit.filters import Condition, is_searching
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.search import stop_search

from scopa_net.client.job_control import can_suspend


def make_key_bindings(
    show_board: Callable[[], None] | None = None,
    interrupt: Callable[[bool], None] | None = None,
    suspend: Callable[[], None] | None = None,
) -> KeyBindings:
    """Ctrl-C clears the line (and leaves a history search, and drops a question being
    asked, through ``interrupt``, told whether the line was empty: then there was nothing to
    clear), Ctrl-D on an empty line leaves, Ctrl-L shows the board, Ctrl-Z stops the client
    as a shell job (through ``suspend``, or prompt-toolkit's own), and is never typed.

    The client never turns the terminal's mouse reports on, so what prompt-toolkit reads as one
    was typed or pasted (``ESC[31m`` looks like a mouse report to it, and its own handler then
    fails with a traceback on screen): it goes into the line as it came, and the line, holding a
    control character, is refused in one line when Enter is pressed."""
    kb = KeyBindings()

    @kb.add(Keys.Vt100MouseEvent)
    def _pasted(event: KeyPressEvent) -> None:
        """Text that merely looks like a mouse report: typed into the line as it came."""
        event.current_buffer.insert_text(event.data)

    @kb.add("c-z")
    def _suspend(event: KeyPressEvent) -> None:
        """Back to the shell, and fg brings the game back (no job control: nothing)."""
        if not can_suspend():
            return
        if suspend is not None:
            suspend()
        else:
            event.app.suspend_to_background(suspend_group=False)

    @kb.add("c-c")
    def _clear(event: KeyPressEvent) -> None:
        """Clear the line being typed (it never interrupts the game)."""
        empty = not event.app.current_buffer.text and not is_searching()
        if is_searching():
            # Leave Ctrl-R search without taking what it found: what is typed next runs.
            stop_search()
        event.app.current_buffer.reset()
        if interrupt is not None:
            interrupt(empty)

    @Condition
    def _line_empty() -> bool:
        return not get_app().current_buffer.text

    @kb.add("c-d", filter=_line_empty)
    def _leave(event: KeyPressEvent) -> None:
        """Leave the table (end of input)."""
        event.app.exit(exception=EOFError)

    if show_board is not None:

        @kb.add("c-l")
        def _board(event: KeyPressEvent) -> None:
            """Show the table, the hand and the score again."""
            show_board()

    return kb
