// The msgpack subset scopa-net uses, written from protocol.md sections 1 and 6.1 alone.
//
// Decoding gives: null, true/false, BigInt-free numbers where they fit (integers above
// 2^53 come back as BigInt), strings, Uint8Array for bin, arrays, and Map for maps (so that
// key order and repeated keys stay visible). Encoding is the canonical form of 6.1:
// shortest headers everywhere, non-negative integers unsigned.

export class MsgpackError extends Error {}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Decode exactly one msgpack value filling `bytes`; throw MsgpackError otherwise. */
export function decode(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const need = (n) => {
    if (at + n > bytes.length) throw new MsgpackError("cut short");
  };
  const u8 = () => (need(1), bytes[at++]);
  const u16 = () => (need(2), (at += 2), view.getUint16(at - 2));
  const u32 = () => (need(4), (at += 4), view.getUint32(at - 4));
  const u64 = () => {
    need(8);
    at += 8;
    const big = view.getBigUint64(at - 8);
    return big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
  };
  const i64 = () => {
    need(8);
    at += 8;
    const big = view.getBigInt64(at - 8);
    return big >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(big) : big;
  };
  const take = (n) => {
    need(n);
    at += n;
    return bytes.subarray(at - n, at);
  };
  const str = (n) => {
    try {
      return utf8.decode(take(n));
    } catch (e) {
      if (e instanceof MsgpackError) throw e;
      throw new MsgpackError("a str that is not valid UTF-8");
    }
  };
  const array = (n) => {
    const out = [];
    for (let i = 0; i < n; i++) out.push(value());
    return out;
  };
  const map = (n) => {
    const out = new Map();
    for (let i = 0; i < n; i++) {
      const key = value();
      if (typeof key !== "string") throw new MsgpackError("a map key that is not a str");
      if (out.has(key)) throw new MsgpackError(`a repeated key ${JSON.stringify(key)}`);
      out.set(key, value());
    }
    return out;
  };
  const value = () => {
    const b = u8();
    if (b <= 0x7f) return b;
    if (b >= 0xe0) return b - 0x100;
    if ((b & 0xf0) === 0x80) return map(b & 0x0f);
    if ((b & 0xf0) === 0x90) return array(b & 0x0f);
    if ((b & 0xe0) === 0xa0) return str(b & 0x1f);
    switch (b) {
      case 0xc0: return null;
      case 0xc2: return false;
      case 0xc3: return true;
      case 0xc4: return take(u8()).slice();
      case 0xc5: return take(u16()).slice();
      case 0xc6: return take(u32()).slice();
      case 0xca: need(4); at += 4; return { float: view.getFloat32(at - 4) };
      case 0xcb: need(8); at += 8; return { float: view.getFloat64(at - 8) };
      case 0xcc: return u8();
      case 0xcd: return u16();
      case 0xce: return u32();
      case 0xcf: return u64();
      case 0xd0: need(1); at += 1; return view.getInt8(at - 1);
      case 0xd1: need(2); at += 2; return view.getInt16(at - 2);
      case 0xd2: need(4); at += 4; return view.getInt32(at - 4);
      case 0xd3: return i64();
      case 0xd9: return str(u8());
      case 0xda: return str(u16());
      case 0xdb: return str(u32());
      case 0xdc: return array(u16());
      case 0xdd: return array(u32());
      case 0xde: return map(u16());
      case 0xdf: return map(u32());
      default:
        throw new MsgpackError(`type byte 0x${b.toString(16)} (ext, or never used)`);
    }
  };
  const result = value();
  if (at !== bytes.length) throw new MsgpackError("bytes left over after the value");
  return result;
}

const utf8enc = new TextEncoder();

/** The canonical encoding of a decoded value (6.1): the one spelling a file may have. */
export function encode(v) {
  const parts = [];
  const push = (...b) => parts.push(Uint8Array.from(b));
  const be = (n, width) => {
    const out = new Uint8Array(width);
    let big = BigInt(n);
    for (let i = width - 1; i >= 0; i--) {
      out[i] = Number(big & 0xffn);
      big >>= 8n;
    }
    parts.push(out);
  };
  const header = (n, fix, fixMax, codes) => {
    if (fix !== null && n <= fixMax) return push(fix | n);
    const [c8, c16, c32] = codes;
    if (c8 !== null && n <= 0xff) return push(c8, n);
    if (n <= 0xffff) return (push(c16), be(n, 2));
    return (push(c32), be(n, 4));
  };
  const walk = (x) => {
    if (x === null) return push(0xc0);
    if (x === false) return push(0xc2);
    if (x === true) return push(0xc3);
    if (typeof x === "number" || typeof x === "bigint") {
      const n = BigInt(x);
      if (n >= 0n) {
        if (n <= 0x7fn) return push(Number(n));
        if (n <= 0xffn) return (push(0xcc), be(n, 1));
        if (n <= 0xffffn) return (push(0xcd), be(n, 2));
        if (n <= 0xffffffffn) return (push(0xce), be(n, 4));
        return (push(0xcf), be(n, 8));
      }
      if (n >= -32n) return push(Number(n) & 0xff);
      const tw = (w) => be(BigInt.asUintN(w * 8, n), w);
      if (n >= -128n) return (push(0xd0), tw(1));
      if (n >= -32768n) return (push(0xd1), tw(2));
      if (n >= -2147483648n) return (push(0xd2), tw(4));
      return (push(0xd3), tw(8));
    }
    if (typeof x === "string") {
      const b = utf8enc.encode(x);
      header(b.length, 0xa0, 31, [0xd9, 0xda, 0xdb]);
      return parts.push(b);
    }
    if (x instanceof Uint8Array) {
      header(x.length, null, 0, [0xc4, 0xc5, 0xc6]);
      return parts.push(x);
    }
    if (Array.isArray(x)) {
      header(x.length, 0x90, 15, [null, 0xdc, 0xdd]);
      return x.forEach(walk);
    }
    if (x instanceof Map) {
      header(x.size, 0x80, 15, [null, 0xde, 0xdf]);
      for (const [k, val] of x) walk(k), walk(val);
      return;
    }
    throw new MsgpackError(`cannot encode ${typeof x}`);
  };
  walk(v);
  const total = parts.reduce((s, p) => s + p.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) out.set(p, at), (at += p.length);
  return out;
}
