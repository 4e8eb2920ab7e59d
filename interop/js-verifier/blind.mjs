// Blind rounds (transcript version 6 or 4), protocol.md 9.8 and 9.9: the path of a round whose
// every seed came (played out, or void for kings), voids `absent` (step 7) and `failed_check`
// (step 8) once the keys all came, and a round void before every key came (9.9's "Void before
// the keys"). A round played with a seed that never came and version 3 files are reported as
// not handled here, never as verified.

import * as F from "./fair.mjs";
import * as E from "./ed25519.mjs";
import { replayRound } from "./rules.mjs";

export class Failed extends Error {
  constructor(check, detail) {
    super(`${check}: ${detail}`);
    this.check = check;
    this.detail = detail;
  }
}
const fail = (check, detail) => {
  throw new Failed(check, detail);
};

const enc = E.encode;
const pt = (bytes) => E.decode(bytes);
const cardPoints = Array.from({ length: 40 }, (_, c) => E.cardPoint(c));
const cardOf = new Map(cardPoints.map((p, c) => [F.hex(enc(p)), c]));
const generators = Array.from({ length: 41 }, (_, k) =>
  E.fromUniform(F.H("scopa-net/blind/v1/shuffle-generator", F.u8(k))));
const sumPoints = (ps) => ps.reduce(E.add, E.ZERO);
const scalar = (b) => E.leToInt(b);

/** libsodium's is_valid_point: canonical, on the curve, in the subgroup, not small order. */
export function validPoint(bytes) {
  const p = pt(bytes);
  if (!p || !F.equal(enc(p), bytes)) return null;
  if (F.equal(enc(E.mul(8n, p)), enc(E.ZERO))) return null;
  if (!F.equal(enc(E.mul(E.L, p)), enc(E.ZERO))) return null;
  return p;
}

const ciphertexts = (deck) => deck.map((b) => [pt(b.subarray(0, 32)), pt(b.subarray(32))]);

export const blindDigest = (r) =>
  F.H("scopa-net/blind/v1/round", r.round_id, Uint8Array.from(r.people), ...r.keys[0]);

export function firstDealerBlind(r, players) {
  const seed = F.H("scopa-net/blind/v1/first-dealer", r.round_id, ...r.keys.map((k) => k[0]));
  return F.below(F.stream(seed, "scopa-net/v1/first-dealer", r.round_id), players);
}

function keyProofHolds(p, roundId, [point, proof, signKey]) {
  const X = validPoint(point);
  if (!X) return false;
  const e = scalar(proof.subarray(0, 32)), z = scalar(proof.subarray(32));
  if (e >= E.L || z >= E.L) return false;
  const kctx = F.concat(roundId, F.u8(p), signKey);
  const A = E.sub(E.mul(z, E.BASE), E.mul(e, X));
  return E.Hs("scopa-net/blind/v1/key-proof", kctx, point, enc(A)) === e;
}

