// protocol.md's test vectors, read straight out of the document: the framing cases of 8.1
// (decode each frame, re-encode it) and the fair-deal cases of sections 2 and 8.2.

import { createHash, createPrivateKey, createPublicKey, sign } from "node:crypto";
import { decode, encode } from "./msgpack.mjs";
import * as F from "./fair.mjs";
import * as E from "./ed25519.mjs";
import { blindChain } from "./blind.mjs";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readTranscript } from "./transcript.mjs";

/** Every fenced block of the document as { fence, cases: [Map key -> text] }. */
export function blocks(text) {
  const out = [];
  const re = /^```(\w*)\n([\s\S]*?)^```/gm;
  for (const m of text.matchAll(re)) {
    const cases = [];
    let cur = null;
    let lastKey = null;
    for (const line of m[2].split("\n")) {
      if (!line.trim()) continue;
      const kv = line.match(/^([\w.\-]+):\s?(.*)$/);
      if (kv && kv[1] === "case") cases.push((cur = new Map([["case", kv[2]]])));
      else if (kv && cur) cur.set((lastKey = kv[1]), kv[2]);
      else if (cur && lastKey && /^\s/.test(line)) cur.set(lastKey, cur.get(lastKey) + line.trim());
    }
    out.push({ fence: m[1], cases });
  }
  return out;
}

const depth = (x) =>
  x instanceof Map ? 1 + Math.max(0, ...[...x.values()].map(depth)) : Array.isArray(x) ? 1 + Math.max(0, ...x.map(depth)) : 0;
const ints = (s) => s.trim().split(/\s+/).map(Number);
const PKCS8_ED25519 = F.unhex("302e020100300506032b657004220420");
const privateKey = (seed) => createPrivateKey({ key: Buffer.from(F.concat(PKCS8_ED25519, seed)), format: "der", type: "pkcs8" });
const publicRaw = (priv) => new Uint8Array(createPublicKey(priv).export({ format: "der", type: "spki" })).slice(-32);
const sig = (priv, msg) => F.hex(sign(null, msg, priv));

/** JSON with {"$bin": hex} -> the decoder's values (Map for objects, in their order). */
function fromJson(x) {
  if (Array.isArray(x)) return x.map(fromJson);
  if (x && typeof x === "object") {
    if ("$bin" in x) return F.unhex(x.$bin);
    return new Map(Object.entries(x).map(([k, v]) => [k, fromJson(v)]));
  }
  return x;
}

function checkFrame(c) {
  const frame = F.unhex(c.get("frame").replace(/\s/g, ""));
  const length = new DataView(frame.buffer).getUint32(0);
  const payload = frame.subarray(4);
  if (c.has("refused")) {
    // Only the refusals a decoder alone can see: the length, the msgpack and key rules.
    if (c.get("refused") !== "bad_frame") return null;
    if (length === 0 || length > 65536) return null;
    let v;
    try {
      v = decode(payload);
    } catch {
      return null;
    }
    if (!(v instanceof Map) || depth(v) > 5) return null;
    return "decoded a frame that must be refused";
  }
  if (length !== payload.length) return `length prefix ${length}, payload ${payload.length}`;
  const want = encode(fromJson(JSON.parse(c.get("message"))));
  if (!F.equal(want, payload)) return `encoding the message gives ${F.hex(want)}`;
  if (!F.equal(encode(decode(payload)), payload)) return "decoding and re-encoding changes the frame";
  return null;
}

