"""Our whole client app against a cheating host written from protocol.md alone
(``document_cheating_host``, over real loopback TCP): each way the host tries to bias or
re-roll a deal is caught, the person reads one banner that names it and what it means, the
evidence is saved, and ``scopa-net verify`` refuses it."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import trio
from app_driver import playing, run_app
from document_cheating_host import FORGED_MOVE_ID, REROLLED, CheatingHost
from document_referee import Table
from helpers import SeededSecrets, verify_pinned
from hosting import bruno_leaves_once_dealt

from scopa_net.bots.levels import make_player
from scopa_net.client import network_session
from scopa_net.client.bot_client import play_as_bot
from scopa_net.client.launch import session_failure
from scopa_net.client.network_session import NetworkSession, TableChoice, open_network_session
from scopa_net.client.session_errors import TableClosedError
from scopa_net.commands.main import main
from scopa_net.commands.options import EXIT_DEAL_FAILED, EXIT_FAILED
from scopa_net.fair.commitments import fingerprint
from scopa_net.fair.transcript import decode
from scopa_net.rules import RuleSet

PLAY_WORDS = r"\w+ (laying it on the table|taking \w+((, \w+)* and \w+)?)"
"""A play in words, as the client says it: ``Qh taking Ad, 3h and 5d`` (commas and all)."""

LONG_MATCH = 16
"""A target no side reaches in round 1, so that the round a host re-rolls (2) is played."""


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The client's data directory (pinned keys, transcripts), never the real one."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "scopa-net"


async def bruno(host: CheatingHost) -> None:
    """One of our computer players, sent by our bots code over a real client, in seat 1."""
    async with open_network_session(
        "127.0.0.1", host.port, TableChoice(table_id=1, seat=1), name="Bruno"
    ) as session:
        await play_as_bot(session, make_player("greedy", 3))


async def bruno_who_leaves(host: CheatingHost) -> None:
    """Bruno (over a real client) sits in seat 1 and leaves for good once round 1 is dealt:
    his seat opens, and the host's computer plays it."""
    await bruno_leaves_once_dealt(host.port)


def ada_at(
    cheat: str,
    data_dir: Path,
    *,
    target: int = LONG_MATCH,
    host_bot: bool = False,
    seat_1: Callable[[CheatingHost], Awaitable[None]] = bruno,
    hosts: list[CheatingHost] | None = None,
    offer_rematch: bool = False,
) -> tuple[int, str, CheatingHost]:
    """Ada's whole client app, in seat 0 of a 2-player table at a host that cheats so; seat 1
    is ``seat_1`` (by default Bruno, our computer player over the network) or, with
    ``host_bot``, the host's own computer player. Her exit status, her screen, the host
    (also put in ``hosts``, for a session that ends in an error). ``offer_rematch``: she stays
    for the vote on playing again after the match, and answers no."""
    hosts = [] if hosts is None else hosts

    @asynccontextmanager
    async def opener() -> AsyncIterator[NetworkSession]:
        async with trio.open_nursery() as nursery:
            host = CheatingHost(cheat)
            await host.start(nursery)
            host.open_table(Table(2, target, frozenset()), bots=1 if host_bot else 0)
            hosts.append(host)
            if not host_bot:
                nursery.start_soon(seat_1, host)
            async with open_network_session(
                "127.0.0.1", host.port, TableChoice(table_id=1, seat=0), name="Ada",
                data_dir=data_dir, offer_rematch=offer_rematch,
            ) as session:  # fmt: skip
                yield session
            nursery.cancel_scope.cancel()

    status, text, _ = run_app(RuleSet.of(2, target), playing(), opener=opener, plain=True)
    return status, text, hosts[0]


def banner(text: str) -> str:
    """The failed check's banner line (from its first words: the app's screen here is a plain
    stream, where the prompt the banner interrupts may stand before it on the same line)."""
    (line,) = [line.strip() for line in text.splitlines() if "DEAL CHECK FAILED" in line]
    return line[line.index("DEAL CHECK FAILED") :]


