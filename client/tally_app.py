"""The score keeper's prompt: typed lines in, lines of text out, the tally saved after each change.

:class:`TallyController` holds no terminal: it takes a line and returns what to print, so it is
tested without one. :func:`run_tally` puts it behind a prompt-toolkit prompt with the game
client's conventions: tab completion, history (Up/Down), ``help``, one-line errors, Ctrl-C
clears the line, Ctrl-D leaves, a bottom toolbar unless ``--plain``. From a script (the input
is not a terminal) it reads the input's lines instead, as if typed, and prints plain text; a refused
line stops it there, status 1. Typed at a terminal with the output elsewhere (a pipe, a file), it
draws nothing either: the prompt is written once before each line, as plain text.
"""

from __future__ import annotations

import enum
import sys
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import TextIO

from prompt_toolkit import PromptSession
from prompt_toolkit.application import get_app
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import FormattedText, fragment_list_to_text
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output
from prompt_toolkit.shortcuts import print_formatted_text

from scopa_net.client.files import why_not_written
from scopa_net.client.keys import make_key_bindings
from scopa_net.client.render import help_rows, wrap_line
from scopa_net.client.scoresheet import points_to, suits_decided
from scopa_net.client.sigterm import SigtermAtPrompt, Terminated
from scopa_net.client.style import Display
from scopa_net.client.tally_store import TallyStore, export
from scopa_net.client.toolbar import WIDE
from scopa_net.commands.options import EXIT_CANCELLED, EXIT_TERMINATED, CommandError
from scopa_net.names import display_width
from scopa_net.rules import USUAL_TARGETS, Variant
from scopa_net.scoring import PRIMIERA_LINE, RoundScore
from scopa_net.tally import (
    COMMAND_ALIASES,
    COMMAND_WORDS,
    LINE_NAMES,
    SCORING_VARIANTS,
    Ask,
    Guide,
    Hand,
    How,
    Tally,
    TallyError,
    folded,
    sheet_rows,
)
from scopa_net.typed import shown, small_number
from scopa_net.variant_names import meant

Lines = list[FormattedText]

#: What can be typed at the tally prompt, in the order ``help`` lists it.
TALLY_HELP: dict[str, str] = {
    "+1 NAME": "quick points for NAME's side this hand (+1, +2, +3 or more); the rest of "
    "the line is the name (+1 Anna Maria)",
    "NAME 4": "NAME's side made 4 points this hand (a typed total; the number comes last)",
    "count": "count the hand line by line: cards, coins, settebello, primiera, sweeps",
    "done": "score the hand entered (shows it and asks first)",
    "undo": "take back the last entry (a step of this hand, else the last hand)",
    "dealer NAME": "NAME deals this hand (the deal then passes on in seating order)",
    "standings": "the score, ordered, with points to go",
    "hands": "every hand scored so far",
    "export": "export markdown|csv: write the tally as a file",
    "rules": "the target and the scoring options in play",
    "help": "this list",
    "quit": "leave (the tally is saved; `scopa-net tally --resume` goes on)",
}
HOW_TO_LEAVE = "Ctrl-C clears the line; to leave, type quit or press Ctrl-D (the tally is saved)."
"""What Ctrl-C on an empty line says, once, after the tally began."""
_YES, _NO = {"y", "yes"}, {"n", "no"}
SCRIPT_REFUSED = 1
"""The exit status of a run from a script that stopped at a refused line (EXIT_FAILED)."""


class Mode(enum.Enum):
    NAMES = "names"
    TARGET = "target"
    OPTIONS = "options"
    ENTER = "enter"
    COUNT = "count"
    CONFIRM = "confirm"
    CHANGE = "change"
    LEFT = "left"


SCORE_IT = "Score this hand?"
"""Asked after a hand's sheet (y/n)."""


def _t(text: str, style: str = "") -> FormattedText:
    return FormattedText([(style, text)])


