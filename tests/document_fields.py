"""Every message a host sends, checked field by field against protocol.md, read from the
document itself: an outsider's conformance check (it imports nothing from scopa_net).

The field tables of 3.9 and 3.10 are parsed from protocol.md at import, and each row's type
column (section 1: exactly the listed fields, in the listed order after ``t``; ints in range,
never a bool; text of the stated length in code points, no control character; bin of the
stated length; "or nil"; "no repeats"; "key left out when ...", never written with the value
it stands for) becomes a check. Then the prose: 3.9's rules over several fields, the 3.10
score lines, what 3.4 says a snapshot shows before the first deal, and per connection the
seq of every event (3.4: one more than the last, a snapshot setting it).

``FieldWatch`` takes a connection's bytes from the host as they come and keeps every
``problems`` line: "<type>.<field path>: what is wrong".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from pathlib import Path

import msgpack

PROTOCOL = Path(__file__).resolve().parent.parent / "protocol.md"
Check = Callable[[object, str, list], None]


def _section(text: str, start: str, stop: str) -> str:
    return text[text.index(f"\n{start}") : text.index(f"\n{stop}")]


def field_tables() -> dict[str, list[tuple[str, str, str]]]:
    """``name`` -> its (field, type, meaning) rows, for every message of 3.9 and map of 3.10."""
    text = _section(PROTOCOL.read_text(encoding="utf-8"), "### 3.9", "### 3.11")
    tables: dict[str, list[tuple[str, str, str]]] = {}
    for found in re.finditer(r"^#### (?:map )?`(\w+)`\n(.*?)(?=^####|\Z)", text, re.S | re.M):
        rows = re.findall(r"^\| `(\w+)` \| (.*?) \| (.*) \|$", found.group(2), re.M)
        tables[found.group(1)] = rows
    return tables


TABLES = field_tables()
NEW_IN_5 = {
    (name, field)
    for name, rows in TABLES.items()
    for field, _, meaning in rows
    if meaning.startswith("version 5 on")
}
"""Optional keys a connection of version 4 never carries (their meaning: "version 5 on")."""
LEFT_OUT = {"nil": None, "false": False, "0": 0, "empty": []}


def _fail(problems: list, where: str, what: str) -> None:
    problems.append(f"{where}: {what}")


def _int(lo: int, hi: int) -> Check:
    def check(v: object, where: str, problems: list) -> None:
        if isinstance(v, bool) or not isinstance(v, int):
            _fail(problems, where, f"{v!r} is not an int")
        elif not lo <= v <= hi:
            _fail(problems, where, f"{v} is not in {lo}..{hi}")

    return check


def _str(lo: int, hi: int, one_of: tuple[str, ...] = ()) -> Check:
    def check(v: object, where: str, problems: list) -> None:
        if not isinstance(v, str):
            _fail(problems, where, f"{v!r} is not a str")
        elif one_of and v not in one_of:
            _fail(problems, where, f"{v!r} is not one of {one_of}")
        elif not lo <= len(v) <= hi:
            _fail(problems, where, f"{v!r} is {len(v)} code points, not {lo}..{hi}")
        elif any(unicodedata.category(c) == "Cc" for c in v):
            _fail(problems, where, f"{v!r} holds a control character")

    return check


def _bin(lo: int, hi: int) -> Check:
    def check(v: object, where: str, problems: list) -> None:
        if not isinstance(v, bytes):
            _fail(problems, where, f"{v!r:.40} is not bin")
        elif not lo <= len(v) <= hi:
            _fail(problems, where, f"bin of {len(v)} bytes, not {lo}..{hi}")

    return check


def _bool(v: object, where: str, problems: list) -> None:
    if not isinstance(v, bool):
        _fail(problems, where, f"{v!r} is not a bool")


def _nil_or(inner: Check) -> Check:
    def check(v: object, where: str, problems: list) -> None:
        if v is not None:
            inner(v, where, problems)

    return check


def _array(lo: int, hi: int, inner: Check, no_repeats: bool) -> Check:
    def check(v: object, where: str, problems: list) -> None:
        if not isinstance(v, list):
            _fail(problems, where, f"{v!r:.40} is not an array")
            return
        if not lo <= len(v) <= hi:
            _fail(problems, where, f"{len(v)} items, not {lo}..{hi}")
        if no_repeats and len(set(map(repr, v))) != len(v):
            _fail(problems, where, f"{v} repeats a value")
        for i, item in enumerate(v):
            inner(item, f"{where}[{i}]", problems)

    return check


def _map(name: str) -> Check:
    def check(v: object, where: str, problems: list) -> None:
        check_fields(name, v, where, problems)

    return check


def _range(text: str) -> tuple[int, int]:
    lo, _, hi = text.partition("..")
    return int(lo), int(hi or lo)


def type_check(text: str) -> Check:
    """A check for one type column of 3.9 / 3.10 (its "key left out" part taken off)."""
    text = text.strip()
    if text.endswith(" or nil"):
        return _nil_or(type_check(text[: -len(" or nil")]))
    if found := re.fullmatch(r"array of ([\d.]+) \((.*)\)", text):
        inner, no_repeats = found.group(2), False
        if inner.endswith(", no repeats"):
            inner, no_repeats = inner[: -len(", no repeats")], True
        return _array(*_range(found.group(1)), type_check(inner), no_repeats)
    if found := re.fullmatch(r"str, one of (.*)", text):
        return _str(0, 4096, tuple(re.findall(r"`([^`]+)`", found.group(1))))
    if found := re.fullmatch(r"(int|str|bin) ([\d.]+)", text):
        make = {"int": _int, "str": _str, "bin": _bin}[found.group(1)]
        return make(*_range(found.group(2)))
    if text == "bool":
        return _bool
    if found := re.fullmatch(r"map `(\w+)`", text):
        return _map(found.group(1))
    raise ValueError(f"protocol.md type not understood: {text!r}")


def _rows(name: str) -> list[tuple[str, Check, tuple[bool, object]]]:
    """(field, check, (optional, the value a missing key reads as)) by row."""
    out = []
    for field, text, _ in TABLES[name]:
        kind, _, left_out = text.partition("; key left out when ")
        optional = (True, LEFT_OUT[left_out]) if left_out else (False, None)
        out.append((field, type_check(kind), optional))
    return out


ROWS = {name: _rows(name) for name in TABLES}


def check_fields(name: str, message: object, where: str, problems: list) -> None:
    """Section 1 and the table of ``name``: the keys, their order, each value's type."""
    if not isinstance(message, dict):
        _fail(problems, where, f"{message!r:.40} is not a map")
        return
    keys = list(message)
    if where == name:  # a message: `t` first
        if keys[:1] != ["t"]:
            _fail(problems, where, "t is not the first key")
        keys = keys[1:]
    listed = [f for f, _, _ in ROWS[name]]
    if unknown := [k for k in keys if k not in listed]:
        _fail(problems, where, f"keys not listed: {unknown}")
    if [k for k in listed if k in keys] != [k for k in keys if k in listed]:
        _fail(problems, where, f"keys {keys} not in the listed order")
    for field, check, (optional, default) in ROWS[name]:
        here = f"{where}.{field}"
        if field not in message:
            if not optional:
                _fail(problems, here, "missing")
            continue
        if optional and message[field] == default:
            _fail(problems, here, f"optional key written with its default {default!r}")
        check(message[field], here, problems)