/** Section 9.4's shuffle proof check, from `inDeck` to `outDeck` (arrays of 64-byte bins). */
export function shuffleProofHolds(roundId, p, Y, inDeck, outDeck, proof) {
  if (proof.length !== 5280) return false;
  const at = (k) => proof.subarray(32 * k, 32 * k + 32);
  const c = [], chat = [];
  for (let j = 0; j < 40; j++) {
    c.push(validPoint(at(j)));
    chat.push(validPoint(at(40 + j)));
  }
  if (c.includes(null) || chat.includes(null)) return false;
  const [e, s1, s2, s3, s4] = [80, 81, 82, 83, 84].map((k) => scalar(at(k)));
  const shat = Array.from({ length: 40 }, (_, i) => scalar(at(85 + i)));
  const sp = Array.from({ length: 40 }, (_, i) => scalar(at(125 + i)));
  if ([e, s1, s2, s3, s4, ...shat, ...sp].some((s) => s >= E.L)) return false;
  const inC = ciphertexts(inDeck), outC = ciphertexts(outDeck);
  const h = F.H("scopa-net/blind/v1/shuffle-statement", F.concat(roundId, F.u8(p)), enc(Y),
    F.concat(...inDeck), F.concat(...outDeck), proof.subarray(0, 1280));
  const u = Array.from({ length: 40 }, (_, j) => E.Hs("scopa-net/blind/v1/shuffle-challenge", h, F.u8(j)));
  const l = E.L;
  const mulSum = (pairs) => sumPoints(pairs.map(([k, P]) => E.mul(((k % l) + l) % l, P)));
  const T1 = E.sub(E.mul(s1, E.BASE), E.mul(e, E.sub(sumPoints(c), sumPoints(generators.slice(0, 40)))));
  const prodU = u.reduce((a, b) => (a * b) % l, 1n);
  const T2 = E.sub(E.mul(s2, E.BASE), E.mul(e, E.sub(chat[39], E.mul(prodU, generators[40]))));
  const T3 = E.sub(E.add(E.mul(s3, E.BASE), mulSum(sp.map((s, i) => [s, generators[i]]))), mulSum(u.map((uj, j) => [e * uj, c[j]])));
  const T4U = E.sub(E.sub(mulSum(sp.map((s, i) => [s, outC[i][0]])), E.mul(s4, E.BASE)), mulSum(u.map((uj, j) => [e * uj, inC[j][0]])));
  const T4V = E.sub(E.sub(mulSum(sp.map((s, i) => [s, outC[i][1]])), E.mul(s4, Y)), mulSum(u.map((uj, j) => [e * uj, inC[j][1]])));
  const That = chat.map((ch, i) =>
    E.sub(E.add(E.mul(shat[i], E.BASE), E.mul(sp[i], i ? chat[i - 1] : generators[40])), E.mul(e, ch)));
  const e2 = E.Hs("scopa-net/blind/v1/shuffle-proof", h, proof.subarray(1280, 2560), enc(T1), enc(T2), enc(T3),
    enc(T4U), enc(T4V), F.concat(...That.map(enc)));
  return e2 === e;
}

const deckMsg = (roundId, p, deck, proof) =>
  F.concat(F.lp(F.ascii("scopa-net/blind/v1/deck-signature")), F.lp(roundId), F.lp(F.u8(p)), F.lp(F.concat(...deck)), F.lp(proof));
const sharesMsg = (roundId, p, deal, shares) =>
  F.concat(F.lp(F.ascii("scopa-net/blind/v1/shares-signature")), F.lp(roundId), F.lp(F.u8(p)), F.lp(F.u8(deal)), F.lp(F.concat(...shares)));

/** Party p's secrets from its seed (9.3). */
function secrets(roundId, p, seed) {
  const x = E.Hs("scopa-net/blind/v1/key", roundId, F.u8(p), seed);
  return {
    x,
    perm: F.shuffle(seed, "scopa-net/blind/v1/shuffle", roundId),
    r: Array.from({ length: 40 }, (_, i) => E.Hs("scopa-net/blind/v1/rerandomize", roundId, F.u8(p), seed, F.u8(i))),
    signSeed: F.H("scopa-net/blind/v1/sign", roundId, F.u8(p), seed),
  };
}

/** The blind chain hash (9.8). */
export function blindChain(r) {
  const none = new Uint8Array(0);
  const decks = r.decks.map((d, p) => F.concat(...d, r.deck_proofs[p], r.deck_sigs[p]));
  const deals = r.deals.flatMap((d) => d.shares.map((s, p) =>
    s === null || d.sigs[p] === null ? F.u8(0) : F.concat(F.u8(1), ...s, d.sigs[p])));
  const seeds = r.seeds === null ? none
    : F.concat(F.u8(r.seeds.length), ...r.seeds.map((s) => (s === null ? F.u8(0) : F.concat(F.u8(1), s))));
  return F.H("scopa-net/blind/v1/round-chain", r.round_id, F.u32(r.round_no), r.prev,
    r.dealer === null ? none : F.u8(r.dealer), blindDigest(r), F.concat(...r.keys.map((k) => F.concat(...k))),
    F.concat(...decks), F.concat(...deals), F.concat(...r.table.map(([pos, card]) => F.concat(F.u8(pos), F.u8(card)))),
    F.concat(...r.plays.map(([seat, code, pos, proof]) => F.concat(F.u8(seat), F.u64(code), F.u8(pos), proof))),
    r.void ? F.ascii(r.void.reason) : none, r.void && r.void.offender !== null ? F.u8(r.void.offender) : none, seeds);
}