class TallyController:
    """The tally's state machine: setup questions, then hands, then the end."""

    def __init__(
        self,
        tally: Tally | None,
        *,
        store: TallyStore | None,
        display: Display | None = None,
        now: Callable[[], datetime] = datetime.now,
        target: int | None = None,
        variants: Sequence[str] | None = None,
        plain: bool = False,
    ) -> None:
        self.tally = tally
        self.plain = plain
        """--plain: sheets and standings said in sentences, never in columns."""
        self.width = WIDE
        """The columns a line may take (the terminal's, less its last): a table wider than
        this is said in sentences instead, so that no row wraps in the middle."""
        self.store = store
        self.display = display or Display(color=False)
        self._now = now
        self._names: tuple[str, ...] = ()
        self._target = target
        self._variants = variants
        self.guide: Guide | None = None
        self._answers: list[str] = []
        """The count's answers taken so far, one per question asked."""
        self._said: list[str] = []
        """What each of those answers was taken to say."""
        self._earlier: list[str] = []
        """The last answer typed to each question of this count, kept when the person goes
        back: offered again (Enter keeps it), and typed again for them after a change."""
        self._replay = False
        self._pending: Hand | None = None
        self.mode = Mode.ENTER if tally is not None else Mode.NAMES
        self.unsaved: OSError | None = None
        """Why the last save failed (None: saved, or nothing to save yet)."""
        self._told_unsaved = False
        self.refused = False
        """Whether the last line handled was refused (its answer not taken)."""
        self._told_how_to_leave = False
        self.begun_here: Tally | None = None
        """The tally as this run began it from names given on the command line: left as it
        was (no hand, no entry), its file is not kept, so that ``tally A B < /dev/null``
        leaves no empty tally behind."""

    # --- what the prompt shows -----------------------------------------------------------

    def prompt(self) -> str:
        if self.mode is Mode.NAMES:
            return "names> "
        if self.mode is Mode.TARGET:
            return "target> "
        if self.mode is Mode.OPTIONS:
            return "options> "
        if self.mode is Mode.COUNT:
            return "count> "
        if self.mode is Mode.CONFIRM:
            return "y/n? "
        if self.mode is Mode.CHANGE:
            return "change> "
        return "tally (over)> " if self.tally and self.tally.over else "tally> "

    def opening(self) -> Lines:
        """What to print before the first prompt."""
        if self.tally is None:
            return [
                _t("Scopa score keeper.", "class:heading"),
                _t("Who is playing? Names in seating order round the table, 2, 3, 4 or 6 of"),
                _t("them (partners sit opposite: at 4, the 1st and 3rd play the 2nd and 4th);"),
                _t("names with a space are separated by commas (Anna Maria, Bruno):"),
            ]
        return [
            _t(f"Scopa score keeper: {self._players_and_options()}.", "class:heading"),
            *self._not_saved(),
            *self._standings(),
            *([_t(f"{_so_far(self.tally)}. 'done' scores it.")] if self.tally.draft else []),
            _t("Type 'help' for what you can type."),
        ]

    def toolbar(self, width: int = WIDE) -> FormattedText:
        """The toolbar in at most ``width`` columns: the fullest version that fits, from
        the standings with what each side has to go, down to the hand's number alone. A wide
        character (李) takes two columns, as in the game's toolbar."""
        tally = self.tally
        if tally is None:
            return FormattedText([("", " setting up ")])
        full = "  ".join(  # once the game is won, nobody has points to go
            f"{r.label} {r.points}" + (f" ({r.to_go} to go)" if r.to_go and not tally.over else "")
            for r in tally.standings()
        )
        short = "  ".join(f"{r.label} {r.points}" for r in tally.standings())
        draft = ""
        if tally.draft:
            draft = " | this hand: " + ", ".join(
                f"{label} {p}" for label, p in zip(tally.labels, tally.draft_points, strict=True)
            )
        where = (
            "class:toolbar.turn",
            " game over " if tally.over else f" hand {tally.hand_number} ",
        )
        # Partners by the first one's name alone ("Ada 5  Bruno 3"): the score still fits.
        first = "  ".join(f"{r.label.split(' & ')[0]} {r.points}" for r in tally.standings())
        versions = [f"| {full}{draft} ", f"| {short}{draft} ", f"| {short} ", f"| {first} ", ""]
        for rest in versions:
            if display_width(where[1] + rest) < width:  # the last column stays free
                break
        return FormattedText([where, ("", rest)] if rest else [where])

    # --- lines in ------------------------------------------------------------------------

    def handle(self, line: str) -> Lines:
        """Act on one typed line; what to print. A refusal is one line and changes nothing."""
        text = line.strip()
        self.refused = False
        try:
            if self.mode is Mode.NAMES:
                return self._setup_names(text)
            if self.mode is Mode.TARGET:
                return self._setup_target(text)
            if self.mode is Mode.OPTIONS:
                return self._setup_options(text)
            if self.mode is Mode.COUNT:
                return self._count(text)
            if self.mode is Mode.CONFIRM:
                return self._confirm(text)
            if self.mode is Mode.CHANGE:
                return self._change(text)
            return self._command(text)
        except TallyError as exc:
            self.refused = True
            return [_t(str(exc), "class:error")]

    def leave(self) -> Lines:
        counting = self.mode in (Mode.COUNT, Mode.CONFIRM, Mode.CHANGE)
        self.mode = Mode.LEFT
        if self.tally is None:
            return [_t("Nothing saved: the tally had not started.")]
        if self.tally == self.begun_here and self.unsaved is None and self.store is not None:
            try:
                self.store.discard(self.tally.id)
            except OSError:
                pass  # an empty tally left on disk: saved, and said so below
            else:
                return [_t("Nothing saved: no hand was entered.")]
        # A hand counted line by line is scored only once confirmed: say it was dropped.
        dropped = [_t("The hand being counted was not scored.")] if counting else []
        if self.tally.draft:  # quick points entered for the open hand: kept, not scored
            dropped.append(_t(f"{_so_far(self.tally)}; not scored yet, kept for next time."))
        if self.unsaved is not None:
            saved = "Not saved: `scopa-net tally --resume` will not have this tally."
        elif self.tally.over:
            which = self.tally.number or self.tally.id  # 0: saved before numbers were kept
            saved = f"Saved as {self.tally.id}; `scopa-net tally --export {which}` prints it."
        else:
            saved = f"Saved as {self.tally.id}; `scopa-net tally --resume` carries on."
        return [*dropped, _t(saved)]

    def ctrl_c(self, empty: bool) -> Lines:
        """What Ctrl-C says once the tally began (it only clears the line): on an empty line,
        the first time, how to leave, so that a person who wants out is not left wondering."""
        if not empty or self._told_how_to_leave:
            return []
        self._told_how_to_leave = True
        return [_t(HOW_TO_LEAVE)]

    @property
    def finished(self) -> bool:
        return self.mode is Mode.LEFT

    # --- setup ---------------------------------------------------------------------------

    def _setup_names(self, text: str) -> Lines:
        # Commas between names when there are any (a name may hold a space), else spaces.
        names = tuple(n for n in (text.split(",") if "," in text else text.split()) if n.strip())
        if len(names) not in (2, 3, 4, 6):
            given = "1 name" if len(names) == 1 else f"{len(names)} names"
            raise TallyError(f"{given}: Scopa is for 2, 3, 4 or 6 players")
        Tally.new(names)  # checks the names
        self._names = names
        if self._target is None:
            self.mode = Mode.TARGET
            usual = ", ".join(str(t) for t in USUAL_TARGETS[:3])
            return [_t(f"Target: {usual}, or any 1 to 99 (Enter for 11):")]
        return self._after_target()

    def _setup_target(self, text: str) -> Lines:
        if not text:
            text = "11"
        target = small_number(text)
        if target is None or not 1 <= target <= 99:
            raise TallyError(f"invalid target: {shown(text)}; a whole number from 1 to 99")
        self._target = target
        return self._after_target()

    def _after_target(self) -> Lines:
        if self._variants is None:
            self.mode = Mode.OPTIONS
            names = ", ".join(v.value for v in self._scoring_variants())
            return [_t(f"Scoring options, if any ({names}; Enter for none):")]
        return self._start(self._variants)

    def _scoring_variants(self) -> list[Variant]:
        return [
            v
            for v in SCORING_VARIANTS
            if v is not Variant.SIX_AS_THREE_PAIRS or len(self._names) == 6
        ]

    def _setup_options(self, text: str) -> Lines:
        words = text.replace(",", " ").split()
        allowed = {v.value for v in self._scoring_variants()}
        for word in words:
            if word.lower() not in allowed:
                known = sorted(allowed)
                ours = meant(word, tuple(known))  # "napoli": say which option it is
                guess = f"did you mean {ours}? " if ours else ""
                raise TallyError(
                    f"unknown option {shown(word)}; {guess}options: {', '.join(known)}"
                )
        return self._start([w.lower() for w in words])

    def _start(self, variants: Sequence[str]) -> Lines:
        assert self._target is not None
        now = self._now()
        tally_id = self.store.new_id(self._names, now) if self.store else "unsaved"
        self.tally = Tally.new(
            self._names,
            target=self._target,
            variants=variants,
            started=f"{now:%Y-%m-%d %H:%M}",
            id=tally_id,
            number=self.store.next_number() if self.store else 0,
        )
        self.mode = Mode.ENTER
        out = [_t(f"New tally: {' v '.join(self.tally.labels)}.", "class:heading")]
        out.append(_t(f"Rules: {self._rules_words()}."))
        out += self._save()
        out.append(_t("Type '+1 NAME', 'NAME 3' or 'count' for each hand; 'help' for more."))
        return out

    # --- the hand ------------------------------------------------------------------------

    def _command(self, text: str) -> Lines:
        tally = self.tally
        assert tally is not None
        if not text:
            return []
        words = text.replace("=", " = ").split()
        first = COMMAND_ALIASES.get(words[0].lower(), words[0].lower())
        named = folded(" ".join(w for w in words[:-1] if w != "="))
        if small_number(words[-1]) is not None and named in map(folded, tally.names):
            first = ""  # "Dealer 3" at a tally saved before names could not be a command
        if first == "dealer" and len(words) > 1 and small_number(words[-1]) is None:
            return self._dealer(" ".join(words[1:]))
        if first in COMMAND_WORDS:
            return self._named(first, words[1:], text)
        if first.startswith("+"):  # +2 Ada, +1 Anna Maria: the rest of the line is the name
            if len(words) < 2:
                raise TallyError(f"invalid entry: {shown(text)}; quick points are like '+2 Ada'")
            return self._quick(words[0], " ".join(words[1:]))
        if len(words) > 1 and words[-1].startswith("+"):  # Ada +2
            return self._quick(words[-1], " ".join(w for w in words[:-1] if w != "="))
        who = [w for w in words[:-1] if w != "="]
        if who and (len(words) == 2 or small_number(words[-1]) is not None):  # Ada 4, Ada = 4
            side = tally.side_named(" ".join(who))
            points = _whole(words[-1], text)
            said = tally.meeting(side, points, How.TOTAL)
            return self._update(tally.set_total(side, points), said)
        raise TallyError(
            f"invalid entry: {shown(text)}; type '+1 NAME', 'NAME 3', 'count' or 'help'"
        )

    def _dealer(self, who: str) -> Lines:
        """``dealer NAME``: NAME deals the hand being entered."""
        tally = self.tally
        assert tally is not None
        tally._open()
        self.tally = tally.dealt_by(tally.seat_named(who))
        return [*self._save(), _t(self.tally.status())]

    def _quick(self, plus: str, who: str) -> Lines:
        tally = self.tally
        assert tally is not None
        points = _whole(plus[1:], plus)
        side = tally.side_named(who)
        said = tally.meeting(side, points, How.QUICK)
        return self._update(tally.add(side, points), said)

    def _update(self, tally: Tally, said: str = "") -> Lines:
        """Take the changed tally and save it; ``said``, when given, says what the entry did
        to the side's earlier entries this hand."""
        self.tally = tally
        out = self._save()
        if said:
            out.append(_t(said, "class:notice"))
        out.append(_t(f"{_so_far(tally)}. 'done' scores it."))
        return out

    def _named(self, name: str, args: list[str], text: str) -> Lines:
        tally = self.tally
        assert tally is not None
        if name == "dealer":  # with a name, _command took it; alone: who deals now
            if args:
                raise TallyError(f"invalid command: {shown(text)}; type 'dealer NAME'")
            return [_t(tally.status())]
        if name != "export" and args:
            raise TallyError(f"invalid command: {shown(text)}: {name!r} takes nothing after it")
        if name == "help":
            return [
                *help_rows(TALLY_HELP),
                _t(
                    "A name can be cut short (Ad for Ada), typed without accents (Nicolo for "
                    "Nicolò) or case; a side can be named by either partner."
                ),
                _t("Tab completes; Up recalls a line; Ctrl-C clears the line; Ctrl-D leaves."),
            ]
        if name == "quit":
            return self.leave()
        if name == "standings":
            return self._standings()
        if name == "rules":
            return [_t(f"Rules: {self._rules_words()}.")]
        if name == "hands":
            return self._hands()
        if name == "export":
            return self._export(args)
        if name == "undo":
            in_hand = bool(tally.draft)
            tally, said = tally.undo()
            self.tally = tally
            out = [_t(f"Undone: {said}.", "class:notice"), *self._save(), *self._standings()]
            if in_hand:  # what is left of the hand being entered
                left = f"{_so_far(tally)}. 'done' scores it." if tally.draft else ""
                out.append(_t(left or f"Nothing is entered for hand {tally.hand_number} now."))
            return out
        if name == "count":
            tally._open()
            if tally.draft:
                raise TallyError("this hand has points entered already: 'done' or 'undo' first")
            self.guide = Guide(tally, self.display.scheme)
            self._answers, self._said, self._earlier, self._replay = [], [], [], False
            self.mode = Mode.COUNT
            return [
                _t(
                    f"Counting hand {tally.hand_number}; 'undo' goes back one question, "
                    "'cancel' stops."
                ),
                _t(self.guide.question, "class:prompt"),
            ]
        # done
        hand = tally.draft_hand()
        tally._open()
        return self._ask_confirm(hand)

    def _ask_confirm(self, hand: Hand) -> Lines:
        self._pending = hand
        self.mode = Mode.CONFIRM
        return self._sheet(hand)

    def _confirm(self, text: str) -> Lines:
        tally = self.tally
        assert tally is not None and self._pending is not None
        answer = text.lower()
        if answer in _NO:
            self._pending = None
            if self._said:  # a count: keep it, and ask which answer to change
                self.mode = Mode.CHANGE
                return [_t("Not scored. Your answers:"), *self._numbered_answers()]
            self.mode = Mode.ENTER
            return [
                _t(
                    "Not scored; the points entered stay: 'NAME 3' sets a side's points, "
                    "'undo' takes back the last entry."
                )
            ]
        if answer not in _YES:
            raise TallyError("answer y to score the hand, or n to go back")
        self.tally = tally.commit(self._pending)
        self._pending = None
        self._answers, self._said, self._earlier = [], [], []
        self.mode = Mode.ENTER
        out = [*self._save(), *self._standings()]
        if self.tally.over:
            out.append(_t("'export markdown' or 'export csv' writes the sheet; 'undo' reopens."))
        return out

    def _numbered_answers(self) -> Lines:
        return [
            *(_t(f"  {n}. {said}") for n, said in enumerate(self._said, 1)),
            _t(
                f"Which to change? A number, 1 to {len(self._said)} (the others are kept); "
                "Enter shows the hand again, 'cancel' drops the count.",
                "class:prompt",
            ),
        ]

    def _change(self, text: str) -> Lines:
        """After "no" to a counted hand: go back to the question the person names."""
        word = text.lower()
        if word in {"quit", "exit"}:
            return [_t("The count is dropped."), *self.leave()]
        if word == "cancel":
            return self._stop_count()
        if not word:
            return self._ask_confirm(self._guide_from(self._answers).hand())
        if word in {"help", "?"}:
            return self._numbered_answers()
        number = small_number(word)
        if number is None or not 1 <= number <= len(self._said):
            raise TallyError(
                f"invalid answer number: {shown(text)}; type 1 to {len(self._said)}, Enter to "
                "see the hand again, or 'cancel'"
            )
        at = number - 1
        later = number < len(self._said)  # answers after the one changed, to keep
        self._earlier = list(self._answers)
        self._answers, self._said = self._answers[:at], self._said[:at]
        self.guide = self._guide_from(self._answers)
        self._replay = True
        self.mode = Mode.COUNT
        kept = [_t("The answers after it are kept where they still fit.")] if later else []
        return [*self._question(), *kept]

    def _question(self, *, kept: bool = True) -> Lines:
        """The count's question, with the person's earlier answer to it when they went back
        (unless ``kept`` is False: it was just refused)."""
        assert self.guide is not None
        out = [_t(self.guide.question, "class:prompt")]
        if kept and len(self._answers) < len(self._earlier):
            out.append(_t(f"It was '{self._earlier[len(self._answers)]}': Enter keeps it."))
        return out

    def _stop_count(self) -> Lines:
        self.mode = Mode.ENTER
        self.guide = None
        self._answers, self._said, self._earlier, self._replay = [], [], [], False
        return [_t("Count stopped; nothing was scored.")]

    def _guide_from(self, answers: list[str]) -> Guide:
        assert self.tally is not None
        guide = Guide(self.tally, self.display.scheme)
        for answer in answers:
            guide.answer(answer)
        return guide

    def _count(self, text: str) -> Lines:
        guide = self.guide
        assert guide is not None and self.tally is not None
        word = text.lower()
        if word in {"quit", "exit"}:
            return [_t("The count is dropped."), *self.leave()]
        if word in {"help", "?"}:
            return [
                _t("Answer the question; 'undo' goes back one, 'cancel' stops the count."),
                *self._question(),
            ]
        if word == "cancel":
            return self._stop_count()
        if word in {"undo", "back"}:
            if not self._answers:
                raise TallyError("this is the first question; 'cancel' stops the count")
            self._answers.pop()
            self._said.pop()
            self.guide = self._guide_from(self._answers)
            return self._question()
        if not text and len(self._answers) < len(self._earlier):
            text = self._earlier[len(self._answers)]  # Enter keeps the earlier answer
        out = [_t(self._take(text))]
        while self._replay and not guide.done and len(self._answers) < len(self._earlier):
            try:  # after a change: the person's later answers, typed again for them
                out.append(_t(self._take(self._earlier[len(self._answers)])))
            except TallyError as exc:
                earlier = self._earlier[len(self._answers)]
                self.refused = True  # asked again: a script's next line would not answer it
                return [
                    *out,
                    _t(f"Your answer '{earlier}' no longer fits: {exc}", "class:error"),
                    *self._question(kept=False),
                ]
        if not guide.done:
            return [*out, *self._question()]
        self.guide = None
        self._replay = False
        return [*out, *self._ask_confirm(guide.hand())]

    def _take(self, text: str) -> str:
        """Answer the count's question; what the answer was taken to say."""
        assert self.guide is not None
        at = len(self._answers)
        said = self.guide.answer(text)
        self._answers.append(text)
        self._said.append(said)
        self._earlier[at : at + 1] = [text]
        return said

    # --- showing -------------------------------------------------------------------------

    def _sheet(self, hand: Hand) -> Lines:
        tally = self.tally
        assert tally is not None
        labels = tally.labels
        out = [_t(f"Hand {tally.hand_number}:", "class:heading")]
        if hand.sheet is not None:
            width = max(8, *(display_width(label) for label in labels))
            head = "".join(_right(label, width + 2) for label in labels)
            table = [_t(f"  {'':<11}{head}")]
            for name, figures, who in sheet_rows(tally, hand.sheet):
                cells = "".join(f"{f:>{width + 2}}" for f in figures)
                table.append(_t(f"  {name:<11}{cells}   {who}"))
            cells = "".join(f"{p:>{width + 2}}" for p in hand.points)
            table.append(_t(f"  {'Points':<11}{cells}", "class:label"))
            out += self._sentences(hand.sheet) if self._too_wide(table) else table
            primiera = next((x for x in hand.sheet.lines if x.name == PRIMIERA_LINE), None)
            if primiera is not None and hand.suits:
                why = suits_decided(tally.rules, primiera, hand.suits, labels)
                out += [self._row("", why)] if why else []
        else:
            out.append(_t("  " + self._each(hand.points)))
        after = [s + p for s, p in zip(tally.scores, hand.points, strict=True)]
        row = self._row("After it: ", f"{self._each(after)}. {SCORE_IT}", "class:prompt")
        if self._too_wide([row]) and not self.plain:  # the question at the left, not under
            row = self._row("After it: ", f"{self._each(after)}.")  # the scores, as one
            return [*out, row, _t(SCORE_IT, "class:prompt")]
        return [*out, row]

    def _each(self, values: Sequence[int]) -> str:
        """Each side's figure after its name: "Ada 3, Bruno 0"."""
        labels = self.tally.labels if self.tally else ()
        return ", ".join(f"{lb} {v}" for lb, v in zip(labels, values, strict=True))

    def _row(self, label: str, text: str, style: str = "") -> FormattedText:
        """``label`` then ``text``, one line. Too long for the screen (not --plain), its parts
        are set two spaces apart, so that it breaks between them, under the text after the
        label: a side and its figure stay on one row ("Bruno 18;"), never a figure alone."""
        if not self.plain and display_width(label + text) > self.width:
            for mark in (",", ";", "."):  # a name holds none of them followed by a space
                text = text.replace(f"{mark} ", f"{mark}  ")
        return FormattedText([("class:label", label), (style, text)])

    def _too_wide(self, table: Lines) -> bool:
        """Whether ``table`` is to be said in sentences: --plain, or a row of it would wrap."""
        return self.plain or any(
            display_width(fragment_list_to_text(row)) > self.width for row in table
        )

    def _sentences(self, sheet: RoundScore) -> Lines:
        """A counted hand's sheet, a sentence a line, each figure with its side's name, as
        `play --plain` says a round's: "Cards: Ada 25, Bruno 15; the point to Ada."."""
        tally = self.tally
        assert tally is not None
        labels = tally.labels
        out = [
            self._row(
                f"{LINE_NAMES.get(line.name, line.name)}: ",
                f"{self._each(line.figures)}; {points_to(line, labels)}.",
            )
            for line in sheet.lines
        ]
        out.append(self._row("Points: ", f"{self._each(sheet.totals)}."))
        return out

    def _standings(self) -> Lines:
        tally = self.tally
        assert tally is not None
        played = len(tally.hands)
        head = f"Standings after hand {played}" if played else "Standings"
        out = [_t(f"{head} (playing to {tally.rules.target}):", "class:heading")]
        width = max(display_width(r.label) for r in tally.standings())
        table, sentences = [], []
        rows = tally.standings()
        for row in rows:
            # Sides level on points share a place ("1. ... 1. ..."), as a tie is read.
            place = next(j for j, other in enumerate(rows, 1) if other.points == row.points)
            to_go = f"{row.to_go} to go" if row.to_go else "target reached"
            to_go = "" if row.to_go and tally.over else to_go  # the game is won
            label = row.label + " " * (width - display_width(row.label))
            table.append(_t(f"  {place}. {label} {row.points:>3}" + f"   {to_go}" * bool(to_go)))
            points = f"{row.points} point{'s' * (row.points != 1)}"
            sentences.append(
                _t(f"{place}. {row.label}: {points}" + f", {to_go}" * bool(to_go) + ".")
            )
        out += sentences if self._too_wide(table) else table
        style = "class:winner" if tally.over else ""
        out.append(_t(tally.status(), style))
        return out

    def _hands(self) -> Lines:
        tally = self.tally
        assert tally is not None
        if not tally.hands:
            return [_t("No hands scored yet.")]
        out = []
        for i, hand in enumerate(tally.hands, 1):
            points = ", ".join(f"{lb} {p}" for lb, p in zip(tally.labels, hand.points, strict=True))
            out.append(_t(f"  Hand {i}: {points} ({hand.how.value})"))
        return out

    def _players_and_options(self) -> str:
        """``Ada v Bruno``, and the scoring options when there are any: ``Ada v Bruno;
        napola, re_bello`` (as every screen of the game says its variants)."""
        tally = self.tally
        assert tally is not None
        options = ", ".join(sorted(v.value for v in tally.rules.variants))
        return " v ".join(tally.labels) + (f"; {options}" if options else "")

    def _rules_words(self) -> str:
        tally = self.tally
        assert tally is not None
        rules = tally.rules
        options = ", ".join(sorted(v.value for v in rules.variants)) or "no scoring options"
        sides = " v ".join(tally.labels)
        return f"{sides}; playing to {rules.target}; {options}"

    def _export(self, args: list[str]) -> Lines:
        tally = self.tally
        assert tally is not None
        if len(args) != 1:
            raise TallyError("export what? 'export markdown' or 'export csv'")
        text = export(tally, args[0])
        if self.store is None:
            return [_t(line) for line in text.splitlines()]
        suffix = ".csv" if args[0].lower() == "csv" else ".md"
        path = self.store.path_of(tally.id).with_suffix(suffix)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise TallyError(f"cannot write {path}: {exc.strerror}") from None
        return [_t(f"Wrote {path}.")]

    def _save(self) -> Lines:
        if self.store is None or self.tally is None:
            return []
        try:
            self.store.save(self.tally)
            self.store.hold(self.tally.id)  # open here now: a second terminal leaves it
        except OSError as exc:
            self.unsaved = exc
            return self._not_saved()
        self.unsaved = None
        return []

    def _not_saved(self) -> Lines:
        """Why the tally could not be saved, where, and what that costs: said once."""
        if self.unsaved is None or self.store is None or self._told_unsaved:
            return []
        self._told_unsaved = True
        why = why_not_written(self.unsaved, self.store.folder)
        return [
            _t(
                f"Could not save the tally: {why}. Scoring goes on here, but `scopa-net tally "
                "--resume` will not have it while saving fails.",
                "class:error",
            )
        ]

    # --- completion ----------------------------------------------------------------------

    def candidates(self, before: str) -> Iterable[tuple[str, str]]:
        """(text, description) for what can be typed now, given the line so far."""
        tally = self.tally
        words = before.split()
        fresh = before.endswith(" ") or not before
        if self.mode is Mode.OPTIONS:
            for v in self._scoring_variants():
                yield v.value, "scoring option"
            return
        if self.mode is Mode.CONFIRM:
            yield from (("y", "score it"), ("n", "go back"))
            return
        if self.mode is Mode.CHANGE:
            for n, said in enumerate(self._said, 1):
                yield str(n), said
            yield "cancel", "drop the count"
            return
        if tally is None:
            return
        names = [(n, "player") for n in tally.names]
        if self.mode is Mode.COUNT:
            assert self.guide is not None
            ask, _ = self.guide.asking
            if ask in (Ask.SETTEBELLO, Ask.RE_BELLO):
                for who in self.guide.holders:
                    yield who, "nobody took it" if who == "nobody" else "player"
            yield from (("undo", "back one question"), ("cancel", "stop the count"))
            return
        if len(words) == 0 or (len(words) == 1 and not fresh):
            for cmd in COMMAND_WORDS:
                yield cmd, TALLY_HELP.get(cmd, "")
            for n in (1, 2, 3):
                yield f"+{n}", "quick points"
            yield from names
        elif words[0].startswith("+") or (words[0] == "export"):
            if words[0] == "export":
                yield from (("markdown", "a Markdown table"), ("csv", "a CSV file"))
            else:
                yield from names


