"""Lines typed at a prompt that the game has not handled yet (the network client's screen and
pass and play's): while one is on its way, a question's prompt ("y/n? ") is not drawn again,
as the line may answer it (a dumb terminal, or a screen reader, would get "y/n? " once more
under the answer, then "No rematch.")."""

from __future__ import annotations

from prompt_toolkit import PromptSession


class TypedLines:
    """How many lines typed are on their way to the game."""

    def __init__(self) -> None:
        self._count = 0

    @property
    def waiting(self) -> bool:
        """Whether a line typed has not been handled yet."""
        return self._count > 0

    def sent(self) -> None:
        """A line typed is handed to the game."""
        self._count += 1

    def handled(self, prompt: PromptSession[str] | None) -> None:
        """A line typed is handled (or dropped): ``prompt`` says again what is asked."""
        self._count = max(0, self._count - 1)
        if prompt is not None:
            prompt.app.invalidate()
