// The fair-deal maths of protocol.md sections 2, 4 and 5: hashes, the random stream, the
// shuffle, the deck and the deal plan, the chain hash and the signed messages.

import { createHash, createHmac, createPublicKey, verify as edVerify } from "node:crypto";

export const concat = (...parts) => {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, at), (at += p.length);
  return out;
};
export const ascii = (s) => new TextEncoder().encode(s);
export const hex = (b) => Buffer.from(b).toString("hex");
export const unhex = (s) => new Uint8Array(Buffer.from(s, "hex"));
export const equal = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

export const u8 = (n) => Uint8Array.of(n);
export const u32 = (n) => {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n);
  return out;
};
export const u64 = (n) => {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(n));
  return out;
};
/** lp(x) = u32(len(x)) || x (5.1). */
export const lp = (x) => concat(u32(x.length), x);

/** H(tag, f1, ..., fk) = SHA-256(lp(tag) || lp(f1) || ...) (5.1). */
export function H(tag, ...fields) {
  const h = createHash("sha256");
  h.update(lp(ascii(tag)));
  for (const f of fields) h.update(lp(f));
  return new Uint8Array(h.digest());
}

/** The words of stream(key, label, round_id), as an iterator (5.5). */
export function* stream(key, label, roundId) {
  for (let j = 0; ; j++) {
    const block = createHmac("sha256", key)
      .update(concat(lp(ascii(label)), lp(roundId), u32(j)))
      .digest();
    for (let w = 0; w < 8; w++) yield block.readUInt32BE(w * 4);
  }
}

/** below(n) from a word stream, without modulo bias (5.5). */
export function below(words, n) {
  const limit = 2 ** 32 - (2 ** 32 % n);
  for (;;) {
    const w = words.next().value;
    if (w < limit) return w % n;
  }
}

/** Fisher-Yates over 0..39 driven by the stream (5.5). */
export function shuffle(key, label, roundId) {
  const a = Array.from({ length: 40 }, (_, i) => i);
  const words = stream(key, label, roundId);
  for (let i = 39; i >= 1; i--) {
    const j = below(words, i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/** The host's committed list from its seed (5.2). */
export function hostList(roundId, hostSeed) {
  const order = shuffle(hostSeed, "scopa-net/v1/host-order", roundId);
  const salts = order.map((_, i) => H("scopa-net/v1/card-salt", roundId, hostSeed, u8(i)).slice(0, 16));
  const hashes = order.map((card, i) => cardHash(roundId, card, salts[i]));
  return { order, salts, hashes };
}

export const cardHash = (roundId, card, salt) => H("scopa-net/v1/card-hash", roundId, u8(card), salt);
export const deckDigest = (roundId, hashes) => H("scopa-net/v1/deck-digest", roundId, ...hashes);
export const seatCommit = (roundId, seat, seed) => H("scopa-net/v1/seat-commit", roundId, u8(seat), seed);

/** rules_hash: variant names sorted bytewise (5.2). */
export function rulesHash(players, target, variants) {
  const names = variants.map(ascii).sort(compareBytes);
  return H("scopa-net/v1/rules", u8(players), u8(target), ...names);
}

export function compareBytes(a, b) {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** The joint seed over the seeds that count, in seat order (5.4). */
export const jointSeed = (roundId, digest, countedSeeds) =>
  H("scopa-net/v1/joint-seed", roundId, digest, ...countedSeeds);

export const deckPermutation = (joint, roundId) => shuffle(joint, "scopa-net/v1/deck-shuffle", roundId);

export function firstDealer(joint, roundId, players) {
  return below(stream(joint, "scopa-net/v1/first-dealer", roundId), players);
}

/** Deal plan (section 4): for each deal, { hands: seat -> [pos], table: [pos] }. */
export function dealPlan(shape, players, dealer) {
  const deals = [];
  let pos = 0;
  for (let k = 0; k < shape.deals; k++) {
    const hands = Array.from({ length: players }, () => []);
    for (let p = 0; p < shape.hand; p++)
      for (let j = 0; j < players; j++) hands[(dealer + 1 + j) % players].push(pos++);
    const table = [];
    if (k === 0) for (let t = 0; t < shape.opening; t++) table.push(pos++);
    deals.push({ hands, table });
  }
  return deals;
}

/** hand size, opening table cards, deals per round (section 4's table). */
export function dealShape(players, variants) {
  if (variants.includes("scopone")) return { hand: 9, opening: 4, deals: 1 };
  if (variants.includes("scopone_scientifico")) return { hand: 10, opening: 0, deals: 1 };
  return { hand: 3, opening: 4, deals: { 2: 6, 3: 4, 4: 3, 6: 2 }[players] };
}

const EXCLUDED_BYTE = { null: 0, no_commit: 1, no_reveal: 2, bad_reveal: 3 };

function bySeat(entries) {
  if (entries === null) return new Uint8Array(0);
  const parts = [u8(entries.length)];
  for (const e of entries) parts.push(e === null ? u8(0) : concat(u8(1), e));
  return concat(...parts);
}

/** The chain hash of a round from its public record (5.7). */
export function chainHash(r) {
  const excluded = r.excluded === null ? new Uint8Array(0) : Uint8Array.from(r.excluded.map((e) => EXCLUDED_BYTE[e]));
  const table = concat(...r.table.map(([pos, card, salt]) => concat(u8(pos), u8(card), salt)));
  const plays = concat(...r.plays.map(([seat, code, pos, salt]) => concat(u8(seat), u64(code), u8(pos), salt)));
  return H(
    "scopa-net/v1/round-chain",
    r.round_id, u32(r.round_no), r.prev, r.digest,
    bySeat(r.commits), bySeat(r.seeds), excluded, table, plays,
    r.void ? ascii(r.void.reason) : new Uint8Array(0),
    r.void && r.void.offender !== null ? u8(r.void.offender) : new Uint8Array(0),
    r.host_seed,
  );
}

export const commitMsg = (roundId, roundNo, prev, digest, rulesH) =>
  concat(lp(ascii("scopa-net/v1/round-commit-signature")), lp(roundId), lp(u32(roundNo)), lp(prev), lp(digest), lp(rulesH));
export const revealMsg = (roundId, hostSeed, chain) =>
  concat(lp(ascii("scopa-net/v1/round-reveal-signature")), lp(roundId), lp(hostSeed), lp(chain));
export const receiptMsg = (roundId, seat, seedHash) =>
  concat(lp(ascii("scopa-net/v1/seed-receipt-signature")), lp(roundId), lp(u8(seat)), lp(seedHash));
export const endMsg = (chain, scores, winner) =>
  concat(lp(ascii("scopa-net/v1/match-end-signature")), lp(chain), lp(concat(...scores.map(u32))), lp(winner === null ? new Uint8Array(0) : u8(winner)));

const SPKI_ED25519 = unhex("302a300506032b6570032100");

export function edCheck(publicKey, msg, sig) {
  const key = createPublicKey({ key: Buffer.from(concat(SPKI_ED25519, publicKey)), format: "der", type: "spki" });
  return edVerify(null, msg, key, sig);
}

export const fingerprint = (key) =>
  hex(H("scopa-net/v1/host-fingerprint", key).slice(0, 10)).match(/.{4}/g).join("-");