/** Whether party p's secrets (from its revealed seed) give the whole key it committed, keys[p]. */
function givesItsKey(r, p, s, publicKeyOf) {
  const X = E.mul(s.x, E.BASE);
  const signKey = publicKeyOf(s.signSeed);
  const proof = E.keyProof(s.x, X, F.concat(r.round_id, F.u8(p), signKey));
  const k = r.keys[p];
  return F.equal(enc(X), k[0]) && F.equal(signKey, k[2]) && F.equal(proof, k[1]);
}

/**
 * 9.9's "Void before the keys", after step 1: a round void while the host still waited for a
 * person's key holds the host's key alone and no dealer. Nothing is recorded past the keys,
 * the void is not `kings`, the seeds are there (the named seat's nil for `absent`, not nil for
 * `failed_check`; the host's never nil), the host's seed gives its key, and the reveal
 * signature. It does not move the match: the dealer stays as it was.
 */
function voidBeforeTheKeys(t, r, state, publicKeyOf, edCheck) {
  const parties = r.people.length + 1;
  if (r.decks.length || r.deck_sigs.length || r.deck_proofs.length || r.deals.length || r.table.length || r.hand.length || r.plays.length || r.score !== null)
    fail("broken chain", "the round records decks, deals or plays but its keys were never relayed");
  if (r.void.reason === "kings") fail("void mismatch", "a kings void before anything was dealt");
  if (r.seeds === null) fail("not revealed", "no seeds");
  const owner = (seat) => r.people.indexOf(seat) + 1;
  const missing = r.seeds.flatMap((s, p) => (s === null ? [p] : []));
  const seat = r.void.offender;
  let verdict;
  if (r.void.reason === "failed_check") {
    if (seat !== null && !r.people.includes(seat)) fail("void mismatch", `failed_check names seat ${seat}, not a person's`);
    if (r.seeds.length !== parties || missing.includes(0) || (seat !== null && missing.includes(owner(seat))))
      fail("not revealed", "the host's seed, or the seed of the seat that stopped, is not in the reveal");
    const stopper = seat === null ? "the host (party 0)" : `seat ${seat} (party ${owner(seat)})`;
    verdict = `void: ${stopper} stopped without cause before every key came`;
    const gone = missing.map((p) => r.people[p - 1]);
    if (gone.length) verdict += `; ${gone.map((s) => `seat ${s}`).join(", ")} absent at the reveal`;
  } else {
    if (!r.people.includes(seat)) fail("void mismatch", `absent names seat ${seat}, not a person's`);
    if (r.seeds.length !== parties || !missing.includes(owner(seat)) || missing.includes(0))
      fail("not revealed", "the absent seat's seed is there, or the host's is not");
    verdict = `void: seat ${seat} absent before every key came`;
  }
  if (!givesItsKey(r, 0, secrets(r.round_id, 0, r.seeds[0]), publicKeyOf)) fail("wrong secret", "party 0");
  const chain = blindChain(r);
  if (r.reveal_sig === null || !edCheck(t.host_key, F.revealMsg(r.round_id, r.seeds[0], chain), r.reveal_sig))
    fail("bad signature", "the reveal signature");
  return { chain, dealer: state.dealer, points: null, verdict: `${verdict}; nothing dealt` };
}

/**
 * Check one blind round (9.9) for the seat `seat`. `state` carries the match: expected
 * round number, previous chain, seen ids, the dealer, whether replaying.
 * Returns { chain, dealer, points | null, verdict }.
 */
