"""The controller: typed lines to plays and commands, events to text, refusals change nothing."""

from __future__ import annotations

from dataclasses import replace

import pytest
import trio
import trio.testing
from client_fakes import Screen, TableSession
from helpers import match_dealt

from scopa_net.client.asking import Asking
from scopa_net.client.controller import Controller
from scopa_net.client.session import Message, RoundStarted, ViewChanged, VoidDeal
from scopa_net.client.style import Display
from scopa_net.notation import parse_card
from scopa_net.plays import Play, PlayRecord

Table = tuple[TableSession, Controller, Screen, list[str]]


@pytest.fixture
def table() -> Table:
    session = TableSession(match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 3h 4h"))
    screen = Screen()
    quits: list[str] = []
    controller = Controller(session, Display(), screen.show, lambda: quits.append("quit"))
    return session, controller, screen, quits


async def test_a_bare_card_with_one_outcome_is_played(table: Table) -> None:
    session, controller, _, _ = table
    await controller.handle_line("king of clubs")
    taken = (parse_card("2b"), parse_card("3h"), parse_card("5s"))
    assert session.submitted == [Play(parse_card("Kb"), taken)]


async def test_a_card_with_several_groups_asks_which(table: Table) -> None:
    session, controller, screen, _ = table
    await controller.handle_line("settebello")
    text = screen.take()
    assert "more than one group" in text
    assert "1) 7d♦ x 3h♥+4h♥" in text
    assert "2) 7d♦ x 2b♣+5s♠" in text
    assert controller.state.asking is Asking.WHICH_GROUP
    assert session.submitted == []
    await controller.handle_line("2")
    assert session.submitted == [Play(parse_card("7d"), (parse_card("2b"), parse_card("5s")))]
    assert controller.state.asking is Asking.NOTHING


async def test_the_group_can_be_typed_after_the_card(table: Table) -> None:
    session, controller, _, _ = table
    await controller.handle_line("7d x 4h 3h")
    assert session.submitted == [Play(parse_card("7d"), (parse_card("3h"), parse_card("4h")))]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("Jd", "illegal play: 'Jd': that card is not in your hand"),
        # Carla read "a card you named is not on the table", and looked for which one.
        ("7d x 5s+2s", "illegal play: '7d x 2s+5s': 2s is not on the table"),
        ("7d x 6s+Ad", "illegal play: '7d x Ad+6s': Ad and 6s are not on the table"),
        ("7d x 5s", "illegal play: '7d x 5s': those cards do not add up"),
        ("8d", "invalid card: '8d'"),
        ("frobnicate", "'frobnicate' is not a card or a command"),
        ("sya hello", "unknown command 'sya': did you mean 'say'?"),
        ("hlep", "unknown command 'hlep': did you mean 'help'?"),
        ("4", "You hold no card of rank 4."),
        ("9", "You hold no card of value 9."),
        ("12", "invalid choice: 12: there is nothing to choose from"),
    ],
)
async def test_refusals_say_why_and_change_nothing(table: Table, line: str, message: str) -> None:
    session, controller, screen, _ = table
    before = session.view
    await controller.handle_line(line)
    assert message in screen.take()
    assert session.submitted == []
    assert session.view == before


async def test_a_rank_held_three_times_is_listed_as_a_sentence_lists() -> None:
    """Bruno typed `K` holding three kings and read "You hold Kd♦ and Kh♥ and Kb♣: type the
    one to play."; the cards are listed as a sentence lists them, and nothing is played."""
    session = TableSession(match_dealt({0: "Kd Kh Kb", 1: "2h 2s Jd"}, "5s 2b 3h 4h"))
    screen = Screen()
    controller = Controller(session, Display(), screen.show, lambda: None)
    await controller.handle_line("K")
    assert screen.take() == "You hold Kd♦, Kh♥ and Kb♣: type the one to play."
    assert session.submitted == []


HOW_TO_TYPE_A_CARD = "a card is a rank and a suit, such as 7 of coins or 7d"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("seven", f"invalid card: 'seven': {HOW_TO_TYPE_A_CARD}"),
        ("coins", f"invalid card: 'coins': {HOW_TO_TYPE_A_CARD}"),
        ("seven of coinz", f"invalid card: 'seven of coinz': {HOW_TO_TYPE_A_CARD}"),
        ("sevn", f"invalid card: 'sevn': {HOW_TO_TYPE_A_CARD}"),
        ("leav", "unknown command 'leav' (type 'help' for the commands)"),
        ("quiet", "unknown command 'quiet' (type 'help' for the commands)"),
        ("exot", "unknown command 'exot' (type 'help' for the commands)"),
    ],
)
async def test_a_word_near_leaving_is_never_offered_and_card_words_get_how(
    table: Table, line: str, message: str
) -> None:
    """Luca typed `seven` and read "did you mean 'leave'?": a word mistyped never gets
    leaving offered, and a rank or a suit typed alone gets how to type a card."""
    session, controller, screen, _ = table
    await controller.handle_line(line)
    said = screen.take()
    assert message in said
    for leaving in ("leave", "quit", "exit"):
        assert leaving not in said
    assert session.submitted == []


