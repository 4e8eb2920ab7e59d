// Reading and checking a transcript: an ordinary table's (version 2, 5, 7 or 9, protocol.md sections
// 6.1 and 6.2) or a blind table's (version 4, 6, 8 or 10, 9.8 and 9.9).

import { decode, encode, MsgpackError } from "./msgpack.mjs";
import * as F from "./fair.mjs";
import { replayRound, matchWinner, sideCount } from "./rules.mjs";
import { checkBlindRound, blindChain, Failed as BlindFailed } from "./blind.mjs";
import { createPrivateKey, createPublicKey } from "node:crypto";

export class Unreadable extends Error {}

const TOP = ["format", "version", "rules", "host_key", "seat", "rounds", "result", "stopped"];
const ROUND = ["round_id", "round_no", "prev", "card_hashes", "digest", "sig", "commits", "seeds",
  "excluded", "receipt", "hand", "table", "plays", "void", "score", "host_seed", "reveal_sig"];
// Version 5: `seated` before `commits` (6.1).
const ROUND5 = [...ROUND.slice(0, 6), "seated", ...ROUND.slice(6)];
const SEATED = ["person", "computer", "absent"];
const SUBMAPS = { rules: ["players", "target", "variants"], result: ["scores", "winner", "sig"],
  stopped: ["round_no", "check", "detail"], receipt: ["seed_hash", "sig"], void: ["reason", "offender"] };

/** Map -> plain object, checking the keys are exactly `keys` in that order (6.1). */
function fields(map, keys, what) {
  if (!(map instanceof Map)) throw new Unreadable(`${what} is not a map`);
  const got = [...map.keys()];
  if (got.join() !== keys.join()) throw new Unreadable(`${what} has keys ${got.join(",")}, not ${keys.join(",")}`);
  const out = {};
  for (const k of keys) {
    const v = map.get(k);
    out[k] = k in SUBMAPS && v !== null ? fields(v, SUBMAPS[k], k) : v;
  }
  return out;
}

const isInt = (x) => Number.isInteger(x) && x >= 0;
const isBin = (x, n) => x instanceof Uint8Array && (n === undefined || x.length === n);
const orNil = (ok) => (x) => x === null || ok(x);
function want(ok, x, what) {
  if (!ok(x)) throw new Unreadable(`${what} has the wrong type`);
}

