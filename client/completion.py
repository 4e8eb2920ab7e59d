"""Tab completion that offers only what can be typed usefully now.

On the player's turn: the cards in hand (each legal play's card), and, for a card that can
take more than one group, each full play (``7d x 5s+2b``). While a choice is pending: its
numbers. Always: the command names; after ``rules``, what it explains. Matching is by prefix,
ignoring case.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from scopa_net.client import rulebook
from scopa_net.client.asking import Asking
from scopa_net.client.client_state import ClientState
from scopa_net.client.commands import COMMANDS
from scopa_net.client.moves import legal_plays
from scopa_net.notation import card_name, format_card
from scopa_net.plays import Play
from scopa_net.view import SeatView


class PlayCompleter(Completer):
    """Completions from the live :class:`ClientState` (read at each keystroke)."""

    def __init__(self, state: ClientState) -> None:
        self.state = state
        self._cached: tuple[SeatView | None, list[Play]] = (None, [])

    def _legal(self) -> list[Play]:
        view = self.state.view
        if view is None or not view.my_turn:
            return []
        if self._cached[0] is not view:
            self._cached = (view, legal_plays(view))
        return self._cached[1]

    def candidates(self) -> Iterator[tuple[str, str]]:
        """(text to insert, short description) for everything that may be typed now."""
        scheme = self.state.display.scheme
        if self.state.asking is Asking.WHICH_GROUP:
            for i, play in enumerate(self.state.choices, 1):
                yield str(i), play.text(scheme)
        plays = self._legal()
        by_card: dict[int, list[Play]] = {}
        for play in plays:
            by_card.setdefault(play.card.index, []).append(play)
        for group in by_card.values():
            card = group[0].card
            only = group[0].text(scheme) if len(group) == 1 else f"{len(group)} ways to take"
            yield format_card(card, scheme), f"{card_name(card, scheme)}: {only}"
            if len(group) > 1:
                for play in group:
                    yield play.text(scheme), card_name(card, scheme)
        yield from COMMANDS.items()

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        typed = document.text_before_cursor.lstrip()
        prefix = typed.lower()
        seen: set[str] = set()
        candidates = self.candidates()
        if prefix.startswith("rules "):
            candidates = ((f"rules {t}", "rules") for t in rulebook.topics())
        for text, meta in candidates:
            if text in seen or not text.lower().startswith(prefix):
                continue
            seen.add(text)
            yield Completion(text, start_position=-len(typed), display_meta=meta)