# --- the prose ---------------------------------------------------------------------------------

LINES = ("cards", "coins", "settebello", "primiera", "sweeps")


def sides_of(rules: dict) -> int:
    """RULES.md "Players, seats and sides": 4 players (and 6 as three pairs) play in
    partnerships; otherwise each player is a side, and 6 play as two teams of three."""
    players = rules["players"]
    if players == 4:
        return 2
    if players == 6:
        return 3 if "six_as_three_pairs" in rules["variants"] else 2
    return players


def _sheet(lines: list, rules: dict, where: str, problems: list) -> None:
    """3.10 "Score lines": the five lines, then re_bello, then napola, as the variants say;
    every line by side."""
    want = list(LINES) + [v for v in ("re_bello", "napola") if v in rules["variants"]]
    if [line["name"] for line in lines] != want:
        _fail(problems, where, f"lines {[line['name'] for line in lines]}, not {want}")
    sides = sides_of(rules)
    for line in lines:
        for key in ("figures", "points"):
            if len(line[key]) != sides:
                _fail(problems, f"{where}.{line['name']}.{key}", f"not one per side ({sides})")
        if line["winner"] is not None and not 0 <= line["winner"] < sides:
            _fail(problems, f"{where}.{line['name']}.winner", "not a side")


def _seat_info(info: dict, where: str, problems: list) -> None:
    """3.9: name nil exactly when open; 3.10: connected false for an open seat, true for a
    computer player."""
    if (info["name"] is None) != (info["kind"] == "open"):
        _fail(problems, where, f"name {info['name']!r} with kind {info['kind']}")
    if info["kind"] == "open" and info["connected"]:
        _fail(problems, where, "an open seat connected")
    if info["kind"] == "bot" and not info["connected"]:
        _fail(problems, where, "a computer player not connected")


