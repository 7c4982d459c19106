// Wuzi spectators' page: the model. Folds the delayed public feed and the competition
// summaries (the bus's JSON, docs/bus.md) into the views the page draws — what
// wuzi.display.web_model did on the server before the page read the broker itself.
// Pure: no DOM, no network; `gotMs` is the browser's performance.now() at arrival.
"use strict";

const MAX_GAMES = 5000;
const LABELS = {
  board: (n) => `第${n}台 Board ${n}`,
  paused: "暂停 Paused", adjourned: "封盘 Adjourned", idle: "空闲 Idle",
  "1-0": "黑胜 1-0", "0-1": "白胜 0-1", "1/2-1/2": "和棋 0.5-0.5", finished: "已结束 Finished",
};
const TIEBREAK_LABELS = {
  buchholz: "BH 布氏", median_buchholz: "MBH 中布", sonneborn_berger: "SB 索氏",
  progressive: "累进 Prog", direct_encounter: "直胜 DE", wins: "胜局 Wins",
  game_points: "局分 GP", board_points: "台分 BP", match_points: "场分 MP",
  black_games: "黑局 Black", rating: "等级 Rtg",
};
const REASON = /^[a-z0-9_-]*$/;

// A score as the hall reads it: 3, 2.5, 0.5 (wuzi.display.scoreboard_model.format_score).
function formatScore(x) {
  return Number.isInteger(x) ? String(x) : String(Number(x.toFixed(2)));
}

function statusText(s) {
  if (s.status === "finished") return LABELS[s.result] || LABELS.finished;
  if (s.status === "paused" || s.status === "adjourned" || s.status === "idle") return LABELS[s.status];
  return "";
}

// Whether a state may replace the one held (wuzi.bus.newest.supersedes): never go back.
function supersedes(next, old) {
  if (!old) return true;
  if (next.game_id === old.game_id) {
    return next.seq > old.seq || (next.seq === old.seq && next.at_ms >= old.at_ms);
  }
  return next.at_ms >= old.at_ms;
}

function matchView(m) {
  return {
    label: m.label, first: m.first, second: m.second, first_score: formatScore(m.first_score),
    second_score: formatScore(m.second_score), tables: m.tables, status: m.status, winner: m.winner,
  };
}

class FeedModel {
  constructor(config) {
    this.public = config.public_prefix;          // "wuzi/v1/<venue>/public/"
    this.competition = config.competition_prefix; // "wuzi/v1/<venue>/competition/"
    this.tables = new Map();        // table -> {state, gotMs}
    this.games = new Map();         // game_id -> {table, state, gotMs, reason}, oldest first
    this.competitions = new Map();  // event id ("" the one event's) -> CompetitionState
  }

  // The MQTT subscriptions: the public (delayed) tables and the competition; never table/.
  filters() {
    return [`${this.public}table/+/state`, `${this.public}table/+/events`, `${this.competition}#`];
  }

  // Fold one message; what changed: [["table", n]] or [["competition", id]] or [].
  apply(topic, text, gotMs) {
    if (topic.startsWith(this.competition)) {
      const rest = topic.slice(this.competition.length).split("/");
      const event = rest.length === 2 && rest[1] === "state" ? rest[0] : rest[0] === "state" ? "" : null;
      if (event === null) return [];
      if (!text) return this.competitions.delete(event) ? [["competition", event]] : [];
      this.competitions.set(event, JSON.parse(text));
      return [["competition", event]];
    }
    if (!topic.startsWith(this.public)) return []; // nothing else is ever read
    const m = /^table\/(\d+)\/(state|events)$/.exec(topic.slice(this.public.length));
    if (!m) return [];
    const table = Number(m[1]);
    if (m[2] === "events") {
      if (!text) return [];
      const e = JSON.parse(text);
      const game = this.games.get(e.game_id);
      const reason = e.data && e.data.reason;
      if (e.kind === "result" && game && typeof reason === "string" && REASON.test(reason)) {
        game.reason = reason || null;
      }
      return [];
    }
    if (!text) return this.tables.delete(table) ? [["table", table]] : [];
    const state = JSON.parse(text);
    const old = this.tables.get(table);
    if (old && !supersedes(state, old.state)) return [];
    this.tables.set(table, { state, gotMs });
    if (state.game_id) {
      const before = this.games.get(state.game_id);
      this.games.delete(state.game_id);
      this.games.set(state.game_id, { table, state, gotMs, reason: before ? before.reason : null });
      while (this.games.size > MAX_GAMES) this.games.delete(this.games.keys().next().value);
    }
    return [["table", table]];
  }

  // The venue's one competition: the one-event topic's, else the only event's.
  one() {
    if (this.competitions.has("")) return this.competitions.get("");
    return this.competitions.size === 1 ? [...this.competitions.values()][0] : null;
  }

  competitionOf(event) {
    return event ? this.competitions.get(event) || null : this.one();
  }

  eventName(event) {
    const c = this.competitionOf(event);
    return c && c.event ? c.event : event;
  }

  // The events of a hall of several, in the order of their lowest table; [] for one.
  events() {
    const known = new Set([...this.competitions.keys()].filter(Boolean));
    const first = new Map();
    for (const [n, { state }] of [...this.tables].sort((a, b) => a[0] - b[0])) {
      if (!state.event_id) continue;
      known.add(state.event_id);
      if (!first.has(state.event_id)) first.set(state.event_id, n);
    }
    for (const [event, c] of this.competitions) {
      for (const match of c.matches) {
        for (const n of match.tables) {
          if (event && n < (first.get(event) ?? 10000)) first.set(event, n);
        }
      }
    }
    const key = (e) => first.get(e) ?? 10000;
    return [...known].sort((a, b) => key(a) - key(b) || (a < b ? -1 : a > b ? 1 : 0));
  }

