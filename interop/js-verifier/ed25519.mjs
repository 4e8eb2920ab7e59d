// edwards25519 with BigInt, for the blind-table vectors of protocol.md 9.2-9.4 and 9.11:
// points, scalars, from_uniform (libsodium's Elligator 2, re-done from its description), Hs,
// the key proof and the equal-logarithm proof. Slow and not constant time: a verifier's tool.

import { createHash } from "node:crypto";
import { ascii, concat, lp, H } from "./fair.mjs";

export const P = 2n ** 255n - 19n;
export const L = 2n ** 252n + 27742317777372353535851937790883648493n;
const mod = (a, m = P) => ((a % m) + m) % m;
const pow = (b, e, m = P) => {
  let r = 1n;
  b = mod(b, m);
  for (; e > 0n; e >>= 1n, b = (b * b) % m) if (e & 1n) r = (r * b) % m;
  return r;
};
const inv = (a, m = P) => pow(a, m - 2n, m);
const D = mod(-121665n * inv(121666n));
const SQRT_M1 = pow(2n, (P - 1n) / 4n);
const A = 486662n;

export const leToInt = (b) => b.reduceRight((acc, x) => (acc << 8n) | BigInt(x), 0n);
export const intToLe = (n, len = 32) => Uint8Array.from({ length: len }, (_, i) => Number((n >> BigInt(8 * i)) & 0xffn));

// Points in extended coordinates [X, Y, Z, T].
export const ZERO = [0n, 1n, 1n, 0n];
export function add([X1, Y1, Z1, T1], [X2, Y2, Z2, T2]) {
  const a = mod((Y1 - X1) * (Y2 - X2)), b = mod((Y1 + X1) * (Y2 + X2));
  const c = mod(2n * D * T1 * T2), d = mod(2n * Z1 * Z2);
  const e = b - a, f = d - c, g = d + c, h = b + a;
  return [mod(e * f), mod(g * h), mod(f * g), mod(e * h)];
}
export const neg = ([X, Y, Z, T]) => [mod(-X), Y, Z, mod(-T)];
export const sub = (p, q) => add(p, neg(q));
export function mul(k, p) {
  let r = ZERO;
  for (let q = p, n = mod(k, L * 8n); n > 0n; n >>= 1n, q = add(q, q)) if (n & 1n) r = add(r, q);
  return r;
}
export function encode([X, Y, Z]) {
  const zi = inv(Z);
  const x = mod(X * zi), y = mod(Y * zi);
  const out = intToLe(y);
  out[31] |= Number(x & 1n) << 7;
  return out;
}
/** The point of a y coordinate and an x sign (RFC 8032 5.1.3), or null. */
function fromY(y, sign, zeroTakesAnySign = false) {
  const u = mod(y * y - 1n), v = mod(D * y * y + 1n);
  let x = mod(u * pow(v, 3n) * pow(u * pow(v, 7n), (P - 5n) / 8n));
  if (mod(v * x * x) !== u) {
    if (mod(v * x * x) !== mod(-u)) return null;
    x = mod(x * SQRT_M1);
  }
  if (x === 0n && sign && !zeroTakesAnySign) return null;
  if ((x & 1n) !== BigInt(sign)) x = mod(-x);
  return [x, y, 1n, mod(x * y)];
}
export function decode(bytes) {
  const b = Uint8Array.from(bytes);
  const sign = b[31] >> 7;
  b[31] &= 0x7f;
  const y = leToInt(b);
  return y >= P ? null : fromY(y, sign);
}
export const BASE = fromY(mod(4n * inv(5n)), 0);

/**
 * libsodium's crypto_core_ed25519_from_uniform, as we read it: the top bit of the 32 bytes is
 * the sign of x, the other 255 bits (little-endian, mod p) are r; Elligator 2 on Curve25519
 * with non-square 2 gives u = -A / (1 + 2 r^2), replaced by -u - A when u^3 + A u^2 + u is not
 * a square; the Edwards y is (u - 1) / (u + 1), x recovered with that sign; then times 8.
 */
export function fromUniform(bytes) {
  const b = Uint8Array.from(bytes);
  const sign = b[31] >> 7;
  b[31] &= 0x7f;
  const r = mod(leToInt(b));
  let u = mod(-A * inv(1n + 2n * r * r));
  const e = mod(u * u * u + A * u * u + u);
  if (pow(e, (P - 1n) / 2n) === P - 1n) u = mod(-u - A);
  const y = mod((u - 1n) * inv(u + 1n));
  const point = fromY(y, sign, true); // x = 0 (from r = 0) ignores the sign, as libsodium does
  return mul(8n, point);
}

/** Hs(tag, f1, ..., fk): SHA-512 over the length-prefixed fields, little-endian, mod l. */
export function Hs(tag, ...fields) {
  const h = createHash("sha512");
  h.update(lp(ascii(tag)));
  for (const f of fields) h.update(lp(f));
  return mod(leToInt(new Uint8Array(h.digest())), L);
}

export const cardPoint = (c) => fromUniform(H("scopa-net/blind/v1/card-point", Uint8Array.of(c)));