async def test_score_after_the_match_says_it_is_over(table: Table) -> None:
    """Once a side has won, ``score`` no longer says the match is "playing to 11"."""
    _, controller, screen, _ = table
    controller.state.scores = (11, 4)
    await controller.handle_line("score")
    assert "Match score: Ada: 11, Bot 1: 4; match over (played to 11)." in screen.take()


async def test_score_after_taking_a_seat_back_says_the_sheet_is_not_known(table: Table) -> None:
    """Back in a seat mid-match, ``score`` said "No round of this match is scored yet" though
    round 1 had been scored 4-2 (the match score line below it said so)."""
    session, _, screen, _ = table
    session.match.scores = [4, 2]
    controller = Controller(session, Display(color=False), screen.show, list, plain=True)
    await controller.handle_line("score")
    assert screen.take() == (
        "The last round's sheet is not known after taking the seat back (the host sends only "
        "the board); the match score is below.\n"
        "Match score: Ada: 4, Bot 1: 2 (playing to 11)."
    )


async def test_quit_asks_first_during_a_match(table: Table) -> None:
    _, controller, screen, quits = table
    await controller.handle_line("quit")
    assert "Really leave?" in screen.take()
    await controller.handle_line("n")
    assert quits == []
    assert controller.state.asking is Asking.NOTHING
    await controller.handle_line("quit")
    await controller.handle_line("yes")
    assert quits == ["quit"]


async def test_commands_report_the_game(table: Table) -> None:
    session, controller, screen, _ = table
    await controller.handle_line("score")
    # "Bot 1 0" read as one name: where a name ends in a digit each score follows a colon.
    assert "Match score: Ada: 0, Bot 1: 0 (playing to 11)." in screen.take()
    await controller.handle_line("rules")
    assert "Rules: 2 players, target 11, variants: none." in screen.take()
    await controller.handle_line("who")
    assert screen.take() == "Seat 0: Ada (you)\nSeat 1: Bot 1"
    await controller.handle_line("say ciao a tutti")
    assert session.said == ["ciao a tutti"]
    await controller.handle_line("help")
    assert "settebello" in screen.take()


async def test_events_print_plays_and_the_board_on_my_turn(table: Table) -> None:
    session, controller, screen, _ = table
    controller.handle_event(RoundStarted(view=session.view))
    assert "Your turn." in screen.take()
    record = session.match.play(parse_card("3s"), 0)
    controller.handle_event(ViewChanged(view=session.view, record=record))
    assert screen.take() == "You play 3s♠ x 3h♥"
    record = session.match.play(parse_card("2h"), 1)
    controller.handle_event(ViewChanged(view=session.view, record=record))
    text = screen.take()
    assert text.startswith("Bot 1 plays 2h♥ x 2b♣")
    assert text.endswith("Your turn.")
    await controller.handle_line("last")
    assert screen.take() == "You play 3s♠ x 3h♥\nBot 1 plays 2h♥ x 2b♣"
    controller.handle_event(Message(seat=1, text="buona fortuna"))
    assert screen.take() == "<Bot 1> buona fortuna"


async def test_plain_mode_speaks_in_sentences(table: Table) -> None:
    session, _, screen, _ = table
    controller = Controller(
        session, Display(color=False, glyphs=False), screen.show, list, plain=True
    )
    record = session.match.play(parse_card("3s"), 0)
    controller.handle_event(ViewChanged(view=session.view, record=record))
    assert screen.take() == "You played 3 of swords, taking 3 of cups."


async def test_plain_mode_says_who_chats_without_brackets(table: Table) -> None:
    """A screen reader read "<Ada> good luck" as "less than Ada greater than good luck"."""
    session, _, screen, _ = table
    controller = Controller(session, Display(color=False), screen.show, list, plain=True)
    controller.handle_event(Message(seat=1, text="good luck Ada!"))
    assert screen.take() == "Bot 1 says: good luck Ada!"


