"""What the deal check means, in the words a person reads: said once a match, the first
time a round verifies, true to the table (ordinary or blind) and to whose seeds counted; at an
ordinary table with more than one person, that the host sees every hand. Real host, real
client sessions over memory streams (trio's autojump clock), or the whole app over loopback."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import trio
import trio.testing
from app_driver import playing, run_app
from blind_people import People, bruno_steps_away_after_round_1, checks, people_play
from hosting import create, start_host

from scopa_net.client.deal_words import (
    CARDS_CHECKED,
    CHECKED,
    ORDINARY_TABLE,
    OWN_HOST,
    blind_meaning,
    ordinary_meaning,
)
from scopa_net.client.embedded import open_embedded_game
from scopa_net.client.network_session import NetworkSession, TableChoice, open_network_session
from scopa_net.rules import RuleSet

MEANS = "What the deal check means: "

MINE = (
    "What the deal check means: your own random seed went into the shuffle, so the host "
    "could not choose the cards; every card you saw, every play and the score were checked. "
    "At this table the host sees every hand (a blind table, opened with --blind, hides them)."
)

BLIND = (
    "What the deal check means: your client shuffled the deck under its own secret and "
    "opened your cards itself, so nobody, the host included, could choose the deck, swap a "
    "card or see your cards before you played them; every card you saw, every play and the "
    "score were checked. The host does see its computer players' cards: it plays those seats."
)


async def test_an_ordinary_table_of_two_people_says_the_host_sees_every_hand_once(
    autojump_clock: trio.testing.MockClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After each round the tester read only "Deal check: verified (dealer Ada, 36 plays, round
    score 2-4)": nothing said what was checked, nor that this host sees every hand. Now each
    person is told once, at the start, that the host sees every hand, and once, after the
    first round verified, what the check means; every round's own line stays short."""
    people = People(tmp_path, ("Ada", "Bruno"))
    said = people.record_what_each_is_told(monkeypatch)
    await people_play(people, create(RuleSet.of(2, 4)))
    for name in people.names:
        lines = said[name]
        verified = checks(lines)
        assert verified, lines
        assert lines.count(ORDINARY_TABLE) == 1, lines
        assert lines.index(ORDINARY_TABLE) < verified[0], lines
        meant = [line for line in lines if line.startswith(MEANS)]
        assert meant == [MINE], lines
        assert lines.index(MINE) == verified[0] + 1, lines
        assert all(len(lines[n]) < 100 for n in verified), lines


