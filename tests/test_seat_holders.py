"""Who held each seat, round by round (scopa_net.seat_holders), and the .names file."""

from __future__ import annotations

from scopa_net.seat_holders import SeatHolders, computer_words, read_names_file

BRUNO, CARLA, DINO, IVO = ("Bruno", True), ("Carla", True), ("Dino", True), ("Ivo", True)
BOT_2, BOT_3 = ("bot 2", False), ("bot 3", False)


def _club_evening() -> SeatHolders:
    """The audit's table: Dino deals round 1, leaves for good in round 3 (the blind round is
    void: a computer stands in as it ends), a computer plays round 4 until Ivo sits down."""
    held = SeatHolders(4)
    for round_no in (1, 2, 3):
        held.round_opened(round_no, [BRUNO, CARLA, DINO, BOT_3])
        if round_no == 3:
            held.seated(2, BOT_2)  # Dino left: the seat_status comes before the round's void
        held.round_closed()
    held.round_opened(4, [BRUNO, CARLA, BOT_2, BOT_3])
    held.seated(2, IVO)
    held.round_closed()
    held.round_opened(5, [BRUNO, CARLA, IVO, BOT_3])
    held.round_closed()
    held.match_over()
    held.seated(2, ("seat 2", False))  # Ivo leaves after the match: he played it all the same
    return held


def test_each_round_names_the_people_who_held_the_seat_in_it() -> None:
    held = _club_evening()
    assert held.round_names(1) == ["Bruno", "Carla", "Dino", "bot 3"]
    assert held.round_names(3) == ["Bruno", "Carla", "Dino", "bot 3"]  # not the stand-in
    assert held.round_names(4) == ["Bruno", "Carla", "Ivo", "bot 3"]
    assert held.match_names() == ["Bruno", "Carla", "Dino, then Ivo", "bot 3"]


def test_a_person_who_left_for_good_and_was_not_replaced_is_followed_by_the_computer() -> None:
    held = SeatHolders(2)
    held.round_opened(1, [("Ada", True), ("Bruno", True)])
    held.seated(1, ("bot 1", False))
    held.round_closed()
    held.round_opened(2, [("Ada", True), ("bot 1", False)])
    assert held.match_names() == ["Ada", "Bruno, then a computer"]  # not a made-up "bot 1"
    assert held.round_names(2) == ["Ada", "bot 1"]


def test_the_names_file_is_as_before_unless_a_seat_changed_hands_and_reads_back() -> None:
    same = SeatHolders(2)
    same.round_opened(1, [("Ada", True), ("bot 1", False)])
    assert same.names_file(["Ada", "bot 1"]) == "Ada\nbot 1\n"

    held = _club_evening()
    text = held.names_file(held.last_names())
    assert text.splitlines()[:5] == ["Bruno", "Carla", "Ivo", "bot 3", held_line(held)]
    back = read_names_file(text, 4)
    assert back is not None
    assert back.of_round(1)[2] == back.of_round(3)[2] == "Dino"
    assert back.of_round(5)[2] == "Ivo"  # no line of its own: the last names (at its end)
    assert back.of_round(None)[2] == "Dino, then Ivo"
    assert read_names_file(text, 2) is None  # another table's
    assert read_names_file("Ada\nBruno\nsomething else\n", 2) is None


def held_line(held: SeatHolders) -> str:
    return "\t".join(["match", *held.match_names()])


def test_the_rounds_a_computer_played_for_a_person_are_kept_in_the_names_file() -> None:
    """Nina went away in round 1 (void) and a computer played round 2 for her: she stays the
    seat's holder, and the rounds a computer played for her go in a ``computer`` line."""

    nina, paolo = ("Nina", True), ("Paolo", True)
    held = SeatHolders(3)
    held.round_opened(1, [paolo, nina, BOT_2])
    held.round_closed()
    held.round_opened(2, [paolo, nina, BOT_2])
    held.computer_played(1)
    held.computer_played(1)
    held.round_closed()
    held.match_over()
    held.computer_played(1)  # after the match: not its
    assert held.match_names() == ["Paolo", "Nina", "bot 2"]
    assert held.computer_rounds() == [[], [2], []]
    text = held.names_file(held.last_names())
    assert text == "Paolo\nNina\nbot 2\ncomputer\t\t2\t\n"
    saved = read_names_file(text, 3)
    assert saved is not None
    assert saved.computer == {1: [2]}
    assert computer_words(saved.last, [[1, 2, 3, 4, 5], [2], []]) == (
        "a computer played for Paolo in rounds 1-5 and for Nina in round 2"
    )
    assert read_names_file("Paolo\nNina\nbot 2\ncomputer\t\tx\t\n", 3) is None


def test_a_computer_that_played_for_two_people_of_a_seat_names_each_for_their_rounds() -> None:
    """A club night: a computer played round 3 for Ivo (away), who then left; Lea took the
    seat and a computer played round 4 for her. History said "a computer played for Ivo, then
    Lea in rounds 3-4": the seat's whole name with all its rounds."""

    lea = ("Lea", True)
    held = SeatHolders(2)
    for round_no in (1, 2, 3):
        held.round_opened(round_no, [BRUNO, IVO])
    held.computer_played(1)
    held.seated(1, ("bot 1", False))  # Ivo gave the seat up
    held.round_closed()
    held.round_opened(4, [BRUNO, ("bot 1", False)])
    held.seated(1, lea)
    held.computer_played(1)
    held.seated(1, ("Lea Rossi", True))  # she renamed herself: the same person
    held.round_closed()
    assert held.match_names() == ["Bruno", "Ivo, then Lea Rossi"]
    assert held.computer_people() == [[], [(3, "Ivo"), (4, "Lea Rossi")]]
    said = computer_words(held.match_names(), held.computer_rounds(), held.computer_people())
    assert said == "a computer played for Ivo in round 3 and for Lea Rossi in round 4"
    # Rounds kept without the people (an older host's): the seat's name, as before.
    assert computer_words(held.match_names(), held.computer_rounds()) == (
        "a computer played for Ivo, then Lea Rossi in rounds 3-4"
    )


def test_the_reader_is_you_where_a_computer_played_for_them() -> None:
    """Bruno read "A computer played for Bruno in round 2." on his own screen."""
    names, rounds = ["Ada", "Bruno"], [[], [2]]
    assert computer_words(names, rounds) == "a computer played for Bruno in round 2"
    assert computer_words(names, rounds, you="Bruno") == "a computer played for you in round 2"
    assert computer_words(names, rounds, you="Ada") == "a computer played for Bruno in round 2"