async def test_plain_mode_gives_table_news_its_own_lead_in(table: Table) -> None:
    """In plain mode "Table:" began both the cards on the table and the table's news ("Table:
    Ada sat down at the table"): the news begins "News:" there."""
    session, _, screen, _ = table
    controller = Controller(session, Display(color=False), screen.show, list, plain=True)
    controller.handle_event(Message(seat=None, text="Carla sat down at the table", table=True))
    assert screen.take() == "News: Carla sat down at the table"
    sighted = Controller(session, Display(color=False), screen.show, list)
    sighted.handle_event(Message(seat=None, text="Carla sat down at the table", table=True))
    assert screen.take() == "Table: Carla sat down at the table"


async def test_plain_mode_names_cards_in_the_choice_and_the_hint(table: Table) -> None:
    """Card codes leaked into plain mode's words: "(such as 7d x 5s+2b)", "Hint: 7s x 2d+5s.
    7s takes 2d+5s ...". There they are said as the board says them, and the example given is
    one of the groups offered, typed back as it reads."""
    session, _, screen, _ = table
    controller = Controller(
        session, Display(color=False, glyphs=False), screen.show, list, plain=True
    )
    await controller.handle_line("settebello")
    assert screen.take().splitlines()[-1] == (
        "Type the number, or the card with the group (such as 7 of coins takes 3 of cups, "
        "4 of cups)."
    )
    await controller.handle_line("7 of coins takes 3 of cups, 4 of cups")
    assert session.submitted == [Play(parse_card("7d"), (parse_card("3h"), parse_card("4h")))]
    session.match = match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 3h 4h")
    await controller.handle_line("hint")
    assert screen.take() == (
        "Hint: 7 of coins takes 2 of clubs, 5 of swords. 7 of coins takes 2 of clubs and "
        "5 of swords (winning the settebello) and leaves 7 on the table: a 7 would sweep it, "
        "3 still unseen."
    )


class LeavingSession(TableSession):
    """A table session at a host: it can leave for good or step away."""

    def __init__(self, *args: object) -> None:
        super().__init__(*args)  # type: ignore[arg-type]
        self.left: list[bool] = []
        self.can_step_away = True

    async def leave(self, *, away: bool) -> None:
        self.left.append(away)


