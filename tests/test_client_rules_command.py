"""``rules``, ``rules VARIANT`` and ``rules tips`` at the prompt: the words a player reads,
drawn from the rules document, and completion of what ``rules`` can explain."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest
from client_fakes import Screen, TableSession
from helpers import deck_dealing
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from scopa_net.client import rulebook
from scopa_net.client.client_state import ClientState
from scopa_net.client.commands import Rules, parse_command
from scopa_net.client.completion import PlayCompleter
from scopa_net.client.controller import Controller
from scopa_net.client.style import Display
from scopa_net.errors import IllegalReason
from scopa_net.match import Match
from scopa_net.rules import RuleSet, Variant


def controller_for(rules: RuleSet) -> tuple[Controller, Screen]:
    match = Match(rules, first_dealer=1)
    match.deal(deck_dealing(rules, 1, {0: "7d 3s Kb"}, "5s 2b 3h 4h"))
    screen = Screen()
    controller = Controller(TableSession(match), Display(), screen.show, lambda: None)
    return controller, screen


class NoCardsYet(TableSession):
    """A session before the first deal, that knows its table's rules."""

    def __init__(self, rules: RuleSet) -> None:
        super().__init__(Match(rules))
        self.rules = rules

    @property
    def view(self) -> None:  # type: ignore[override]
        return None


def test_rules_takes_a_topic() -> None:
    assert parse_command("rules") == Rules(topic="")
    assert parse_command("RULES Napola") == Rules(topic="napola")
    assert parse_command("rules tips") == Rules(topic="tips")


async def test_rules_explains_the_rules_in_play_briefly() -> None:
    controller, screen = controller_for(RuleSet.of(2, 21, ["napola", "cappotto"]))
    await controller.handle_line("rules")
    text = screen.take()
    flat = " ".join(text.split())
    assert flat.startswith("Rules: 2 players, target 21, variants: cappotto, napola.")
    assert "Capture: On your turn you play one card" in flat
    assert "A card that can capture must capture." in flat
    assert "Sweeps: A capture that leaves the table empty is a sweep" in flat
    assert "Scoring (changed by napola, below): At the end of a round each side scores" in flat
    assert "Winning (changed by cappotto, below): A match is played to a target" in flat
    assert "This table plays to 21." in flat
    assert "napola: Adds the score line napola" in flat
    assert "cappotto: A side that has 7 or more match points" in flat
    # Only the variants at this table, and no markdown on screen.
    assert "quindici:" not in flat
    assert "scopone:" not in flat
    assert "`" not in text
    assert "**" not in text
    assert "*sweep*" not in text
    assert "'rules tips'" in flat
    assert len(text.splitlines()) <= 40


async def test_rules_before_the_deal_uses_the_tables_rules() -> None:
    rules = RuleSet.of(4, 16, ["re_bello"])
    screen = Screen()
    controller = Controller(NoCardsYet(rules), Display(), screen.show, lambda: None)
    await controller.handle_line("rules")
    flat = " ".join(screen.take().split())
    assert flat.startswith("Rules: 4 players, target 16, variants: re_bello.")
    assert "re_bello: Adds the score line re_bello" in flat


@pytest.mark.parametrize("variant", list(Variant))
async def test_rules_variant_explains_one(variant: Variant) -> None:
    controller, screen = controller_for(RuleSet.of(2))
    await controller.handle_line(f"rules {variant.value}")
    text = screen.take()
    assert text.startswith(f"Variant {variant.value}:")
    section = rulebook.find(
        rulebook.sections(rulebook.read_document()), variant.value, "Variants and rule options"
    )
    first_words = " ".join(rulebook.lead(section).split()[:6])
    assert first_words in " ".join(text.split())


async def test_rules_on_a_score_line_shows_its_table() -> None:
    controller, screen = controller_for(RuleSet.of(2))
    await controller.handle_line("rules primiera")
    lines = screen.take().splitlines()
    assert lines[0] == "Score line primiera:"
    scale = next(line for line in lines if line.strip().startswith("prime value"))
    assert scale.split()[2:] == ["21", "18", "16", "15", "14", "13", "12", "10", "10", "10"]


async def test_rules_tips_prints_the_strategy_tips() -> None:
    controller, screen = controller_for(RuleSet.of(2))
    await controller.handle_line("rules tips")
    text = screen.take()
    flat = " ".join(text.split())
    assert text.startswith("Strategy tips:")
    assert "Keep the table's total above ten" in flat
    assert "Count the sevens and the sixes" in flat
    assert "Aim to make the last capture" in flat
    assert sum(line.lstrip().startswith("- ") for line in text.splitlines()) >= 5