def _right(text: str, columns: int) -> str:
    """``text`` right-aligned in ``columns`` terminal columns (a wide character takes two)."""
    return " " * (columns - display_width(text)) + text


def _so_far(tally: Tally) -> str:
    """The open hand's quick points: "Hand 3 so far: Ada 2, Bruno 0"."""
    points = ", ".join(
        f"{label} {p}" for label, p in zip(tally.labels, tally.draft_points, strict=True)
    )
    return f"Hand {tally.hand_number} so far: {points}"


def _whole(text: str, said: str) -> int:
    points = small_number(text)
    if points is None:
        raise TallyError(f"invalid points: {shown(said)}; points are whole numbers")
    return points


class TallyCompleter(Completer):
    def __init__(self, controller: TallyController) -> None:
        self.controller = controller

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        before = document.text_before_cursor
        word = document.get_word_before_cursor(WORD=True)
        seen: set[str] = set()
        for text, meta in self.controller.candidates(before[: len(before) - len(word)] + word):
            if text in seen or not text.lower().startswith(word.lower()):
                continue
            seen.add(text)
            yield Completion(text, start_position=-len(word), display_meta=meta)


def _columns(output: Output) -> int:
    """The terminal's width; :data:`WIDE` when it cannot be had."""
    try:
        return output.get_size().columns
    except (OSError, NotImplementedError, ValueError):
        return WIDE