@pytest.mark.parametrize(("answer", "away"), [("leave", False), ("away", True)])
async def test_the_leave_question_is_answered_once_and_nothing_else(
    answer: str, away: bool
) -> None:
    session = LeavingSession(match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 3h 4h"))
    screen = Screen()
    quits: list[str] = []
    controller = Controller(session, Display(), screen.show, lambda: quits.append("quit"))
    await controller.handle_line("quit")
    assert "Type leave, away, or stay." in screen.take()
    await controller.handle_line(answer)
    text = screen.take()
    # The answer is taken as the answer, not as a card as well.
    assert "invalid card" not in text
    assert session.left == [away]
    assert quits == ["quit"]
    assert session.submitted == []


async def test_without_a_kept_seat_quit_only_confirms(table: Table) -> None:
    """Against this process's own host nothing is kept on disk: no 'step away' is offered."""
    _, controller, screen, _ = table
    await controller.handle_line("quit")
    text = screen.take()
    assert "Really leave?" in text
    assert "away" not in text


@pytest.mark.parametrize(
    ("suits", "examples", "ranks"),
    [
        ("english", "7d, 7 of coins, settebello...", "(7, K)"),
        ("italian", "7d, 7 di denari, settebello...", "(7, R)"),
    ],
)
async def test_help_gives_its_examples_in_the_screens_own_names(
    suits: str, examples: str, ranks: str
) -> None:
    """With --suits italian the help still said "7 coins" and "(7, K)", names that screen
    does not show (its king is R)."""
    from scopa_net.client.style import SuitNames

    session = TableSession(match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 3h 4h"))
    screen = Screen()
    controller = Controller(session, Display(suits=SuitNames(suits)), screen.show, lambda: None)
    await controller.handle_line("help")
    text = screen.take()
    assert f"Type a card to play it: {examples}" in text
    assert f"A rank alone {ranks} plays your only card of that rank." in text
    await controller.handle_line(examples.split(", ")[1])  # the long name given is taken
    assert controller.state.asking is Asking.WHICH_GROUP, screen.take()


async def test_enter_alone_at_a_question_says_what_it_takes(table: Table) -> None:
    """At "1-2?" Enter alone asked again without a word, and nothing said how to back out."""
    _, controller, screen, _ = table
    await controller.handle_line("settebello")
    screen.take()
    await controller.handle_line("")
    assert screen.take() == (
        "Type a number from 1 to 2, or the card with its group; Ctrl-C drops the choice."
    )
    assert controller.state.asking is Asking.WHICH_GROUP
    controller.state.asking = Asking.NOTHING
    await controller.handle_line("")
    assert screen.take() == ""  # at the game's own prompt Enter alone is nothing


async def test_a_word_that_is_no_answer_at_a_choice_says_what_the_choice_wants(
    table: Table,
) -> None:
    """At "1-2?" a stray word read "'xyzzy' is not a card or a command (type 'help' for the
    commands)", the game prompt's words: nothing said the question still waits, nor how to
    answer it. A command still runs there."""
    session, controller, screen, _ = table
    await controller.handle_line("settebello")
    screen.take()
    await controller.handle_line("xyzzy")
    assert screen.take() == (
        "'xyzzy' is not one of the choices. Type a number from 1 to 2, or the card with its "
        "group; Ctrl-C drops the choice."
    )
    assert controller.state.asking is Asking.WHICH_GROUP
    await controller.handle_line("board")
    assert "Table" in screen.take()
    assert controller.state.asking is Asking.WHICH_GROUP
    assert session.submitted == []


def test_up_brings_back_commands_not_the_answers_to_questions() -> None:
    """Up at the game's prompt brought back "3", typed at a "1-3?" question before."""
    from scopa_net.client.app import CommandHistory

    answering = [False]
    history = CommandHistory(lambda: answering[0])
    history.append_string("settebello")
    answering[0] = True
    history.append_string("2")  # the group picked at "1-2?"
    answering[0] = False
    history.append_string("board")
    assert history.get_strings() == ["settebello", "board"]


class LateAcks(TableSession):
    """A session whose host shows each play at once but acknowledges it only when told."""

    def __init__(self, match: object) -> None:
        super().__init__(match)  # type: ignore[arg-type]
        self.acked = trio.Event()

    async def submit(self, play: Play) -> PlayRecord:
        record = await super().submit(play)
        await self.acked.wait()
        return record


async def test_a_move_is_on_its_way_until_the_screen_shows_it() -> None:
    """A move typed while the last is unanswered is refused at once; once the last play is
    on the screen (the host's event came before its ack), the next turn's move is taken."""
    session = LateAcks(match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 3h 4h"))
    screen = Screen()
    controller = Controller(session, Display(), screen.show, lambda: None)
    async with trio.open_nursery() as nursery:
        controller.send_moves_from(nursery)
        await controller.handle_line("Kb")
        await trio.testing.wait_all_tasks_blocked()  # sent: waiting for the ack
        await controller.handle_line("3s")
        refused = "Your last move (Kb x 2b+3h+5s) is still on its way to the host: wait for its"
        # Said in the order it happened: the move went, then the next was refused.
        assert screen.take().startswith(f"Sent Kb x 2b+3h+5s; waiting for the host...\n{refused}")
        controller.handle_event(ViewChanged(view=session.view, record=None))  # Kb shown
        session.match.play(Play(parse_card("2h"), ()), 1, exact=True)
        controller.handle_event(ViewChanged(view=session.view, record=None))  # your turn
        screen.take()
        await controller.handle_line("3s")
        assert "on its way" not in screen.take()
        session.acked.set()
    assert [p.card for p in session.submitted] == [parse_card("Kb"), parse_card("3s")]


async def test_help_on_a_narrow_screen_wraps_each_description_under_its_own_text() -> None:
    """At 60 columns `hint` and `rules` stood alone, their descriptions unindented below."""
    from scopa_net.client.render import plain, wrap_line

    shown: list[str] = []

    def narrow(lines: object) -> None:
        shown.extend(plain([part]) for line in lines for part in wrap_line(line, 60))  # type: ignore[attr-defined]

    session = TableSession(match_dealt({0: "7d 3s Kb", 1: "2h 2s Jd"}, "5s 2b 3h 4h"))
    controller = Controller(session, Display(), narrow, lambda: None)
    await controller.handle_line("help")
    hint = next(i for i, line in enumerate(shown) if line.startswith("  hint"))
    assert shown[hint : hint + 4] == [
        "  hint   the play the strongest computer player would make,",
        "         and why",
        "  rules  the rules in play; rules VARIANT explains one;",
        "         rules tips",
    ], shown


async def test_a_void_deal_lists_the_kings_only(table: Table) -> None:
    """ "Void deal: three or more kings on the table (6d, Kh, Ks, Kb)" listed the 6 among
    the kings."""
    session, controller, screen, _ = table
    opening = tuple(parse_card(c) for c in ["6d", "Kh", "Ks", "Kb"])
    controller.handle_event(VoidDeal(view=replace(session.view, table=opening)))
    said = screen.take()
    assert "Void deal: three kings on the table (Kh♥, Ks♠, Kb♣). Dealing again." in said, said
    assert "6d" not in said