async def test_an_unknown_topic_says_what_is_known() -> None:
    controller, screen = controller_for(RuleSet.of(2))
    await controller.handle_line("rules frobnicate")
    flat = " ".join(screen.take().split())
    assert "unknown rules topic: 'frobnicate'" in flat
    assert "scopone_scientifico" in flat
    assert "tips" in flat


def test_the_text_fits_a_narrow_terminal_without_breaking_words() -> None:
    rules = RuleSet.of(6, 11, list(Variant)[-1:])
    lines = rulebook.brief(rules, 60) + rulebook.explain("asso_piglia_tutto", 60)
    lines += rulebook.explain("tips", 60)
    path = rulebook.where_the_document_is()  # a path is not cut: alone on a line, if long
    assert all(len(line) <= 60 or line == f"{path}." for line in lines)
    words = set(" ".join(rulebook.brief(rules, 200)).split())
    assert set(" ".join(rulebook.brief(rules, 60)).split()) == words


def complete(text: str) -> list[str]:
    controller, _ = controller_for(RuleSet.of(2))
    state: ClientState = controller.state
    event = CompleteEvent(completion_requested=True)
    return [c.text for c in PlayCompleter(state).get_completions(Document(text), event)]


def test_completion_offers_the_rules_topics() -> None:
    assert complete("rules sc") == ["rules scopone", "rules scopone_scientifico"]
    assert complete("rules t") == ["rules tips"]
    assert complete("rules pr") == ["rules primiera=sum", "rules primiera"]
    everything = complete("rules ")
    assert {f"rules {v.value}" for v in Variant} <= set(everything)
    # The topics are not offered before the command is typed.
    assert "rules napola" not in complete("r")


def test_the_summary_says_which_variants_change_a_rule() -> None:
    flat = " ".join(" ".join(rulebook.brief(RuleSet.of(2, 11, ["quindici", "cappotto"]))).split())
    assert "Capture (changed by quindici, below): On your turn" in flat
    assert "Winning (changed by cappotto, below):" in flat
    assert "Sweeps: A capture" in flat
    assert "Scoring: At the end" in flat


async def test_rules_asso_piglia_tutto_says_the_refusal_in_the_words_a_player_reads() -> None:
    rules = RuleSet.of(2, 11, ["asso_piglia_tutto"])
    match = Match(rules, first_dealer=1)
    match.deal(deck_dealing(rules, 1, {0: "1d 3s Kb"}, "5s 2b 3h 4h"))
    screen = Screen()
    controller = Controller(TableSession(match), Display(), screen.show, lambda: None)
    await controller.handle_line("1d 5s")
    refusal = screen.take()
    said = IllegalReason.ACE_TAKES_ALL.value
    assert said in refusal
    await controller.handle_line("rules asso_piglia_tutto")
    flat = " ".join(screen.take().split())
    assert f"refused with '{said}'" in flat


@pytest.mark.parametrize("variant", list(Variant))
def test_no_rules_text_names_a_refusal_by_its_wire_code(variant: Variant) -> None:
    codes = {reason.name.lower() for reason in IllegalReason}
    words = set(" ".join(rulebook.explain(variant.value, 100)).replace(".", " ").split())
    assert not words & codes


async def test_rules_under_a_players_name_for_a_variant_explains_ours() -> None:
    """`rules napoli` and `rules scopa d'assi` said "unknown rules topic": a player asking
    about the game by the name they know it by is answered, told our name for it."""
    controller, screen = controller_for(RuleSet.of(2))
    await controller.handle_line("rules napoli")
    text = screen.take()
    assert text.startswith("'napoli' is napola here.\nVariant napola:\n")
    await controller.handle_line("rules scopa d'assi")
    assert screen.take().startswith(
        '"scopa d\'assi" is asso_piglia_tutto here.\nVariant asso_piglia_tutto:\n'
    )


def test_rules_says_where_the_whole_rule_book_is_installed() -> None:
    """`rules` ended "RULES.md has the whole rule book", a file a person who installed the
    wheel has nowhere to look for: it names the installed file, which is the rule book."""
    flat = " ".join(" ".join(rulebook.brief(RuleSet.of(2), 200)).split())
    installed = resources.files("scopa_net").joinpath("RULES.md")
    assert isinstance(installed, Path)
    shown = rulebook.where_the_document_is()
    assert flat.endswith(f"the whole rule book is the file {shown}.")
    assert Path(shown).expanduser() == installed
    assert Path(shown).expanduser().read_text(encoding="utf-8") == rulebook.read_document()
