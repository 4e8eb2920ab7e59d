"""What each event from the session does to the state the prompt reads and to the
screen: views, rounds, the match's end, chat and table news, the connection."""

from __future__ import annotations

from prompt_toolkit.formatted_text import FormattedText

from scopa_net.cards import Rank
from scopa_net.client import render
from scopa_net.client.asking import Asking
from scopa_net.client.scoresheet import match_summary
from scopa_net.client.session import (
    CaughtUp,
    ConnectionChanged,
    ConnectionState,
    Event,
    MatchOver,
    MatchStarted,
    Message,
    MoveQueued,
    RematchClosed,
    RoundOver,
    RoundStarted,
    ViewChanged,
    VoidDeal,
)
from scopa_net.client.style import text_line
from scopa_net.names import clean_chat, clean_name
from scopa_net.view import SeatView


class SessionEvents:
    """Part of :class:`~scopa_net.client.controller.Controller`: the session's events."""

    def handle_event(self, event: Event) -> None:
        """Update the state from one session event and print what the player should see."""
        state = self.state
        state.names = tuple(clean_name(n) or f"seat {i}" for i, n in enumerate(self.session.names))
        state.players_awaited = getattr(self.session, "players_awaited", 0)
        state.awaited_away = getattr(self.session, "awaited_away", None)
        match event:
            case ViewChanged(view=view, record=record, sat_down=sat_down):
                first = state.view is None
                state.view = view
                state.scores = view.scores
                self._forget_choices()
                if record is not None:
                    self._show([self.record_line(view, record)])
                said = (view.round_number, len(view.plays)) == self._turn_said_back
                self._turn_said_back = None
                # A seat a computer plays this round (9.7) sees the board when its turn
                # comes, as everyone does, and on taking the seat; so does any seat taken.
                sat_out_turn = view.sitting_out and (first or view.to_move == view.seat)
                if sat_down:  # the table as it stands, sent instead of the events missed
                    self._left_at = None  # (drawn now, as after sitting down)
                    self._tell_partners(view)  # a seat taken mid-match: who plays with whom
                if self._left_at is not None:
                    pass  # a table gone by, sent again: the board as it is comes once caught up
                elif said and record is None and not sat_down:
                    pass  # the table as it was when "Your turn." was said, just now
                elif view.my_turn or ((sat_out_turn or sat_down) and not view.round_over):
                    self._draw_board()
            case RoundStarted(view=view):
                if state.match_over:  # a rematch: a new match has begun
                    self._new_match(view.scores)
                state.view = view
                state.scores = view.scores
                self._forget_choices()
                self._tell_partners(view)
                if self._left_at is None:
                    self._draw_board()
                else:  # missed while the link was gone: the board as it is comes once caught up
                    self._round_missed = True
                    dealer = render.dealer_label(view, state.names, self._seat_called_you())
                    self._say(f"{render.round_title(view)} began, dealt by {dealer}.")
            case VoidDeal(view=view):
                state.view = view
                kings = [c for c in view.table if c.rank is Rank.KING]
                count = {3: "three", 4: "four"}.get(len(kings), str(len(kings)))
                listed = self._cards_said(kings)
                self._say(
                    f"Void deal: {count} kings on the table ({listed}). Dealing again.",
                    "class:notice",
                )
            case RoundOver(view=view, score=score, match_scores=scores):
                state.view = view
                state.scores = scores
                self._forget_choices()
                self._show(self.leftover_lines(view))
                self._last_round = (view, score, tuple(scores))
                computer, makers = self._computer_plays(), self._play_makers()
                self._ended_marks = (frozenset(computer), dict(makers))
                sheet = self._sheet()
                self._show(sheet)
                self._hold_after_sheet(len(sheet), tuple(scores))
            case MatchOver(
                winner=winner,
                match_scores=scores,
                rounds=rounds,
                voids=voids,
                vote_over=vote_over,
            ):
                self._release()
                self._left_at = None  # the match's end said where it stands
                state.match_over = True
                state.scores = scores
                assert state.view is not None
                summary = match_summary(
                    state.view, winner, scores, rounds, self._match_names(), voids=voids
                )
                played = getattr(self.session, "computer_played", "")
                if played:  # a result is never credited to someone absent without saying so
                    summary = FormattedText([*summary, ("", f" {played[0].upper()}{played[1:]}.")])
                self._show([summary])
                if getattr(self.session, "offer_rematch", False) and not vote_over:
                    state.asking = Asking.REMATCH
                    seconds = getattr(self.session, "rematch_seconds", None)
                    limit = f" Answer within {seconds} s: the table closes then." if seconds else ""
                    self._say(f"Play again with the same players?{limit}")
            case MatchStarted(match_scores=scores):
                self._new_match(scores)
            case RematchClosed():
                # The line above said why ("no rematch (...): the table is closing"): the
                # question ends with it, and a late answer is not taken for one.
                if state.asking is Asking.REMATCH:
                    state.asking = Asking.NOTHING
                self._rematch_closed = True
            case Message(seat=seat, text=text, local=local, table=table):
                # Chat is "<name> text" on one line: it can never look like a notice.
                if local:  # this client's own words (its deal check), not the host's
                    self._print([text_line(clean_chat(text), "class:notice")])  # with the sheet
                elif self._leaving and (table or seat is not None):
                    pass  # left: the table's news and chat come after the person's last line
                elif table:  # what happened at the table (names in it come from players)
                    self._say(f"{self._news_lead}{clean_chat(text)}", "class:notice")
                elif seat is None:
                    self._say(f"Host: {clean_chat(text)}", "class:notice")
                else:
                    who = state.names[seat] if seat < len(state.names) else f"seat {seat}"
                    self._say(self._chat_line(who, clean_chat(text)), "class:chat")
            case MoveQueued(queued=queued):
                state.move_queued = queued
            case ConnectionChanged(state=conn, detail=detail):
                back = conn is ConnectionState.CONNECTED and (
                    state.connection is ConnectionState.RECONNECTING
                )
                state.connection = conn
                self._links += 1  # a move on its way went again: its silence counts anew
                state.unanswered_for = 0
                # Once the person chose to leave, the line that said so is the last word.
                if not (conn is ConnectionState.CLOSED and self._leaving):
                    said = f"Connection: {conn.value}{f' ({detail})' if detail else ''}."
                    self._say(said, "class:notice")
                if back and state.view is not None:
                    view = state.view
                    self._left_at = (view.round_number, len(view.plays), view.round_over)
                    self._round_missed = False
                elif conn is not ConnectionState.CONNECTED:
                    self._left_at = None
            case CaughtUp():
                left_at, self._left_at = self._left_at, None
                if left_at is not None:
                    self._back_at_the_table(left_at)
        state.changed()

    def _back_at_the_table(self, left_at: tuple[int, int, bool]) -> None:
        """Caught up after a lost connection: the board as it is now where the catch-up kept
        one back (it is this person's turn, or a round began meanwhile; what was missed was
        told above it, play by play), else only "Your turn." when it is this person's turn
        on the table they left (the toolbar alone said it)."""
        view = self.state.view
        if view is None:
            return
        if (view.round_number, len(view.plays), view.round_over) == left_at:
            self._say_turn_back()
        elif view.round_over or self.state.match_over:
            return
        elif view.my_turn or self._round_missed:
            self._draw_board()
            self._turn_said_back = (view.round_number, len(view.plays))

    def _say_turn_back(self) -> None:
        """Back at the table at this person's turn (the host restarted, the link came back):
        "Your turn." once, as after every event that makes it their turn; the toolbar alone
        said it. Not for a move on its way (it goes again), nor behind a score sheet."""
        view = self.state.view
        if view is None or not view.my_turn or view.round_over or view.sitting_out:
            return
        if self.state.match_over or self._held is not None or self.move_on_its_way is not None:
            return
        self._say(render.turn_text(view, self.state.names), "class:turn")
        self._turn_said_back = (view.round_number, len(view.plays))

    @property
    def _news_lead(self) -> str:
        """What begins a line of table news: ``Table:`` on the screen, ``News:`` in plain
        mode, where ``Table:`` begins the board's cards on the table."""
        return "News: " if self._plain else "Table: "

    def _chat_line(self, who: str, text: str) -> str:
        """A chat line: ``<Ada> ciao``, or in plain mode ``Ada says: ciao`` (a screen reader
        reads the brackets out as "less than", "greater than")."""
        return f"{who} says: {text}" if self._plain else f"<{who}> {text}"

    def _new_match(self, scores: tuple[int, ...]) -> None:
        """A rematch begins: no question about the last one, and none of its sheets."""
        state = self.state
        self._rematch_closed = False
        state.match_over = False
        state.asking = Asking.NOTHING
        state.scores = scores
        self._last_round = None
        self._partners_told = False
        self._sat_out_told = 0

    def _tell_partners(self, view: SeatView) -> None:
        """At the first board of a match at a table of partners: who plays with whom."""
        if self._partners_told:
            return
        self._partners_told = True
        line = render.partners_line(view, self.state.names, self._seat_called_you())
        if line:
            self._say(line)