def _ascending(values: list, where: str, problems: list) -> None:
    if values != sorted(values):
        _fail(problems, where, f"{values} not in ascending order")


def check_snapshot(s: dict, problems: list) -> None:
    rules, players = s["rules"], s["rules"]["players"]
    sides = sides_of(rules)
    for key in ("seat", "dealer"):
        if not s[key] < players:
            _fail(problems, f"snapshot.{key}", f"{s[key]} not a seat of {players}")
    if s["to_move"] is not None and not s["to_move"] < players:
        _fail(problems, "snapshot.to_move", "not a seat")
    if s["side"] != s["seat"] % sides:
        _fail(problems, "snapshot.side", f"{s['side']} is not seat {s['seat']}'s side")
    if len(s["hand_counts"]) != players:
        _fail(problems, "snapshot.hand_counts", "not one per seat")
    for key in ("pile_counts", "sweeps", "scores"):
        if len(s[key]) != sides:
            _fail(problems, f"snapshot.{key}", f"not one per side ({sides})")
    for key in ("hand", "table", "leftover"):
        _ascending(s[key], f"snapshot.{key}", problems)
    if s["hand_counts"][s["seat"]] != len(s["hand"]) and s["hand"]:
        _fail(problems, "snapshot.hand", "not as many cards as hand_counts says")
    for i, play in enumerate(s["plays"]):
        if not play["seat"] < players:
            _fail(problems, f"snapshot.plays[{i}].seat", "not a seat")
        if play["captured"] >> play["card"] & 1:
            _fail(problems, f"snapshot.plays[{i}]", "captured holds the card played")
    if s["winner"] is not None and not s["winner"] < sides:
        _fail(problems, "snapshot.winner", "not a side")
    if s["seats"] and len(s["seats"]) != players:
        _fail(problems, "snapshot.seats", "neither empty nor one per seat")
    for i, info in enumerate(s["seats"]):
        _seat_info(info, f"snapshot.seats[{i}]", problems)
    if any(not 0 <= i < len(s["plays"]) for i in s.get("computer_plays", [])):
        _fail(problems, "snapshot.computer_plays", "an index that is not one of plays")
    if "makers" in s and len(s["makers"]) != len(s["plays"]):
        _fail(problems, "snapshot.makers", "not one name per play")
    for key in ("people", "stand_ins"):
        seats = s.get(key, [])
        if seats != sorted(seats) or any(not x < players for x in seats):
            _fail(problems, f"snapshot.{key}", f"{seats} not seats in seat order")
    if s.get("redeal") and s["round_no"] < 2:
        _fail(problems, "snapshot.redeal", f"true with round_no {s['round_no']}")
    if s.get("voids", 0) > s["round_no"]:
        _fail(problems, "snapshot.voids", f"{s['voids']} above round_no {s['round_no']}")
    if s["round_score"] is not None:
        _sheet(s["round_score"], rules, "snapshot.round_score", problems)
        if not s["round_over"]:
            _fail(problems, "snapshot.round_score", "a sheet while the round is not over")
    elif s["round_over"] and not s["void_deal"]:
        _fail(problems, "snapshot.round_score", "nil although the round is over")
    if s["leftover"] and not s["round_over"]:
        _fail(problems, "snapshot.leftover", "cards before the round's end")
    if s["round_over"] and s["to_move"] is not None:
        _fail(problems, "snapshot.to_move", "a seat to play in a round over")
    if s["winner"] is not None and not s["round_over"]:
        _fail(problems, "snapshot.winner", "a winner while a round is in play")
    if s["round_no"] == 0:  # 3.4, 3.9: before the first deal
        shown = {k: s[k] for k in ("dealer", "stock", "hand", "table", "plays", "to_move")}
        if shown != {
            "dealer": 0,
            "stock": 0,
            "hand": [],
            "table": [],
            "plays": [],
            "to_move": None,
        }:
            _fail(problems, "snapshot", f"round_no 0 with {shown}")
        if any(s["hand_counts"]):
            _fail(problems, "snapshot.hand_counts", "cards in hand at round_no 0")


