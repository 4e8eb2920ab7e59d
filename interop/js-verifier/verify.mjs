#!/usr/bin/env node
// An outsider's deal verifier for scopa-net transcripts, written from protocol.md alone.
//
//   node verify.mjs [--pin FINGERPRINT]... FILE...   one line per file
//   node verify.mjs --vectors [protocol.md]          check the document's own test vectors
//   node verify.mjs --json FILE...                   one JSON object per file (for tests)
//
// Exit status 0 when every file verifies (or every vector passes), 1 otherwise.

import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { readTranscript, verifyTranscript, Unreadable } from "./transcript.mjs";
import { runVectors } from "./vectors.mjs";
import { fingerprint } from "./fair.mjs";

function main(argv) {
  if (argv[0] === "--vectors") {
    const doc = argv[1] ?? fileURLToPath(new URL("../../protocol.md", import.meta.url));
    const lines = runVectors(readFileSync(doc, "utf8"), dirname(doc));
    for (const l of lines) console.log(l);
    return lines.some((l) => l.startsWith("FAIL")) ? 1 : 0;
  }
  const pins = [];
  const files = [];
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--pin") pins.push(argv[++i].replace(/-/g, "").toLowerCase());
    else if (argv[i] === "--json") json = true;
    else files.push(argv[i]);
  }
  if (!files.length) {
    console.error("usage: node verify.mjs [--pin FINGERPRINT] FILE... | --vectors [protocol.md]");
    return 2;
  }
  let ok = true;
  for (const file of files) {
    const report = check(file, pins);
    ok &&= report.status === "verified";
    console.log(json ? JSON.stringify({ file, ...report }) : `${file}: ${report.line}`);
  }
  return ok ? 0 : 1;
}

/** One file's verdict: { status, line, check?, round_no?, rounds? }. */
function check(file, pins) {
  let t;
  try {
    t = readTranscript(new Uint8Array(readFileSync(file)));
  } catch (e) {
    if (e instanceof Unreadable || e.code === "ENOENT" || e.code === "EISDIR")
      return { status: "unreadable", line: `unreadable: ${e.message}` };
    throw e;
  }
  const fp = fingerprint(t.host_key);
  if (pins.length && !pins.includes(fp.replace(/-/g, "")))
    return { status: "failed", check: "host key not pinned", line: `failed: host key ${fp} is not pinned` };
  const v = verifyTranscript(t);
  const bad = v.rounds.find((r) => r.verdict === "failed");
  const unfair = v.rounds.filter((r) => r.verdict.startsWith("not fair-checked")).length;
  const voids = v.rounds.filter((r) => r.verdict.startsWith("void:")).map((r) => `round ${r.round_no} ${r.verdict}`);
  const base = { status: v.status, rounds: v.rounds, match: v.match, fingerprint: fp };
  if (v.status === "failed" && !bad && v.caughtUp) {
    const { check, detail } = v.caughtUp;
    return { ...base, check, round_no: null, caught_up: true, line: `failed: caught up: ${check} (${detail})` };
  }
  if (v.status === "partly" && v.midWay)
    return { ...base, line: `verified as far as the seat saw (${v.rounds.length} rounds; this file's chain starts mid-way, at round ${v.midWay}: the rounds before, and the match's total, are the host's word)` };
  if (v.status === "partly")
    return { ...base, line: `verified as far as the seat saw (${v.rounds.length} rounds after a catch-up by snapshot; the rounds before are the host's word)` };
  if (v.status === "failed") {
    const where = bad ?? null;
    const what = where ?? { check: v.match.check, detail: v.match.detail };
    const line = where ? `failed: round ${where.round_no}: ${where.check} (${where.detail})` : `failed: match end: ${what.check} (${what.detail})`;
    return { ...base, check: what.check, round_no: where ? where.round_no : null, line };
  }
  if (v.status === "unfinished") return { ...base, line: `unfinished (${v.rounds.length} rounds, none failed)` };
  return { ...base, line: `verified (${v.rounds.length} rounds${unfair ? `, ${unfair} not fair-checked: no player seed` : ""}${voids.length ? `; ${voids.join(", ")}` : ""})` };
}

process.exitCode = main(process.argv.slice(2));
