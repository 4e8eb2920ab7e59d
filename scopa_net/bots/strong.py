"""The strong player (the ``hard`` level): card counting, guessed deals, and search.

For each decision it deals the unseen cards out many times in ways that agree with what its
seat has seen (:mod:`scopa_net.bots.sampling`), weighted by how likely the other seats' plays
were with each guessed hand (:mod:`scopa_net.bots.inference`), and tries every legal play in
each guessed deal. With two sides (two players, two pairs, scopone) each try is searched to
the end of the hands in play, partners maximising together, and the position then left is
judged by the expected margin of the round's score lines (:mod:`scopa_net.bots.lookahead`).
With two players the other side's answers there count half as its best answer against the
guessed deal and half as the answer the choice model of :mod:`scopa_net.bots.inference`
expects of it (``caution``, ``modelled``): the other side does not see this seat's hand,
which every guess shows the search, so plain minimax fears answers it could not know to make.
Measured, that is worth about +0.07 points a round against ``greedy``. Once nothing is left
to guess (the last deal with two players) the search is plain minimax, and exact. With three sides
(three and six players) the round is finished by a playout, or an exact search once few plays
are left. The play with the best total for its side wins; every play is tried on the same
guesses, so their comparison is not blurred by luck of the sampling.

With two players, while any card is hidden, one information-set search
(:mod:`scopa_net.bots.ismcts`) replaces all that: one tree over the hands in play, keyed by what
this seat has seen, fed by guesses drawn by the same reading; it does not let its own later
plays, nor the other side's, know cards they would not see (``tree``). At four players
(three-card hands) it does so too until the exact last deal takes over, its opponents in the
tree playing as the playout policy would (``pairs_tree``, ``opponent_policy``); in scopone
the determinized search stays (the whole-round tree measured worse).

The budget is ``nodes`` of search (``playouts``, the number of (guess, play) pairs, for the
playout method) per decision: that makes a decision reproducible for a seed. ``clock`` and
``time_limit`` can add a cap (the clock is the caller's; the player never reads one itself),
at the price of reproducibility when the cap bites.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import accumulate
from math import exp, log
from typing import TypeAlias

from scopa_net.bots.base import decision_rng
from scopa_net.bots.greedy import GreedyPlayer
from scopa_net.bots.inference import DEFAULT_SHARPNESS, ChoiceModel, Inference
from scopa_net.bots.ismcts import DEFAULT_EXPLORATION, InformationSetSearch, Reading
from scopa_net.bots.lookahead import LAST_DEAL, DealSearch
from scopa_net.bots.observed import Observed
from scopa_net.bots.reading import GreedyReading
from scopa_net.bots.replay import DEFAULT_REPLAY_FLOOR, ReplayReading
from scopa_net.bots.sampling import World, is_certain, sample_world
from scopa_net.bots.search import ExactSearch, Playouts
from scopa_net.bots.signals import SIGNAL_MARGIN, PartnerSignals, signalling_lay
from scopa_net.plays import Play
from scopa_net.rules import RuleSet
from scopa_net.view import SeatView

DEFAULT_PLAYOUTS = 400
DEFAULT_EXACT_PLAYS = 6
#: Search nodes per decision for the deal search (the budget when ``lookahead``). At four
#: players, where the pairs tree decides until the exact last deal, this is the last deal's
#: budget: its first decisions (12 and 11 plays left) get only ``MIN_GUESSES`` guesses, each
#: searched exactly. Four times as many nodes (``nodes=16000``), against ``medium``, deck by
#: deck against the defaults on the same 200 decks of seed 1 (round_duplicates.py
#: hard:nodes=16000 medium --players 4 --rounds 200 --seed 1 --paired F, 2026-12-07): +0.043
#: [-0.075, 0.160] points a round, think median 62.9 ms, max 230 ms CPU (about 38 ms before,
#: same machine that day): within the noise, for more time; not kept.
DEFAULT_NODES = 4000
MIN_GUESSES = 8
#: Largest hand size at which guesses are weighted by the other seats' choices (every one).
INFERENCE_HAND_SIZE = 10
#: The choice model's sharpness with ten-card hands (scopone). There a seat's many earlier
#: choices multiply into weights so uneven at the usual sharpness that a few guesses decide
#: (measured: -0.6 points a round); tempered to this they do no harm and may help: +0.24
#: [-0.18, 0.66] points a round against no reading, over 110 duplicate decks of two seeds.
LONG_HANDS_SHARPNESS = 0.5
#: The sharpness of the greedy reading (:mod:`scopa_net.bots.reading`), which hard uses with
#: two pairs of three-card hands: +0.19 [-0.06, 0.43] points a round over the choice model's
#: reading, over 100 paired decks (at ten-card hands -0.17 [-0.57, 0.23], so not there).
GREEDY_READING_SHARPNESS = 4.0
#: With two pairs, the stock gone, each guess is searched to the round's end once this many
#: plays are left after the one chosen. In scopone (ten-card hands, no stock): +0.39 [0.10,
#: 0.68] points a round over the three-ply search, over 100 paired decks; at 13, with the
#: memo, -0.06 [-0.25, 0.12] over 152. With three-card hands (the whole last deal) and the
#: memo: +0.05 [-0.09, 0.19] over 200 paired decks.
PAIRS_ENDGAME_PLAYS = 11
#: How far the deal search takes the other side to answer perfectly (1 is minimax); the rest
#: of its value is the choice model's expectation of its answers (see ``modelled``). With two
#: players only: with four the blend measured no better (+0.01 [-0.24, 0.26] points a round)
#: and, unable to prune, it would slow the deeper four-player search.
DEFAULT_CAUTION = 0.5
PARTNERS_CAUTION = 1.0
#: With two players, while cards are hidden, iterations of information-set search per
#: decision (:mod:`scopa_net.bots.ismcts`) instead of the determinized search: +0.227 [0.017,
#: 0.436] points a round over it, head to head over 139 duplicate decks (round_duplicates.py
#: hard:tree=2000 hard:tree=0, seed 1), think median 45 ms, max 105 ms (CPU, busy machine).
#: Against ``medium`` it moved hard from +0.918 [0.844, 0.992] to +0.958 [0.888, 1.028] points
#: a round (arena_progress.py hard medium --matches 1000 --cpu-think, seed 1; think median
#: 33.7 ms, max 106 ms CPU), short of +1.0: the gain is mostly against a searching opponent.
#: A bigger tree does not pay: tree=5000 against tree=2000, each against medium on the same
#: 198 decks, +0.008 [-0.157, 0.172] points a round (98 decks identical) at 2.6 times the
#: think (median 74.9 ms, max 267 ms CPU; round_duplicates.py hard:tree=N medium --rounds 200
#: --margins F, seed 1, 2026-12-02).
DEFAULT_TREE = 2000
#: With two players, random splits of the cards left that the tree's leaf averages its
#: primiera figure over (one split a leaf is a coin toss of a point in every iteration's
#: value). Against ``medium``, deck by deck over the same decks (round_duplicates.py
#: hard:tree_splits=N medium --rounds 200 --margins F, 2026-12-02): 8 against 1, +0.076
#: [-0.057, 0.208] points a round (seed 1) and +0.020 [-0.137, 0.177] (seed 2), at 1.45
#: times the think. With ``sharpness`` 3 as well (2 is the default; alone +0.098 [-0.036,
#: 0.233], seed 1): +0.085 [-0.020, 0.191] over the 398 decks of both seeds, but over 1,000
#: matches (arena_progress.py hard medium --matches 1000 --cpu-think, seed 1, in two --pairs
#: parts) +0.947 [0.877, 1.018] points a round against +0.958 [0.888, 1.028] with neither,
#: think median 48.8 ms, max 218 ms CPU: not kept. Alone, over the same 1,000 matches
#: (2026-12-04, 04:24-04:44 UTC): +0.979 [0.908, 1.051] points a round against +0.958 [0.888,
#: 1.028] with one split, whose row was played again beside it (04:48-05:02) and came out the
#: same; pair by pair over the 500 deck pairs +0.022 [-0.032, 0.076]; think median 44.4 ms,
#: max 187 ms CPU (26.8 ms, 85 ms with one). A gain within the noise, but the two screens and
#: the paired row all point to it, at a think time well inside the budget: so 8 is the
#: default (as with :data:`PAIRS_EXPLORATION`). The same row on seed 2's decks (2026-12-05,
#: 00:48-01:20 UTC): +0.873 [0.806, 0.940] points a round, think median 72.8 ms, max 153 ms
#: CPU; seed 1's decks are kinder to hard than most, so judge a setting on both seeds' rows.
DEFAULT_TREE_SPLITS = 8
#: The pairs tree's splits (four players). Eight there, deck by deck against one over the same
#: 200 decks (round_duplicates.py hard:tree_splits=8 medium --players 4 --rounds 200 --seed 1
#: against hard medium, 2026-12-04): -0.175 [-0.393, 0.043] points a round, think median 38.4
#: ms against 35.4; so one.
PAIRS_TREE_SPLITS = 1
#: Whether, with two players, the information-set tree reads the other seat's choices as
#: greedy plays (:mod:`scopa_net.bots.reading`, sharpness :data:`GREEDY_READING_SHARPNESS`)
#: instead of by the choice model of :mod:`scopa_net.bots.inference` (``greedy_reading``).
#: Against ``medium``, deck by deck against the choice model's reading on the same decks
#: (round_duplicates.py hard:greedy_reading=True medium --rounds 200 --paired F, 2026-12-03):
#: +0.136 [-0.006, 0.279] points a round (seed 1) and +0.120 [-0.031, 0.271] (seed 2), +0.128
#: [0.024, 0.232] over the 398 decks; think median 31.5 ms, max 96 ms CPU (30 ms, 78 ms
#: before). It was the best of seven settings screened that day, and over 1,000 matches it
#: did not hold: +0.955 [0.884, 1.026] points a round (arena_progress.py hard medium --matches
#: 1000 --cpu-think, seed 1, in two --pairs parts, 2026-12-03; think median 32.7 ms, max 104
#: ms CPU) against +0.958 [0.888, 1.028] with the choice model. So not the default: the best
#: of several screens overstates its gain (each screen's interval is about +-0.1), and a
#: reading fitted to ``medium`` alone is no gain worth having unless matches show it.
TREE_GREEDY_READING = False
#: At four players (three-card hands), iterations of information-set search per decision
#: while cards are hidden, until the exact last deal (:data:`PAIRS_ENDGAME_PLAYS`) takes over;
#: the tree's opponents play the playout policy's plays (``opponent_policy``). Against
#: ``medium``, deck by deck against the determinized search on the same decks
#: (round_duplicates.py hard:pairs_tree=2000,opponent_policy=True medium --players 4 --rounds
#: 200 --paired F, 2026-12-03): +0.185 [-0.092, 0.462] points a round (seed 1) and +0.190
#: [-0.064, 0.444] (seed 2), +0.188 [-0.000, 0.375] over the 400 decks; think median 37 ms,
#: max 140 ms CPU (14 ms, 104 ms before). Over 1,000 matches a pair of ``hard`` then leads a
#: pair of ``medium`` by +0.626 [0.548, 0.704] points a round (arena_progress.py hard medium
#: --players 4 --matches 1000 --cpu-think, seed 1; think median 37.1 ms, max 155 ms CPU),
#: against +0.564 [0.450, 0.679] over 460 matches with the determinized search. Head to head
#: with the determinized search (round_duplicates.py hard hard:pairs_tree=0 --players 4
#: --rounds 200 --seed 3): +0.090 [-0.136, 0.316] points a round over 200 decks, so against
#: a searching pair the tree is no worse, and most of its gain is against greedy play.
#: The opponents in the tree then play the greedy player's choice from their own seat
#: (``tree_greedy``, :class:`~scopa_net.bots.greedy.GreedyPolicy`: what a lay leaves the next
#: seat, by the cards that seat has not seen) instead of the playout policy's: +0.100 [-0.140,
#: 0.340] (seed 1) and +0.147 [-0.095, 0.390] (seed 2), +0.124 [-0.047, 0.294] over the 400
#: decks (round_duplicates.py hard:tree_greedy=True medium --players 4 --rounds 200 --paired
#: F, 2026-12-03), think median 38 ms, max 223 ms CPU. That models ``medium``'s own choice,
#: and over matches it did not hold: +0.551 [0.459, 0.643] points a round over 686 matches
#: (arena_progress.py hard medium --players 4 --matches 1000 --cpu-think, seed 1, two --pairs
#: parts stopped at 343 of 500 pairs, 12:36-13:11 UTC; think median 41.8 ms, max 241 ms CPU),
#: against +0.626 [0.548, 0.704] without: not the default. More iterations do not pay: 3,000 +0.025
#: [-0.213, 0.263] (seed 1; think median 38.2 ms, max 232 ms). The UCB constant
#: (``exploration``, which the pairs tree takes too; these two without ``tree_greedy``): 1.0
#: -0.110 [-0.372, 0.152] (seed 1); 2.0 +0.133 [-0.098, 0.363] (seed 1) and +0.092 [-0.154,
#: 0.339] (seed 2), +0.113 [-0.056, 0.281] over the 400 decks (think median 43 ms, max 164
#: ms); over 1,000 matches +0.672 [0.596, 0.748] points a round against +0.626 [0.548,
#: 0.704] with 1.4 (arena_progress.py hard medium --players 4 --matches 1000 --cpu-think, seed
#: 1, exploration 2.0 for the pairs tree, two --pairs parts, 13:35-14:11 UTC 2026-12-03;
#: think median 54.6 ms, max 212 ms CPU on a machine then about 1.5 times slower). Paired pair
#: by pair with the row at 1.4 (the same 500 deck pairs): +0.046 [-0.037, 0.129], a gain within
#: the noise, but one that two seeds' screens and the row all point to, at a think time well
#: inside the budget: so 2.0 is the pairs tree's default (:data:`PAIRS_EXPLORATION`).
PAIRS_TREE = 2000
#: The UCB constant of the pairs tree (the two-player tree keeps ``DEFAULT_EXPLORATION``): see
#: :data:`PAIRS_TREE` for its figures.
PAIRS_EXPLORATION = 2.0
#: Whether the deal search's opponents play the playout policy's plays (``deal_policy``: one
#: answer each, from the guessed hand, as the pairs tree's opponents do) instead of their best
#: answers. Measured at four players against ``medium``, deck by deck against the defaults on
#: the same 200 decks of seed 1 (round_duplicates.py hard:S medium --players 4 --rounds 200
#: --seed 1 --paired F, the defaults' row +0.848 [0.616, 1.079], 2026-12-07): in the exact
#: last deal only (``deal_policy=True``; the pairs tree before it) -0.110 [-0.283, 0.063]
#: points a round, think median 37.8 ms; the minimax opponents of the exact end are the better
#: guide there. As the whole method before the last deal too, the partners maximising together
#: over each guessed deal to its end and the opponents by the policy (``pairs_tree=0,
#: deal_policy=True,max_plies=12,nodes=10000``, think median 39.1 ms, max 213 ms CPU, as the
#: tree's): -0.058 [-0.330, 0.215], no better than the information-set tree. Not kept.
DEAL_POLICY = False
#: A cap on guesses per decision (a clock normally stops the search long before).
MAX_GUESSES = 100_000
#: The readings hard may weigh its guesses by.
_Weighing: TypeAlias = "Inference | ReplayReading | _JointReading"


class StrongPlayer:
    """Determinized Monte Carlo search from the seat's view (see the module docstring).

    Settings kept for measuring (``benchmarks/round_duplicates.py hard:KEY=VALUE``), with
    what they measured against ``greedy`` at two players, points a round: ``endgame_stock``
    (search each guess to the round's end once the stock is that small: 6 cards, -0.03),
    ``leaf`` (the leaf's weights; fitted ones -0.15), ``prime_splits`` (random splits the
    leaf's primiera figure averages: 8, -0.02), ``caution`` and ``modelled`` (the blend of the
    other side's answers; None is the default for the player count). ``replay``,
    ``replay_floor`` and ``replay_partner`` read the other seats by replaying each choice with
    the guessed hand (:mod:`scopa_net.bots.replay`, which gives their figures; off: no gain
    at two or four players, seeds 1 and 2).

    The information-set tree's (two players; against ``medium``, deck by deck over the same
    200 decks of seed 1, and of seed 2 where given): ``exploration`` (the UCB constant, 1.4:
    0.7 -0.053 [-0.255, 0.149], 1.0 +0.121 [-0.023, 0.265] and -0.045 [-0.214, 0.124]),
    ``bias`` (progressive bias by the one-move score, 1.0: -0.035 [-0.189, 0.118]),
    ``horizon`` (deals the tree spans, 2: -0.056 [-0.262, 0.151] at twice the think),
    ``tree_splits`` and ``sharpness`` (the comment of :data:`DEFAULT_TREE_SPLITS`).
    Screened 2026-12-03 the same way (``round_duplicates.py hard:KEY=VALUE medium --rounds 200
    --seed S --paired F``, each against the defaults of then on the same decks, seed 1 then seed
    2, and the 398 decks of both): ``greedy_reading`` (here: the tree reads the other seat as a
    greedy player, :data:`TREE_GREEDY_READING`; not kept), ``duel_policy`` (the share of the other
    side's plays in the tree made by the playout policy, as with two pairs: True +0.038 [-0.123,
    0.198], +0.062 [-0.119, 0.244], +0.050 [-0.071, 0.171], think median 31 ms; with the greedy
    reading too, against it alone: +0.073 [-0.078, 0.225], -0.110 [-0.302, 0.082], -0.019
    [-0.142, 0.104], think median 33 ms; 0.5, half of them, with 8 splits of the primiera,
    against the defaults of 2026-12-04 on seed 1: -0.051 [-0.172, 0.071]; True again, with 8
    splits, against today's defaults on the same 198 decks of seed 1, 2026-12-06: -0.015
    [-0.172, 0.142], the defaults +0.876 as on 2026-12-04, think median 77 ms on a busy
    machine), ``final_share``
    (the play of best mean value among those tried at least that share of the most tried one's
    visits, instead of the most tried: 0.3 +0.020 [-0.044, 0.085], -0.025 [-0.099, 0.049],
    -0.003 [-0.052, 0.047]), ``exact_last``
    (the tree's leaves at the start of the last deal valued by exact minimax to the round's end:
    +0.030 [-0.066, 0.127], -0.035 [-0.124, 0.054], -0.003 [-0.068, 0.063]; think median 34 ms,
    max 290 ms), ``rollouts`` and ``rollout_weight`` (playouts of the rest of the round by the
    policy, the undealt cards shuffled anew, blended into the leaf's value at that weight): with
    1,500 iterations and one playout at weight 0.5, against the greedy reading alone, -0.250
    [-0.526, 0.026] over the first 94 decks of seed 1 (stopped), think median 76 ms, max 243 ms:
    the playouts judge worse than the leaf. With the greedy reading, ``sharpness`` 6 against its
    4: -0.056 [-0.196, 0.085], -0.130 [-0.270, 0.010], -0.093 [-0.192, 0.006].

    Screened 2026-12-08 against today's defaults on the decks of their own rows (seed 1: 198
    decks, seed 2: 200; ``round_duplicates.py hard:KEY=VALUE medium --rounds 200 --seed S
    --paired BASE``): ``fixed_splits`` (the tree's leaf takes its primiera figure over that many
    fixed splits of the cards left, kept by the pair of piles, instead of 8 random splits a
    leaf: :class:`~scopa_net.bots.lookahead.Leaf`; hard's 2,000 iterations meet only 5 to 360
    pairs of piles a decision, so each costs a look-up after the first) 64: -0.033 [-0.165,
    0.099], +0.022 [-0.116, 0.161], -0.005 [-0.101, 0.091], think median 33.5 and 36.7 ms, max
    184 and 194 ms CPU, against 58.5 ms in the defaults' row of seed 1 (the 8 random splits were
    43% of the think, profiled); the same strength for about 40% less time (the CPU per move
    follows the machine's day too), so it can buy something else, but is itself no gain: not the
    default. With ``fixed_splits=64``, ``tree_pool`` (guesses drawn into the tree's pool; 256 at
    2,000 iterations, :func:`~scopa_net.bots.ismcts.pool_size`) 1,000, which spends the time
    saved on four times as many distinct guesses: -0.083 [-0.232, 0.065] (seed 1; think median
    50.2 ms, max 228 ms), so not seed 2: more guesses at equal time do not pay, as more
    iterations did not (:data:`DEFAULT_TREE`). With ``fixed_splits=64`` too, ``leaf_plies``
    (plays of the next deal, dealt from the guess, made by the playout policy before the leaf
    judges: the capture the leaf credits at half its worth is then made, and answered) 2: -0.081
    [-0.240, 0.078] (seed 1; think median 58.1 ms, max 217 ms), so not seed 2: a policy's plays
    judge the next deal no better than the leaf's figures, as the playouts to the round's end
    (``rollouts``) did not. With ``fixed_splits=64`` too, ``duel_policy=1.0, tree_greedy=True``
    (the other seat's plays in the tree are the greedy player's choice from its guessed hand:
    ``medium``'s own rule, so a best answer to it alone): +0.030 [-0.124, 0.185], +0.035
    [-0.172, 0.242], +0.033 [-0.097, 0.162] over 398 decks, think median 31.1 and 31.4 ms, max
    230 ms: knowing how ``medium`` chooses is worth little to the search, where knowing its hand
    is worth about a point (:mod:`scopa_net.bots.oracle`); not kept. With ``fixed_splits=64``
    too, ``exploration`` 1.0 (the UCB constant was set with the noisier leaf): -0.023 [-0.186,
    0.140], +0.007 [-0.140, 0.155], -0.008 [-0.117, 0.102] over 398 decks, think median 28.7 ms,
    max 154 ms; not kept. Back to back on the same load (8 decks of seed 3, each twice,
    alternating): the defaults think median 53.9 and 57.0 ms, max 93 ms; ``fixed_splits=64``
    28.5 and 31.3 ms, max 138 ms (a decision meeting many new pairs of piles pays for their
    splits at once).

    The information-set tree with two pairs (against ``medium``, deck by deck over the same
    200 decks of seed 1, and of seed 2 where given, ``round_duplicates.py hard:KEY=VALUE
    medium --players 4 [--variant scopone_scientifico] --rounds 200 --paired F``):
    ``pairs_tree`` (iterations; :data:`PAIRS_TREE` at four players, 0 in scopone), with
    ``opponent_policy`` (the tree's opponents play the playout policy's plays; on) and
    ``tree_plies`` (plays the tree and its playouts go before the leaf judges; 0, the hands
    in play). At four players, 2,000 iterations against the determinized search: +0.052
    [-0.213, 0.318] with the opponents by the tree's statistics, and through the last deal
    too (``endgame_plays=0``) +0.130 [-0.143, 0.403] and +0.125 [-0.145, 0.395] (think
    median 46 ms, max 149 ms); with the opponents by the policy +0.185 [-0.092, 0.462] and
    +0.190 [-0.064, 0.444] (kept), and through the last deal too +0.140 [-0.137, 0.417]. The
    policy plays much as ``medium`` does, so part of that gain may be this opponent's alone.
    In scopone (the opponents by the tree's statistics), where the tree spans the whole
    round: 1,500 iterations -0.546 [-0.987, -0.106] (141 decks, stopped; think median 88 ms),
    2,000 with ``tree_plies=8`` +0.068 [-0.311, 0.446] (think median 82 ms, max 139 ms).
    Against the policy's tree at four players (seed 1): ``partner_policy`` (the partner in the
    tree plays the playout policy's plays too, which follow its guessed hand, where the tree's
    statistics, keyed by this seat's view, cannot) +0.020 [-0.229, 0.269] (think median 38
    ms, max 126 ms); ``signals`` with the tree -0.117 [-0.277, 0.042] (median 41 ms, max 145
    ms); ``tree_greedy`` (off, see :data:`PAIRS_TREE`, with ``exploration`` and 3,000
    iterations); ``bias`` 1.0 (untried plays tried best first by the one-move score, so at the
    tree's sparse nodes the partner, whose plays there are mostly first tries, plays its
    likeliest play instead of a random one), against the defaults of 2026-12-07 over 200
    decks: -0.102 [-0.327, 0.122] (think median 38 ms, max 154 ms); the tree through the last
    deal too once the stock holds only it (in the second deal, the leaf replaced by the round's
    score, the last deal dealt from the guess; a setting tried and removed, 2026-12-07):
    -0.408 [-0.684, -0.131] over the first 103 decks (stopped; think median 40 ms, max 166
    ms), so the leaf at the deal's end is the better judge than a tree too thin to span the
    next deal's guessed hands. In scopone with the
    opponents by the policy (seed 1), 2,000 iterations and ``tree_plies=4``: +0.013 [-0.360,
    0.385] (think median 55 ms, max 93 ms). ``fixed_splits`` 64 at four players (the pairs tree
    takes one random split a leaf), against the defaults of 2026-12-07 on seed 1: -0.190
    [-0.477, 0.096] over the first 121 decks (stopped, 2026-12-08; think median 51.6 ms, max
    290 ms CPU); with ``exploration=3.0`` too (in case the one split's noise had been
    exploring for the tree), -0.190 [-0.405, 0.025] over the 200 decks (think median 42.4 ms,
    max 256 ms): as with 8 random splits (:data:`PAIRS_TREE_SPLITS`), a steadier primiera
    figure does the pairs tree no good.

    With two pairs: ``greedy_reading`` (read the other seats as greedy players,
    :mod:`scopa_net.bots.reading`; on by default with three-card hands), ``signals`` (lay from
    a pair and read the partner's lays so, :mod:`scopa_net.bots.signals`; on by default in
    scopone: +0.33 [-0.22, 0.88] there, -0.12 at four players), ``endgame_plays`` (search each
    guess to the end once that many plays are left, the stock gone; 11 by default, the whole
    last deal at four players: +0.05 [-0.09, 0.19]), ``memo`` (a transposition table for that
    exact search, :class:`~scopa_net.bots.lookahead.DealSearch`; on with two pairs),
    ``stock_endgame_plays`` (the same through the guessed stock: 19 at four players, -0.24
    [-0.47, -0.00]), ``read_partner`` (False leaves the partner out of the reading: +0.05
    [-0.14, 0.23] at four players, +0.02 [-0.15, 0.19] with the exact last deal; with the
    pairs tree, deck by deck over 200 decks of seed 1, 2026-12-07, -0.117 [-0.344, 0.109],
    think median 36 ms; and with the opponents read far more sharply, ``sharpness=32,
    read_partner=False``, -0.223 [-0.472, 0.027], think median 39 ms: ``medium``'s plays are
    then read nearly as yes or no, and the true hands stayed within a factor e**3 of the most
    likely guess in the pool at all of 65 decisions checked, yet the reading still ranks them
    only about the 80th percentile of the pool, and the sharper guesses play worse;
    reading the partner, a hard player, that sharply put the truth below that at a quarter of
    28), ``deal_policy`` (the deal search's opponents by the playout policy,
    in the exact end or as the whole method: :data:`DEAL_POLICY`), ``pool``
    (guesses resampled by the reading; -0.21 in scopone) and ``greedy_margin`` (greedy's play unless
    the search finds it that much worse; +0.14 in scopone). With these defaults and the determinized
    search at four players (``pairs_tree=0``) a pair of ``hard`` leads a pair of ``medium`` by
    +0.564 [0.450, 0.679] points a round at four players (460 matches, stopped by the clock; +0.504
    [0.428, 0.580] over 1,000 before the exact last deal) and +0.931 [0.788, 1.073] in scopone (660
    matches, stopped; +0.940 [0.815, 1.065] over 910 before the memo):
    ``benchmarks/arena_progress.py``, seed 1, think median 16.2 / 32.1 ms and max 119 / 97 ms CPU.
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        playouts: int = DEFAULT_PLAYOUTS,
        exact_plays: int = DEFAULT_EXACT_PLAYS,
        clock: Callable[[], float] | None = None,
        time_limit: float | None = None,
        inference: bool = True,
        inference_hand_size: int = INFERENCE_HAND_SIZE,
        halving: bool = True,
        sharpness: float | None = None,
        lookahead: bool = True,
        nodes: int = DEFAULT_NODES,
        max_plies: int | None = None,
        endgame_stock: int = 0,
        leaf: Sequence[float] | None = None,
        caution: float | None = None,
        prime_splits: int = 1,
        modelled: bool = True,
        greedy_margin: float = 0.0,
        pool: int = 0,
        signals: bool | None = None,
        signal_margin: float = SIGNAL_MARGIN,
        endgame_plays: int | None = None,
        greedy_reading: bool | None = None,
        memo: bool | None = None,
        read_partner: bool = True,
        stock_endgame_plays: int = 0,
        tree: int = DEFAULT_TREE,
        exploration: float | None = None,
        bias: float = 0.0,
        tree_splits: int | None = None,
        fixed_splits: int = 0,
        tree_pool: int = 0,
        leaf_plies: int = 0,
        horizon: int = 1,
        pairs_tree: int | None = None,
        opponent_policy: bool = True,
        partner_policy: bool = False,
        tree_greedy: bool = False,
        tree_plies: int = 0,
        duel_policy: float = 0.0,
        final_share: float = 0.0,
        rollouts: int = 0,
        rollout_weight: float = 0.5,
        exact_last: bool = False,
        deal_policy: bool | None = None,
        replay: float = 0.0,
        replay_floor: float = DEFAULT_REPLAY_FLOOR,
        replay_partner: bool = False,
    ) -> None:
        if playouts < 1:
            raise ValueError(f"playouts must be at least 1, not {playouts!r}")
        if (clock is None) != (time_limit is None):
            raise ValueError("give both clock and time_limit, or neither")
        self.seed = seed
        self.playouts = playouts
        self.exact_plays = exact_plays
        self.clock = clock
        self.time_limit = time_limit
        self.inference = inference
        self.inference_hand_size = inference_hand_size
        self.halving = halving
        self.sharpness = sharpness
        self.lookahead = lookahead
        self.nodes = nodes
        self.max_plies = max_plies
        self.endgame_stock = endgame_stock
        self.leaf = None if leaf is None else tuple(leaf)
        self.caution = caution
        self.prime_splits = prime_splits
        self.modelled = modelled
        self.greedy_margin = greedy_margin
        self.pool = pool
        self.signals = signals
        self.signal_margin = signal_margin
        self.endgame_plays = endgame_plays
        self.greedy_reading = greedy_reading
        self.memo = memo
        self.read_partner = read_partner
        self.stock_endgame_plays = stock_endgame_plays
        self.tree = tree
        """With two players, iterations of information-set search (:mod:`scopa_net.bots.ismcts`)
        per decision while cards are hidden; 0 keeps the determinized search there."""
        self.exploration = exploration
        """The trees' UCB constant; None is :data:`DEFAULT_EXPLORATION` with two players and
        :data:`PAIRS_EXPLORATION` with two pairs."""
        self.bias = bias
        self.tree_splits = tree_splits
        """Random splits the tree's leaf averages the primiera over (``prime_splits``); None is
        :data:`DEFAULT_TREE_SPLITS` with two players and :data:`PAIRS_TREE_SPLITS` with two
        pairs."""
        self.fixed_splits = fixed_splits
        """Above 0, the trees' leaf takes its primiera figure over this many fixed splits,
        kept by the pair of piles, instead of ``tree_splits`` random ones a leaf."""
        self.tree_pool = tree_pool
        """Guesses in the trees' pool a decision draws from; 0: as many as
        :func:`~scopa_net.bots.ismcts.pool_size` gives its iterations."""
        self.leaf_plies = leaf_plies
        """Plays of the next deal made by the playout policy before the trees' leaf judges."""
        self.horizon = horizon
        """Deals the information-set tree spans (1: the hands in play)."""
        self.pairs_tree = pairs_tree
        """With two pairs, iterations of information-set search per decision while cards are
        hidden and the exact end of the round (``endgame_plays``) has not taken over; 0 keeps
        the determinized search there, None is :data:`PAIRS_TREE` at four players and 0 in
        scopone."""
        self.opponent_policy = opponent_policy
        """With two pairs, the tree's opponents play the playout policy's plays (its own
        side's plays are the tree's best)."""
        self.partner_policy = partner_policy
        """With two pairs, the tree's partner plays the playout policy's plays too."""
        self.tree_greedy = tree_greedy
        """The seats playing by a policy in the tree (``opponent_policy`` and ``partner_policy``
        with two pairs, ``duel_policy`` with two players) play the greedy player's choice
        instead of the playout policy's (measured, not the default: see :data:`PAIRS_TREE`)."""
        self.tree_plies = tree_plies
        """With two pairs, plays the tree (and its playouts) go at most before the leaf."""
        self.duel_policy = duel_policy
        """With two players, the share of the tree's other side's plays made by the playout
        policy (True: all), the rest by the tree's statistics."""
        self.final_share = final_share
        """With two players, 0 takes the tree's most tried play; above 0 the one of best mean
        value among those tried at least this share of the most tried one's visits."""
        self.rollouts = rollouts
        """With two players, playouts of the rest of the round the tree's leaf blends in."""
        self.rollout_weight = rollout_weight
        """Their share of the leaf's value (``rollouts``)."""
        self.exact_last = exact_last
        """With two players, the tree's leaves at the start of the last deal are valued by
        exact minimax to the round's end."""
        self.deal_policy = deal_policy
        """The deal search's (and so the exact end's) opponents play the playout policy's
        plays instead of their best answers; None is :data:`DEAL_POLICY`."""
        self.replay = replay
        """Above 0, the other seats are read by replaying each choice with the guessed hand
        (:mod:`scopa_net.bots.replay`) at this sharpness, instead of the greedy reading or the
        choice model's; ``replay_floor`` is its share of even choices."""
        self.replay_floor = replay_floor
        self.replay_partner = replay_partner
        """With two pairs and ``replay``, the partner is replayed too (else read as greedy)."""
        self._trees: dict[RuleSet, InformationSetSearch] = {}
        self._read: dict[tuple, dict[int, float]] = {}
        self._greedy = GreedyPlayer()
        self._deal_search: dict[RuleSet, DealSearch] = {}
        self._tools: dict[RuleSet, tuple[Playouts, ExactSearch | None, ChoiceModel]] = {}
        self.evaluations = 0
        """(guess, play) pairs finished so far, by playout or exact search: for benchmarks."""

    def choose(self, view: SeatView) -> Play:
        known = Observed.from_view(view)
        codes = known.legal_codes()
        if len(codes) == 1:
            return Play.from_code(codes[0])
        return Play.from_code(self.best_code(known, codes, decision_rng(self.seed, view)))

    def best_code(self, known: Observed, codes: list[int], rng: random.Random) -> int:
        """The code among ``codes`` with the best total margin over the guessed deals."""
        playouts, exact, model = self._tools_for(known.rules)
        deal_search = None
        if self.lookahead and known.rules.side_count == 2:
            deal_search = self._deal_search.get(known.rules)
            if deal_search is None:
                deal_search = DealSearch(
                    known.rules,
                    self.max_plies,
                    coefficients=self.leaf,
                    caution=self._caution_for(known.rules),
                    prime_splits=self.prime_splits,
                    model=model if self.modelled else None,
                    memo=self._memo_for(known.rules),
                    policy=playouts if self._deal_policy() else None,
                )
                self._deal_search[known.rules] = deal_search
            deal_search.forget()
            start_nodes = deal_search.nodes
        side = known.side
        use_exact = exact is not None and known.plays_left - 1 <= self.exact_plays
        certain = is_certain(known)
        if self.tree and known.rules.players == 2 and not certain:
            return self._tree_code(known, codes, rng, model)
        endgame_plays = self.endgame_plays
        if endgame_plays is None:
            endgame_plays = PAIRS_ENDGAME_PLAYS if known.rules.players == 4 else 0
        signalling = self._signals_for(known.rules)
        exact_end = not known.stock_count and known.plays_left - 1 <= endgame_plays
        pairs_tree = self._pairs_tree_for(known.rules)
        if pairs_tree and not certain and not exact_end:
            return self._pairs_tree_code(
                known, codes, rng, model, signalling=signalling, iterations=pairs_tree
            )
        reading = None if certain else self._reading_for(known, model)
        deadline = self._deadline()
        signals = None
        if signalling and not certain:
            signals = PartnerSignals(known)
            if not signals.informative:
                signals = None
        drawn = None
        if reading is not None and self.pool:
            drawn = _resampling_pool(known, reading, self.pool, rng)
        totals = [0.0] * len(codes)
        weight = 0.0
        alive = list(range(len(codes)))
        budget = max(MIN_GUESSES * len(codes), self.playouts)
        spent = 0
        clock = self.clock
        g = 0
        while g < (1 if certain else MAX_GUESSES):
            if self.halving and g >= MIN_GUESSES and g & (g - 1) == 0 and len(alive) > 2:
                # Every 2**k guesses the worse half of the plays still in the running drop out:
                # the budget goes to telling the good ones apart.
                alive.sort(key=lambda i: -totals[i])
                alive = sorted(alive[: max(2, (len(alive) + 1) // 2)])
            if drawn is not None:
                world, w = rng.choices(drawn[0], cum_weights=drawn[1])[0], 1.0
            else:
                world = sample_world(known, rng)
                w = 1.0 if reading is None else reading.weight(world)
            if signals is not None:
                w *= signals.odds(world)
            root = known.position(world.hands, world.stock)
            # Common random numbers: every play's playout on this guess draws the same
            # random sequence, so their difference is the plays', not the dice's.
            dice = rng.getrandbits(64)
            values = []
            deal = root.next_deal
            plies = 0 if deal_search is None else deal_search.max_plies - 1
            if known.stock_count and (
                known.stock_count <= self.endgame_stock
                or known.plays_left - 1 <= self.stock_endgame_plays
            ):
                # Few cards left in the stock: search this guess to the end of the round.
                deal = LAST_DEAL
                plies = known.plays_left
            elif not known.stock_count and known.plays_left - 1 <= endgame_plays:
                # The last few plays of the round: search this guess to its end.
                plies = known.plays_left
            for i in alive:
                rnd = root.copy()
                rnd.push_code(codes[i])
                if deal_search is not None:
                    values.append(deal_search.value(rnd, side, dice, deal, plies, wary=not certain))
                elif use_exact:
                    assert exact is not None
                    values.append(exact.value(rnd, side))
                else:
                    values.append(playouts.play_out(rnd, side, random.Random(dice)))
                if g and deadline is not None and clock is not None and clock() > deadline:
                    break  # out of time: this guess is not finished for every play, drop it
            else:
                for i, v in zip(alive, values, strict=True):
                    totals[i] += w * v
                weight += w
                self.evaluations += len(alive)
                spent += len(alive)
                g += 1
                if deadline is None and g >= MIN_GUESSES:
                    if deal_search is not None:
                        used = deal_search.nodes - start_nodes
                        if used + used / g > self.nodes:
                            break
                    elif spent + len(alive) > budget:
                        break
                continue
            break
        best = max(alive, key=lambda i: totals[i])
        if signalling and weight > 0:
            lay = signalling_lay(
                [codes[i] for i in alive],
                [totals[i] for i in alive],
                known.hand,
                self.signal_margin * weight,
            )
            if lay is not None:
                return codes[alive[lay]]
        if self.greedy_margin and weight > 0:
            scorer = self._greedy
            greedy = max(range(len(codes)), key=lambda i: scorer.score(known, codes[i]))
            if greedy in alive and totals[best] - totals[greedy] < self.greedy_margin * weight:
                return codes[greedy]
        return codes[best]

    def _tree_code(
        self, known: Observed, codes: list[int], rng: random.Random, model: ChoiceModel
    ) -> int:
        """The information-set search's choice (two players, cards still hidden)."""
        tree = self._tree_for(known.rules)
        greedy = TREE_GREEDY_READING if self.greedy_reading is None else self.greedy_reading
        reading = self._reading(known, model, greedy=greedy) if self.inference else None
        deadline = self._deadline()
        before = tree.iterations
        code = tree.best_code(
            known, codes, rng, self.tree, reading=reading, clock=self.clock, deadline=deadline
        )
        self.evaluations += tree.iterations - before
        return code

    def _tree_for(self, rules: RuleSet) -> InformationSetSearch:
        """This player's information-set search for ``rules``, made once. The two-pair
        settings (``opponent_policy``, ``tree_plies``) are for two pairs only."""
        tree = self._trees.get(rules)
        if tree is None:
            pairs = rules.players == 4
            tree = self._trees[rules] = InformationSetSearch(
                rules,
                exploration=self._exploration_for(pairs),
                coefficients=self.leaf,
                bias=self.bias,
                prime_splits=self._tree_splits_for(pairs),
                fixed_splits=self.fixed_splits,
                pool=self.tree_pool,
                leaf_plies=self.leaf_plies,
                horizon=self.horizon,
                opponent_policy=self.opponent_policy if pairs else bool(self.duel_policy),
                policy_share=1.0 if pairs else float(self.duel_policy),
                partner_policy=pairs and self.partner_policy,
                greedy=self.tree_greedy,
                plies=self.tree_plies if pairs else 0,
                final_share=0.0 if pairs else self.final_share,
                rollouts=0 if pairs else self.rollouts,
                rollout_weight=self.rollout_weight,
                exact_last=self.exact_last and not pairs,
            )
        return tree

    def _deadline(self) -> float | None:
        """When this decision must end by the caller's clock, if it gave one and a limit."""
        if self.clock is None or self.time_limit is None:
            return None
        return self.clock() + self.time_limit

    def _pairs_tree_code(
        self,
        known: Observed,
        codes: list[int],
        rng: random.Random,
        model: ChoiceModel,
        *,
        signalling: bool,
        iterations: int,
    ) -> int:
        """The information-set search's choice with two pairs (cards still hidden), on the
        reading the determinized search would use, and laying by the partners' convention."""
        tree = self._tree_for(known.rules)
        parts: list[Reading] = []
        reading = self._reading_for(known, model)
        if reading is not None:
            parts.append(reading)
        if signalling:
            signals = PartnerSignals(known)
            if signals.informative:
                parts.append(_SignalReading(signals))
        deadline = self._deadline()
        before = tree.iterations
        values = tree.root_values(
            known,
            codes,
            rng,
            iterations,
            reading=_joint(parts),
            clock=self.clock,
            deadline=deadline,
        )
        self.evaluations += tree.iterations - before
        if not values:
            return codes[0]
        best = max(codes, key=lambda k: values.get(k, (-1, 0.0)))
        if signalling:
            # The partner reads lays by the convention: lay from a pair when about as good,
            # among the plays the tree tried a fair share of times.
            most = values[best][0]
            tried = [k for k in codes if k in values and 4 * values[k][0] >= most]
            lay = signalling_lay(
                tried, [values[k][1] for k in tried], known.hand, self.signal_margin
            )
            if lay is not None:
                return tried[lay]
        return best

    def _reading_for(self, known: Observed, model: ChoiceModel) -> _Weighing | None:
        """The reading of the other seats' choices hard uses here, or None (none informative)."""
        if not self.inference or known.rules.hand_size > self.inference_hand_size:
            return None
        skip = None if self.read_partner else _partner_of(known)
        return self._reading(known, model, greedy=self._reads_as_greedy(known.rules), skip=skip)

    def _reading(
        self, known: Observed, model: ChoiceModel, *, greedy: bool, skip: int | None = None
    ) -> _Weighing | None:
        """The greedy reading or the choice model's of the seats other than ``skip`` (or the
        replay's, with ``replay``), or None when it tells the guesses nothing apart."""
        reading: _Weighing
        if self.replay:
            return self._replay_reading(known, skip)
        if greedy:
            sharpness = GREEDY_READING_SHARPNESS if self.sharpness is None else self.sharpness
            reading = GreedyReading(known, sharpness, self._read, skip=skip)
        else:
            reading = Inference(known, model, skip=skip)
        return reading if reading.informative else None

    def _replay_reading(self, known: Observed, skip: int | None) -> _Weighing | None:
        """The replay reading of the seats other than ``skip``; with two pairs the partner (a
        searching player, no greedy one) is read by the greedy reading instead, unless
        ``replay_partner``."""
        partner = _partner_of(known) if known.rules.players == 4 else None
        if partner is None or self.replay_partner or skip == partner:
            replay = ReplayReading(known, self.replay, self.replay_floor, skip=skip)
            return replay if replay.informative else None
        parts: list[Inference | ReplayReading] = []
        replay = ReplayReading(known, self.replay, self.replay_floor, skip=partner)
        if replay.informative:
            parts.append(replay)
        sharpness = GREEDY_READING_SHARPNESS if self.sharpness is None else self.sharpness
        greedy = GreedyReading(known, sharpness, self._read)
        greedy.decisions = [d for d in greedy.decisions if d.seat == partner]
        if greedy.informative:
            parts.append(greedy)
        if len(parts) < 2:
            return parts[0] if parts else None
        return _JointReading(parts)

    def _exploration_for(self, pairs: bool) -> float:
        if self.exploration is not None:
            return self.exploration
        return PAIRS_EXPLORATION if pairs else DEFAULT_EXPLORATION

    def _tree_splits_for(self, pairs: bool) -> int:
        if self.tree_splits is not None:
            return self.tree_splits
        return PAIRS_TREE_SPLITS if pairs else DEFAULT_TREE_SPLITS

    def _pairs_tree_for(self, rules: RuleSet) -> int:
        if rules.players != 4:
            return 0
        if self.pairs_tree is not None:
            return self.pairs_tree
        return 0 if _is_scopone_deal(rules) else PAIRS_TREE

    def _reads_as_greedy(self, rules: RuleSet) -> bool:
        if self.greedy_reading is not None:
            return self.greedy_reading
        return rules.players == 4 and rules.hand_size <= 3

    def _signals_for(self, rules: RuleSet) -> bool:
        if rules.players != 4:
            return False
        return _is_scopone_deal(rules) if self.signals is None else self.signals

    def _deal_policy(self) -> bool:
        return DEAL_POLICY if self.deal_policy is None else self.deal_policy

    def _memo_for(self, rules: RuleSet) -> bool:
        if self.memo is not None:
            return self.memo
        return rules.players == 4

    def _caution_for(self, rules: RuleSet) -> float:
        if self.caution is not None:
            return self.caution
        return DEFAULT_CAUTION if rules.players == 2 else PARTNERS_CAUTION

    def _tools_for(self, rules: RuleSet) -> tuple[Playouts, ExactSearch | None, ChoiceModel]:
        tools = self._tools.get(rules)
        if tools is None:
            exact = ExactSearch(rules) if rules.side_count == 2 else None
            sharpness = self.sharpness
            if sharpness is None:
                sharpness = DEFAULT_SHARPNESS if rules.hand_size <= 3 else LONG_HANDS_SHARPNESS
            model = ChoiceModel(rules, sharpness)
            tools = self._tools[rules] = (Playouts(rules), exact, model)
        return tools


class _SignalReading:
    """The partner's signals as a reading (:class:`~scopa_net.bots.ismcts.Reading`)."""

    __slots__ = ("signals",)

    def __init__(self, signals: PartnerSignals) -> None:
        self.signals = signals

    def log_weight(self, world: World) -> float:
        return log(self.signals.odds(world))


class _JointReading:
    """Several readings at once: a guess's weight is the product of theirs."""

    __slots__ = ("parts",)

    def __init__(self, parts: Sequence[Reading]) -> None:
        self.parts = tuple(parts)

    @property
    def informative(self) -> bool:
        return True

    def weight(self, world: World) -> float:
        return exp(self.log_weight(world))

    def log_weight(self, world: World) -> float:
        return sum(part.log_weight(world) for part in self.parts)


def _joint(parts: Sequence[Reading]) -> Reading | None:
    """One reading of ``parts``: None if there are none, the one if one."""
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else _JointReading(parts)


def _partner_of(known: Observed) -> int:
    return (known.seat + known.rules.players // 2) % known.rules.players


def _is_scopone_deal(rules: RuleSet) -> bool:
    """Four players dealt every card at once (ten each), as in scopone."""
    return rules.players == 4 and rules.hand_size > 3


def _resampling_pool(
    known: Observed, reading: _Weighing, size: int, rng: random.Random
) -> tuple[list[World], list[float]]:
    """``size`` uniform guesses and their cumulative weights by the reading, to draw the
    searched guesses from (sampling-importance-resampling): the search then spends its
    nodes on likely deals instead of weighing a few unlikely ones down."""
    worlds = [sample_world(known, rng) for _ in range(size)]
    logs = [reading.log_weight(w) for w in worlds]
    top = max(logs)
    return worlds, list(accumulate(exp(x - top) for x in logs))