def check_prose(msg: dict, problems: list, players: int | None) -> None:
    """3.9's rules over several fields of one message (``players``: the table's, when
    known from an earlier message of the connection)."""
    t = msg["t"]
    if t == "snapshot":
        check_snapshot(msg, problems)
    elif t == "reject":
        if (msg["reason"] is not None) != (msg["code"] == "illegal_play"):
            _fail(problems, "reject.reason", f"{msg['reason']!r} with code {msg['code']}")
        if (msg["current_seq"] is not None) != (msg["code"] == "stale"):
            _fail(problems, "reject.current_seq", f"{msg['current_seq']!r} with {msg['code']}")
    elif t == "error":
        codes = {"table_closed_on_restart": "no_such_table", "seat_taken_while_away": "bad_token"}
        if "why" in msg and codes[msg["why"]] != msg["code"]:
            _fail(problems, "error.why", f"{msg['why']} with code {msg['code']}")
        if "current_seq" in msg and msg["code"] != "stale":
            _fail(problems, "error.current_seq", f"with code {msg['code']}")
    elif t == "seat_status":
        _seat_info(msg, "seat_status", problems)
        if players is not None and not msg["seat"] < players:
            _fail(problems, "seat_status.seat", "not a seat")
        if msg["kind"] == "human" and (msg["stand_in"] or msg["away"]) and msg["connected"]:
            _fail(problems, "seat_status.connected", "true while away or stood in for")
        if msg["grace"] and (msg["connected"] or msg["stand_in"]):
            _fail(problems, "seat_status.grace", "a grace period with no one away waiting")
        if msg.get("closed") and (msg["kind"] != "human" or msg["connected"] or msg["away"]):
            _fail(problems, "seat_status.closed", "true but for a person away without leave")
    elif t == "played":
        if msg["captured"] >> msg["card"] & 1:
            _fail(problems, "played", "captured holds the card played")
        if (msg["salt"] is None) != ("proof" in msg):
            _fail(problems, "played.salt", "not nil exactly when proof is present")
    elif t == "deal":
        cards = msg["hand"] + msg["table"]
        if len({c["pos"] for c in cards}) != len(cards) or len({c["card"] for c in cards}) != len(
            cards
        ):
            _fail(problems, "deal", "a deck position or a card twice")
        for key in ("hand", "table"):
            _ascending([c["pos"] for c in msg[key]], f"deal.{key} positions", problems)
    elif t == "seed_reveals" and len(msg["seeds"]) != len(msg["excluded"]):
        _fail(problems, "seed_reveals", "seeds and excluded of different lengths")
    elif t == "round_void":
        if msg["reason"] == "kings" and "offender" in msg:
            _fail(problems, "round_void.offender", "named for a kings void")
        if msg["reason"] == "absent" and "offender" not in msg:
            _fail(problems, "round_void.offender", "no seat named absent")
    elif t == "round_end":
        _ascending(msg["leftover"], "round_end.leftover", problems)
    elif t == "rematch_status" and msg["state"] != "open" and msg["seconds"]:
        _fail(problems, "rematch_status.seconds", f"{msg['seconds']} while {msg['state']}")
    elif t == "blind_deal" and len(msg["sigs"]) != len(msg["shares"]):
        _fail(problems, "blind_deal.sigs", "not one per party's shares")
    elif t == "blind_round":
        _ascending(msg["people"], "blind_round.people", problems)
    elif t in ("tables", "table_created"):
        for i, info in enumerate(msg["tables"] if t == "tables" else [msg["table"]]):
            if len(info["seats"]) != info["rules"]["players"]:
                _fail(problems, f"{t}[{i}].seats", "not one per player")
            for j, seat in enumerate(info["seats"]):
                _seat_info(seat, f"{t}[{i}].seats[{j}]", problems)
            if any(s["kind"] == "bot" for s in info["seats"]) != (info["bot_level"] is not None):
                _fail(problems, f"{t}[{i}].bot_level", "not nil exactly when no seat is a bot's")
            joinable = [s for s in info["seats"] if s["kind"] == "open"
                        or (s["name"] or "").endswith(" <away>")]  # fmt: skip
            if t == "tables" and not joinable:  # 3.3: a full table is not listed
                _fail(problems, f"tables[{i}]", "listed with no seat a newcomer can take")
        ids = [info["id"] for info in msg.get("tables", [])]
        if ids != sorted(set(ids)):  # 3.3: oldest first, ours in ascending id
            _fail(problems, "tables", f"ids {ids} not oldest first")
    if players is not None:
        by_seat = {"seed_commits": "commits", "rematch_status": "votes", "seed_reveals": "seeds"}
        if t in by_seat and len(msg[by_seat[t]]) != players:
            _fail(problems, f"{t}.{by_seat[t]}", f"not one per seat ({players})")