def verify_evidence(data_dir: Path, host: CheatingHost, capsys: pytest.CaptureFixture[str]) -> str:
    """What ``scopa-net verify`` prints for the evidence Ada's client saved (it must refuse)."""
    (evidence,) = (data_dir / "transcripts").glob("*-FAILED.scopa")
    status, out = verify_pinned(host.key, evidence, capsys)
    assert status == 1, out
    assert out.rstrip().endswith("NOT VERIFIED"), out
    return out


def test_a_round_opened_again_after_its_seeds_stops_the_client(
    data_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The host takes round 2's seeds, sees the deal they give, and opens round 2 again with
    a fresh shuffle (same number, same link). Before the fix our client took the new
    commitment as the round, played it, said "the host could not choose the cards", and the
    transcript verified."""
    status, text, host = ada_at("recommit", data_home)
    assert status == EXIT_DEAL_FAILED, text
    assert re.fullmatch(
        rf"DEAL CHECK FAILED in round {REROLLED}: re-rolled round: round {REROLLED} \(round "
        rf"id [0-9a-f]{{32}}\) was opened while round {REROLLED} \(round id [0-9a-f]{{32}}\) was "
        rf"still in play: the host threw round {REROLLED} away after the seeds were relayed, "
        "without a reveal",
        banner(text),
    ), banner(text)
    assert (
        "What this means: the host threw away a round it had opened and opened it again with a "
        "new shuffle: a host that does this can shuffle until it likes the deal" in text
    )
    assert "The game stops here: this host's deal cannot be trusted." in text
    out = verify_evidence(data_home, host, capsys)
    assert f"saved as evidence when the client stopped: round {REROLLED}, re-rolled round" in out


def test_a_round_opened_again_behind_a_snapshot_stops_the_client(
    data_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The host takes round 2's seeds, cuts Ada's connection, catches her up by snapshot (a
    host's choice, protocol.md 3.4: her checks of the round under way are then off) and opens
    round 2 again. Before the fix her client took the new round 2 as the next one to check
    and played on."""
    status, text, host = ada_at("snapshot_recommit", data_home, host_bot=True)
    assert status == EXIT_DEAL_FAILED, text
    assert re.fullmatch(
        rf"DEAL CHECK FAILED in round {REROLLED}: re-rolled round: round {REROLLED} was "
        rf"opened again \(round id [0-9a-f]{{32}}\), after round {REROLLED} had been opened: "
        "round numbers only go up",
        banner(text),
    ), banner(text)
    out = verify_evidence(data_home, host, capsys)
    assert f"saved as evidence when the client stopped: round {REROLLED}, re-rolled round" in out


@pytest.mark.parametrize("cheat", ["bot_seed", "bot_seed_withheld"])
def test_a_seed_for_the_hosts_own_computer_player_stops_the_client(
    cheat: str, data_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The host commits a seed of its own for its computer player's seat (protocol.md 5.4:
    only people's seats send seeds), then reveals it or, having seen Ada's seed, leaves it out:
    a choice between two deals. Before the fix our client let it count (or be left out) and
    said "the host could not choose the cards"; the transcript verified."""
    status, text, host = ada_at(cheat, data_home, target=1, host_bot=True)
    assert status == EXIT_DEAL_FAILED, text
    assert banner(text) == (
        "DEAL CHECK FAILED in round 1: computer seed: round 1: the host relayed a seed "
        "commitment for bot 1, a computer player's seat; only people's seats send seeds"
    )
    assert (
        "What this means: the host put a seed of its own choosing into the shuffle, for a "
        "computer player it plays: by keeping that seed in or leaving it out after seeing the "
        "players' seeds it can pick between two deals." in text
    )
    out = verify_evidence(data_home, host, capsys)
    assert "saved as evidence when the client stopped: round 1, computer seed" in out


SLIPPED_SEEDS: dict[str, tuple[Callable[[CheatingHost], Awaitable[None]] | None, int, str]] = {
    "bot_seed": (
        None,  # seat 1 is the host's computer player
        1,
        "computer seed: round 1: the host relayed a seed commitment for seat 1, a "
        "computer player's seat; only people's seats send seeds",
    ),
    "absent_seed": (
        bruno_who_leaves,
        2,
        "absent seat seed: round 2: the host relayed a seed commitment for seat 1, "
        "though no player's client has held that seat since the round began; only a "
        "person's own client sends their seed",
    ),
}
"""By cheat: who sits in seat 1 (None: the host's computer player), the round the host slips
a seed into, and the failure ``verify`` reads there."""


@pytest.mark.parametrize("cheat", SLIPPED_SEEDS)
def test_a_seed_slipped_in_for_a_seat_no_person_held_is_refused_by_verify_alone(
    cheat: str, data_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The transcript Ada's client saved, without its own word on what stopped it (as a
    client that does not check on arrival would have saved it): ``verify`` alone reads who
    could send each seed from it (protocol.md 6.1 ``seated``) and refuses the round, naming
    the seat. Before the transcript kept it, the round read only "not revealed"."""
    seat_1, round_no, failed = SLIPPED_SEEDS[cheat]
    if seat_1 is None:
        status, text, host = ada_at(cheat, data_home, target=1, host_bot=True)
    else:
        status, text, host = ada_at(cheat, data_home, seat_1=seat_1)
    assert status == EXIT_DEAL_FAILED, text
    (evidence,) = (data_home / "transcripts").glob("*-FAILED.scopa")
    saved = decode(evidence.read_bytes())
    assert saved.rounds[-1].seated is not None
    alone = tmp_path / "ada.scopa"  # no names beside it, no stopped: the record alone
    alone.write_bytes(dataclasses.replace(saved, stopped=None).encode())
    capsys.readouterr()
    assert main(["verify", "--quiet", "--pin", fingerprint(host.key), str(alone)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert f"  round {round_no}: FAILED: {failed}" in out, out
    assert out[-1] == "NOT VERIFIED"
    assert not [line for line in out if "saved as evidence" in line]


def test_a_match_ended_early_stops_the_client_before_it_shows_a_winner(
    data_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """After round 1 of a match to 16 the host signs a ``match_end`` naming Ada's side the
    winner. Before the fix our client checked only the signature and said "You win the match,
    1 to 3"; only ``scopa-net verify`` of the transcript found the lie."""
    status, text, host = ada_at("early_end", data_home)
    assert status == EXIT_DEAL_FAILED, text
    assert re.fullmatch(
        r"DEAL CHECK FAILED in round 1: score mismatch: the host ended the match naming "
        r"the side of Ada the winner, with scores \[(\d+), (\d+)\]; the rounds played give "
        r"scores \[\1, \2\], nobody the winner \(playing to 16\)",
        banner(text),
    ), banner(text)
    assert "wins the match" not in text
    assert "You win" not in text
    out = verify_evidence(data_home, host, capsys)
    assert "match result: FAILED: score mismatch" in out


def test_a_round_opened_again_after_the_host_put_its_events_back_stops_the_client(
    data_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The host takes round 2's seeds, cuts Ada off and acts as a host whose journal was put
    back from an older copy (protocol.md 3.3): her ``resume`` gets ``stale``, her client
    follows the host's events again from the start, and the host opens round 2 again with a
    fresh shuffle. Before the fix her client, checking from the start anew, took the new round
    2, played the match out and saved a transcript that verified."""
    status, text, host = ada_at("journal_lost", data_home, host_bot=True)
    assert status == EXIT_DEAL_FAILED, text
    assert "it was started again from an older copy of its journal, it seems" in text
    assert re.fullmatch(
        rf"DEAL CHECK FAILED in round {REROLLED}: re-rolled round: round {REROLLED} was "
        rf"opened again \(round id [0-9a-f]{{32}}\) after the host put its events back to an "
        rf"older copy: before that this seat saw round {REROLLED} opened \(round id "
        r"[0-9a-f]{32}\) and the seeds' commitments relayed, so the host could have seen that "
        "deal",
        banner(text),
    ), banner(text)
    out = verify_evidence(data_home, host, capsys)
    assert f"round {REROLLED}: FAILED: not revealed" in out


def test_a_seed_the_host_says_never_came_is_said_at_once_with_what_it_means(
    data_home: Path,
) -> None:
    """The host reads Ada's seed, sends no receipt, and leaves it out (``no_reveal``): the one
    choice protocol.md section 7 says a host keeps. Nothing stops, but Ada reads at once what
    it lets the host do and what to do, and her deal check line does not say as fact that her
    seed did not reach the host (before, it did, and the notice said only that no receipt
    came)."""
    status, text, _ = ada_at("drop_seed", data_home, target=1)
    assert status == 0, text
    assert (
        "round 1: you revealed your seed, but the host says it never came, and it sent no "
        "receipt for it: your seed is left out, so the host could pick between the deal with "
        "it and the deal without it. Once may be a slow network; if it happens again, stop "
        "playing at this host (scopa-net verify, given your transcripts, counts the seeds left "
        "out by seat)" in text
    ), text
    assert (
        "your seed was left out this round (the host says your seed did not reach it in time)"
        in text
    )


def test_a_snapshot_for_a_few_missed_events_is_said_to_be_the_hosts_choice(
    data_home: Path,
) -> None:
    """Ada's connection is cut just after her first play, and the host, which holds every
    event she missed, answers her ``resume`` with the table as it stands: the rest of the
    round reaches her unchecked (protocol.md 5.10). Before, she read "You were away too long
    for the host to send every play you missed", which was not so and did not say what the
    host could do meanwhile; now she reads who chose it, what it leaves to the host's word, and
    what to do."""
    status, text, host = ada_at("snapshot_catch_up", data_home, target=1, host_bot=True)
    assert status == 0, text
    assert host.cheated_once
    (said,) = [line.strip() for line in text.splitlines() if "as it stands" in line]
    assert re.fullmatch(
        r"The host sent the table as it stands instead of the events you missed \(a host does "
        r"so when you missed many, or it no longer keeps them\): the deal of a round under way "
        r"cannot be checked here, so its cards are the host's word alone, as is the score so "
        r"far; from the next round cards, plays and scores are checked again, on that score\. "
        r"Your transcript of this match goes on from here, and says which rounds you did not "
        r"see\. Only \d+ "
        r"events? (was|were) missed, few enough to send \(a scopa-net host sends up to 1000\): a "
        r"host that sends the table instead can change the cards of a round under way unseen; "
        r"if it happens again, stop playing at this host\.",
        said,
    ), said


def test_a_table_closed_after_a_rounds_seeds_keeps_that_round_for_verify(
    data_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The host takes round 2's seeds, says it is shutting down, and at Ada's ``resume`` that
    it closed the table as it restarted: a host can always stop, but it knew round 2's deal.
    Before, Ada read only the host's words, and her transcript held round 1 alone (verify:
    UNFINISHED, as for any match cut short); now she reads in which round and after what the
    host closed it, and her transcript keeps round 2, which verify reports never revealed.
    The command ends with that line and status 1, a match stopped before its end (README's
    exit statuses; before, status 0, as for a match played out)."""
    hosts: list[CheatingHost] = []
    with pytest.raises(TableClosedError) as stopped:
        ada_at("closed_after_seeds", data_home, host_bot=True, hosts=hosts)
    (host,) = hosts
    failure = session_failure(stopped.value)
    assert failure.status == EXIT_FAILED
    said = str(failure)
    assert re.fullmatch(
        rf"The host at 127\.0\.0\.1:{host.port} no longer holds seat 0 at table 1 for you \(the "
        r"host says: the host closed table 1 as it restarted: its journal was damaged\)\. It "
        rf"closed the table in round {REROLLED}, after that round's seeds were out: the host "
        r"knew that deal and never finished or revealed it \(a host that does this can throw "
        r"away a deal it does not like\), so verify reports that round as never revealed\. "
        r"Your transcript of its rounds played so far is in .+, to check with `scopa-net "
        r"verify FILE`\.",
        said,
    ), said
    (saved,) = (data_home / "transcripts").glob("*.scopa")
    status, out = verify_pinned(host.key, saved, capsys)
    assert status == 1, out
    assert f"round {REROLLED}: FAILED: not revealed" in out, out
    assert out.rstrip().endswith("NOT VERIFIED"), out


def test_a_seed_for_a_player_who_is_gone_stops_the_client(
    data_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bruno leaves for good in round 1. From round 2 the host commits a seed of its own for
    his open seat and, having seen Ada's, leaves it out (``no_reveal``), as if he had committed
    and dropped: a choice between two deals. Before the fix Ada read only "seat 1's seed is
    left out (no reveal)", as for anyone who drops, and the transcript verified."""
    status, text, host = ada_at("absent_seed", data_home, seat_1=bruno_who_leaves)
    assert status == EXIT_DEAL_FAILED, text
    # The first round opened once his leaving reached the host: round 2, or later where his
    # leave came in after round 2's commitments (a busy machine) or round 1 was void.
    found = re.search(r"DEAL CHECK FAILED in round (\d+):", text)
    assert found is not None, text
    cheated = int(found[1])
    assert cheated >= 2, text
    assert banner(text) == (
        f"DEAL CHECK FAILED in round {cheated}: absent seat seed: round {cheated}: the host "
        "relayed a seed commitment for bot 1, though no player's client has held that seat "
        "since the round began; only a person's own client sends their seed"
    )
    assert (
        "What this means: the host put a seed into the shuffle for a player who was away, "
        "whose own client could not have sent it" in text
    )
    out = verify_evidence(data_home, host, capsys)
    assert f"saved as evidence when the client stopped: round {cheated}, absent seat seed" in out


def test_a_match_the_host_ends_with_no_winner_is_never_shown_as_a_win(
    data_home: Path,
) -> None:
    """After round 1 of a match to 16 the host signs a ``match_end`` with no winner ("the match
    was abandoned", protocol.md 3.9). Before the fix our client showed it as side 0's win
    ("You win the match, 4 to 0", whatever the scores); now the command ends in one line saying
    the host ended the match with no winner, with the scores, and status 1 (a match stopped
    before its end)."""
    with pytest.raises(TableClosedError) as stopped:
        ada_at("abandoned", data_home, host_bot=True)
    failure = session_failure(stopped.value)
    assert failure.status == EXIT_FAILED
    assert re.fullmatch(
        r"the host ended the match with no winner \(it says the match was abandoned\), at "
        # (round 1 void for its kings, about 1 in 600: the host ends it where round 2 opens)
        r"Ada: \d+, bot 1: \d+ after 1 round( \(1 of them void\))?; no seat is kept for it",
        str(failure),
    ), str(failure)


def test_a_match_abandoned_after_a_void_deal_counts_it_as_the_table_does(
    data_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host ends the match with no winner where round 2 would open, and round 1 was void
    (three kings on the table, about 1 deal in 600; rigged here): the line read "after 0
    rounds", as if nothing had been dealt, where every other line counts the void round
    ("after 1 round (1 of them void)")."""
    seed = bytes([5]) * 32
    init = CheatingHost.__init__

    def rigged(host: CheatingHost, *args: object, **options: object) -> None:
        init(host, *args, **options)  # type: ignore[arg-type]
        host.void_first_round = [seed]  # Ada's seed; the host's computer sends none

    monkeypatch.setattr(CheatingHost, "__init__", rigged)
    monkeypatch.setattr(network_session, "secrets", SeededSecrets(seed))
    with pytest.raises(TableClosedError) as stopped:
        ada_at("abandoned", data_home, host_bot=True)
    assert str(session_failure(stopped.value)) == (
        "the host ended the match with no winner (it says the match was abandoned), at "
        "Ada: 0, bot 1: 0 after 1 round (1 of them void); no seat is kept for it"
    )


def test_a_receipt_the_host_hides_behind_a_snapshot_stops_the_client(
    data_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The host signs Ada's receipt, cuts her off, leaves her seed out (so that no person's
    seed counts: the host alone chose the deck) and, at her ``resume``, sends the table as it
    stands, so that she never sees the ``seed_reveals`` her receipt would prove a lie. Before
    the fix her client dropped the round's record and played on, the receipt unused."""
    status, text, host = ada_at("receipt_then_snapshot", data_home, target=1, host_bot=True)
    assert status == EXIT_DEAL_FAILED, text
    assert banner(text) == (
        "DEAL CHECK FAILED in round 1: seeds hidden: round 1: the host signed a receipt for "
        "your seed, then caught this seat up by snapshot before it saw the round's seeds "
        "relayed: whether your seed counted cannot be checked; the receipt is kept in your "
        "transcript"
    )
    out = verify_evidence(data_home, host, capsys)
    assert "saved as evidence when the client stopped: round 1, seeds hidden" in out
    (evidence,) = (data_home / "transcripts").glob("*-FAILED.scopa")
    assert decode(evidence.read_bytes()).rounds[-1].receipt is not None


def test_a_void_called_on_a_table_without_three_kings_stops_the_client(
    data_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Once round 1 is dealt the host calls it void for kings (the one void, protocol.md 5.8)
    whatever the table holds, to shuffle again (round 2, should round 1 be void for kings
    indeed). Ada's client counts the kings on the table it
    was dealt and stops, naming the round and the count."""
    status, text, host = ada_at("fake_void", data_home, target=1, host_bot=True)
    assert status == EXIT_DEAL_FAILED, text
    assert re.fullmatch(
        r"DEAL CHECK FAILED in round (\d): void mismatch: round \1 was called void \(kings\) "
        r"with [0-2] kings on the opening table; the only void is three or more kings, before "
        r"any play",
        banner(text),
    ), banner(text)
    assert (
        "What this means: the deal is recorded as called off (void) when the rules do not" in text
    )
    out = verify_evidence(data_home, host, capsys)
    assert re.search(r"saved as evidence when the client stopped: round \d, void mismatch", out)


def test_a_new_match_the_host_starts_before_the_match_ended_stops_the_client(
    data_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The host takes round 2's seeds, sees the deal, and says that everyone agreed to play
    again (``rematch_status`` ``agreed``), though no ``match_end`` came and Ada was never asked
    (protocol.md 3.11: a rematch is voted after ``match_end``): a new match, from 0 to 0, whose
    round 1 is a fresh shuffle. Before the fix her client read "everyone agreed: a new match
    begins", forgot the match and its round 2, and played the new one out; its transcript
    verified."""
    status, text, host = ada_at("rematch_midway", data_home, host_bot=True)
    assert status == EXIT_DEAL_FAILED, text
    assert "a new match begins" not in text
    assert banner(text) == (
        f"DEAL CHECK FAILED in round {REROLLED}: re-rolled round: the host started a new "
        f"match (match 2) while round {REROLLED} of match 1 was in play, after its seeds "
        "were relayed, though no end of match 1 came and this seat never agreed to play "
        "again: a rematch is voted on once a match has ended"
    )
    out = verify_evidence(data_home, host, capsys)
    assert f"saved as evidence when the client stopped: round {REROLLED}, re-rolled round" in out
    assert f"round {REROLLED}: FAILED: not revealed" in out


def test_a_card_the_host_plays_for_a_person_who_is_there_stops_her_client(
    data_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """In round 1, as Ada's turn comes, the host plays a card of her hand for her, though she
    is connected and no computer stands in for her: the play is recorded as hers. Before the
    fix her screen said "You play ..." for a card she never chose, and her transcript (plays
    carry no player's signature) verified."""
    status, text, host = ada_at("forged_play", data_home, target=1, host_bot=True)
    assert host.cheated_once
    assert status == EXIT_DEAL_FAILED, text
    assert re.fullmatch(
        r"DEAL CHECK FAILED in round 1: changed play: the host recorded a play for your seat, "
        rf"{PLAY_WORDS}, that you did not make: no move this client sent was that play, and the "
        r"host announced no computer playing for you",
        banner(text),
    ), banner(text)
    assert (
        "What this means: the host recorded for your seat another play than the one you sent: "
        "a host that does this chooses what your cards take, or plays your cards for you." in text
    )


def test_an_ack_for_a_move_her_client_never_sent_is_refused_and_the_play_still_stops_it(
    data_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As ``forged_play``, but the host also sends Ada an ``ack`` naming that play under a
    ``move_id`` her client never used, as if she had sent it (protocol.md 3.1, 3.5)."""
    status, text, host = ada_at("forged_ack", data_home, target=1, host_bot=True)
    assert host.cheated_once
    refused = f"ack of move {FORGED_MOVE_ID}, which this connection did not send or was answered"
    assert (0, "out_of_order", f"{refused} already") in host.byes, host.byes
    assert (
        f"Connection: reconnecting (the host sent a message that breaks the protocol "
        f"(out_of_order: {refused} already), so this client closed the connection; taking the "
        "seat back. Your seat is kept: type quit to stop trying)." in text
    ), text
    assert status == EXIT_DEAL_FAILED, text
    assert banner(text).startswith(
        "DEAL CHECK FAILED in round 1: changed play: the host recorded a play for your seat, "
    ), banner(text)


def test_a_commitment_the_host_says_never_came_is_said_with_what_it_lets_the_host_do(
    data_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """In round 1 the host relays no commitment for Ada ("none came in time"), though her
    client sent it: a commitment gets no receipt, so nothing proves it. With no person's seed
    in, the host alone chose the deck (protocol.md section 7). Nothing stops, the round is
    marked as the host's choice, and Ada reads at once what it lets the host do and what to do
    (before: only that her commitment did not arrive); ``verify`` counts it against nobody but
    marks the round."""
    status, text, host = ada_at("commits_dropped", data_home, target=1, host_bot=True)
    assert status == 0, text
    assert (
        "round 1: the host says your seed commitment did not arrive in time, so your seed is "
        "left out of this round (a commitment gets no receipt: nothing can prove it came); "
        "with no other person's seed in, the host alone chose the deal. Once may be a slow "
        "network; if it happens again, stop playing at this host (scopa-net verify, given "
        "your transcripts, counts the seeds left out by seat)" in text
    ), text
    assert "round 1: not fair-checked: no player seed (the host alone chose this deal)" in text
    (saved,) = (data_home / "transcripts").glob("*.scopa")
    capsys.readouterr()
    main(["verify", "--pin", fingerprint(host.key), str(saved)])
    out = capsys.readouterr().out
    assert "round 1: not fair-checked: no player seed" in out, out


@pytest.mark.parametrize(
    ("cheat", "answer"),
    [("rematch_unasked", "had not answered"), ("rematch_over_no", "answered no")],
)
def test_a_new_match_ada_did_not_agree_to_ends_at_the_table(
    cheat: str, answer: str, data_home: Path
) -> None:
    """After ``match_end`` the host says everyone agreed to play again (``rematch_status``
    ``agreed``, every vote ``yes``), though Ada never answered, or answered no (protocol.md
    3.11: ``agreed`` only when every vote is ``yes``), and deals a new match. Before the fix her
    screen said "everyone agreed: a new match begins" and she was dealt its cards. Now one
    line says the host started a match she did not agree to, and she leaves the table."""
    status, text, _ = ada_at(cheat, data_home, target=1, host_bot=True, offer_rematch=True)
    assert "everyone agreed" not in text, text
    assert "a new match begins" not in text, text
    said = [line.strip() for line in text.splitlines() if "did not agree to" in line]
    assert said == [
        f"The host started a new match (match 2) that you did not agree to (you {answer}): "
        "you leave the table; match 1's result stands."
    ], text
    assert "Your turn" not in text.split(said[0])[1], text  # no card of the new match played
    assert not list((data_home / "seats").glob("*.json"))  # no seat kept to take back
    assert status == 0, text
