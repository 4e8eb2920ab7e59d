"""What the client does with a typed line and with each event from the session.

The controller runs on the trio side. It keeps the :class:`ClientState` the prompt reads
(current view, choices waiting for an answer, connection state), turns events into lines of
text, and turns typed lines into plays and commands. It prints through a callback and never
touches the terminal itself, so it can be tested without one.
"""

from __future__ import annotations

import contextlib
import enum
import functools
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import trio
from prompt_toolkit.formatted_text import FormattedText

from scopa_net.cards import CARDS, RE_BELLO, SETTEBELLO, Card, Rank, Suit, card
from scopa_net.client import deal_words, hints, render, rulebook
from scopa_net.client.commands import (
    COMMANDS,
    Choose,
    CommandError,
    PlayCard,
    Rename,
    Rules,
    Say,
    Simple,
    parse_command,
)
from scopa_net.client.config import COMPUTER_NAME_REFUSED
from scopa_net.client.files import shown_path
from scopa_net.client.moves import resolve_play
from scopa_net.client.scoresheet import (
    SHEET_WIDTH,
    match_summary,
    plain_score_sheet,
    primiera_cards,
    score_sheet,
    to_the_target,
)
from scopa_net.client.session import (
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
    Session,
    SessionEndedError,
    ViewChanged,
    VoidDeal,
)
from scopa_net.client.style import Display
from scopa_net.errors import AmbiguousPlayError, IllegalPlayError, IllegalReason
from scopa_net.match import match_winner
from scopa_net.names import clean_chat, clean_name, name_too_long, reads_as_computer
from scopa_net.notation import card_name, format_card
from scopa_net.plays import Play, PlayRecord
from scopa_net.score_line import after_name
from scopa_net.scoring import RoundScore
from scopa_net.typed import shown, small_number
from scopa_net.view import SeatView

Lines = Sequence[FormattedText]

BOARD_ROWS = 10
"""Rows the board takes (with the prompt and the toolbar): a sheet needs this many more."""


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


LEAVE_QUESTION = (
    "Leave for good (a computer player takes your seat) or step away (your seat is kept "
    "for you, a computer playing it at once until {again} takes it back)? Type leave, away, "
    "or stay."
)
ALONE_AT_A_BLIND_TABLE_LEAVE_QUESTION = (
    "Leave for good (a computer player takes your seat) or step away (your seat is kept "
    "for you; nobody else plays at this blind table, so it waits for you, no card played, "
    "until {again} takes it back)? Type leave, away, or stay."
)
"""The question where stepping away stops the table: no computer can deal a blind round
(protocol.md 9.1), and no other person plays there."""
OWN_HOST_LEAVE_QUESTION = (
    "Leave for good (a computer player takes your seat) or step away (your seat is kept "
    "for you; {again} takes it back)? Type leave, away, or stay."
)
UNREACHABLE_LEAVE_QUESTION = (
    "The host cannot be reached just now, so whatever you choose it keeps your seat (a "
    "computer plays it once its grace period ends) until {again} takes it back. Leave for good "
    "or step away? Type leave, away, or stay (to keep trying)."
)
"""The question while the client is reconnecting: nothing can reach the host, so neither
answer gives the seat up there, nor puts a computer in it at once."""
UNREACHABLE_GOING = (
    "The host cannot be reached, so it cannot be told that you are {going}: it keeps your "
    "seat (a computer plays it once its grace period ends). {again} takes it back, or with "
    "--no-resume sits down anew; if the host moved, give its new address instead (your seat "
    "goes with the host's key)."
)
"""What leaving or stepping away says while the client is reconnecting: the address it
names is the one it was trying, which a host that moved no longer answers at."""
UNREACHABLE_BEFORE_THE_MATCH = (
    "The host cannot be reached, so it cannot be told that you are stepping away: it keeps "
    "your seat at table {table}, whose match has not begun (if it begins before you are back, "
    "a computer plays for you once your grace period ends). {again} takes it back, or with "
    "--no-resume sits down anew; if the host moved, give its new address instead (your seat "
    "goes with the host's key)."
)
""":data:`UNREACHABLE_GOING` at a table still waiting for players: nothing is played there
until the match begins (protocol.md 3.3: the seat waits out its grace period, then a
computer plays it once there is something to play)."""
OWNER_LEAVE_QUESTION = (
    "Leave for good (this table closes: its host runs in this terminal, so your friends' "
    "match stops too) or step away (the table and your seat are kept; {again} opens them "
    "again)? Type leave, away, or stay."
)
GOING_VOIDS_ROUND = (
    "At this blind table, leaving or stepping away now ends this round for everyone: it is "
    "void, because its cards cannot be played without you, and it is dealt again."
)
NOT_PLAYED = "Not played; choose again ('hint' suggests a play)."
ROUND_IS_OVER = "The round is over: press Enter for the next round."
"""A play (or a word that is none) typed at "Press Enter for the next round.": not played."""
SHEET_NOT_KNOWN = (
    "The last round's sheet is not known after taking the seat back (the host sends only "
    "the board); the match score is below."
)
"""``score`` in a round after one scored before this client took the seat back."""
HOW_TO_LEAVE = "Ctrl-C clears the line; to leave, type quit or press Ctrl-D."
TOO_LATE_TO_ANSWER = (
    "Too late: the vote on playing again is over and the table is closing; that answer was "
    "not sent."
)
SLOW_ANSWER = 1.0
"""Seconds a move waits for the host's answer before the screen says that it is waiting."""
NO_ANSWER_SHOWN = 5.0
"""Seconds a move sent on a live connection waits for its answer before the toolbar counts
them ("no answer from the host for 8 s"): a stall the connection does not notice yet."""