EVENTS = {  # 3.4
    "seat_status", "chat", "round_commit", "seed_commits", "seed_receipt", "seed_reveals", "deal",
    "played", "round_reveal", "round_void", "round_end", "match_end", "rematch_status",
    "snapshot", "blind_round", "blind_keys", "blind_deck", "blind_open", "blind_deal",
    "blind_reveals",
}  # fmt: skip


class FieldWatch:
    """One connection's bytes from a host, checked message by message as they come."""

    def __init__(self, label: str = "") -> None:
        self.label = label
        self.buffer = bytearray()
        self.problems: list[str] = []
        self.seen: dict[str, int] = {}
        self.seq: int | None = None
        self.players: int | None = None
        self.rules: dict | None = None
        self.version: int | None = None
        self.seatings: list[tuple[int, int, int]] = []
        """(table, seat, epoch) of each `joined` and `resumed`, in order."""
        self.over = False
        """The match is over (`match_end`, or a snapshot with a winner), no rematch yet."""
        self.totals: list[int] | None = None
        """The match points by side, as the messages so far give them."""
        self.seat: int | None = None
        self.opened: int | None = None
        """The number of the last round opened that this connection saw open."""
        self.parties: int | None = None
        self.keys: set[str] = set()
        """Every `type.key` read, optional keys included."""
        self.catch_ups: list[str] = []
        """Each `resumed`'s `catch_up`."""

    def feed(self, data: bytes) -> None:
        self.buffer += data
        while len(self.buffer) >= 4:
            size = int.from_bytes(self.buffer[:4], "big")
            if len(self.buffer) < 4 + size:
                return
            payload = bytes(self.buffer[4 : 4 + size])
            del self.buffer[: 4 + size]
            self.take(msgpack.unpackb(payload, raw=False, strict_map_key=True))

    def take(self, msg: dict) -> None:
        t = msg.get("t")
        if t not in TABLES:
            self.problems.append(f"{self.label}: a message of type {t!r}")
            return
        self.seen[t] = self.seen.get(t, 0) + 1
        self.keys |= {f"{t}.{key}" for key in msg}
        if t == "welcome":
            self.version = msg.get("version")
        found: list[str] = []
        check_fields(t, msg, t, found)
        if self.version == 4:
            found += [f"{t}.{k}: in version 4" for k in msg if (t, k) in NEW_IN_5]
        elif t == "snapshot" and msg.get("plays") and "makers" not in msg:
            found.append("snapshot.makers: left out although plays is not empty")
        if not found:
            if t == "resumed":
                self.catch_ups.append(msg["catch_up"])
            if "rules" in msg:
                self.rules, self.players = msg["rules"], msg["rules"]["players"]
            if t == "round_end" and self.rules is not None:
                _sheet(msg["lines"], self.rules, "round_end.lines", found)
                if any(len(line["points"]) != len(msg["scores"]) for line in msg["lines"]):
                    found.append("round_end.lines: not as many entries as scores")
            check_prose(msg, found, self.players)
            self._sequence(msg, found)
            self._rounds(msg, found)
            self._scores(msg, found)
        self.problems += [f"{self.label} {line} in {_short(msg)}" for line in found]

    def _rounds(self, msg: dict, found: list) -> None:
        """5.2, 3.9: rounds numbered one more than the last opened (from 1 in a new match; a
        seat caught up by snapshot takes the next number as it comes, 9.7), `round_end` naming
        the round in play; `seed_receipt` for the receiving seat; at a blind table one key,
        deck, set of shares and seed per party (the host's and the round's `people`)."""
        t = msg["t"]
        if t in ("joined", "resumed"):
            self.seat = msg["seat"]
            self.seatings.append((msg["table_id"], msg["seat"], msg["epoch"]))
        if t in ("snapshot", "joined", "resumed") or (
            t == "rematch_status" and msg["state"] == "agreed"
        ):
            self.opened = None if t != "rematch_status" else 0
        elif t in ("round_commit", "blind_round"):
            if self.opened is not None and msg["round_no"] != self.opened + 1:
                found.append(f"{t}.round_no: {msg['round_no']} after round {self.opened}")
            self.opened = msg["round_no"]
            self.parties = len(msg["people"]) + 1 if t == "blind_round" else None
        elif t == "round_end" and self.opened is not None and msg["round_no"] != self.opened:
            found.append(f"round_end.round_no: {msg['round_no']} in round {self.opened}")
        elif t == "seed_receipt" and self.seat is not None and msg["seat"] != self.seat:
            found.append(f"seed_receipt.seat: {msg['seat']} sent to seat {self.seat}")
        by_party = {"blind_keys": "keys", "blind_deal": "shares", "blind_reveals": "seeds"}
        if t in by_party and self.parties is not None and len(msg[by_party[t]]) != self.parties:
            found.append(f"{t}.{by_party[t]}: not one per party ({self.parties})")
        if t == "blind_deck" and self.parties is not None and not msg["party"] < self.parties:
            found.append(f"blind_deck.party: {msg['party']} of {self.parties} parties")

    def _scores(self, msg: dict, found: list) -> None:
        """3.10 "Score lines": `round_end.scores` is the running match total after adding
        each side's points over the lines; `match_end.scores` the final one (3.9). From a
        snapshot: its `scores`, plus `round_score`'s points when the round is over."""
        t = msg["t"]
        if t == "snapshot":
            total = list(msg["scores"])
            if msg["round_over"] and msg["round_score"]:
                for line in msg["round_score"]:
                    total = [a + b for a, b in zip(total, line["points"], strict=False)]
            self.totals = total
        elif t == "round_end":
            if self.totals is not None:
                want = list(self.totals)
                for line in msg["lines"]:
                    want = [a + b for a, b in zip(want, line["points"], strict=False)]
                if msg["scores"] != want:
                    found.append(f"round_end.scores: {msg['scores']}, the lines give {want}")
            self.totals = list(msg["scores"])
        elif t == "match_end" and self.totals is not None and msg["scores"] != self.totals:
            found.append(f"match_end.scores: {msg['scores']} after rounds giving {self.totals}")
        if t == "match_end" or (t == "snapshot" and msg["winner"] is not None):
            self.over = True
        elif t == "rematch_status" and msg["state"] == "agreed":  # a new match, from 0
            self.over = False
            self.totals = None if self.totals is None else [0] * len(self.totals)
        lost_after_the_end = (
            t == "seat_status" and self.over and msg["kind"] == "human" and not msg["connected"]
        )
        if lost_after_the_end and (msg["grace"] or msg["stand_in"]):  # 3.11: nothing to play
            found.append("seat_status: a grace time or a stand-in after match_end")

    def _sequence(self, msg: dict, found: list) -> None:
        """3.4: a snapshot sets the seq; every other event is one more than the last."""
        t = msg["t"]
        if t in ("joined", "resumed"):
            self.seq = None
        elif t == "snapshot":
            self.seq = msg["seq"]
        elif t in EVENTS:
            if self.seq is not None and msg["seq"] != self.seq + 1:
                found.append(f"{t}.seq: {msg['seq']} after {self.seq}")
            self.seq = msg["seq"]


def _short(msg: dict) -> str:
    return repr({k: (v.hex()[:8] if isinstance(v, bytes) else v) for k, v in msg.items()})[:600]


def epoch_problems(seatings: list[tuple[int, int, int]]) -> list[str]:
    """3.9 `joined`, `resumed`: a seat's epoch is 1 at its first join and one more at every
    join or resume after it, whoever takes it (``seatings`` in the order the host gave them)."""
    last: dict[tuple[int, int], int] = {}
    problems = []
    for table, seat, epoch in seatings:
        want = last.get((table, seat), 0) + 1
        if epoch != want:
            problems.append(f"table {table} seat {seat}: epoch {epoch}, not {want}")
        last[(table, seat)] = epoch
    return problems