/** Check one fair-deal case; returns a list of "key: want X, got Y" mismatches. */
function checkFair(c, byName) {
  const bad = [];
  const expect = (key, got) => {
    if (c.has(key) && c.get(key).trim() !== String(got).trim()) bad.push(`${key}: want ${c.get(key)}, got ${got}`);
  };
  const bytes = (k) => F.unhex(c.get(k));
  const kind = c.get("case");
  if (kind === "play-code") {
    const code = BigInt(c.get("card")) | (BigInt(c.get("captured")) << 6n);
    expect("code", code);
    expect("u64", F.hex(F.u64(code)));
    return bad;
  }
  if (kind === "chain-plays") {
    const base = byName.get("exclusion-3");
    const plays = c.get("plays").split(/\s+/).map((p) => {
      const [seat, code, pos, salt] = p.split("/");
      return [Number(seat), Number(code), Number(pos), F.unhex(salt)];
    });
    const { round } = exclusionRound(base);
    expect("chain", F.hex(F.chainHash({ ...round, plays })));
    for (const [, code, pos, salt] of plays) {
      const r = exclusionRound(base);
      if (!F.equal(r.list.salts[r.perm[pos]], salt)) bad.push(`salt of position ${pos} is not the committed one`);
      if (r.deck[pos] !== (code & 63)) bad.push(`card at position ${pos}`);
    }
    return bad;
  }
  const roundId = c.has("round_id") ? bytes("round_id") : null;
  if (c.has("host_key_seed")) {
    const priv = privateKey(bytes("host_key_seed"));
    const pub = publicRaw(priv);
    expect("host_public_key", F.hex(pub));
    expect("fingerprint", F.fingerprint(pub));
    if (kind === "signature") {
      const variants = c.get("variants").trim() ? c.get("variants").trim().split(/\s+/) : [];
      const rh = F.rulesHash(Number(c.get("players")), Number(c.get("target")), variants);
      expect("rules_hash", F.hex(rh));
      const msg = F.commitMsg(roundId, Number(c.get("round_no")), bytes("prev"), bytes("digest"), rh);
      expect("commit_sig", sig(priv, msg));
      if (!F.edCheck(pub, msg, bytes("commit_sig"))) bad.push("commit_sig does not verify");
    }
    if (kind === "receipt") {
      const seat = Number(c.get("seat"));
      const seedHash = F.seatCommit(roundId, seat, bytes("seed"));
      expect("seed_hash", F.hex(seedHash));
      expect("receipt_msg", F.hex(F.receiptMsg(roundId, seat, seedHash)));
      expect("receipt_sig", sig(priv, F.receiptMsg(roundId, seat, seedHash)));
      const badHash = F.seatCommit(roundId, seat, bytes("bad_seed"));
      expect("bad_seed_hash", F.hex(badHash));
      expect("bad_receipt_sig", sig(priv, F.receiptMsg(roundId, seat, badHash)));
    }
    if (kind === "end") {
      const scores = ints(c.get("scores"));
      const winner = c.get("winner") === "nil" ? null : Number(c.get("winner"));
      const msg = F.endMsg(bytes("chain"), scores, winner);
      expect("end_msg", F.hex(msg));
      expect("end_sig", sig(priv, msg));
    }
    return bad;
  }
  if (c.has("host_seed")) {
    const list = F.hostList(roundId, bytes("host_seed"));
    const digest = F.deckDigest(roundId, list.hashes);
    expect("host_order", list.order.join(" "));
    expect("digest", F.hex(digest));
    for (const [k] of c) {
      const m = k.match(/^(salt|card_hash)\.(\d+)$/);
      if (m) expect(k, F.hex((m[1] === "salt" ? list.salts : list.hashes)[Number(m[2])]));
    }
    if (!c.has("players")) return bad;
    const players = Number(c.get("players"));
    const seeds = [...Array(players).keys()].map((s) => (c.get(`seed.${s}`) ?? "nil") === "nil" ? null : bytes(`seed.${s}`));
    const commits = seeds.map((seed, s) => (c.has(`commit.${s}`) ? bytes(`commit.${s}`) : seed && F.seatCommit(roundId, s, seed)));
    seeds.forEach((seed, s) => seed && !c.has("excluded") && expect(`commit.${s}`, F.hex(F.seatCommit(roundId, s, seed))));
    const { round, perm, deck, dealer, counted, joint } = exclusionRound(c);
    expect("counted", counted.join(" "));
    expect("joint_seed", F.hex(joint));
    expect("joint_seed_no_player", F.hex(F.jointSeed(roundId, digest, [])));
    expect("stream_words", [...take(F.stream(joint, "scopa-net/v1/deck-shuffle", roundId), 4)].map((w) => w.toString(16).padStart(8, "0")).join(" "));
    expect("permutation", perm.join(" "));
    expect("deck", deck.join(" "));
    expect("first_dealer", dealer);
    const plan = F.dealPlan(F.dealShape(players, []), players, dealer);
    for (let s = 0; s < players; s++) expect(`hand.${s}`, plan.flatMap((d) => d.hands[s]).map((p) => deck[p]).join(" "));
    expect("table", plan[0].table.map((p) => deck[p]).join(" "));
    if (c.has("chain")) expect("chain", F.hex(F.chainHash(round)));
    void commits;
  }
  return bad;
}