@dataclass(slots=True)
class ClientState:
    """What the prompt, the completer and the toolbar read. Written by the controller only."""

    seat: int
    names: tuple[str, ...]
    display: Display
    view: SeatView | None = None
    connection: ConnectionState = ConnectionState.LOCAL
    asking: Asking = Asking.NOTHING
    choices: tuple[Play, ...] = ()
    match_over: bool = False
    scores: tuple[int, ...] = ()
    """The match score by side, counting every round scored so far."""
    paused: bool = False
    """A score sheet is waiting to be read: the next round shows after Enter."""
    sent_from: SeatView | None = None
    """The view this seat's last move was played from, until the host answers it."""
    move_queued: bool = False
    """That move waits for the connection to the host to come back (not yet sent)."""
    unanswered_for: int = 0
    """Whole seconds that move has waited on a live connection for the host's answer, once
    past ``NO_ANSWER_SHOWN`` (0 before, and once answered): the toolbar says it."""
    players_awaited: int = 0
    """The players a host's table still waits for before its first deal (0 when none, or
    not known): the toolbar says it, as the line said when this person sat down."""
    listeners: list[Callable[[], None]] = field(default_factory=list)

    def changed(self) -> None:
        for listener in list(self.listeners):
            listener()

    @property
    def in_match(self) -> bool:
        return self.view is not None and not self.match_over

    @property
    def move_sent(self) -> bool:
        """A move is on its way to the host: no view since the one it was played from."""
        return self.sent_from is not None and self.view is self.sent_from


def _seat_label(seat: int, name: str, *, you: bool) -> tuple[str, str]:
    """``who``'s words for a seat and what follows its name: ``Seat 0``, `` (you)``; for a
    name that ends in brackets already (one the host numbered: ``Fabio (2)``), ``Seat 2
    (you)`` and nothing after it, so that "(you)" never reads as a second number."""
    if not you:
        return f"Seat {seat}", ""
    if name.endswith(")"):
        return f"Seat {seat} (you)", ""
    return f"Seat {seat}", " (you)"


def _partner(names: Sequence[str], notes: Sequence[str], seat: int) -> str:
    """A partner as ``who`` names them: their name, or "an open seat" when nobody sits
    there (its name is only "seat 1")."""
    note = notes[seat] if seat < len(notes) else ""
    if note.startswith("open seat") or seat >= len(names):
        return "an open seat"
    return names[seat]


def _text(text: str, style: str = "") -> FormattedText:
    return FormattedText([(style, text)])


