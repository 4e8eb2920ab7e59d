"""The score keeper's questions before the first hand: the players, the target, the
scoring options; then the new tally."""

from __future__ import annotations

from collections.abc import Sequence

from scopa_net.client.style import text_line
from scopa_net.client.tally_mode import Lines, Mode
from scopa_net.rules import USUAL_TARGETS, Variant
from scopa_net.tally import SCORING_VARIANTS, Tally, TallyError
from scopa_net.typed import shown, small_number
from scopa_net.variant_names import meant


class TallySetup:
    """Part of :class:`~scopa_net.client.tally_controller.TallyController`: its setup."""

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
            return [text_line(f"Target: {usual}, or any 1 to 99 (Enter for 11):")]
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
            return [text_line(f"Scoring options, if any ({names}; Enter for none):")]
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
        out = [text_line(f"New tally: {' v '.join(self.tally.labels)}.", "class:heading")]
        out.append(text_line(f"Rules: {self._rules_words()}."))
        out += self._save()
        out.append(text_line("Type '+1 NAME', 'NAME 3' or 'count' for each hand; 'help' for more."))
        return out