function* take(it, n) {
  for (let i = 0; i < n; i++) yield it.next().value;
}

/** The round a fair-deal case describes, with its opening table and no plays. */
function exclusionRound(c) {
  const roundId = F.unhex(c.get("round_id"));
  const hostSeed = F.unhex(c.get("host_seed"));
  const players = Number(c.get("players"));
  const list = F.hostList(roundId, hostSeed);
  const digest = F.deckDigest(roundId, list.hashes);
  const opt = (k) => (!c.has(k) || c.get(k) === "nil" ? null : F.unhex(c.get(k)));
  const seeds = [...Array(players).keys()].map((s) => opt(`seed.${s}`));
  const commits = seeds.map((seed, s) => opt(`commit.${s}`) ?? (seed && F.seatCommit(roundId, s, seed)));
  const excluded = c.has("excluded") ? c.get("excluded").trim().split(/\s+/).map((e) => (e === "-" ? null : e)) : seeds.map(() => null);
  const counted = [];
  seeds.forEach((seed, s) => excluded[s] === null && seed && F.equal(F.seatCommit(roundId, s, seed), commits[s]) && counted.push(s));
  const joint = F.jointSeed(roundId, digest, counted.map((s) => seeds[s]));
  const perm = F.deckPermutation(joint, roundId);
  const deck = perm.map((p) => list.order[p]);
  const dealer = F.firstDealer(joint, roundId, players);
  const plan = F.dealPlan(F.dealShape(players, []), players, dealer);
  const table = plan[0].table.map((p) => [p, deck[p], list.salts[perm[p]]]);
  const round = { round_id: roundId, round_no: 1, prev: new Uint8Array(32), digest, commits, seeds, excluded, table, plays: [], void: null, host_seed: hostSeed };
  return { round, perm, deck, dealer, counted, joint, list };
}

/** Run every vector block of protocol.md; returns lines of "ok ..." / "FAIL ...". ``root``:
 * the folder the document's worked files are named from (scopa-net's source). */
export function runVectors(text, root = null) {
  const lines = [];
  const all = blocks(text);
  const byName = new Map();
  for (const b of all) for (const c of b.cases) if (b.fence === "vectors") byName.set(c.get("case"), c);
  BLIND2.case = byName.get("blind-2");
  for (const b of all) {
    for (const c of b.cases) {
      let problems;
      if (b.fence === "" && c.has("frame")) {
        const p = checkFrame(c);
        problems = p ? [p] : [];
      } else if (b.fence === "vectors" && c.has("file")) {
        if (root === null) {
          lines.push(`skip ${c.get("case")}: ${c.get("file")} (no source folder given)`);
          continue;
        }
        problems = checkFile(c, root);
      } else if (b.fence === "vectors" && isBlind(c)) {
        const { bad, skipped } = checkBlind(c);
        problems = bad;
        if (skipped.length) lines.push(`skip ${c.get("case")}: ${skipped.join(" ")} (not implemented)`);
      } else if (b.fence === "vectors") {
        problems = checkFair(c, byName);
      } else continue;
      lines.push(`${problems.length ? "FAIL" : "ok  "} ${c.get("case")}${problems.length ? ": " + problems.join("; ") : ""}`);
    }
  }
  return lines;
}

/**
 * 9.11's worked transcripts: the file named is the one described (its size and hash) and reads
 * as the case says (version, host key, seat, rounds held, caught_up, result). Its verdict is
 * the verifier's own: `node verify.mjs FILE` (seconds a blind round).
 */