/** Schnorr key proof over kctx (9.4): e || z. */
export function keyProof(x, X, kctx) {
  const w = Hs("scopa-net/blind/v1/key-proof-nonce", intToLe(x), kctx);
  const e = Hs("scopa-net/blind/v1/key-proof", kctx, encode(X), encode(mul(w, BASE)));
  return concat(intToLe(e), intToLe(mod(w + e * x, L)));
}

/** Chaum-Pedersen proof that log_B X = log_U D, bound to ctx (9.4): e || z. */
export function dleqProof(x, X, U, Dp, ctx) {
  const [Xe, Ue, De] = [encode(X), encode(U), encode(Dp)];
  const w = Hs("scopa-net/blind/v1/dleq-nonce", intToLe(x), ctx, Ue, De);
  const e = Hs("scopa-net/blind/v1/dleq", ctx, Xe, Ue, De, encode(mul(w, BASE)), encode(mul(w, U)));
  return concat(intToLe(e), intToLe(mod(w + e * x, L)));
}

export function dleqCheck(X, U, Dp, ctx, proof) {
  const e = leToInt(proof.subarray(0, 32)), z = leToInt(proof.subarray(32));
  if (e >= L || z >= L) return false;
  const A1 = sub(mul(z, BASE), mul(e, X)), A2 = sub(mul(z, U), mul(e, Dp));
  return Hs("scopa-net/blind/v1/dleq", ctx, encode(X), encode(U), encode(Dp), encode(A1), encode(A2)) === e;
}

/**
 * Section 9.4's shuffle proof, made by party p from its seed (the prover's side, for the
 * vectors): inDeck/outDeck arrays of [U, V] points, perm and r the party's (9.3).
 */
export function shuffleProof({ roundId, p, seed, Y, inBytes, outBytes, outDeck, perm, r, generators, H, u8, concat }) {
  const l = L;
  const nonce = (label, k) => Hs("scopa-net/blind/v1/shuffle-proof-nonce", roundId, u8(p), seed, inBytes, new TextEncoder().encode(label), u8(k));
  const n = 40;
  const idx = [...Array(n).keys()];
  const inv = new Array(n);
  perm.forEach((j, i) => (inv[j] = i));
  const rho = idx.map((j) => nonce("rho", j));
  const rhat = idx.map((i) => nonce("rhat", i));
  const [w1, w2, w3, w4] = [1, 2, 3, 4].map((k) => nonce("w", k));
  const what = idx.map((i) => nonce("what", i));
  const wp = idx.map((i) => nonce("wprime", i));
  const c = idx.map((j) => add(mul(rho[j], BASE), generators[inv[j]]));
  const cBytes = concat(...c.map(encode));
  const h = H("scopa-net/blind/v1/shuffle-statement", concat(roundId, u8(p)), encode(Y), inBytes, outBytes, cBytes);
  const u = idx.map((j) => Hs("scopa-net/blind/v1/shuffle-challenge", h, u8(j)));
  const up = idx.map((i) => u[perm[i]]);
  const chat = [];
  idx.forEach((i) => chat.push(add(mul(rhat[i], BASE), mul(up[i], i ? chat[i - 1] : generators[40]))));
  const sum = (pts) => pts.reduce(add, ZERO);
  const T1 = mul(w1, BASE), T2 = mul(w2, BASE);
  const T3 = add(mul(w3, BASE), sum(idx.map((i) => mul(wp[i], generators[i]))));
  const T4U = sub(sum(idx.map((i) => mul(wp[i], outDeck[i][0]))), mul(w4, BASE));
  const T4V = sub(sum(idx.map((i) => mul(wp[i], outDeck[i][1]))), mul(w4, Y));
  const That = idx.map((i) => add(mul(what[i], BASE), mul(wp[i], i ? chat[i - 1] : generators[40])));
  const chatBytes = concat(...chat.map(encode));
  const e = Hs("scopa-net/blind/v1/shuffle-proof", h, chatBytes, encode(T1), encode(T2), encode(T3), encode(T4U), encode(T4V), concat(...That.map(encode)));
  const m = (a) => ((a % l) + l) % l;
  const s1 = m(w1 + e * rho.reduce((a, b) => a + b, 0n));
  let s2sum = 0n;
  for (let i = 0; i < n; i++) {
    let prod = 1n;
    for (let k = i + 1; k < n; k++) prod = (prod * up[k]) % l;
    s2sum = m(s2sum + rhat[i] * prod);
  }
  const s2 = m(w2 + e * s2sum);
  const s3 = m(w3 + e * idx.reduce((a, j) => a + u[j] * rho[j], 0n));
  const s4 = m(w4 + e * idx.reduce((a, i) => a + up[i] * r[i], 0n));
  const shat = idx.map((i) => m(what[i] + e * rhat[i]));
  const sp = idx.map((i) => m(wp[i] + e * up[i]));
  const proof = concat(cBytes, chatBytes, ...[e, s1, s2, s3, s4, ...shat, ...sp].map((x) => intToLe(x)));
  return { proof, u };
}