def run_tally(
    controller: TallyController,
    display: Display,
    *,
    plain: bool = False,
    input: Input | None = None,
    output: Output | None = None,
) -> int:
    """Run the score keeper at a prompt until the person leaves; the exit status. With no
    ``input`` given and no terminal to type at, it reads the lines of the script's input."""
    if input is None and not _isatty(sys.stdin):
        return run_from_lines(controller, sys.stdin, sys.stdout, sys.stderr)
    if input is None and not _isatty(sys.stdout):  # typed at a terminal, shown in a pipe
        return run_typed_lines(controller, sys.stdin, sys.stdout, sys.stderr)
    style = display.style()

    told: list[Lines] = []

    def stop_before_the_tally(empty: bool) -> None:
        # Ctrl-C at a question before the tally began stops it, as Ctrl-D does (README: 130);
        # once it began, Ctrl-C only clears the line, and on an empty one says how to leave.
        if controller.tally is None:
            get_app().exit(exception=KeyboardInterrupt())
        elif said := controller.ctrl_c(empty):
            told.append(said)
            get_app().exit(exception=KeyboardInterrupt())  # said below the prompt, not over it

    session: PromptSession[str] = PromptSession(
        completer=TallyCompleter(controller),
        complete_while_typing=False,
        key_bindings=make_key_bindings(None, interrupt=stop_before_the_tally),
        bottom_toolbar=None if plain else lambda: controller.toolbar(_columns(session.output)),
        style=style,
        include_default_pygments_style=False,
        input=input,
        output=output,
    )

    def show(lines: Lines) -> None:
        width = _columns(session.output) - 1  # the last column free, as the game's lines
        for line in lines:
            for part in wrap_line(line, width):  # between words, never inside one
                print_formatted_text(part, style=style, output=session.output)

    controller.width = _columns(session.output) - 1
    show(controller.opening())
    try:
        with SigtermAtPrompt(lambda: session.app).noted() as sigterm:
            return _prompt_until_left(controller, session, show, told, sigterm)
    except Terminated:  # the prompt gave the terminal back as it was: say what is kept
        show(controller.leave())
        raise CommandError("stopped by SIGTERM", EXIT_TERMINATED) from None