function checkFile(c, root) {
  const bad = [];
  const expect = (key, got) => {
    if (c.get(key).trim() !== String(got)) bad.push(`${key}: want ${c.get(key)}, got ${got}`);
  };
  let data;
  try {
    data = new Uint8Array(readFileSync(join(root, c.get("file"))));
  } catch (e) {
    return [`file: ${e.message}`];
  }
  expect("size", data.length);
  expect("sha256", createHash("sha256").update(data).digest("hex"));
  const t = readTranscript(data);
  expect("version", t.version);
  expect("host_key", F.hex(t.host_key));
  expect("seat", t.seat);
  expect("rounds", t.rounds.map((r) => r.round_no).join(" "));
  t.caught_up.forEach((told, i) => {
    expect(`caught_up.${i}.round_no`, told.round_no);
    expect(`caught_up.${i}.scores`, told.scores.join(" "));
    expect(`caught_up.${i}.dealer`, told.dealer);
  });
  if (c.has(`caught_up.${t.caught_up.length}.round_no`)) bad.push("caught_up: fewer entries than the case gives");
  expect("result.scores", t.result.scores.join(" "));
  expect("result.winner", t.result.winner);
  return bad;
}

const BLIND_CASES = new Set(["card-points", "party-secrets", "dleq", "blind-2", "deal-relayed", "void-chain"]);
const isBlind = (c) => BLIND_CASES.has(c.get("case"));

