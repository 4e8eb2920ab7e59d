"""The bottom toolbar: round, whose turn, score, stock and the connection, in one line.

The line fits the terminal: on a narrow one it says less (short labels, the score as figures,
then no stock), never a cut-off word.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.formatted_text import FormattedText, StyleAndTextTuples

from scopa_net.client.controller import ClientState
from scopa_net.client.render import seat_label, side_label

WIDE = 10_000
"""The width assumed when the terminal's is not known: the fullest toolbar."""


def _turn(state: ClientState) -> str:
    view = state.view
    assert view is not None
    if state.match_over:
        return "match over"
    if state.paused:
        return "Enter: next round"
    if view.round_over or view.to_move is None:
        return "round over"
    if view.my_turn:
        return "move sent" if state.move_sent else "YOUR TURN"
    if view.sitting_out and view.to_move == view.seat:
        return "a computer plays for you"
    return f"{seat_label(view.to_move, view, state.names)} to play"


def _versions(state: ClientState) -> list[StyleAndTextTuples]:
    """The toolbar from the fullest to the shortest."""
    view = state.view
    conn_text = state.connection.value
    conn = ("class:toolbar.state", f" {conn_text} ")
    if view is None:
        return [[("", " waiting for the deal |"), conn], [("", " waiting |"), conn]]
    turn = ("class:toolbar.turn", _turn(state))
    names = [side_label(side, view, state.names) for side in range(len(state.scores))]
    named = "  ".join(f"{n} {p}" for n, p in zip(names, state.scores, strict=True))
    figures = "-".join(str(p) for p in state.scores)
    target = view.rules.target
    stock = f"stock {view.stock_count}"
    return [
        [
            ("", f" Round {view.round_number} | "),
            turn,
            ("", f" | {named} (to {target}) | {stock} |"),
            conn,
        ],
        [("", f" R{view.round_number} | "), turn, ("", f" | {named} /{target} | {stock} |"), conn],
        [
            ("", f" R{view.round_number} | "),
            turn,
            ("", f" | score {figures} /{target} | {stock} |"),
            conn,
        ],
        [("", f" R{view.round_number} | "), turn, ("", f" | {figures} /{target} |"), conn],
        [("", " "), turn, ("", f" | {figures} |"), conn],
        [("", " "), turn, ("", " ")],
    ]


def toolbar_text(state: ClientState, width: int = WIDE) -> FormattedText:
    """The toolbar for ``state`` in at most ``width`` columns (style names only, so it
    follows the style sheet)."""
    versions = _versions(state)
    for version in versions:
        if sum(len(text) for _, text, *_ in version) < width:  # the last column stays free
            return FormattedText(version)
    return FormattedText(versions[-1])


def make_toolbar(state: ClientState) -> Callable[[], FormattedText]:
    """A toolbar callable for ``PromptSession(bottom_toolbar=...)``, read at each redraw."""
    from prompt_toolkit.application.current import get_app

    def toolbar() -> FormattedText:
        try:
            width = get_app().output.get_size().columns
        except Exception:  # no terminal size to be had (a pipe): the fullest toolbar
            width = WIDE
        return toolbar_text(state, width)

    return toolbar
