"""The bottom toolbar: round, whose turn, score, stock and the connection, in one line."""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.formatted_text import FormattedText

from scopa_net.client.controller import ClientState
from scopa_net.client.render import seat_label, side_label


def toolbar_text(state: ClientState) -> FormattedText:
    """The toolbar for ``state``: style names only, so it follows the style sheet."""
    view = state.view
    conn = ("class:toolbar.state", f" {state.connection.value} ")
    if view is None:
        return FormattedText([("", " waiting for the deal |"), conn])
    if state.match_over:
        turn = "match over"
    elif view.round_over or view.to_move is None:
        turn = "round over"
    elif view.my_turn:
        turn = "YOUR TURN"
    else:
        turn = f"{seat_label(view.to_move, view, state.names)} to play"
    score = "  ".join(
        f"{side_label(side, view, state.names)} {points}"
        for side, points in enumerate(state.scores)
    )
    return FormattedText(
        [
            ("", f" Round {view.round_number} | "),
            ("class:toolbar.turn", turn),
            ("", f" | {score} (to {view.rules.target}) | stock {view.stock_count} |"),
            conn,
        ]
    )


def make_toolbar(state: ClientState) -> Callable[[], FormattedText]:
    """A toolbar callable for ``PromptSession(bottom_toolbar=...)``, read at each redraw."""
    return lambda: toolbar_text(state)
