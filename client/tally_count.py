"""A hand counted line by line (``count``): each question asked and answered, undone,
changed after a "no" at the sheet, or stopped."""

from __future__ import annotations

from scopa_net.client.style import text_line
from scopa_net.client.tally_mode import Lines, Mode
from scopa_net.tally import Guide, TallyError
from scopa_net.typed import shown, small_number


class TallyCount:
    """Part of :class:`~scopa_net.client.tally_controller.TallyController`: the count."""

    def _numbered_answers(self) -> Lines:
        return [
            *(text_line(f"  {n}. {said}") for n, said in enumerate(self._said, 1)),
            text_line(
                f"Which to change? A number, 1 to {len(self._said)} (the others are kept); "
                "Enter shows the hand again, 'cancel' drops the count.",
                "class:prompt",
            ),
        ]

    def _change(self, text: str) -> Lines:
        """After "no" to a counted hand: go back to the question the person names."""
        word = text.lower()
        if word in {"quit", "exit"}:
            return [text_line("The count is dropped."), *self.leave()]
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
        kept = [text_line("The answers after it are kept where they still fit.")] if later else []
        return [*self._question(), *kept]

    def _question(self, *, kept: bool = True) -> Lines:
        """The count's question, with the person's earlier answer to it when they went back
        (unless ``kept`` is False: it was just refused)."""
        assert self.guide is not None
        out = [text_line(self.guide.question, "class:prompt")]
        if kept and len(self._answers) < len(self._earlier):
            out.append(text_line(f"It was '{self._earlier[len(self._answers)]}': Enter keeps it."))
        return out

    def _stop_count(self) -> Lines:
        self.mode = Mode.ENTER
        self.guide = None
        self._answers, self._said, self._earlier, self._replay = [], [], [], False
        return [text_line("Count stopped; nothing was scored.")]

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
            return [text_line("The count is dropped."), *self.leave()]
        if word in {"help", "?"}:
            return [
                text_line("Answer the question; 'undo' goes back one, 'cancel' stops the count."),
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
        out = [text_line(self._take(text))]
        while self._replay and not guide.done and len(self._answers) < len(self._earlier):
            try:  # after a change: the person's later answers, typed again for them
                out.append(text_line(self._take(self._earlier[len(self._answers)])))
            except TallyError as exc:
                earlier = self._earlier[len(self._answers)]
                self.refused = True  # asked again: a script's next line would not answer it
                return [
                    *out,
                    text_line(f"Your answer '{earlier}' no longer fits: {exc}", "class:error"),
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