def _prompt_until_left(
    controller: TallyController,
    session: PromptSession[str],
    show: Callable[[Lines], None],
    told: list[Lines],
    sigterm: SigtermAtPrompt,
) -> int:
    """Read and handle lines at the prompt until the person leaves; the exit status."""
    while not controller.finished:
        try:
            sigterm.check()
            line = session.prompt(
                FormattedText([("class:prompt", controller.prompt())]), pre_run=sigterm.pre_run
            )
        except Terminated:
            raise  # SIGTERM, not Ctrl-C: the tally stops
        except KeyboardInterrupt:
            if controller.tally is not None:
                show(told.pop() if told else [])
                continue
            show(controller.leave())
            return EXIT_CANCELLED
        except EOFError:
            if controller.mode is Mode.CONFIRM:  # Ctrl-D at "Score this hand?" is a no,
                show(controller.handle("n"))  # as at the game's "Really leave?": it stays
                continue
            show(controller.leave())
            # Ctrl-D at a question before the tally began stops it, as before a game.
            return EXIT_CANCELLED if controller.tally is None else 0
        controller.width = _columns(session.output) - 1  # the terminal may have changed
        show(controller.handle(line))
    return 0


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def _printer(out: TextIO, err: TextIO) -> Callable[[Lines], None]:
    """Print lines as plain text: errors (a refusal, a tally not saved) on ``err``."""

    def show(said: Lines) -> None:
        for line in said:
            wrong = any("class:error" in style for style, *_ in line)
            to = err if wrong else out
            to.write(fragment_list_to_text(line) + "\n")
            to.flush()

    return show