class Controller:
    """Lines in, events in; text out through ``show`` and a quit request through ``quit``."""

    QUIT_QUESTION = "The match is not over. Really leave?"
    """Asked before leaving a match that cannot be stepped away from."""
    LEAVING = "Leaving the table."
    """Said when the answer to :attr:`QUIT_QUESTION` is yes."""

    def __init__(
        self,
        session: Session,
        display: Display,
        show: Callable[[Lines], None],
        quit: Callable[[], None],
        *,
        plain: bool = False,
        screen: Callable[[], tuple[int, int]] | None = None,
        coach: bool = False,
        prompt: bool = True,
    ) -> None:
        """``screen`` gives the terminal's (columns, rows), 0 when not known: the score sheet
        is laid out for the width, and on a short terminal it waits for Enter before the
        next round's board pushes it off the screen. ``prompt``: lines are typed at the
        prompt, with Tab completion (False: lines read plain, as with --plain)."""
        self.session = session
        self.coach = coach
        self._coached: Play | None = None
        self._told_how_to_leave = False  # Ctrl-C on an empty line said how to leave
        self._rematch_closed = False
        """The vote on playing again ended without one: a y or n typed now is too late."""
        self.state = ClientState(seat=session.seat, names=session.names, display=display)
        self.state.view = session.view
        if session.view is not None:
            self.state.scores = session.view.scores_now  # a round just over counted (3.9)
        self.state.connection = session.connection
        self._print = show
        self._show = self._out
        self._quit = quit
        self._leaving = False
        """The person chose to leave (or step away) and was told what becomes of the seat:
        the connection closing then is what they asked for, not news to say."""
        self._plain = plain
        self._prompt = prompt
        self._screen = screen or (lambda: (0, 0))
        self._held: list[FormattedText] | None = None
        """Lines kept back while a score sheet waits to be read (a short terminal)."""
        self._board_due = False
        self._last_round: tuple[SeatView, RoundScore, tuple[int, ...]] | None = None
        self._partners_told = False
        """Who plays with whom was said for the match in play (once a match)."""
        self._sat_out_told = 0
        """The round whose board said that a computer plays this seat (once a round)."""
        self._turn_said_back: tuple[int, int] | None = None
        """The turn (round, plays made) said as the connection came back: the same table
        sent again (a snapshot) draws no board to say it twice."""
        self._ended_marks: tuple[Collection[int], Mapping[int, str]] = ((), {})
        """The last round's computer plays and play makers (see :meth:`_computer_plays`), as
        they were at its end: the next round's start forgets them in the session."""
        self._looking_back = False
        """A command typed at "Press Enter for the next round." runs now: on the round just
        ended, its words printed at once (not kept back with the next round's)."""
        self.log: list[str] = []
        self._moves: trio.Nursery | None = None
        self._on_its_way: Play | None = None
        self._said_sent: Play | None = None
        self._links = 0
        """Connection changes seen: a move's silence is counted from the last one."""
        """The move "Sent ...; waiting for the host" was said for (once a move)."""
        """The move sent whose answer has not come back yet (``state.sent_from`` is the view
        it was played from: once another is shown, the move was answered)."""

    def send_moves_from(self, nursery: trio.Nursery) -> None:
        """Send each move from ``nursery`` rather than within its typed line: the lines typed
        after it (``board``, ``hint``, ``help``...) are answered while the host's answer is
        on its way, and another move meanwhile is refused at once."""
        self._moves = nursery

    @property
    def move_on_its_way(self) -> Play | None:
        """The move sent whose answer the host has not sent back yet, if any (once the
        screen shows the play, or any other view, it has come back)."""
        return self._on_its_way if self.state.move_sent else None

    # --- output -------------------------------------------------------------------------------

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
        return [_text(f"The last capture also takes the table: {left}{whose if takers else ''}.")]

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
        self._show([_text(text, style)])

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
            # seat during one, the session said it).
            told = view.new_seat or self._sat_out_told == view.round_number
            if view.sitting_out:
                self._sat_out_told = view.round_number
            names = self.state.names
            if self._plain:
                lines = render.plain_board(view, names, self.display, told=told)
                self._show([_text(t) for t in lines])
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
            return _text(words)
        return render.record_line(
            record, view, names, self.display, computer, makers=makers, you=you
        )

    # --- events -------------------------------------------------------------------------------

    def handle_event(self, event: Event) -> None:
        """Update the state from one session event and print what the player should see."""
        state = self.state
        state.names = tuple(clean_name(n) or f"seat {i}" for i, n in enumerate(self.session.names))
        state.players_awaited = getattr(self.session, "players_awaited", 0)
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
                if said and record is None and not sat_down:
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
                self._draw_board()
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
                    self._print([_text(clean_chat(text), "class:notice")])  # with the sheet
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
                if back:
                    self._say_turn_back()
        state.changed()

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

    def interrupt(self, *, empty_line: bool = False) -> None:
        """Ctrl-C: drop the question being asked (which group, leave or stay, play it anyway);
        on an empty line with no question, say once how to leave (Ctrl-C only clears)."""
        state = self.state
        if state.asking is Asking.WHICH_GROUP:
            self._forget_choices()
            self._say("Choice dropped: type a card to play.")
        elif state.asking in (Asking.CONFIRM_QUIT, Asking.LEAVE_OR_AWAY):
            state.asking = Asking.NOTHING
            self._say("Staying at the table.")
        elif state.asking is Asking.CONFIRM_PLAY:
            self._coached = None
            state.asking = Asking.NOTHING
            self._say(NOT_PLAYED)
        elif empty_line and not self._told_how_to_leave:
            self._told_how_to_leave = True
            self._say(HOW_TO_LEAVE)
        else:
            return
        state.changed()

    def _forget_choices(self) -> None:
        if self.state.asking is Asking.WHICH_GROUP:
            self.state.asking = Asking.NOTHING
        self.state.choices = ()

    # --- typed lines --------------------------------------------------------------------------

    async def handle_line(self, line: str) -> None:
        """Act on one typed line. Refusals print why and change nothing."""
        state = self.state
        self._told_how_to_leave = False  # a line typed: the next empty Ctrl-C says it again
        if self._held is not None:
            if not line.strip():
                self._release()  # Enter after a score sheet: on to the next round
            else:
                with self._at_the_pause():
                    await self._typed_at_pause(line)
            state.changed()
            return
        await self._typed(line)

    def _say_unfinished(self) -> None:
        """On leaving mid-match: where the match so far is saved, as a match's end tells."""
        for line in unfinished_lines(self.session):
            self._say(line)

    async def _typed(self, line: str) -> None:
        """Act on one typed line, the game under way."""
        state = self.state
        if not line.strip():
            if state.asking is not Asking.NOTHING:
                self._say(what_to_answer(state.asking, len(state.choices)))
            return
        if state.asking is Asking.LEAVE_OR_AWAY:
            await self._answer_leave(line)
            state.changed()
            return
        if state.asking is Asking.CONFIRM_PLAY:
            await self._confirm_play(line)
            state.changed()
            return
        if state.asking is Asking.CONFIRM_QUIT:
            state.asking = Asking.NOTHING
            if line.strip().lower() in {"y", "yes"}:
                self._leaving = True
                self._say(self.LEAVING)
                self._say_unfinished()
                self._quit()
            else:
                self._say("Staying at the table.")
            state.changed()
            return
        if self._rematch_closed and line.strip().lower() in {"y", "yes", "n", "no"}:
            self._say(TOO_LATE_TO_ANSWER)
            return
        if state.asking is Asking.REMATCH and line.strip().lower() in {"y", "yes", "n", "no"}:
            state.asking = Asking.NOTHING
            agree = line.strip().lower() in {"y", "yes"}
            await self.session.rematch(agree)  # type: ignore[attr-defined]
            self._say("Waiting for the others to answer." if agree else "No rematch.")
            state.changed()
            return
        if await self._bare_rank(line.strip()):
            state.changed()
            return
        try:
            command = parse_command(line, self.display.scheme)
        except CommandError as exc:
            if state.asking is Asking.REMATCH:  # not a card: an answer to the question
                self._error(f"Answer y or n. {what_to_answer(Asking.REMATCH)}")
            elif state.asking is Asking.WHICH_GROUP:  # the question waits: say what it takes
                wants = what_to_answer(Asking.WHICH_GROUP, len(state.choices))
                self._error(f"{shown(line.strip())} is not one of the choices. {wants}")
            else:
                self._error(str(exc))
            return
        if state.asking is Asking.REMATCH and isinstance(command, PlayCard | Choose):
            self._error("The match is over: answer y or n (play again with the same players?).")
            return
        match command:
            case Choose(number=number):
                await self._choose(number)
            case PlayCard(card=card, group=group):
                await self._play(Play(card, group or ()), group is None)
            case Say(text=text):
                await self.session.say(text)
            case Rename(name=name):
                await self._rename(name)
            case Simple(name="quit") if state.asking is Asking.REMATCH:
                # Leaving is a no: the others are not kept waiting for an answer.
                state.asking = Asking.NOTHING
                self._leaving = True
                await self.session.rematch(False)  # type: ignore[attr-defined]
                self._say("No rematch; leaving the table.")
                self._quit()
            case Simple(name="hint"):
                await self._hint()
            case Simple(name="quit") if self.waiting_at_a_table():
                await self._leave_waiting_table()
            case Simple(name=name):
                self._simple(name)
            case Rules(topic=topic):
                self._rules(topic)
        state.changed()

    def waiting_at_a_table(self) -> bool:
        """Seated at a host's table whose match has not begun (waiting for players), with a
        seat this client keeps on disk."""
        state = self.state
        return (
            state.view is None
            and not state.match_over
            and getattr(self.session, "can_step_away", False)
            and getattr(self.session, "table_id", None) is not None
        )

    async def _leave_waiting_table(self) -> None:
        """``quit`` (or Ctrl-D) before the match began: step away, the seat kept, and say so
        in one line; the command ends as any leaving does (status 0)."""
        again = getattr(self.session, "resume_command", "`scopa-net join`")
        table = getattr(self.session, "table_id", None)
        # Begun, with nothing dealt yet: its first round waits for the seats' seeds.
        begun = getattr(self.session, "match_begun", False)
        when = "as its first round was being dealt" if begun else "before its match began"
        self._leaving = True
        if self._unreachable():
            self._say(UNREACHABLE_BEFORE_THE_MATCH.format(table=table, again=again))
        elif getattr(self.session, "embedded_port", None):  # its host stops with us
            self._say(
                f"You left table {table} {when}; the table and your seat are "
                f"kept: {again} opens them again."
            )
        else:
            meanwhile = "" if begun else "if the match begins first, "
            self._say(
                f"You left table {table} {when}; your seat is kept: {again} takes it back "
                f"({meanwhile}a computer plays for you until then)."
            )
        await self.session.leave(away=True)  # type: ignore[attr-defined]
        self._quit()

    async def _typed_at_pause(self, line: str) -> None:
        """A line typed at "Press Enter for the next round.": a command (``log``, ``score``,
        ``board``, ``who``, ``help``...) runs on the round just ended and the prompt stays;
        nothing typed there is ever played (the next hand is not seen yet): a card, a
        choice, ``hint`` or a word that is no command says so in one line."""
        if self.state.asking in (Asking.CONFIRM_QUIT, Asking.LEAVE_OR_AWAY):
            await self._typed(line)  # the answer to ``quit`` typed here
            return
        try:
            command = parse_command(line, self.display.scheme)
        except CommandError:
            command = None
        match command:
            case Simple(name="hint") | PlayCard() | Choose() | None:
                self._say(ROUND_IS_OVER, "class:error")
            case Simple(name=name):
                self._simple(name)
            case Rules(topic=topic):
                self._rules(topic)
            case Say(text=text):
                await self.session.say(text)
            case Rename(name=name):
                await self._rename(name)

    async def _bare_rank(self, token: str) -> bool:
        """A rank alone (``7``, ``K``), or a value alone (``9``, the value the hand shows
        beside a queen): the card of that rank or value in hand, if there is one only. True
        when the line was taken as such (played, or answered with why not)."""
        view = self.state.view
        if self.state.choices or view is None or not view.hand or len(token) > 2:
            return False
        scheme = self.display.scheme
        if token.upper() in {format_card(c, scheme)[:-1].upper() for c in CARDS}:
            kind = "rank"
            same = [c for c in view.hand if format_card(c, scheme)[:-1].upper() == token.upper()]
        elif (value := small_number(token)) is not None and 1 <= value <= 10:
            kind = "value"
            same = [c for c in view.hand if c.rank == value]
        else:
            return False
        if len(same) == 1:
            await self._play(Play(same[0], ()), True)
        elif same:
            held = " and ".join(render.card_text(c, self.display) for c in same)
            self._error(f"You hold {held}: type the one to play.")
        else:
            self._error(f"You hold no card of {kind} {token}.")
        return True

    async def _choose(self, number: int) -> None:
        choices = self.state.choices
        if not choices:
            self._error(f"invalid choice: {number!r}: there is nothing to choose from")
            return
        if not 1 <= number <= len(choices):
            self._error(f"invalid choice: {number!r}: choose 1 to {len(choices)}")
            return
        await self._consider(choices[number - 1])

    async def _play(self, play: Play, bare: bool) -> None:
        if (sent := self.move_on_its_way) is not None:
            self._say_sent(sent)  # what happened first prints first
            self._error(
                f"Your last move ({sent.text(self.display.scheme)}) is still on its way to the "
                "host: wait for its answer."
            )
            return
        view = self.state.view
        if view is None:
            self._error(f"illegal play: {play.text(self.display.scheme)!r}: no cards dealt yet")
            return
        try:
            resolved = resolve_play(view, play)
        except AmbiguousPlayError as exc:
            self._offer(exc.options)
            return
        except IllegalPlayError as exc:
            self._error(self._refusal(exc, play, view))
            return
        await self._consider(resolved)

    def _refusal(self, exc: IllegalPlayError, play: Play, view: SeatView) -> str:
        """The engine's refusal of ``play``, naming the cards it named that are not on the
        table (the engine says only that one is not), or whose turn it is."""
        mover = view.to_move
        others = mover is not None and mover != view.seat and 0 <= mover < len(self.state.names)
        if exc.reason is IllegalReason.NOT_YOUR_TURN and others:
            who = self.state.names[mover]  # type: ignore[index]
            return f"illegal play: {exc.text!r}: it is {who}'s turn, not yours"
        missing = [card for card in play.captured if card not in view.table]
        if exc.reason is not IllegalReason.NOT_ON_TABLE or not missing:
            return str(exc)
        named = " and ".join(format_card(card, self.display.scheme) for card in missing)
        verb = "is" if len(missing) == 1 else "are"
        return f"illegal play: {exc.text!r}: {named} {verb} not on the table"

    def _offer(self, options: Sequence[Play]) -> None:
        state = self.state
        state.choices = tuple(options)
        state.asking = Asking.WHICH_GROUP
        lines = [_text("That card can take more than one group. Which one?")]
        for i, option in enumerate(options, 1):
            if self._plain:
                taken = render.words_of(option.captured, self.display)
                lines.append(_text(f"{i}: take {taken}"))
            else:
                body = [("", f"  {i}) "), *render.play_fragments(option, self.display)]
                lines.append(FormattedText(body))
        example = self._play_said(options[0]) if self._plain else "7d x 5s+2b"
        lines.append(_text(f"Type the number, or the card with the group (such as {example})."))
        self._show(lines)

    async def _consider(self, play: Play) -> None:
        """Submit ``play``, unless the coach is on and has a warning: then ask first."""
        view = self.state.view
        scheme = self.display.scheme
        try:
            warnings = hints.coach_warnings(view, play, scheme) if self.coach and view else []
            if warnings:
                assert view is not None
                best = await trio.to_thread.run_sync(hints.hint_for, view, scheme)
        except ValueError:  # a view the coach cannot rebuild: say nothing rather than guess
            warnings = []
        if not warnings or best.play == play:  # the strongest play takes the risk: let it be
            await self._submit(play)
            return
        self._forget_choices()
        self._coached = play
        self.state.asking = Asking.CONFIRM_PLAY
        lines = [_text(f"Coach: before you play {play.text(scheme)}:", "class:notice")]
        lines += [_text(f"  - {w}", "class:notice") for w in warnings]
        lines.append(_text(f"  The hint would be {best.play.text(scheme)}: {best.reason}."))
        lines.append(_text("Play it anyway?"))
        self._show(lines)

    async def _confirm_play(self, line: str) -> None:
        play, self._coached = self._coached, None
        self.state.asking = Asking.NOTHING
        if play is not None and line.strip().lower() in {"y", "yes"}:
            await self._submit(play)
        else:
            self._say(NOT_PLAYED)

    async def _hint(self) -> None:
        if (sent := self.move_on_its_way) is not None:
            where = sent.text(self.display.scheme)
            self._say(f"No hint now: your move {where} is on its way to the host.")
            return
        view = self.state.view
        if view is None or not view.my_turn or view.round_over:
            self._say("A hint is for your turn.")
            return
        try:
            hint = await trio.to_thread.run_sync(
                functools.partial(hints.hint_for, view, self.display.scheme, words=self._plain)
            )
        except ValueError as exc:
            self._say(f"No hint now: {exc}.")
            return
        if self.state.view is not view:
            return  # the game moved on while thinking
        self._say(f"Hint: {self._play_said(hint.play)}. {hint.reason}.", "class:notice")

    async def _submit(self, play: Play) -> None:
        self._forget_choices()
        # From now until the host answers, another move typed is refused, not queued.
        self._on_its_way, self.state.sent_from = play, self.state.view
        # No connection: the session keeps it until there is one (and says so, MoveQueued).
        here = (ConnectionState.CONNECTED, ConnectionState.LOCAL)
        self.state.move_queued = self.session.connection not in here
        self.state.changed()
        if self._moves is None:
            await self._send(play)
        else:
            self._moves.start_soon(self._send, play)

    async def _send(self, play: Play) -> None:
        """Send ``play`` and wait for the host's answer, saying so if that takes a while."""
        try:
            async with trio.open_nursery() as waiting:
                waiting.start_soon(self._say_when_slow, play)
                try:
                    await self.session.submit(play)
                except IllegalPlayError as exc:
                    self._error(str(exc))
                except SessionEndedError:
                    pass  # the session ended first: its own error or last line says why
                waiting.cancel_scope.cancel()
        finally:
            if self._on_its_way is play:  # (not a move typed once this one was shown)
                self._on_its_way = self.state.sent_from = None
                self.state.move_queued = False
            self.state.unanswered_for = 0
            self.state.changed()

    async def _say_when_slow(self, play: Play) -> None:
        since, links = trio.current_time(), self._links
        await trio.sleep(SLOW_ANSWER)
        # Not connected, the connection's own lines say what becomes of the move; the play
        # on the screen (another view shown) is the host's answer.
        if self.move_on_its_way is play:
            self._say_sent(play)
        # Then count the silence on the toolbar, calmly (no lines): from when the move went,
        # or went again on a connection back.
        while self.move_on_its_way is play:
            await trio.sleep(1.0)
            now = trio.current_time()
            if self.state.connection is not ConnectionState.CONNECTED or links != self._links:
                since, links = now, self._links
            quiet = now - since
            shown = int(quiet) if quiet >= NO_ANSWER_SHOWN else 0
            if shown != self.state.unanswered_for:
                self.state.unanswered_for = shown
                self.state.changed()

    def _say_sent(self, play: Play) -> None:
        """Say once that ``play`` went to the host and waits for its answer: a second
        after it went, or sooner when another move typed meanwhile is refused (the refusal
        comes after it, as it happened)."""
        connected = self.state.connection in (ConnectionState.CONNECTED, ConnectionState.LOCAL)
        if connected and self._said_sent is not play:
            self._said_sent = play
            self._say(f"Sent {play.text(self.display.scheme)}; waiting for the host...")

    def ask_to_leave(self) -> None:
        """``quit`` (or Ctrl-D): during a match at a host, ask once whether to leave for good
        or step away; elsewhere, confirm or just leave."""
        state = self.state
        if not state.in_match:
            self._quit()
        elif getattr(self.session, "can_step_away", False):
            state.asking = Asking.LEAVE_OR_AWAY
            again = getattr(self.session, "take_back_with", None) or "`scopa-net join`"
            if getattr(self.session, "going_voids_round", False):
                self._say(GOING_VOIDS_ROUND, "class:notice")
            if getattr(self.session, "hosts_friends", False):
                question = OWNER_LEAVE_QUESTION
            elif getattr(self.session, "embedded_port", None):  # its host stops with us
                question = OWN_HOST_LEAVE_QUESTION
            elif self._unreachable():
                question = UNREACHABLE_LEAVE_QUESTION
                again = getattr(self.session, "resume_command", again)
            elif getattr(self.session, "table_waits_for_me", False):
                question = ALONE_AT_A_BLIND_TABLE_LEAVE_QUESTION
            else:
                question = LEAVE_QUESTION
            self._say(question.format(again=again))
        else:
            state.asking = Asking.CONFIRM_QUIT
            self._say(self.QUIT_QUESTION)
        state.changed()

    def _unreachable(self) -> bool:
        """The client is trying to get back to its host: nothing said now reaches it."""
        return getattr(self.session, "connection", None) is ConnectionState.RECONNECTING

    async def _answer_leave(self, line: str) -> None:
        state = self.state
        answer = line.strip().lower()
        leave = self.session.leave  # type: ignore[attr-defined]
        if answer in {"leave", "l", "quit", "for good"}:
            state.asking = Asking.NOTHING
            self._leaving = True
            if self._unreachable():
                # Nobody to tell: the host keeps the seat, and so does this client's disk.
                again = getattr(self.session, "resume_command", "`scopa-net join`")
                self._say(UNREACHABLE_GOING.format(going="leaving", again=again))
            elif getattr(self.session, "hosts_friends", False):
                self._say(
                    "Leaving your own table for good ends it: its host runs in this terminal, "
                    "so your friends' match stops too (they are told)."
                )
            else:
                self._say("Leaving the table for good; a computer player takes your seat.")
            self._say_unfinished()  # the rounds played: this seat's file will not grow
            await leave(away=False)
            self._quit()
        elif answer in {"away", "a", "step away", "s", "step"}:
            state.asking = Asking.NOTHING
            self._leaving = True
            again = getattr(self.session, "resume_command", "`scopa-net join`").strip("`")
            note = getattr(self.session, "take_back_note", None)
            again += f" ({note})" if note else ""
            if self._unreachable():  # nobody to tell, as for leaving
                again = getattr(self.session, "resume_command", "`scopa-net join`")
                self._say(UNREACHABLE_GOING.format(going="stepping away", again=again))
            elif getattr(self.session, "embedded_port", None):  # its host stops with us
                self._say(f"Stepping away; your seat is kept. Take it back with: {again}")
            elif getattr(self.session, "table_waits_for_me", False):  # protocol.md 9.1
                self._say(
                    "Stepping away; your seat is kept, and the table waits for you: a blind "
                    "round is dealt by the people at it, and nobody else plays there. Take it "
                    f"back with: {again}"
                )
            else:  # protocol.md 3.3: a computer stands in at once, no grace period
                self._say(
                    "Stepping away; your seat is kept, and a computer plays it from now until "
                    f"you come back. Take it back with: {again}"
                )
            await leave(away=True)
            self._quit()
        elif answer in {"stay", "n", "no", "cancel", "c"}:
            state.asking = Asking.NOTHING
            self._say("Staying at the table.")
        else:
            self._say("Type leave, away, or stay.")

    async def _rename(self, wanted: str) -> None:
        """``name NEW``: ask the host to call this seat NEW; ``name`` alone says the name."""
        state = self.state
        mine = state.names[state.seat] if state.seat < len(state.names) else ""
        rename = getattr(self.session, "rename", None)
        if not wanted:
            self._say(f"You are {mine} at this table. To change it: name NEW NAME")
            return
        if rename is None:
            self._error("Names are fixed in this game.")
            return
        too_long = name_too_long(wanted)
        if too_long:
            self._error(f"invalid name: {too_long}; your name stays {mine}")
            return
        name = clean_name(wanted)
        if not name:
            self._error(f"invalid name: {wanted!r}: a name needs a letter, a digit or a symbol")
            return
        if reads_as_computer(name):
            self._error(f"invalid name: {name!r}: {COMPUTER_NAME_REFUSED}")
            return
        if name == mine:
            self._say(f"You are {mine} already.")
            return
        if not await rename(name):
            self._error("Not connected: change your name once the connection is back.")

    def _rules(self, topic: str) -> None:
        """``rules`` and ``rules TOPIC``, from the rules document."""
        if topic:
            try:
                lines = rulebook.explain(topic)
            except rulebook.UnknownTopicError as exc:
                self._error(str(exc))
                return
        else:
            view = self.state.view
            rules = view.rules if view is not None else getattr(self.session, "rules", None)
            lines = rulebook.brief(rules)
        self._show([_text(line) for line in lines])

    def _sheet(self) -> list[FormattedText]:
        """The last round's score sheet, laid out for the terminal's width."""
        assert self._last_round is not None
        view, score, scores = self._last_round
        if self._plain:
            return [
                _text(line) for line in plain_score_sheet(view, score, scores, self.state.names)
            ]
        width = self._screen()[0] or SHEET_WIDTH
        return score_sheet(view, score, scores, self.state.names, width)

    def _seat_called_you(self) -> int | None:
        """The seat ``who`` marks "(you)": this client's own."""
        return self.state.seat

    def _who(self) -> None:
        """Who sits where, and on which side; before the deal too; who is away."""
        state = self.state
        notes = getattr(self.session, "seat_notes", ())
        view = state.view
        rules = view.rules if view is not None else getattr(self.session, "rules", None)
        lines = []
        for seat, who in enumerate(state.names):
            label, you = _seat_label(seat, who, you=seat == self._seat_called_you())
            if rules is None:
                lines.append(_text(f"{label}: {who}{you}"))
                continue
            side = [s for s in rules.seats_of(rules.side_of(seat)) if s != seat]
            partners = [_partner(state.names, notes, s) for s in side]
            team = f", with {' & '.join(partners)}" if partners else ""
            note = notes[seat] if seat < len(notes) else ""
            if note.startswith("open seat"):  # nobody's name to show ("seat 1; open seat")
                lines.append(_text(f"Seat {seat}: {note}{team}"))
                continue
            note = f"; {note}" if note else ""
            lines.append(_text(f"{label}: {who}{you}{team}{note}"))
        # For the player hosting with play --lan: where friends join.
        lines += [_text(line) for line in getattr(self.session, "where_to_join", ())]
        self._show(lines)

    def _simple(self, name: str) -> None:
        state = self.state
        view = self._view
        if name == "help":
            # The examples in the suits and ranks this screen shows (--suits italian: 7 di
            # denari, R for the king).
            scheme = self.display.scheme
            seven, long_seven = format_card(SETTEBELLO, scheme), card_name(SETTEBELLO, scheme)
            king = format_card(RE_BELLO, scheme)[:-1]
            lines = [_text(f"Type a card to play it: {seven}, {long_seven}, settebello...")]
            taken = (card(5, Suit.SWORDS), card(2, Suit.CLUBS))
            group = f"{seven} x {'+'.join(format_card(c, scheme) for c in taken)}"
            lines.append(_text(f"Name the group after it when it can take several: {group}."))
            lines += render.help_rows(COMMANDS)
            lines.append(_text(f"A rank alone (7, {king}) plays your only card of that rank."))
            folder = getattr(self.session, "transcripts_folder", None)
            if folder is not None:  # (a game dealt from --seed has no deal check)
                lines.append(_text(deal_words.help_line(shown_path(folder) + "/")))
            keys = "Ctrl-C clears the line; Ctrl-D leaves."
            lines.append(_text(f"Tab completes; {keys}" if self._prompt else keys))
            self._show(lines)
        elif name == "board":
            self.show_board()
        elif name == "who":
            self._who()
        elif name == "quit":
            self.ask_to_leave()
        elif view is None:
            self._say("No cards dealt yet.")
        elif name == "score":
            if (
                self._last_round is None
                and view.round_over
                and view.round_score is not None
                and view.scores_now == tuple(state.scores)  # (not a match before a rematch)
            ):
                # Taken back after a round's end: the snapshot holds its sheet (3.9).
                self._last_round = (view, view.round_score, view.scores_now)
            if self._last_round is not None:
                self._show(self._sheet())
                last_view, last_score, _ = self._last_round
                sides = [
                    render.side_label(s, last_view, state.names) for s in range(len(state.scores))
                ]
                said = primiera_cards(last_view, last_score, sides, lambda c: self._cards_said([c]))
                self._show([_text(line) for line in said])  # to check the sheet by hand
            elif any(state.scores):  # scored before this client sat down (a seat taken back)
                self._say(SHEET_NOT_KNOWN)
            else:
                self._say("No round of this match is scored yet: no score sheet.")
            sides = [
                render.side_label(side, view, state.names) for side in range(len(state.scores))
            ]
            mark = after_name(sides)  # "bot 1: 0", never "bot 1 0"
            parts = [
                f"{side}{mark}{points}" for side, points in zip(sides, state.scores, strict=True)
            ]
            end = to_the_target(view, state.scores)
            tail = f" ({end})" if end.startswith("playing") else f"; {end}"
            self._say(f"Match score: {', '.join(parts)}{tail}.")
        elif name in {"last", "log"}:
            records = render.last_plays(view) if name == "last" else list(view.plays)
            if not records:
                self._say("No plays yet this round.")
            self._show([self.record_line(view, r) for r in records])


def unfinished_lines(session: object) -> list[str]:
    """Where ``session``'s match so far is saved, UNFINISHED, and how to check it; none if
    no round of it was saved."""
    saved = getattr(session, "unfinished_transcript", None)
    if saved is None:
        return []
    where = shown_path(saved)
    return [
        f"The match so far is saved, UNFINISHED: {where}",
        "Check its rounds with:",
        f"  scopa-net verify {where}",  # whole, to copy (wrap_line)
    ]