/** Decode and shape-check a transcript file; throws Unreadable. */
export function readTranscript(bytes) {
  if (bytes.length === 0) throw new Unreadable("empty file");
  let value;
  try {
    value = decode(bytes);
  } catch (e) {
    if (e instanceof MsgpackError) throw new Unreadable(`not msgpack: ${e.message}`);
    throw e;
  }
  if (!(value instanceof Map) || value.get("format") !== "scopa-net transcript")
    throw new Unreadable("not a scopa-net transcript");
  if (!F.equal(encode(value), bytes)) throw new Unreadable("not in canonical encoding");
  // Version 7 (6.1): version 5's rounds, and a last key, caught_up, one map; version 8 (9.8):
  // version 6's rounds, and the same last key; 9 and 10: 7 and 8 with caught_up an array.
  const caughtUpFile = [7, 8, 9, 10].includes(value.get("version"));
  const caughtUpAgain = [9, 10].includes(value.get("version"));
  const t = fields(value, caughtUpFile ? [...TOP, "caught_up"] : TOP, "the transcript");
  if (![2, 4, 5, 6, 7, 8, 9, 10].includes(t.version)) throw new Unreadable(`transcript version ${t.version} (this verifier reads versions 2, 4, 5, 6, 7, 8, 9 and 10)`);
  want((r) => isInt(r.players) && isInt(r.target) && Array.isArray(r.variants) && r.variants.every((v) => typeof v === "string"), t.rules, "rules");
  const names = t.rules.variants;
  if (!names.every((n, i) => i === 0 || F.compareBytes(F.ascii(names[i - 1]), F.ascii(n)) < 0))
    throw new Unreadable("rules.variants are not sorted bytewise without repeats");
  want((v) => isBin(v, 32), t.host_key, "host_key");
  want(isInt, t.seat, "seat");
  want(Array.isArray, t.rounds, "rounds");
  if (caughtUpFile) {
    // One map (7, 8), or (9, 10: a seat caught up more than once, 6.1) an array of two or
    // more, their round_no going up.
    const list = caughtUpAgain ? t.caught_up : [t.caught_up];
    if (caughtUpAgain && !(Array.isArray(list) && list.length >= 2)) throw new Unreadable("caught_up: not an array of two or more");
    t.caught_up = list.map((x) => {
      want((m) => m instanceof Map, x, "caught_up");
      const c = fields(x, ["round_no", "scores", "dealer"], "caught_up");
      want(isInt, c.round_no, "caught_up round_no");
      want((v) => Array.isArray(v) && v.every(isInt), c.scores, "caught_up scores");
      want((v) => v === null || (isInt(v) && v < t.rules.players), c.dealer, "caught_up dealer");
      return c;
    });
    if (t.caught_up.some((c, k) => k > 0 && c.round_no <= t.caught_up[k - 1].round_no)) throw new Unreadable("caught_up: round_no not going up");
  } else t.caught_up = [];
  if (isBlind(t)) {
    t.rounds = t.rounds.map((r, i) => readBlindRound(r, i, t.rules.players, t.version >= 8 ? 6 : t.version));
    want((r) => Array.isArray(r.scores) && (r.winner === null || isInt(r.winner)) && (r.sig === null || isBin(r.sig, 64)), t.result, "result");
    return t;
  }
  const seatedRounds = [5, 7, 9].includes(t.version);
  t.rounds = t.rounds.map((r, i) => {
    const round = fields(r, seatedRounds ? ROUND5 : ROUND, `round ${i + 1}`);
    const w = (ok, k) => want(ok, round[k], `round ${i + 1} ${k}`);
    if (seatedRounds) {
      const seated = (x) => Array.isArray(x) && x.length === t.rules.players && x.every((e) => SEATED.includes(e));
      w((x) => (x === null) === (round.commits === null) && (x === null || seated(x)), "seated");
    } else round.seated = null;
    w((x) => isBin(x, 16), "round_id");
    w(isInt, "round_no");
    for (const k of ["prev", "digest"]) w((x) => isBin(x, 32), k);
    w((x) => Array.isArray(x) && x.length === 40 && x.every((h) => isBin(h, 32)), "card_hashes");
    w((x) => isBin(x, 64), "sig");
    const bySeat = (ok) => orNil((x) => Array.isArray(x) && x.length === t.rules.players && x.every(orNil(ok)));
    for (const k of ["commits", "seeds"]) w(bySeat((e) => isBin(e, 32)), k);
    w(bySeat((e) => ["no_commit", "no_reveal", "bad_reveal"].includes(e)), "excluded");
    w(orNil((x) => isBin(x.seed_hash, 32) && isBin(x.sig, 64)), "receipt");
    const dealt = (x) => Array.isArray(x) && x.every((e) => Array.isArray(e) && e.length === 3 && isInt(e[0]) && isInt(e[1]) && isBin(e[2], 16));
    w(dealt, "hand");
    w(dealt, "table");
    w((x) => Array.isArray(x) && x.every((e) => Array.isArray(e) && e.length === 4 && isInt(e[0]) && isInt(e[1]) && isInt(e[2]) && isBin(e[3], 16)), "plays");
    w(orNil((x) => typeof x.reason === "string" && (x.offender === null || isInt(x.offender))), "void");
    w(orNil((x) => Array.isArray(x) && x.every(Number.isInteger)), "score");
    w(orNil((x) => isBin(x, 32)), "host_seed");
    w(orNil((x) => isBin(x, 64)), "reveal_sig");
    return round;
  });
  want((r) => Array.isArray(r.scores) && (r.winner === null || isInt(r.winner)) && (r.sig === null || isBin(r.sig, 64)), t.result, "result");
  return t;
}

