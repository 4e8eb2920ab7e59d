"""The score keeper's state machine: a typed line in, the lines to print out, the tally
saved after each change. It holds no terminal, so it is tested without one.

Its parts: :mod:`.tally_setup` (the questions before the first hand), :mod:`.tally_count`
(a hand counted line by line), :mod:`.tally_sheets` (what it shows); this module keeps the
state, the hand's entries and commands, saving, leaving, and Tab's candidates."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime

from prompt_toolkit.formatted_text import FormattedText

from scopa_net.client.files import why_not_written
from scopa_net.client.render import help_rows
from scopa_net.client.style import Display, text_line
from scopa_net.client.tally_count import TallyCount
from scopa_net.client.tally_mode import Lines, Mode
from scopa_net.client.tally_setup import TallySetup
from scopa_net.client.tally_sheets import TallySheets, so_far
from scopa_net.client.tally_store import TallyStore, export
from scopa_net.client.toolbar import WIDE
from scopa_net.names import display_width
from scopa_net.tally import (
    COMMAND_ALIASES,
    COMMAND_WORDS,
    Ask,
    Guide,
    Hand,
    How,
    Tally,
    TallyError,
    folded,
)
from scopa_net.typed import shown, small_number

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


class TallyController(TallySetup, TallyCount, TallySheets):
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
                text_line("Scopa score keeper.", "class:heading"),
                text_line(
                    "Who is playing? Names in seating order round the table, 2, 3, 4 or 6 of"
                ),
                text_line(
                    "them (partners sit opposite: at 4, the 1st and 3rd play the 2nd and 4th);"
                ),
                text_line("names with a space are separated by commas (Anna Maria, Bruno):"),
            ]
        return [
            text_line(f"Scopa score keeper: {self._players_and_options()}.", "class:heading"),
            *self._not_saved(),
            *self._standings(),
            *([text_line(f"{so_far(self.tally)}. 'done' scores it.")] if self.tally.draft else []),
            text_line("Type 'help' for what you can type."),
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
            return [text_line(str(exc), "class:error")]

    def leave(self) -> Lines:
        counting = self.mode in (Mode.COUNT, Mode.CONFIRM, Mode.CHANGE)
        self.mode = Mode.LEFT
        if self.tally is None:
            return [text_line("Nothing saved: the tally had not started.")]
        if self.tally == self.begun_here and self.unsaved is None and self.store is not None:
            try:
                self.store.discard(self.tally.id)
            except OSError:
                pass  # an empty tally left on disk: saved, and said so below
            else:
                return [text_line("Nothing saved: no hand was entered.")]
        # A hand counted line by line is scored only once confirmed: say it was dropped.
        dropped = [text_line("The hand being counted was not scored.")] if counting else []
        if self.tally.draft:  # quick points entered for the open hand: kept, not scored
            dropped.append(text_line(f"{so_far(self.tally)}; not scored yet, kept for next time."))
        if self.unsaved is not None:
            saved = "Not saved: `scopa-net tally --resume` will not have this tally."
        elif self.tally.over:
            which = self.tally.number or self.tally.id  # 0: saved before numbers were kept
            saved = f"Saved as {self.tally.id}; `scopa-net tally --export {which}` prints it."
        else:
            saved = f"Saved as {self.tally.id}; `scopa-net tally --resume` carries on."
        return [*dropped, text_line(saved)]

    def ctrl_c(self, empty: bool) -> Lines:
        """What Ctrl-C says once the tally began (it only clears the line): on an empty line,
        the first time, how to leave, so that a person who wants out is not left wondering."""
        if not empty or self._told_how_to_leave:
            return []
        self._told_how_to_leave = True
        return [text_line(HOW_TO_LEAVE)]

    @property
    def finished(self) -> bool:
        return self.mode is Mode.LEFT

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
        return [*self._save(), text_line(self.tally.status())]

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
            out.append(text_line(said, "class:notice"))
        out.append(text_line(f"{so_far(tally)}. 'done' scores it."))
        return out

    def _named(self, name: str, args: list[str], text: str) -> Lines:
        tally = self.tally
        assert tally is not None
        if name == "dealer":  # with a name, _command took it; alone: who deals now
            if args:
                raise TallyError(f"invalid command: {shown(text)}; type 'dealer NAME'")
            return [text_line(tally.status())]
        if name != "export" and args:
            raise TallyError(f"invalid command: {shown(text)}: {name!r} takes nothing after it")
        if name == "help":
            return [
                *help_rows(TALLY_HELP),
                text_line(
                    "A name can be cut short (Ad for Ada), typed without accents (Nicolo for "
                    "Nicolò) or case; a side can be named by either partner."
                ),
                text_line(
                    "Tab completes; Up recalls a line; Ctrl-C clears the line; Ctrl-D leaves."
                ),
            ]
        if name == "quit":
            return self.leave()
        if name == "standings":
            return self._standings()
        if name == "rules":
            return [text_line(f"Rules: {self._rules_words()}.")]
        if name == "hands":
            return self._hands()
        if name == "export":
            return self._export(args)
        if name == "undo":
            in_hand = bool(tally.draft)
            tally, said = tally.undo()
            self.tally = tally
            out = [text_line(f"Undone: {said}.", "class:notice"), *self._save(), *self._standings()]
            if in_hand:  # what is left of the hand being entered
                left = f"{so_far(tally)}. 'done' scores it." if tally.draft else ""
                out.append(
                    text_line(left or f"Nothing is entered for hand {tally.hand_number} now.")
                )
            return out
        if name == "count":
            tally._open()
            if tally.draft:
                raise TallyError("this hand has points entered already: 'done' or 'undo' first")
            self.guide = Guide(tally, self.display.scheme)
            self._answers, self._said, self._earlier, self._replay = [], [], [], False
            self.mode = Mode.COUNT
            return [
                text_line(
                    f"Counting hand {tally.hand_number}; 'undo' goes back one question, "
                    "'cancel' stops."
                ),
                text_line(self.guide.question, "class:prompt"),
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
                return [text_line("Not scored. Your answers:"), *self._numbered_answers()]
            self.mode = Mode.ENTER
            return [
                text_line(
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
            out.append(
                text_line("'export markdown' or 'export csv' writes the sheet; 'undo' reopens.")
            )
        return out

    def _export(self, args: list[str]) -> Lines:
        tally = self.tally
        assert tally is not None
        if len(args) != 1:
            raise TallyError("export what? 'export markdown' or 'export csv'")
        text = export(tally, args[0])
        if self.store is None:
            return [text_line(line) for line in text.splitlines()]
        suffix = ".csv" if args[0].lower() == "csv" else ".md"
        path = self.store.path_of(tally.id).with_suffix(suffix)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise TallyError(f"cannot write {path}: {exc.strerror}") from None
        return [text_line(f"Wrote {path}.")]

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
            text_line(
                f"Could not save the tally: {why}. Scoring goes on here, but `scopa-net tally "
                "--resume` will not have it while saving fails.",
                "class:error",
            )
        ]

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


def _whole(text: str, said: str) -> int:
    points = small_number(text)
    if points is None:
        raise TallyError(f"invalid points: {shown(said)}; points are whole numbers")
    return points
