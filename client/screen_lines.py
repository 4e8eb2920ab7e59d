"""What the controller prints, and when: lines kept back while a score sheet waits to be
read, the board, and cards, plays and records as this screen says them."""

from __future__ import annotations

import contextlib
from collections.abc import Collection, Iterator, Mapping, Sequence

from prompt_toolkit.formatted_text import FormattedText

from scopa_net.cards import Card
from scopa_net.client import render
from scopa_net.client.scoresheet import SHEET_WIDTH, plain_score_sheet, score_sheet
from scopa_net.client.style import Display, text_line
from scopa_net.match import match_winner
from scopa_net.plays import Play, PlayRecord
from scopa_net.view import SeatView

Lines = Sequence[FormattedText]

BOARD_ROWS = 10
"""Rows the board takes (with the prompt and the toolbar): a sheet needs this many more."""


class ScreenLines:
    """Part of :class:`~scopa_net.client.controller.Controller`: its output."""

    def _out(self, lines: Lines) -> None:
        if self._held is not None:
            self._held.extend(lines)
        else:
            self._print(lines)

    def _hold_after_sheet(self, sheet_rows: int, match_scores: tuple[int, ...]) -> None:
        """On a terminal too short to keep the sheet in sight while the next round starts (its
        board, the first plays, the board again at your turn), wait for Enter."""
        rows = self._screen()[1]
        view = self.state.view
        if self._plain or not rows or view is None:
            return
        if rows >= sheet_rows + 2 * BOARD_ROWS + view.rules.players + 2:
            return
        if match_winner(view.rules, match_scores) is not None:
            return  # the match is over: nothing comes after the sheet but the result
        self._say("Press Enter for the next round.", "class:notice")
        self._held = []
        self._board_due = False
        self.state.paused = True

    def _release(self) -> bool:
        """Show what was kept back, and the board once (not each board drawn meanwhile);
        True if the board was drawn."""
        held, self._held = self._held, None
        due, self._board_due = self._board_due, False
        self.state.paused = False
        if held:
            self._print(held)
        if held is not None and due:
            self.show_board()
            return True
        return False

    def leftover_lines(self, view: SeatView) -> Lines:
        """At a round's end: the cards left on the table, which the last capture takes, and
        whose they are (none when the table was empty)."""
        if not view.leftover:
            return []
        left = self._cards_said(view.leftover)
        takers = [r.seat for r in view.plays if r.play.captured]
        side = view.rules.side_of(takers[-1]) if takers else 0
        you = self._seat_called_you()
        whose = f" ({render.side_label(side, view, self.state.names, you=you)})"
        return [
            text_line(f"The last capture also takes the table: {left}{whose if takers else ''}.")
        ]

    def _cards_said(self, cards: Sequence[Card]) -> str:
        """Cards as this screen says them: ``Ab♣, 2s♠``, or in plain mode by name (``ace of
        clubs, 2 of swords``), as the plain board says them."""
        if self._plain:
            return render.words_of(cards, self.display)
        return ", ".join(render.card_text(c, self.display) for c in cards)

    def _play_said(self, play: Play) -> str:
        """A play as this screen says it: ``7d x 5s+2b``, or in plain mode ``7 of coins takes
        5 of swords, 2 of clubs`` (both typed back as they are)."""
        if self._plain:
            return render.play_said(play, self.display)
        return play.text(self.display.scheme)

    def _say(self, text: str, style: str = "") -> None:
        self._show([text_line(text, style)])

    def _error(self, text: str) -> None:
        self._say(text, "class:error")

    def _draw_board(self) -> None:
        """The board, as the game goes on: kept for later while a score sheet is being read."""
        if self._held is not None:
            self._board_due = True  # drawn once, when the player has read the sheet
        else:
            self.show_board()

    def show_board(self) -> None:
        """The board, now (the player asked: Ctrl-L, ``board``)."""
        if self._held is not None and not self._looking_back and self._release():
            return  # the board came with what was kept back
        view = self._view
        if view is None:
            self._say("No cards dealt yet.")
        else:
            # That a computer plays this seat this round is said once a round (on taking a
            # seat during one, or sat out for a missed deadline, the session said it).
            said = getattr(self.session, "sat_out_said", 0) == view.round_number
            told = view.new_seat or said or self._sat_out_told == view.round_number
            if view.sitting_out:
                self._sat_out_told = view.round_number
            names = self.state.names
            if self._plain:
                lines = render.plain_board(view, names, self.display, told=told)
                self._show([text_line(t) for t in lines])
            else:
                computer, makers = self._computer_plays(), self._play_makers()
                self._show(
                    render.board_lines(
                        view,
                        names,
                        self.display,
                        computer,
                        makers=makers,
                        told=told,
                        you=self._seat_called_you(),
                    )
                )
        sent = self.move_on_its_way
        if view is not None and sent is not None:
            self._say(f"Your move {sent.text(self.display.scheme)} is on its way.")

    @property
    def display(self) -> Display:
        return self.state.display

    @property
    def _view(self) -> SeatView | None:
        """The view a typed command shows: the round just ended's at "Press Enter for the
        next round." (the next one, dealt behind it, not seen yet)."""
        if self._looking_back and self._last_round is not None:
            return self._last_round[0]
        return self.state.view

    @contextlib.contextmanager
    def _at_the_pause(self) -> Iterator[None]:
        """Run a line typed at "Press Enter for the next round." on the round just ended,
        its answer printed now (the next round's lines wait for Enter)."""
        self._looking_back, self._show = True, self._print
        try:
            yield
        finally:
            self._looking_back, self._show = False, self._out

    def _computer_plays(self) -> Collection[int]:
        """The plays of the round in play (indexes in ``view.plays``) that a computer made
        for a person: away past their grace period, or sitting a blind round out."""
        if self._looking_back:
            return self._ended_marks[0]
        return getattr(self.session, "computer_plays", ())

    def _match_names(self) -> Sequence[str]:
        """Each seat as the line saying who won the match names it: everyone who held it
        (``Carla, then a computer``), where the session follows who held the seats."""
        held = getattr(self.session, "match_names", None)
        if held is None or len(held) != len(self.state.names):
            return self.state.names
        # (Each holder's name was cleaned as it came; joined, they may be wider than a name.)
        return tuple(n or shown for n, shown in zip(held, self.state.names, strict=True))

    def _play_makers(self) -> Mapping[int, str]:
        """Who made each play of the round in play (indexes in ``view.plays``), for a seat
        that changed hands during the round."""
        if self._looking_back:
            return self._ended_marks[1]
        return getattr(self.session, "play_makers", {})

    def record_line(self, view: SeatView, record: PlayRecord) -> FormattedText:
        """One play as this client prints it (in words with --plain): a computer's play for
        a person under their name and "(computer)"; this person's own, "You play"."""
        names, you = self.state.names, self._seat_called_you()
        computer, makers = self._computer_plays(), self._play_makers()
        if self._plain:
            words = render.play_words(
                record, view, names, self.display, computer, makers=makers, you=you
            )
            return text_line(words)
        return render.record_line(
            record, view, names, self.display, computer, makers=makers, you=you
        )

    def _sheet(self) -> list[FormattedText]:
        """The last round's score sheet, laid out for the terminal's width."""
        assert self._last_round is not None
        view, score, scores = self._last_round
        if self._plain:
            return [
                text_line(line) for line in plain_score_sheet(view, score, scores, self.state.names)
            ]
        width = self._screen()[0] or SHEET_WIDTH
        return score_sheet(view, score, scores, self.state.names, width)

    def _seat_called_you(self) -> int | None:
        """The seat ``who`` marks "(you)": this client's own."""
        return self.state.seat