def run_typed_lines(controller: TallyController, typed: TextIO, out: TextIO, err: TextIO) -> int:
    """Run the score keeper for a person typing at a terminal whose output goes elsewhere
    (``scopa-net tally | tee tally.txt``), as ``play`` does there: no screen drawn, the
    terminal's own line editing and echo, the prompt written once before each line is read
    (as plain text, on ``out``), and a refused line said, then asked again, as at the prompt.
    Ctrl-D leaves (at "Score this hand?" it is a no), Ctrl-C before the tally began stops it;
    the exit status as :func:`run_tally`'s."""
    show = _printer(out, err)
    show(controller.opening())
    while not controller.finished:
        out.write(controller.prompt())
        out.flush()
        try:
            line = typed.readline()
        except KeyboardInterrupt:
            if controller.tally is not None:
                out.write("\n")  # the line typed was dropped: the prompt on a line of its own
                show(controller.ctrl_c(empty=True))  # the terminal shows no line typed
                continue
            show(controller.leave())
            return EXIT_CANCELLED
        if not line:  # Ctrl-D: what it says goes below the prompt, not on its line
            out.write("\n")
            if controller.mode is Mode.CONFIRM:
                show(controller.handle("n"))
                continue
            show(controller.leave())
            return EXIT_CANCELLED if controller.tally is None else 0
        show(controller.handle(line.rstrip("\r\n")))
    return 0