  matchOf(table, event) {
    const c = this.competitionOf(event);
    return c ? c.matches.find((m) => m.tables.includes(table)) || null : null;
  }

  stateView(state, gotMs) {
    return {
      table: state.table, game_id: state.game_id, status: state.status,
      status_text: statusText(state), black: state.black, white: state.white,
      moves: state.moves, offers: state.offers || [], black_ms: state.black_ms,
      white_ms: state.white_ms, running: state.running, result: state.result,
      game_in_match: state.game_in_match, seq: state.seq, _got: gotMs,
    };
  }

  tableView(table) {
    const slot = this.tables.get(table);
    if (!slot) return null;
    const { state, gotMs } = slot;
    const view = this.stateView(state, gotMs);
    const match = this.matchOf(table, state.event_id);
    let board = state.board;
    if (board == null && match && match.tables.length > 1) board = match.tables.indexOf(table) + 1;
    view.board = board;
    view.match = match ? matchView(match) : null;
    view.event = state.event_id || "";
    view.event_name = state.event_id ? this.eventName(state.event_id) : "";
    return view;
  }

  gameView(id) {
    const game = this.games.get(id);
    if (!game) return null;
    const view = this.stateView(game.state, game.gotMs);
    const event = game.state.event_id || "";
    const match = this.matchOf(game.table, event);
    const c = this.competitionOf(event);
    view.reason = game.reason;
    view.match = match ? matchView(match) : null;
    view.event = c ? c.event : event;
    view.event_id = event;
    view.round = match ? match.label : "";
    return view;
  }

  gamesList() {
    return [...this.games].reverse().map(([id, g]) => ({
      game_id: id, table: g.table, black: g.state.black, white: g.state.white,
      result: g.state.result, status: g.state.status, moves: g.state.moves.length,
      event: g.state.event_id || "",
    }));
  }

  competitionView(event) {
    const c = event === undefined ? this.one() : this.competitions.get(event);
    if (!c) return null;
    return {
      id: event === undefined ? c.event_id || "" : event, event: c.event, format: c.format,
      round: c.round, rounds: c.rounds, finished: c.finished, matches: c.matches.map(matchView),
      tiebreaks: c.tiebreak_names.map((n) => TIEBREAK_LABELS[n] || n),
      standings: c.standings.map((l) => ({
        place: l.place === l.place_to ? String(l.place) : `${l.place}-${l.place_to}`,
        entrant: l.entrant, points: formatScore(l.points), tiebreaks: l.tiebreaks.map(formatScore),
      })),
      bracket: c.bracket.map((m) => ({
        round: m.round, places: m.places, first: m.first, second: m.second,
        first_score: formatScore(m.first_score), second_score: formatScore(m.second_score),
        winner: m.winner,
      })),
    };
  }

  eventsView() {
    return this.events().map((event) => ({
      id: event, name: this.eventName(event),
      tables: [...this.tables].filter(([, s]) => s.state.event_id === event).map(([n]) => n)
        .sort((a, b) => a - b),
      competition: this.competitionView(event),
    }));
  }
}

// --- records, built from the moves the feed carries (no clock readings per move) -------

const RESULT_SGF = { "1-0": "B+", "0-1": "W+", "1/2-1/2": "0" };

function sgfText(text) {
  return String(text ?? "").replace(/[\\\]]/g, (c) => `\\${c}`);
}

function recordSgf(g, ruleset) {
  const letter = (i) => String.fromCharCode(97 + i);
  const head = [
    "(;FF[4]GM[4]CA[UTF-8]AP[Wuzi web]SZ[15]", `RU[${sgfText(ruleset)}]`,
    `PB[${sgfText(g.black)}]PW[${sgfText(g.white)}]`,
    g.event ? `EV[${sgfText(g.event)}]` : "", g.round ? `RO[${sgfText(g.round)}]` : "",
    g.result && RESULT_SGF[g.result] ? `RE[${RESULT_SGF[g.result]}]` : "",
    `GN[${sgfText(`table ${g.table}: ${g.black} – ${g.white}`)}]`,
  ].join("");
  const moves = g.moves.map((p, i) => `;${i % 2 ? "W" : "B"}[${letter(p % 15)}${letter(14 - Math.floor(p / 15))}]`);
  return `${head}\n${moves.join("\n")})\n`;
}

function recordPsq(g) {
  const lines = ["Piskvorky 15x15, 0:0, 0"];
  for (const p of g.moves) lines.push(`${(p % 15) + 1},${15 - Math.floor(p / 15)},0`);
  lines.push(g.black || "", g.white || "", "0");
  if (g.event) lines.push(`[Event "${g.event}"]`);
  if (g.round) lines.push(`[Round "${g.round}"]`);
  lines.push(`[Table "${g.table}"]`);
  if (g.result) lines.push(`[Result "${g.result}"]`);
  if (g.reason) lines.push(`[Termination "${g.reason}"]`);
  return `${lines.join("\n")}\n`;
}

// The delay in words for the header.
function delayWords(minutes) {
  if (minutes === null || minutes === undefined) return "";
  if (minutes <= 0) return "实时 Live: no delay";
  const unit = minutes === 1 ? "minute" : "minutes";
  return `延时${minutes}分钟 ${minutes} ${unit} behind play`;
}