const ROUND4 = ["round_id", "round_no", "prev", "dealer", "people", "keys", "sig", "decks", "deck_sigs",
  "deck_proofs", "deals", "hand", "table", "plays", "void", "score", "seeds", "reveal_sig"];

// Version 6: `seated` after `people` (9.8): who held each seat as the seat's client knew it.
const ROUND6 = [...ROUND4.slice(0, 5), "seated", ...ROUND4.slice(5)];
const BLIND_SEATED = ["person", "computer"];

/** A version 6 or 4 round (9.8), shape-checked; `seated` null in version 4. */
function readBlindRound(map, i, players, version) {
  if (!(map instanceof Map)) throw new Unreadable(`round ${i + 1} is not a map`);
  const r = {};
  const keys = version === 6 ? ROUND6 : ROUND4;
  const got = [...map.keys()];
  if (got.join() !== keys.join()) throw new Unreadable(`round ${i + 1} has keys ${got.join(",")}`);
  for (const k of keys) r[k] = map.get(k);
  const w = (ok, k) => want(ok, r[k], `round ${i + 1} ${k}`);
  if (version === 6) w((x) => Array.isArray(x) && x.length === players && x.every((e) => BLIND_SEATED.includes(e)), "seated");
  else r.seated = null;
  const parties = Array.isArray(r.people) ? r.people.length + 1 : 0;
  w((x) => isBin(x, 16), "round_id");
  w(isInt, "round_no");
  w((x) => isBin(x, 32), "prev");
  w(orNil(isInt), "dealer");
  w((x) => Array.isArray(x) && x.every((s, j) => isInt(s) && s < players && (j === 0 || s > x[j - 1])), "people");
  w((x) => Array.isArray(x) && x.length >= 1 && x.length <= parties && x.every((k) => Array.isArray(k) && k.length === 3 && isBin(k[0], 32) && isBin(k[1], 64) && isBin(k[2], 32)), "keys");
  w((x) => isBin(x, 64), "sig");
  w((x) => Array.isArray(x) && x.every((d) => Array.isArray(d) && d.length === 40 && d.every((c) => isBin(c, 64))), "decks");
  w((x) => Array.isArray(x) && x.length === r.decks.length && x.every((b) => isBin(b, 64)), "deck_sigs");
  w((x) => Array.isArray(x) && x.length === r.decks.length && x.every((b) => isBin(b, 5280)), "deck_proofs");
  r.deals = r.deals.map((d) => {
    if (!(d instanceof Map)) throw new Unreadable(`round ${i + 1} deals`);
    const keys = [...d.keys()].join();
    if (keys !== "shares,sigs" && keys !== "shares,sigs,relayed") throw new Unreadable(`round ${i + 1} deal keys ${keys}`);
    const deal = { shares: d.get("shares"), sigs: d.get("sigs"), relayed: d.get("relayed") ?? null };
    want((x) => Array.isArray(x) && x.length === parties && x.every(orNil((s) => Array.isArray(s) && s.every((b) => isBin(b, 32)))), deal.shares, "shares");
    want((x) => Array.isArray(x) && x.length === parties && x.every(orNil((b) => isBin(b, 64))), deal.sigs, "sigs");
    return deal;
  });
  const pairs = (x) => Array.isArray(x) && x.every((e) => Array.isArray(e) && e.length === 2 && isInt(e[0]) && isInt(e[1]));
  w(pairs, "hand");
  w(pairs, "table");
  w((x) => Array.isArray(x) && x.every((e) => Array.isArray(e) && e.length === 4 && isInt(e[0]) && isInt(e[1]) && isInt(e[2]) && isBin(e[3], 64)), "plays");
  r.void = r.void === null ? null : fields(r.void, SUBMAPS.void, "void");
  w(orNil((x) => Array.isArray(x) && x.every(Number.isInteger)), "score");
  w(orNil((x) => Array.isArray(x) && x.length === parties && x.every(orNil((b) => isBin(b, 32)))), "seeds");
  w(orNil((x) => isBin(x, 64)), "reveal_sig");
  return r;
}