/** The blind vectors of 9.11 that need only the group, the secrets and the proofs. */
function checkBlind(c) {
  const bad = [];
  const skipped = [];
  const expect = (key, got) => {
    if (c.get(key).trim() !== String(got)) bad.push(`${key}: want ${c.get(key)}, got ${got}`);
  };
  const roundId = c.has("round_id") ? F.unhex(c.get("round_id")) : null;
  const party = (p, seed) => {
    const x = E.Hs("scopa-net/blind/v1/key", roundId, F.u8(p), seed);
    const X = E.mul(x, E.BASE);
    const signSeed = H_sign(roundId, p, seed);
    const signKey = new Uint8Array(createPublicKey(privateKey(signSeed)).export({ format: "der", type: "spki" })).slice(-32);
    return { x, X, signKey };
  };
  for (const [key] of c) {
    if (key === "case") continue;
    const m = key.match(/^point\.(\d+)$/);
    if (m) expect(key, F.hex(E.encode(E.cardPoint(Number(m[1])))));
    else if (c.get("case") === "party-secrets") {
      const p = Number(c.get("party"));
      const seed = F.unhex(c.get("seed"));
      const { x, X, signKey } = party(p, seed);
      if (key === "secret_key") expect(key, F.hex(E.intToLe(x)));
      else if (key === "public_key") expect(key, F.hex(E.encode(X)));
      else if (key === "sign_key") expect(key, F.hex(signKey));
      else if (key === "key_proof") expect(key, F.hex(E.keyProof(x, X, F.concat(roundId, F.u8(p), signKey))));
      else if (key === "perm") expect(key, F.shuffle(seed, "scopa-net/blind/v1/shuffle", roundId).join(" "));
      else if (key.startsWith("rerandomizer.")) {
        const i = Number(key.split(".")[1]);
        expect(key, F.hex(E.intToLe(E.Hs("scopa-net/blind/v1/rerandomize", roundId, F.u8(p), seed, F.u8(i)))));
      } else if (!["round_id", "party", "seed"].includes(key)) skipped.push(key);
    } else if (c.get("case") === "dleq") {
      if (key !== "proof") continue;
      const x = E.leToInt(F.unhex(c.get("secret_key")));
      const X = E.mul(x, E.BASE);
      const [U, Dp] = [E.decode(F.unhex(c.get("u"))), E.decode(F.unhex(c.get("d")))];
      if (F.hex(E.encode(X)) !== c.get("public_key")) bad.push("public_key");
      if (F.hex(E.encode(E.mul(x, U))) !== c.get("d")) bad.push("d is not x*U");
      expect(key, F.hex(E.dleqProof(x, X, U, Dp, F.unhex(c.get("context")))));
      if (!E.dleqCheck(X, U, Dp, F.unhex(c.get("context")), F.unhex(c.get("proof")))) bad.push("the proof does not check");
    } else if (c.get("case") === "deal-relayed" && ["relayed.sig", "deal_map", "deals_field_hash"].includes(key)) {
      const base = BLIND2.case;
      if (!blind2Cache.has(base)) blind2Cache.set(base, blind2(base));
      expect(key, blind2Cache.get(base)[key]);
    } else if (c.get("case") === "void-chain") {
      // 9.11: void records of blind-2's round 1, their chain hash (9.8) and fields 11 to 13.
      const base = BLIND2.case;
      if (!blind2Cache.has(base)) blind2Cache.set(base, blind2(base));
      if (key in blind2Cache.get(base)) expect(key, blind2Cache.get(base)[key]);
      else skipped.push(key);
    } else if (c.get("case") === "deal-relayed" && key === "deal") {
      expect(key, "1");
    } else if (c.get("case") === "blind-2") {
      const sg = key.match(/^shuffle_generator\.(\d+)$/);
      if (sg) expect(key, F.hex(E.encode(E.fromUniform(F.H("scopa-net/blind/v1/shuffle-generator", F.u8(Number(sg[1])))))));
      else if (key === "joint_key" || key === "open_deck.0") {
        const Y = [0, 1].map((p) => party(p, F.unhex(c.get(`seed.${p}`))).X).reduce(E.add);
        if (key === "joint_key") expect(key, F.hex(E.encode(Y)));
        else expect(key, F.hex(E.encode(E.BASE)) + F.hex(E.encode(E.add(E.cardPoint(0), Y))));
      } else if (/^(deck_sig|deck_proof_hash|shuffle_challenge)\./.test(key) || ["blind_digest", "deck_hash", "first_dealer", "cards", "shares.0.deal.1", "shares_sig.1.deal.1", "hand.0", "hand.1", "table", "play_proof"].includes(key)) {
        if (!blind2Cache.has(c)) blind2Cache.set(c, blind2(c));
        expect(key, blind2Cache.get(c)[key]);
      } else if (/^deck\.\d\.0$/.test(key)) {
        // Party p's output position 0: the input deck's position perm[0], re-randomized by r[0].
        const parties = [0, 1].map((q) => ({ ...party(q, F.unhex(c.get(`seed.${q}`))), seed: F.unhex(c.get(`seed.${q}`)) }));
        const Y = parties.map((q) => q.X).reduce(E.add);
        let deck = Array.from({ length: 40 }, (_, j) => [E.BASE, E.add(E.cardPoint(j), Y)]);
        for (let q = 0; q <= Number(key[5]); q++) {
          const perm = F.shuffle(parties[q].seed, "scopa-net/blind/v1/shuffle", roundId);
          deck = perm.map((j, i) => {
            const r = E.Hs("scopa-net/blind/v1/rerandomize", roundId, F.u8(q), parties[q].seed, F.u8(i));
            return [E.add(deck[j][0], E.mul(r, E.BASE)), E.add(deck[j][1], E.mul(r, Y))];
          });
        }
        expect(key, F.hex(E.encode(deck[0][0])) + F.hex(E.encode(deck[0][1])));
      } else if (!["round_id", "players", "people", "play_pos", "play_card"].includes(key) && !key.startsWith("seed.")) skipped.push(key);
    } else skipped.push(key);
  }
  return { bad, skipped };
}

const H_sign = (roundId, p, seed) => F.H("scopa-net/blind/v1/sign", roundId, F.u8(p), seed);

const blind2Cache = new Map();
const BLIND2 = { case: null };