def run_from_lines(
    controller: TallyController, lines: Iterable[str], out: TextIO, err: TextIO
) -> int:
    """Run the score keeper on lines read from a script, each as if typed at the prompt,
    printing what it says as plain text (no prompt, no toolbar) on ``out``, and what went
    wrong (a refusal, a tally not saved) on ``err``; the end of the input leaves, as Ctrl-D
    does. The exit status: 0, 1 when a line was refused, or 130 when the input ended before
    the tally began (as Ctrl-D at its names).

    A refused line stops the run there: the lines after it were written to answer what it
    would have asked, so read on they would answer the wrong questions (a count's coins taken
    as its cards, a hand confirmed that was never meant). What came before is saved.
    """
    show = _printer(out, err)
    show(controller.opening())
    for number, line in enumerate(lines, 1):
        show(controller.handle(line.rstrip("\r\n")))
        if controller.refused:
            stopped = (
                f"Stopped at line {number}, which was refused; the lines after it are not read."
            )
            show([_t(stopped, "class:error")])
            show(controller.leave())
            return SCRIPT_REFUSED
        if controller.finished:
            return 0
    show(controller.leave())
    # The end of the input leaves as Ctrl-D does: before the tally began, a stop (130).
    return EXIT_CANCELLED if controller.tally is None else 0