/** Whether the file holds a blind table's rounds (9.8: versions 4, 6, 8 and 10). */
const isBlind = (t) => [4, 6, 8, 10].includes(t.version);

const PKCS8_ED25519 = F.unhex("302e020100300506032b657004220420");
const publicKeyOf = (seed) => new Uint8Array(createPublicKey(createPrivateKey({ key: Buffer.from(F.concat(PKCS8_ED25519, seed)), format: "der", type: "pkcs8" })).export({ format: "der", type: "spki" })).slice(-32);

/** 9.9 over every blind round, then the match end as 6.2; a version 8 file as 9.9 says. */
function verifyBlind(t) {
  const { players, target, variants } = t.rules;
  const state = { expectNo: 1, prev: new Uint8Array(32), seen: new Set(), dealer: null, replaying: true, asRecorded: false };
  let scores = new Array(sideCount(players, variants)).fill(0);
  let winner = null;
  const out = [];
  // Version 8 (9.9): the rounds up to caught_up.round_no from round 1; the first one after is
  // linked as it came (unless it follows the seat's own last round, which the snapshot stands
  // at) and replayed on caught_up's points and dealer (nil: the dealer it records).
  const takes = t.caught_up;
  let taken = 0;
  let lastHeld = 0;
  let caughtUp = null;
  const compareTold = (told) => {
    if (lastHeld === 0 || lastHeld !== told.round_no || !state.replaying) return;
    if (scores.join() !== told.scores.join() || state.dealer !== told.dealer)
      caughtUp = { check: "score mismatch", detail: `the snapshot gives ${told.scores.join("-")}, dealer ${told.dealer}; the rounds give ${scores.join("-")}, dealer ${state.dealer}` };
  };
  // An older blind file (version 6, 4) whose first round is numbered above 1 begins mid-match
  // (9.9): its chain starts mid-way, that round's number and prev taken as they stand, its
  // dealer the one it records; each round's score is checked, the match's total is not.
  const midWay = takes.length === 0 && t.rounds.length && t.rounds[0].round_no > 1 ? t.rounds[0].round_no : null;
  if (midWay !== null) {
    state.expectNo = midWay;
    state.prev = t.rounds[0].prev;
    state.asRecorded = true;
  }
  for (const r of t.rounds) {
    while (taken < takes.length && r.round_no > takes[taken].round_no) {
      const told = takes[taken++];
      compareTold(told);
      if (!(told.round_no === 0 && r.round_no === 1)) {
        if (!(lastHeld === told.round_no && r.round_no === lastHeld + 1)) state.prev = r.prev;
        state.expectNo = r.round_no;
        state.dealer = told.dealer;
        state.asRecorded = told.dealer === null;
        scores = [...told.scores];
        winner = matchWinner(scores, target, variants);
        state.replaying = true;
      }
    }
    lastHeld = r.round_no;
    try {
      const res = checkBlindRound(t, r, state, { publicKeyOf, edCheck: F.edCheck });
      if (res.points) {
        scores = scores.map((s, k) => s + res.points[k]);
        winner = matchWinner(scores, target, variants);
      }
      state.dealer = r.void ? res.dealer : (res.dealer + 1) % players;
      state.prev = res.chain;
      out.push({ round_no: r.round_no, verdict: res.verdict });
    } catch (e) {
      if (!(e instanceof BlindFailed)) throw e;
      out.push({ round_no: r.round_no, verdict: "failed", check: e.check, detail: e.detail });
      state.replaying = false;
      state.prev = blindChain(r);
    }
    state.expectNo += 1;
  }
  if (midWay !== null) return midWayEnd(t, out, state.prev);
  return caughtUpEnd(t, out, takes, taken, lastHeld, compareTold, () => caughtUp, () => finish(t, out, state.prev, state.replaying, scores, winner));
}