/** blind-2's round worked out from its seeds (9.3-9.5): what its keys name, as hex or text. */
function blind2(c) {
  const roundId = F.unhex(c.get("round_id"));
  const players = Number(c.get("players"));
  const people = c.get("people").trim().split(/\s+/).map(Number);
  const seeds = [0, 1].map((p) => F.unhex(c.get(`seed.${p}`)));
  const parties = seeds.map((seed, p) => {
    const x = E.Hs("scopa-net/blind/v1/key", roundId, F.u8(p), seed);
    const X = E.mul(x, E.BASE);
    const signPriv = privateKey(H_sign(roundId, p, seed));
    const signKey = new Uint8Array(createPublicKey(signPriv).export({ format: "der", type: "spki" })).slice(-32);
    const proof = E.keyProof(x, X, F.concat(roundId, F.u8(p), signKey));
    return { x, X, signPriv, signKey, proof, seed };
  });
  const Y = parties.map((q) => q.X).reduce(E.add);
  let deck = Array.from({ length: 40 }, (_, j) => [E.BASE, E.add(E.cardPoint(j), Y)]);
  let trace = Array.from({ length: 40 }, (_, i) => i);
  const out = {};
  const deckBytes = (d) => F.concat(...d.map(([U, V]) => F.concat(E.encode(U), E.encode(V))));
  const generators = Array.from({ length: 41 }, (_, k) => E.fromUniform(F.H("scopa-net/blind/v1/shuffle-generator", F.u8(k))));
  const kept = { decks: [], deck_proofs: [], deck_sigs: [] }; // the record's, for void-chain
  parties.forEach((q, p) => {
    const perm = F.shuffle(q.seed, "scopa-net/blind/v1/shuffle", roundId);
    const r = perm.map((_, i) => E.Hs("scopa-net/blind/v1/rerandomize", roundId, F.u8(p), q.seed, F.u8(i)));
    const before = deck;
    deck = perm.map((j, i) => [E.add(before[j][0], E.mul(r[i], E.BASE)), E.add(before[j][1], E.mul(r[i], Y))]);
    trace = perm.map((j) => trace[j]);
    const inBytes = deckBytes(before), outBytes = deckBytes(deck);
    const { proof, u } = E.shuffleProof({ roundId, p, seed: q.seed, Y, inBytes, outBytes, outDeck: deck, perm, r, generators, H: F.H, u8: F.u8, concat: F.concat });
    out[`deck_proof_hash.${p}`] = F.hex(createHash("sha256").update(proof).digest());
    out[`shuffle_challenge.${p}.0`] = F.hex(E.intToLe(u[0]));
    const msg = F.concat(F.lp(F.ascii("scopa-net/blind/v1/deck-signature")), F.lp(roundId), F.lp(F.u8(p)), F.lp(outBytes), F.lp(proof));
    out[`deck_sig.${p}`] = sig(q.signPriv, msg);
    kept.decks.push(deck.map(([U, V]) => F.concat(E.encode(U), E.encode(V))));
    kept.deck_proofs.push(proof);
    kept.deck_sigs.push(F.unhex(out[`deck_sig.${p}`]));
  });
  out.blind_digest = F.hex(F.H("scopa-net/blind/v1/round", roundId, Uint8Array.from(people), E.encode(parties[0].X), parties[0].proof, parties[0].signKey));
  out.deck_hash = F.hex(createHash("sha256").update(F.concat(...deck.map(([U, V]) => F.concat(E.encode(U), E.encode(V))))).digest());
  const seedFD = F.H("scopa-net/blind/v1/first-dealer", roundId, ...parties.map((q) => E.encode(q.X)));
  const dealer = F.below(F.stream(seedFD, "scopa-net/v1/first-dealer", roundId), players);
  out.first_dealer = String(dealer);
  out.cards = trace.join(" ");
  const plan = F.dealPlan(F.dealShape(players, []), players, dealer);
  const owner = (seat) => (people.includes(seat) ? people.indexOf(seat) + 1 : 0);
  const positions = [...plan[0].hands.flatMap((h, s) => h.map((pos) => [pos, owner(s)])), ...plan[0].table.map((pos) => [pos, -1])].sort((a, b) => a[0] - b[0]);
  const sharesOf = (p) => positions.filter(([, o]) => o !== p).map(([pos]) => [pos, E.mul(parties[p].x, deck[pos][0])]);
  out["shares.0.deal.1"] = sharesOf(0).slice(0, 2).map(([, S]) => F.hex(E.encode(S))).join(" ");
  const msg1 = F.concat(F.lp(F.ascii("scopa-net/blind/v1/shares-signature")), F.lp(roundId), F.lp(F.u8(1)), F.lp(F.u8(1)), F.lp(F.concat(...sharesOf(1).map(([, S]) => E.encode(S)))));
  out["shares_sig.1.deal.1"] = sig(parties[1].signPriv, msg1);
  const sharesMsgOf = (p, shares) => F.concat(F.lp(F.ascii("scopa-net/blind/v1/shares-signature")), F.lp(roundId), F.lp(F.u8(p)), F.lp(F.u8(1)), F.lp(F.concat(...shares)));
  const s0 = sharesOf(0).map(([, S]) => E.encode(S)), s1 = sharesOf(1).map(([, S]) => E.encode(S));
  const sig0 = F.unhex(sig(parties[0].signPriv, sharesMsgOf(0, s0))), sig1 = F.unhex(out["shares_sig.1.deal.1"]);
  const swapped = [s0[1], s0[0], ...s0.slice(2)];
  const relayedSig = F.unhex(sig(parties[0].signPriv, sharesMsgOf(0, swapped)));
  out["relayed.sig"] = F.hex(relayedSig);
  out.deal_map = F.hex(encode(new Map([["shares", [s0, s1]], ["sigs", [sig0, sig1]], ["relayed", new Map([["shares", swapped], ["sig", relayedSig]])]])));
  out.deals_field_hash = F.hex(createHash("sha256").update(F.concat(F.u8(1), ...s0, sig0, F.u8(1), ...s1, sig1)).digest());
  for (let s = 0; s < players; s++) out[`hand.${s}`] = plan[0].hands[s].map((pos) => `${pos}:${trace[pos]}`).join(" ");
  out.table = plan[0].table.map((pos) => `${pos}:${trace[pos]}`).join(" ");
  // void-chain: round 1 void absent (seat 1) once deal 1 was relayed, before every key came,
  // and void failed_check by the host's own party once deal 1 was relayed.
  const absent = {
    round_id: roundId, round_no: 1, prev: new Uint8Array(32), dealer, people,
    keys: parties.map((q) => [E.encode(q.X), q.proof, q.signKey]), ...kept,
    deals: [{ shares: [s0, s1], sigs: [sig0, sig1] }],
    table: plan[0].table.map((pos) => [pos, trace[pos]]), plays: [],
    void: { reason: "absent", offender: 1 }, seeds: [seeds[0], null],
  };
  out["field_11.absent"] = F.hex(F.ascii(absent.void.reason));
  out["field_12.absent"] = F.hex(F.u8(absent.void.offender));
  out["field_13.absent"] = F.hex(F.concat(F.u8(2), F.u8(1), seeds[0], F.u8(0)));
  out["chain.absent_after_deal_1"] = F.hex(blindChain(absent));
  out["chain.absent_before_keys"] = F.hex(blindChain({
    ...absent, dealer: null, keys: absent.keys.slice(0, 1), decks: [], deck_proofs: [],
    deck_sigs: [], deals: [], table: [],
  }));
  out["chain.failed_check_host_after_deal_1"] = F.hex(blindChain({
    ...absent, void: { reason: "failed_check", offender: null }, seeds,
  }));
  const pos = Number(c.get("play_pos")), card = Number(c.get("play_card"));
  const o = owner(plan[0].hands.findIndex((h) => h.includes(pos)));
  const S = sharesOf(0).find(([q]) => q === pos)[1];
  const D = E.sub(E.sub(deck[pos][1], S), E.cardPoint(card));
  out.play_proof = F.hex(E.dleqProof(parties[o].x, parties[o].X, deck[pos][0], D, F.concat(roundId, F.u8(o), F.u8(pos), F.u8(card))));
  return out;
}