export function checkBlindRound(t, r, state, { publicKeyOf, edCheck }) {
  const { players, target, variants } = t.rules;
  const parties = r.people.length + 1;
  const shape = F.dealShape(players, variants);
  // 1.
  if (r.round_no !== state.expectNo || state.prev === null || !F.equal(r.prev, state.prev)) fail("broken chain", "round_no or prev");
  if (state.seen.has(F.hex(r.round_id))) fail("replayed round", F.hex(r.round_id));
  state.seen.add(F.hex(r.round_id));
  if (r.keys.length === 0) fail("not revealed", "no key");
  if (!edCheck(t.host_key, F.commitMsg(r.round_id, r.round_no, r.prev, blindDigest(r), F.rulesHash(players, target, variants)), r.sig))
    fail("bad signature", "blind_round's signature");
  // (version 6) no party for a seat the seat's client knew a computer held (9.5.1)
  for (const seat of r.seated === null ? [] : r.people)
    if (r.seated[seat] === "computer") fail("computer party", `seat ${seat}, a seat a computer held, named among the round's people`);
  if (r.void && !["kings", "absent", "failed_check"].includes(r.void.reason)) fail("void mismatch", r.void.reason);
  if (r.void && r.dealer === null && r.keys.length === 1 && r.people.length)
    return voidBeforeTheKeys(t, r, state, publicKeyOf, edCheck);
  // 2.
  if (r.keys.length !== parties) fail("not revealed", "the keys never came");
  r.keys.forEach((k, p) => keyProofHolds(p, r.round_id, k) || fail("bad key", `party ${p}`));
  const Y = sumPoints(r.keys.map((k) => pt(k[0])));
  // 3.
  if (r.decks.length > parties) fail("bad deck", "more decks than parties");
  let before = Array.from({ length: 40 }, (_, c) => F.concat(enc(E.BASE), enc(E.add(cardPoints[c], Y))));
  const openDeck = before;
  r.decks.forEach((deck, p) => {
    if (deck.some((ct) => !validPoint(ct.subarray(0, 32)) || !validPoint(ct.subarray(32)))) fail("bad deck", `party ${p}`);
    if (!edCheck(r.keys[p][2], deckMsg(r.round_id, p, deck, r.deck_proofs[p]), r.deck_sigs[p])) fail("bad party signature", `party ${p}'s deck`);
    if (!shuffleProofHolds(r.round_id, p, Y, before, deck, r.deck_proofs[p])) fail("bad shuffle proof", `party ${p}`);
    before = deck;
  });
  if (r.dealer === null) fail("not revealed", "no dealer: the keys never all came");
  // 4.
  if (state.replaying) {
    // (after a catch-up whose snapshot named no dealer, the dealer the round records, 9.9)
    const want = state.dealer ?? (state.asRecorded ? r.dealer : firstDealerBlind(r, players));
    if (r.dealer !== want) fail("broken chain", `dealer ${r.dealer}, the match's is ${want}`);
  }
  const dealer = r.dealer;
  const plan = F.dealPlan(shape, players, dealer);
  const owner = (seat) => (r.people.includes(seat) ? r.people.indexOf(seat) + 1 : 0);
  // 5.
  if (r.deals.length > plan.length || (r.deals.length && r.decks.length !== parties)) fail("bad shares", "deals");
  const last = r.decks.length ? ciphertexts(r.decks.at(-1)) : null;
  const shareAt = new Map(); // pos -> [[party, point]]
  r.deals.forEach((d, k) => {
    const positions = [...plan[k].hands.flatMap((h, s) => h.map((pos) => [pos, owner(s)])), ...plan[k].table.map((pos) => [pos, -1])]
      .sort((a, b) => a[0] - b[0]);
    d.shares.forEach((shares, p) => {
      const mine = positions.filter(([, o]) => o !== p).map(([pos]) => pos);
      if (shares === null || d.sigs[p] === null || shares.length !== mine.length) fail("bad shares", `party ${p}, deal ${k + 1}`);
      if (!edCheck(r.keys[p][2], sharesMsg(r.round_id, p, k + 1, shares), d.sigs[p])) fail("bad party signature", `party ${p}'s shares of deal ${k + 1}`);
      mine.forEach((pos, i) => {
        const S = pt(shares[i]);
        if (!S) fail("bad shares", `party ${p}, position ${pos}`);
        shareAt.set(pos, [...(shareAt.get(pos) ?? []), [p, S]]);
      });
    });
    if (d.relayed) fail("not handled", "a deal with relayed shares");
  });
  const dealtTable = r.deals.length ? plan[0].table : [];
  for (const [pos, card] of r.table) {
    if (!dealtTable.includes(pos)) fail("no card", `position ${pos} is not a table position of the deals recorded`);
    const opened = E.sub(last[pos][1], sumPoints((shareAt.get(pos) ?? []).map(([, S]) => S)));
    if (cardOf.get(F.hex(enc(opened))) !== card) fail("no card", `position ${pos} does not open to card ${card}`);
  }
  const dealtTo = (seat) => plan.slice(0, r.deals.length).flatMap((d) => d.hands[seat]);
  for (const [seat, code, pos, proof] of r.plays) {
    const o = owner(seat);
    const card = Number(BigInt(code) & 63n);
    if (!dealtTo(seat).includes(pos)) fail("bad play proof", `party ${o}: position ${pos} was not dealt to seat ${seat}`);
    const S = sumPoints((shareAt.get(pos) ?? []).filter(([p]) => p !== o).map(([, P]) => P));
    const Dp = E.sub(E.sub(last[pos][1], S), cardPoints[card]);
    const ctx = F.concat(r.round_id, F.u8(o), F.u8(pos), F.u8(card));
    if (!E.dleqCheck(pt(r.keys[o][0]), last[pos][0], Dp, ctx, proof)) fail("bad play proof", `party ${o}, position ${pos}`);
  }
  // 6.
  if (r.seeds === null || r.seeds.every((s) => s === null)) fail("not revealed", "no seeds");
  const sec = r.seeds.map((seed, p) => (seed === null ? null : secrets(r.round_id, p, seed)));
  sec.forEach((s, p) => s === null || givesItsKey(r, p, s, publicKeyOf) || fail("wrong secret", `party ${p}`));
  let prevDeck = openDeck;
  r.decks.forEach((deck, p) => {
    const inC = ciphertexts(prevDeck);
    prevDeck = deck;
    if (sec[p] === null) return;
    sec[p].perm.forEach((j, i) => {
      const want = F.concat(enc(E.add(inC[j][0], E.mul(sec[p].r[i], E.BASE))), enc(E.add(inC[j][1], E.mul(sec[p].r[i], Y))));
      if (!F.equal(want, deck[i])) fail("substituted card", `party ${p}, position ${i}`);
    });
  });
  for (const [pos, list] of [...shareAt.entries()].sort((a, b) => a[0] - b[0]))
    for (const [p, S] of list) if (sec[p] && !F.equal(enc(E.mul(sec[p].x, last[pos][0])), enc(S))) fail("bad share", `party ${p}, position ${pos}`);
  // Steps 7 and 8 end alike: no score, the hand opened with the seat's own seed, step 10.
  const passingVoid = (verdict) => {
    if (r.score !== null) fail("void mismatch", "a void round with a score");
    if (r.hand.length) {
      const o = owner(t.seat);
      const want = dealtTo(t.seat).sort((a, b) => a - b);
      if (sec[o] === null || r.hand.map(([p]) => p).join() !== want.join()) fail("misrouted card", "hand");
      for (const [pos, card] of r.hand) {
        const others = sumPoints((shareAt.get(pos) ?? []).map(([, S]) => S));
        const opened = E.sub(E.sub(last[pos][1], others), E.mul(sec[o].x, last[pos][0]));
        if (cardOf.get(F.hex(enc(opened))) !== card) fail("substituted card", `hand position ${pos}`);
      }
    }
    const chain = blindChain(r);
    if (r.reveal_sig === null || !edCheck(t.host_key, F.revealMsg(r.round_id, r.seeds[0], chain), r.reveal_sig))
      fail("bad signature", "the reveal signature");
    return { chain, dealer, points: null, verdict };
  };
  // 7. an absent void
  if (r.void && r.void.reason === "absent") {
    const seat = r.void.offender;
    if (seat === null || !r.people.includes(seat)) fail("void mismatch", `absent names seat ${seat}, not a person's`);
    if (r.seeds[owner(seat)] !== null || r.seeds[0] === null) fail("not revealed", "the absent seat's seed is there, or the host's is not");
    return passingVoid(`void: seat ${seat} absent`);
  }
  // 8. from here the host's seed is there; a person's seed nil: absent at the reveal
  if (r.seeds[0] === null || r.seeds.length !== parties) fail("not revealed", "the host's seed is not in the reveal");
  const gone = r.people.filter((s) => r.seeds[owner(s)] === null);
  const goneWords = gone.length === 1
    ? `seat ${gone[0]} absent at the reveal (its seed never came)`
    : `${gone.map((s) => `seat ${s}`).join(", ")} absent at the reveal (their seeds never came)`;
  if (r.void && r.void.reason === "failed_check") {
    const seat = r.void.offender;
    if (seat !== null && !r.people.includes(seat)) fail("void mismatch", `failed_check names seat ${seat}, not a person's`);
    if (seat !== null && r.seeds[owner(seat)] === null) fail("not revealed", `seat ${seat} stopped on a failed check, but its seed is not in the reveal`);
    const stopper = seat === null ? "the host (party 0)" : `seat ${seat} (party ${owner(seat)})`;
    if (gone.length)
      return passingVoid(`void: ${stopper} stopped; whether with cause cannot be told: ${goneWords}, and every part that can be checked checks out`);
    const res = passingVoid(`void: ${stopper} stopped without cause`);
    // The host stopping without cause once a deal was relayed threw away a deal whose first
    // cards it had seen: a re-roll (after step 10, as 9.9 step 8 says).
    if (seat === null && r.deals.length) fail("re-rolled round", "the host voided the round for its own failed check, which every party's revealed part shows had no cause, after dealing");
    return res;
  }
  if (r.seeds.some((x) => x === null)) fail("not handled", "a seed that never came (9.9 step 8's public-record replay)");
  // traced cards: deck position -> open deck position (= card)
  let trace = Array.from({ length: 40 }, (_, i) => i);
  for (const s of sec.slice(0, r.decks.length)) trace = s.perm.map((j) => trace[j]);
  const deck = trace;
  for (const [pos, card] of [...r.hand, ...r.table, ...r.plays.map(([, code, pos]) => [pos, Number(BigInt(code) & 63n)])])
    if (deck[pos] !== card) fail("substituted card", `position ${pos} holds card ${deck[pos]}, not ${card}`);
  // 9.
  let points = null;
  if (state.replaying) {
    const kingsVoid = plan[0].table.filter((p) => deck[p] >= 36).length >= 3;
    const dealsSeen = kingsVoid ? plan.slice(0, 1) : plan;
    const wantHand = dealsSeen.flatMap((d) => d.hands[t.seat]).sort((a, b) => a - b);
    if (r.hand.length && r.hand.map(([p]) => p).join() !== wantHand.join()) fail("misrouted card", "hand");
    if (r.table.map(([p]) => p).join() !== plan[0].table.join()) fail("misrouted card", "table");
    if (kingsVoid !== (r.void !== null)) fail("void mismatch", "kings");
    if (!r.void) {
      const deals = plan.map((d) => ({ hands: d.hands.map((h) => h.map((p) => deck[p])), table: d.table.map((p) => deck[p]) }));
      const res = replayRound({ players, variants, dealer, deals, plays: r.plays });
      if (res.incomplete) fail("incomplete round", res.error);
      if (res.error) fail("illegal play", res.error);
      if (r.score === null || r.score.join() !== res.points.join()) fail("score mismatch", `${r.score} against ${res.points}`);
      points = res.points;
    }
  }
  // 10.
  const chain = blindChain(r);
  if (r.reveal_sig === null || !edCheck(t.host_key, F.revealMsg(r.round_id, r.seeds[0], chain), r.reveal_sig))
    fail("bad signature", "the reveal signature");
  return { chain, dealer, points, verdict: "verified" };
}