/**
 * The end of a blind file that begins mid-match (9.9): the points before its first round are
 * not known, so the match's scores and winner are not checked, only the end's signature over
 * the last round's chain hash; it verifies at best "partly".
 */
function midWayEnd(t, out, prevChain) {
  const res = t.result;
  let match;
  if (res.sig === null) match = { verdict: "unfinished" };
  else if (!F.edCheck(t.host_key, F.endMsg(prevChain, res.scores, res.winner), res.sig))
    match = { verdict: "failed", check: "bad signature", detail: "the match end signature does not verify" };
  else match = { verdict: "verified", detail: `not checked: the points before round ${t.rounds[0].round_no}, which this file does not hold, are not known here` };
  const bad = out.find((e) => e.verdict === "failed");
  const status = match.verdict === "failed" || bad ? "failed" : match.verdict === "unfinished" ? "unfinished" : "partly";
  return { rounds: out, match, status, midWay: t.rounds[0].round_no };
}

/**
 * The end of a file that may hold a catch-up (6.2 for version 7, 9.9 for version 8): with no
 * round followed since the snapshot, and not the one it stands at, the match end's signature
 * cannot be tied to a round held and its scores are the snapshot's points; a snapshot's word
 * the rounds contradict fails; a file of a catch-up verifies at best "partly".
 */
function caughtUpEnd(t, out, takes, taken, lastHeld, compareTold, caughtUp, finished) {
  if (taken < takes.length) compareTold(takes[taken]);
  const told = takes.at(-1);
  let done;
  if (taken < takes.length && lastHeld !== told.round_no) {
    const { target, variants } = t.rules;
    const res = t.result;
    const toldWinner = matchWinner(told.scores, target, variants);
    let match;
    if (res.sig === null && res.winner !== null) match = { verdict: "failed", check: "unfinished match", detail: "a winner without the host's signature" };
    else if (res.scores.join() !== told.scores.join() || (res.sig !== null && res.winner !== toldWinner))
      match = { verdict: "failed", check: "score mismatch", detail: `the record says ${res.scores.join("-")}, the snapshot's points ${told.scores.join("-")}` };
    else match = { verdict: res.sig === null ? "unfinished" : "verified" };
    const bad = out.find((e) => e.verdict === "failed");
    const status = match.verdict === "failed" || bad ? "failed" : match.verdict;
    done = { rounds: out, match, status };
  } else done = finished();
  if (caughtUp() !== null) return { ...done, caughtUp: caughtUp(), status: "failed" };
  if (takes.length && done.status === "verified") return { ...done, status: "partly" };
  return done;
}

class Failed extends Error {
  constructor(check, detail) {
    super(`${check}: ${detail}`);
    this.check = check;
    this.detail = detail;
  }
}
let knownDealer;
const fail = (check, detail) => {
  const e = new Failed(check, detail);
  e.dealer = knownDealer;
  throw e;
};

/**
 * Check a transcript as 6.2 says. Returns { rounds: [{round_no, verdict, check?, detail?}],
 * match: {verdict, check?, detail?}, status: "verified" | "unfinished" | "failed" }.
 */
