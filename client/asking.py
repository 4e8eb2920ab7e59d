"""The questions the client asks at its prompt: what the next line answers, the prompt
while one waits, and what to type when Enter alone answers it."""

from __future__ import annotations

import enum


class Asking(enum.Enum):
    """What the next line answers, besides being a command."""

    NOTHING = "nothing"
    WHICH_GROUP = "which group"
    CONFIRM_QUIT = "confirm quit"
    LEAVE_OR_AWAY = "leave or step away"
    REMATCH = "rematch"
    CONFIRM_PLAY = "confirm play"


CTRL_D_DROPS = frozenset({Asking.WHICH_GROUP, Asking.CONFIRM_PLAY, Asking.CONFIRM_QUIT})
"""The questions Ctrl-D drops as Ctrl-C does (a choice, "play it anyway?", "Really leave?"):
the person stays at the table, wherever the match is played."""


def answer_prompt(asking: Asking, choices: int = 0) -> str | None:
    """The prompt while a question waits, or None when none does. The question itself is the
    line above the prompt, said once; the prompt names only the answers it takes."""
    match asking:
        case Asking.WHICH_GROUP:
            return f"1-{choices}? "
        case Asking.LEAVE_OR_AWAY:
            return "leave, away or stay? "
        case Asking.CONFIRM_QUIT | Asking.CONFIRM_PLAY | Asking.REMATCH:
            return "y/n? "
    return None


def what_to_answer(asking: Asking, choices: int = 0) -> str:
    """What a question takes, said when Enter alone answers it (it takes no default)."""
    match asking:
        case Asking.WHICH_GROUP:
            return (
                f"Type a number from 1 to {choices}, or the card with its group; Ctrl-C drops "
                "the choice."
            )
        case Asking.LEAVE_OR_AWAY:
            return "Type leave, away, or stay."
        case Asking.CONFIRM_QUIT:
            return "Type y to leave, or n to stay."
        case Asking.CONFIRM_PLAY:
            return "Type y to play it, or n to choose again."
        case Asking.REMATCH:
            return "Type y to play again, or n not to."
    return ""
