"""What the score keeper shows of a tally: a hand's sheet, the standings, the hands, the
players and rules; in columns, or in sentences with --plain or where a row would wrap."""

from __future__ import annotations

from collections.abc import Sequence

from prompt_toolkit.formatted_text import FormattedText, fragment_list_to_text

from scopa_net.client.scoresheet import points_to, suits_decided
from scopa_net.client.style import text_line
from scopa_net.client.tally_mode import Lines
from scopa_net.names import display_width
from scopa_net.scoring import PRIMIERA_LINE, RoundScore
from scopa_net.tally import LINE_NAMES, Hand, Tally, sheet_rows

SCORE_IT = "Score this hand?"
"""Asked after a hand's sheet (y/n)."""


class TallySheets:
    """Part of :class:`~scopa_net.client.tally_controller.TallyController`: what it shows."""

    def _sheet(self, hand: Hand) -> Lines:
        tally = self.tally
        assert tally is not None
        labels = tally.labels
        out = [text_line(f"Hand {tally.hand_number}:", "class:heading")]
        if hand.sheet is not None:
            width = max(8, *(display_width(label) for label in labels))
            head = "".join(_right(label, width + 2) for label in labels)
            table = [text_line(f"  {'':<11}{head}")]
            for name, figures, who in sheet_rows(tally, hand.sheet):
                cells = "".join(f"{f:>{width + 2}}" for f in figures)
                table.append(text_line(f"  {name:<11}{cells}   {who}"))
            cells = "".join(f"{p:>{width + 2}}" for p in hand.points)
            table.append(text_line(f"  {'Points':<11}{cells}", "class:label"))
            out += self._sentences(hand.sheet) if self._too_wide(table) else table
            primiera = next((x for x in hand.sheet.lines if x.name == PRIMIERA_LINE), None)
            if primiera is not None and hand.suits:
                why = suits_decided(tally.rules, primiera, hand.suits, labels)
                out += [self._row("", why)] if why else []
        else:
            out.append(text_line("  " + self._each(hand.points)))
        after = [s + p for s, p in zip(tally.scores, hand.points, strict=True)]
        row = self._row("After it: ", f"{self._each(after)}. {SCORE_IT}", "class:prompt")
        if self._too_wide([row]) and not self.plain:  # the question at the left, not under
            row = self._row("After it: ", f"{self._each(after)}.")  # the scores, as one
            return [*out, row, text_line(SCORE_IT, "class:prompt")]
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
        out = [text_line(f"{head} (playing to {tally.rules.target}):", "class:heading")]
        width = max(display_width(r.label) for r in tally.standings())
        table, sentences = [], []
        rows = tally.standings()
        for row in rows:
            # Sides level on points share a place ("1. ... 1. ..."), as a tie is read.
            place = next(j for j, other in enumerate(rows, 1) if other.points == row.points)
            to_go = f"{row.to_go} to go" if row.to_go else "target reached"
            to_go = "" if row.to_go and tally.over else to_go  # the game is won
            label = row.label + " " * (width - display_width(row.label))
            table.append(
                text_line(f"  {place}. {label} {row.points:>3}" + f"   {to_go}" * bool(to_go))
            )
            points = f"{row.points} point{'s' * (row.points != 1)}"
            sentences.append(
                text_line(f"{place}. {row.label}: {points}" + f", {to_go}" * bool(to_go) + ".")
            )
        out += sentences if self._too_wide(table) else table
        style = "class:winner" if tally.over else ""
        out.append(text_line(tally.status(), style))
        return out

    def _hands(self) -> Lines:
        tally = self.tally
        assert tally is not None
        if not tally.hands:
            return [text_line("No hands scored yet.")]
        out = []
        for i, hand in enumerate(tally.hands, 1):
            points = ", ".join(f"{lb} {p}" for lb, p in zip(tally.labels, hand.points, strict=True))
            out.append(text_line(f"  Hand {i}: {points} ({hand.how.value})"))
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


def _right(text: str, columns: int) -> str:
    """``text`` right-aligned in ``columns`` terminal columns (a wide character takes two)."""
    return " " * (columns - display_width(text)) + text


def so_far(tally: Tally) -> str:
    """The open hand's quick points: "Hand 3 so far: Ada 2, Bruno 0"."""
    points = ", ".join(
        f"{label} {p}" for label, p in zip(tally.labels, tally.draft_points, strict=True)
    )
    return f"Hand {tally.hand_number} so far: {points}"