export function verifyTranscript(t) {
  if (isBlind(t)) return verifyBlind(t);
  const { players, target, variants } = t.rules;
  const sides = sideCount(players, variants);
  const shape = F.dealShape(players, variants);
  const rulesH = F.rulesHash(players, target, variants);
  const out = [];
  const seen = new Set();
  let prevChain = new Uint8Array(32);
  let dealer = null;
  let replaying = true;
  let scores = new Array(sides).fill(0);
  let winner = null;
  if (t.rounds.length === 0 && t.caught_up.length === 0) return { rounds: [], match: { verdict: "failed", check: "empty transcript", detail: "no rounds" }, status: "failed" };
  // Version 7 (6.2): the rounds up to caught_up.round_no are the seat's own from round 1; the
  // first one after is linked as it came (unless it follows the seat's own last round, which
  // the snapshot stands at) and replayed on caught_up's points and dealer.
  const takes = t.caught_up;
  let taken = 0;
  let lastHeld = 0;
  let caughtUp = null;
  const compareTold = (told) => {
    if (lastHeld === 0 || lastHeld !== told.round_no || !replaying) return;
    if (scores.join() !== told.scores.join() || dealer !== told.dealer)
      caughtUp = { check: "score mismatch", detail: `the snapshot gives ${told.scores.join("-")}, dealer ${told.dealer}; the rounds give ${scores.join("-")}, dealer ${dealer}` };
  };
  let expectNo = 1;
  for (const r of t.rounds) {
    while (taken < takes.length && r.round_no > takes[taken].round_no) {
      const told = takes[taken++];
      compareTold(told);
      if (!(told.round_no === 0 && r.round_no === 1)) {
        if (!(lastHeld === told.round_no && r.round_no === lastHeld + 1)) prevChain = r.prev;
        expectNo = r.round_no;
        dealer = told.dealer ?? fitDealer(t, shape, players, r);
        scores = [...told.scores];
        winner = matchWinner(scores, target, variants);
        replaying = true;
      }
    }
    lastHeld = r.round_no;
    const ctx = { t, r, players, shape, rulesH, seen, prevChain, expectNo: expectNo++ };
    let entry;
    try {
      const res = checkRound(ctx, dealer);
      dealer = res.dealer;
      if (replaying) {
        const rep = replay(ctx, res);
        if (rep) {
          scores = scores.map((s, k) => s + rep[k]);
          winner = matchWinner(scores, target, variants);
        }
      }
      // 10. the reveal signature over the chain hash
      if (r.reveal_sig === null || !F.edCheck(t.host_key, F.revealMsg(r.round_id, r.host_seed, res.chain), r.reveal_sig))
        fail("bad signature", "the reveal signature does not verify");
      entry = { round_no: r.round_no, verdict: res.fair ? "verified" : "not fair-checked: no player seed" };
      prevChain = res.chain;
    } catch (e) {
      if (!(e instanceof Failed)) throw e;
      entry = { round_no: r.round_no, verdict: "failed", check: e.check, detail: e.detail };
      replaying = false;
      prevChain = r.host_seed ? F.chainHash(r) : null;
      if (e.dealer !== undefined) dealer = e.dealer;
    }
    if (r.void === null && dealer !== null) dealer = (dealer + 1) % players;
    out.push(entry);
  }
  return caughtUpEnd(t, out, takes, taken, lastHeld, compareTold, () => caughtUp, () => finish(t, out, prevChain, replaying, scores, winner));
}

/** The dealer whose deal plan gives this seat the hand the round records (6.2, version 7). */
function fitDealer(t, shape, players, r) {
  const got = r.hand.map(([pos]) => pos).join();
  for (const firstOnly of [false, true])
    for (let d = 0; d < players; d++) {
      const plan = F.dealPlan(shape, players, d);
      const deals = firstOnly ? plan.slice(0, 1) : plan;
      if (deals.flatMap((x) => x.hands[t.seat]).sort((a, b) => a - b).join() === got) return d;
    }
  return 0;
}

function finish(t, out, prevChain, replaying, scores, winner) {
  const bad = out.find((e) => e.verdict === "failed");
  let match;
  const res = t.result;
  if (res.sig === null) {
    match = res.winner !== null
      ? { verdict: "failed", check: "unfinished match", detail: "a winner without the host's signature" }
      : { verdict: "unfinished" };
  } else if (prevChain === null || !F.edCheck(t.host_key, F.endMsg(prevChain, res.scores, res.winner), res.sig)) {
    match = { verdict: "failed", check: "bad signature", detail: "the match end signature does not verify" };
  } else if (replaying && (res.scores.join() !== scores.join() || res.winner !== winner)) {
    match = { verdict: "failed", check: "score mismatch", detail: `the record says ${res.scores.join("-")} (winner ${res.winner}), the replay ${scores.join("-")} (winner ${winner})` };
  } else {
    match = { verdict: "verified" };
  }
  let status;
  if (match.verdict === "failed" || bad) status = "failed";
  else if (match.verdict === "unfinished") status = "unfinished";
  else status = "verified";
  return { rounds: out, match, status };
}

