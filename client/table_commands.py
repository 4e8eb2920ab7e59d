"""The commands that show something without playing: help, board, who, score, last, log,
rules; and name, which asks the host for another."""

from __future__ import annotations

from collections.abc import Sequence

from scopa_net.cards import RE_BELLO, SETTEBELLO, Suit, card
from scopa_net.client import deal_words, render, rulebook
from scopa_net.client.commands import COMMANDS
from scopa_net.client.config import COMPUTER_NAME_REFUSED
from scopa_net.client.files import shown_path
from scopa_net.client.scoresheet import primiera_cards, to_the_target
from scopa_net.client.style import text_line
from scopa_net.names import clean_name, name_too_long, reads_as_computer
from scopa_net.notation import card_name, format_card
from scopa_net.score_line import after_name

SHEET_NOT_KNOWN = (
    "The last round's sheet is not known after taking the seat back (the host sends only "
    "the board); the match score is below."
)
"""``score`` in a round after one scored before this client took the seat back."""


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


class TableCommands:
    """Part of :class:`~scopa_net.client.controller.Controller`: its commands."""

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
        self._show([text_line(line) for line in lines])

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
                lines.append(text_line(f"{label}: {who}{you}"))
                continue
            side = [s for s in rules.seats_of(rules.side_of(seat)) if s != seat]
            partners = [_partner(state.names, notes, s) for s in side]
            team = f", with {' & '.join(partners)}" if partners else ""
            note = notes[seat] if seat < len(notes) else ""
            if note.startswith("open seat"):  # nobody's name to show ("seat 1; open seat")
                lines.append(text_line(f"Seat {seat}: {note}{team}"))
                continue
            note = f"; {note}" if note else ""
            lines.append(text_line(f"{label}: {who}{you}{team}{note}"))
        # For the player hosting with play --lan: where friends join.
        lines += [text_line(line) for line in getattr(self.session, "where_to_join", ())]
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
            lines = [text_line(f"Type a card to play it: {seven}, {long_seven}, settebello...")]
            taken = (card(5, Suit.SWORDS), card(2, Suit.CLUBS))
            group = f"{seven} x {'+'.join(format_card(c, scheme) for c in taken)}"
            lines.append(text_line(f"Name the group after it when it can take several: {group}."))
            lines += render.help_rows(COMMANDS)
            lines.append(text_line(f"A rank alone (7, {king}) plays your only card of that rank."))
            folder = getattr(self.session, "transcripts_folder", None)
            if folder is not None:  # (a game dealt from --seed has no deal check)
                lines.append(text_line(deal_words.help_line(shown_path(folder) + "/")))
            keys = "Ctrl-C clears the line; Ctrl-D leaves, as quit does."
            lines.append(text_line(f"Tab completes; {keys}" if self._prompt else keys))
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
                self._show([text_line(line) for line in said])  # to check the sheet by hand
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
