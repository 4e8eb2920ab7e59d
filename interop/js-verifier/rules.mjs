// The rules of RULES.md, as far as a replay needs them: legal captures, sweeps, the end of a
// round, the score sheet and the winner of a match.

export const value = (card) => (card >> 2) + 1;
export const suit = (card) => card & 3;
const PRIME = [0, 16, 12, 13, 14, 15, 18, 21, 10, 10, 10];
const SETTEBELLO = 24;
const RE_BELLO = 36;

export function sideCount(players, variants) {
  if (players === 6) return variants.includes("six_as_three_pairs") ? 3 : 2;
  return players === 4 ? 2 : players;
}

/** The cards of a mask (bits 0..39), ascending. */
export function maskCards(mask) {
  const out = [];
  let m = BigInt(mask);
  for (let i = 0; m; i++, m >>= 1n) if (m & 1n) out.push(i);
  return out;
}

const sumOf = (cards) => cards.reduce((s, c) => s + value(c), 0);

function subsetSums(cards, target) {
  let reach = 1n; // bit s set: some subset of the cards seen sums to s
  for (const c of cards) reach |= reach << BigInt(value(c));
  return ((reach >> BigInt(target)) & 1n) === 1n;
}

/** Why `captured` is not a legal capture for `card` on `table`, or null when it is. */
export function illegalCapture(table, card, captured, variants) {
  if (!captured.every((c) => table.includes(c))) return "takes a card that is not on the table";
  const v = value(card);
  if (variants.includes("quindici")) {
    const target = 15 - v;
    if (target > 0 && subsetSums(table, target)) {
      if (captured.length === 0) return "that card can make fifteen, so it must";
      return sumOf(captured) === target ? null : "the cards taken do not make fifteen";
    }
    return captured.length === 0 ? null : "nothing makes fifteen";
  }
  if (variants.includes("asso_piglia_tutto") && v === 1 && table.length && !table.some((c) => value(c) === 1)) {
    return captured.length === table.length ? null : "an ace takes the whole table";
  }
  if (table.some((c) => value(c) === v)) {
    return captured.length === 1 && value(captured[0]) === v ? null : "a card of the same value must be taken alone";
  }
  if (subsetSums(table, v)) {
    return captured.length >= 2 && sumOf(captured) === v ? null : "the cards taken do not add up to the card";
  }
  return captured.length === 0 ? null : "nothing to take";
}

/**
 * Replay one played-out round. `deals` is the deal plan with cards (hands by seat, table),
 * `plays` the recorded [seat, code, ...]. Returns { error } or { points: by side, lines }.
 */
export function replayRound({ players, variants, dealer, deals, plays }) {
  const sides = sideCount(players, variants);
  const hands = deals[0].hands.map((h) => [...h]);
  let table = [...deals[0].table];
  const piles = Array.from({ length: sides }, () => []);
  const sweeps = new Array(sides).fill(0);
  const total = deals.reduce((s, d) => s + d.hands.reduce((t, h) => t + h.length, 0), 0);
  let lastCapturer = null;
  let turn = (dealer + 1) % players;
  let deal = 0;
  for (const [i, play] of plays.entries()) {
    const [seat, code] = play;
    const n = i + 1;
    if (i >= total) return { error: `play ${n}: the round was already over` };
    if (seat !== turn) return { error: `play ${n}: seat ${seat} played out of turn (seat ${turn} was to play)` };
    const card = Number(BigInt(code) & 63n);
    const captured = maskCards(BigInt(code) >> 6n);
    if (!hands[seat].includes(card)) return { error: `play ${n}: card ${card} is not in seat ${seat}'s hand` };
    const why = illegalCapture(table, card, captured, variants);
    if (why) return { error: `play ${n}: seat ${seat} played card ${card} taking [${captured}]: ${why}` };
    hands[seat].splice(hands[seat].indexOf(card), 1);
    const side = seat % sides;
    const last = i === total - 1;
    if (captured.length) {
      table = table.filter((c) => !captured.includes(c));
      piles[side].push(card, ...captured);
      lastCapturer = side;
      if (table.length === 0 && (!last || variants.includes("scopone_scientifico"))) sweeps[side] += 1;
    } else {
      table.push(card);
    }
    turn = (seat + 1) % players;
    if (hands.every((h) => h.length === 0) && deal + 1 < deals.length) {
      deal += 1;
      deals[deal].hands.forEach((h, s) => hands[s].push(...h));
    }
  }
  if (plays.length < total) return { error: `the round stops after ${plays.length} of its ${total} plays`, incomplete: true };
  if (lastCapturer !== null) piles[lastCapturer].push(...table);
  return scoreRound(piles, sweeps, variants);
}

function strictWinner(keys, better) {
  for (let s = 0; s < keys.length; s++) if (keys.every((k, o) => o === s || better(keys[s], k))) return s;
  return null;
}

function scoreRound(piles, sweeps, variants) {
  const courtZero = variants.includes("court_prime=0");
  const gt = (a, b) => a > b;
  const lines = [];
  const strictLine = (name, figures, better = gt, keys = figures) => {
    const winner = strictWinner(keys, better);
    lines.push({ name, figures, points: figures.map((_, s) => (s === winner ? 1 : 0)) });
  };
  const holds = (card) => piles.map((p) => (p.includes(card) ? 1 : 0));
  strictLine("cards", piles.map((p) => p.length));
  strictLine("coins", piles.map((p) => p.filter((c) => suit(c) === 0).length));
  lines.push({ name: "settebello", figures: holds(SETTEBELLO), points: holds(SETTEBELLO) });
  const prim = piles.map((p) => {
    const best = [null, null, null, null];
    for (const c of p) {
      const pv = courtZero && value(c) >= 8 ? 0 : PRIME[value(c)];
      if (best[suit(c)] === null || pv > best[suit(c)]) best[suit(c)] = pv;
    }
    const held = best.filter((b) => b !== null);
    return { suits: held.length, total: held.reduce((a, b) => a + b, 0) };
  });
  const primBetter = variants.includes("primiera=sum")
    ? (a, b) => a.total > b.total
    : (a, b) => a.suits > b.suits || (a.suits === b.suits && a.total > b.total);
  strictLine("primiera", prim.map((p) => p.total), primBetter, prim);
  lines.push({ name: "sweeps", figures: sweeps, points: sweeps });
  if (variants.includes("re_bello")) lines.push({ name: "re_bello", figures: holds(RE_BELLO), points: holds(RE_BELLO) });
  if (variants.includes("napola")) {
    const runs = piles.map((p) => {
      let run = 0;
      while (run < 10 && p.includes(run * 4)) run += 1;
      return run >= 3 ? run : 0;
    });
    lines.push({ name: "napola", figures: runs, points: runs });
  }
  const points = piles.map((_, s) => lines.reduce((t, l) => t + l.points[s], 0));
  return { points, lines };
}

/** The match winner after a round, or null (RULES.md, "Winning the match"). */
export function matchWinner(scores, target, variants) {
  if (variants.includes("cappotto")) {
    const s = scores.findIndex((x, i) => x >= 7 && scores.every((y, j) => j === i || y === 0));
    if (s >= 0) return s;
  }
  const s = strictWinner(scores, (a, b) => a > b);
  return s !== null && scores[s] >= target ? s : null;
}