/** Checks 1-8 and 10 of 6.2 for one round; returns what the replay needs. */
function checkRound(ctx, dealerBefore) {
  knownDealer = dealerBefore ?? undefined;
  const { t, r, players, shape, rulesH, seen, prevChain, expectNo } = ctx;
  // 1. chain
  if (r.round_no !== expectNo || prevChain === null || !F.equal(r.prev, prevChain))
    fail("broken chain", `round_no ${r.round_no} where ${expectNo} was due, or prev is not the last round's chain hash`);
  const idHex = F.hex(r.round_id);
  if (seen.has(idHex)) fail("replayed round", `round id ${idHex} was used before in this match`);
  seen.add(idHex);
  // 2. commitment
  if (!F.edCheck(t.host_key, F.commitMsg(r.round_id, r.round_no, r.prev, r.digest, rulesH), r.sig))
    fail("bad signature", "the round commitment's signature does not verify");
  if (!F.equal(F.deckDigest(r.round_id, r.card_hashes), r.digest)) fail("digest mismatch", "digest is not the hash of card_hashes");
  // 3. void reason, seeds relayed
  if (r.void !== null && (r.void.reason !== "kings" || r.void.offender !== null))
    fail("void mismatch", `void for ${JSON.stringify(r.void.reason)}, offender ${r.void.offender}`);
  // (version 5) no commitment for a seat no person's client held since the round began
  if (r.seated !== null)
    for (let s = 0; s < players; s++) {
      if (r.commits[s] === null) continue;
      if (r.seated[s] === "computer") fail("computer seed", `a seed commitment for seat ${s}, a computer player's seat`);
      if (r.seated[s] === "absent") fail("absent seat seed", `a seed commitment for seat ${s}, whose player was away since the round began`);
    }
  if (r.commits === null || r.seeds === null || r.excluded === null) fail("not revealed", "the seeds were never relayed");
  // 4. exclusions
  const counted = [];
  for (let s = 0; s < players; s++) {
    const [c, seed, ex] = [r.commits[s], r.seeds[s], r.excluded[s]];
    const opens = c !== null && seed !== null && F.equal(F.seatCommit(r.round_id, s, seed), c);
    if (c !== null && seed !== null && !opens && ex !== "bad_reveal")
      fail("commitment mismatch", `seat ${s}'s published seed does not open its commitment, and it is not excluded as bad_reveal`);
    let proven;
    if (c === null) proven = seed === null ? [null, "no_commit"] : [];
    else if (seed === null) proven = ["no_reveal"];
    else proven = opens ? [null] : ["bad_reveal"];
    if (!proven.includes(ex))
      fail("exclusion mismatch", `seat ${s} is excluded as ${ex} but the record shows ${proven.length ? proven.join(" or ") : "a seed without a commitment"}`);
    if (ex === null && seed !== null) counted.push(seed);
  }
  // 5. receipt
  if (r.receipt !== null) {
    const seat = t.seat;
    if (!F.edCheck(t.host_key, F.receiptMsg(r.round_id, seat, r.receipt.seed_hash), r.receipt.sig))
      fail("bad signature", "the seed receipt's signature does not verify");
    if (r.commits[seat] === null) fail("bad receipt", "a receipt for a commitment that was never relayed");
    if (F.equal(r.receipt.seed_hash, r.commits[seat])) {
      if (r.excluded[seat] !== null) fail("host lied", `the host signed a receipt for seat ${seat}'s good seed and then excluded it as ${r.excluded[seat]}`);
    } else if (!(r.excluded[seat] === "bad_reveal" && r.seeds[seat] !== null && F.equal(F.seatCommit(r.round_id, seat, r.seeds[seat]), r.receipt.seed_hash))) {
      fail("host lied", "the receipt names a seed other than the one published");
    }
  }
  const joint = F.jointSeed(r.round_id, r.digest, counted);
  const perm = F.deckPermutation(joint, r.round_id);
  const dealer = dealerBefore ?? F.firstDealer(joint, r.round_id, players);
  knownDealer = dealer;
  const seenCards = [...r.hand, ...r.table, ...r.plays.map(([, code, pos, salt]) => [pos, Number(BigInt(code) & 63n), salt])];
  for (const [pos] of seenCards) if (pos > 39) fail("misrouted card", `deck position ${pos}`);
  // 6. host seed
  if (r.host_seed === null) {
    for (const [pos, card, salt] of seenCards)
      if (!F.equal(F.cardHash(r.round_id, card, salt), r.card_hashes[perm[pos]]))
        fail("swapped card", `card ${card} at position ${pos} does not match its committed hash`);
    fail("not revealed", "the host never revealed its seed");
  }
  const list = F.hostList(r.round_id, r.host_seed);
  for (let p = 0; p < 40; p++)
    if (!F.equal(list.hashes[p], r.card_hashes[p])) fail("host seed mismatch", `the host seed does not give the committed hash of place ${p}`);
  // 7. cards
  const deck = perm.map((p) => list.order[p]);
  for (const [pos, card, salt] of seenCards) {
    if (deck[pos] !== card) fail("swapped card", `position ${pos} holds card ${deck[pos]}, not ${card}`);
    if (!F.equal(list.salts[perm[pos]], salt)) fail("wrong salt", `the salt of position ${pos} is not the committed one`);
  }
  // 8. routing
  const plan = F.dealPlan(shape, players, dealer);
  // A round whose opening table holds three or more kings is void: its hand is the first deal's.
  const kingsVoid = plan[0].table.filter((p) => deck[p] >= 36).length >= 3;
  const dealsSeen = kingsVoid ? plan.slice(0, 1) : plan;
  const wantHand = dealsSeen.flatMap((d) => d.hands[t.seat]).sort((a, b) => a - b);
  const gotHand = r.hand.map(([pos]) => pos);
  if (gotHand.join() !== wantHand.join()) fail("misrouted card", `seat ${t.seat}'s hand holds positions ${gotHand.join(" ")}, the deal plan gives ${wantHand.join(" ")}`);
  if (r.table.map(([pos]) => pos).join() !== plan[0].table.join()) fail("misrouted card", "the opening table is not at the opening positions");
  const chain = F.chainHash(r);
  return { dealer, chain, deck, plan, fair: counted.length > 0 };
}

/** Check 9: replay the round; returns the round's points by side, or null for a void. */
function replay(ctx, { dealer, deck, plan }) {
  const { t, r, players } = ctx;
  const kings = plan[0].table.filter((p) => deck[p] >= 36).length;
  if ((kings >= 3) !== (r.void !== null)) fail("void mismatch", `${kings} kings on the opening table, and the round is ${r.void ? "" : "not "}void`);
  if (r.void !== null) {
    if (r.plays.length || r.score !== null) fail("void mismatch", "a void round with plays or a score");
    return null;
  }
  const deals = plan.map((d) => ({ hands: d.hands.map((h) => h.map((p) => deck[p])), table: d.table.map((p) => deck[p]) }));
  const res = replayRound({ players, variants: t.rules.variants, dealer, deals, plays: r.plays });
  if (res.incomplete) fail("incomplete round", res.error);
  if (res.error) fail("illegal play", res.error);
  if (r.score === null || r.score.join() !== res.points.join())
    fail("score mismatch", `the record scores the round ${r.score ? r.score.join("-") : "nil"}, the replay ${res.points.join("-")}`);
  return res.points;
}