async def test_another_persons_seed_left_out_is_said_once_with_what_it_allows(
    autojump_clock: trio.testing.MockClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bruno steps away after round 1: from round 2 his seed is left out (no_commit), so the
    host could have picked between the deals with and without it (protocol.md 7). Ada is
    told that once, after round 2, beside the first round's meaning; not every round."""
    lines = await bruno_steps_away_after_round_1(tmp_path, monkeypatch)
    assert len(checks(lines)) >= 3, lines
    out = (
        "What the deal check means: your own random seed went into the shuffle, so the host "
        "could not choose the cards (with Bruno's seed left out it could at most have picked "
        "between the deals with and without them); every card you saw, every play and the "
        "score were checked. At this table the host sees every hand (a blind table, opened "
        "with --blind, hides them)."
    )
    assert [line for line in lines if line.startswith(MEANS)] == [MINE, out], lines
    assert lines.index(out) == checks(lines)[1] + 1, lines
    second = lines[checks(lines)[1]]
    assert second.endswith("; seeds left out: Bruno sent no commitment (away, or too late)"), second


def test_a_seat_taken_mid_match_is_not_told_the_plays_were_replayed() -> None:
    """A seat taken mid-match checks each card but replays no play (its deal check says
    "seat taken mid-match"): what it is told the check means does not claim that the plays
    and the score were checked. (The words only: at our host a seat given up mid-match goes
    to a computer player, so a person cannot sit down in it in an end-to-end test.)"""
    _, mine = ordinary_meaning(None, True, (), replayed=False)
    assert mine == MINE.replace(CHECKED, CARDS_CHECKED)
    assert "every card you saw was checked (a seat taken mid-match replays no play)" in mine
    for took_part in (True, False):
        _, blind = blind_meaning(took_part, True, replayed=False)
        assert CARDS_CHECKED in blind
        assert CHECKED not in blind


async def test_a_blind_table_says_what_it_protects_once(
    autojump_clock: trio.testing.MockClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At a blind table (``--blind``, against a computer player) the first round verified
    says what protocol.md 9.10 says it protects, and that the host sees its computer players'
    cards; nothing says the host sees every hand."""
    people = People(tmp_path, ("Ada",))
    said = people.record_what_each_is_told(monkeypatch)
    await people_play(people, create(RuleSet.of(2, 1), bots=1, blind=True))
    for name in people.names:
        lines = said[name]
        verified = checks(lines)
        assert verified, lines
        assert ORDINARY_TABLE not in lines
        assert [line for line in lines if line.startswith(MEANS)] == [BLIND], lines
        assert lines.index(BLIND) == verified[0] + 1, lines
        assert lines[verified[0]].endswith("; blind: Ada and the host"), lines


def test_a_person_alone_with_computer_players_at_a_host_reads_the_meaning_and_the_help(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`scopa-net join` to a host's table against a computer player, the whole app over
    loopback: the first verified round says what the check means, once, and that the host
    sees every hand (there is no line at the start: nobody else's cards to see); `help` says
    where the transcripts are and names `scopa-net verify`."""
    monkeypatch.setenv("HOME", str(tmp_path))  # the help shows the folder under ~
    rules = RuleSet.of(2, 11)  # to 11: several rounds, and one meaning said
    folder: list[Path] = []

    @asynccontextmanager
    async def opener() -> AsyncIterator[NetworkSession]:
        async with trio.open_nursery() as nursery:
            host = await start_host(nursery, bot_delay=0)
            choice = TableChoice(create=create(rules, bots=1))
            async with open_network_session(
                "127.0.0.1", host.port, choice, name="Ada", data_dir=tmp_path / "data"
            ) as session:
                folder.append(session.transcripts_folder)
                yield session
            nursery.cancel_scope.cancel()

    status, text, state = run_app(rules, playing("help\r"), opener=opener, plain=True)
    assert status == 0, text
    assert state.match_over
    assert text.count("Deal check: verified") >= 2, text
    assert text.count(MEANS) == 1, text
    assert " ".join(MINE.split()) in " ".join(text.split()), text
    assert "An ordinary table" not in text
    assert folder == [tmp_path / "data" / "transcripts"]
    help_line = (
        'fair deal: each round\'s deal is checked as it ends (the "Deal check" line). '
        "Transcripts are saved in ~/data/transcripts/; check one any time with scopa-net "
        "verify FILE."
    )
    assert help_line in " ".join(text.split()), text
    assert "Transcript saved: ~/data/transcripts/" in text


def test_at_the_players_own_host_nothing_is_said_of_what_the_host_sees() -> None:
    """`scopa-net play`: the host is the player's own process, so "the host could not choose
    the cards" and "the host sees every hand" would be silly: neither is said. Nothing said
    what the "Deal check" line meant there, though: once, after the first verified round, it
    now says what the check shows all the same, and that it does not prove the host honest."""
    rules = RuleSet.of(2, 11)  # several rounds: said once

    def opener() -> Callable[[], object]:
        return open_embedded_game(rules, name="Ada", level="random", delay=0)

    status, text, _ = run_app(rules, playing(), opener=opener, plain=True)
    assert status == 0
    assert text.count("Deal check: verified") >= 2, text
    assert MEANS not in text
    assert "An ordinary table" not in text
    assert "README" not in text
    flat = " ".join(text.split())
    assert flat.count("What the deal check means here:") == 1, text
    assert " ".join(OWN_HOST.split()) in flat, text
    first = flat.index("Deal check: verified")
    assert flat.index(OWN_HOST) > first
    assert flat.index(OWN_HOST) < flat.index("Deal check: verified", first + 1)


def test_a_seed_left_out_is_said_in_words_with_you_for_ones_own_seat() -> None:
    """A verifier's note names a seed left out by its reason in words, never the protocol's
    code; on a screen the seat is its person's name, "you" for one's own."""
    from types import SimpleNamespace

    from scopa_net.client.table_words import TableWords

    note = (
        "verified; seeds left out: seat 0 sent no commitment (away, or too late), seat 1 "
        "committed but sent no seed in time, seat 2 sent a seed that does not match the "
        "commitment"
    )
    seating = SimpleNamespace(names=["Ada", "Bruno", "Carla"], away_names={})
    words = TableWords(
        SimpleNamespace(_seat=1, _seating=seating), loss_said_after=0, loss_held_for=0
    )
    assert words.named(note) == (
        "verified; seeds left out: Ada sent no commitment (away, or too late), you "
        "committed but sent no seed in time, Carla sent a seed that does not match the "
        "commitment"
    )


def test_the_deal_check_names_one_s_own_deal_as_one_s_own_plays_are_named() -> None:
    """Ada read "Deal check: verified (dealer Ada, ...)" on her own screen, where her plays
    read "You play" and her side "you & Carla"; the others read her name."""
    from types import SimpleNamespace

    from scopa_net.client.table_words import TableWords

    seating = SimpleNamespace(names=["Ada", "Bruno"], away_names={})

    def on_screen_of(seat: int, note: str) -> str:
        session = SimpleNamespace(_seat=seat, _seating=seating)
        return TableWords(session, loss_said_after=0, loss_held_for=0).named(note)

    note = "verified (dealer seat 0, 36 plays, round score 3-1)"
    assert on_screen_of(0, note) == "verified (dealer you, 36 plays, round score 3-1)"
    assert on_screen_of(1, note) == "verified (dealer Ada, 36 plays, round score 3-1)"
    void = "void deal (kings on the table), dealer seat 0; verified"
    assert on_screen_of(0, void) == "void deal (kings on the table), dealer you; verified"
