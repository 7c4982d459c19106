// Wuzi spectators' page: drawn with plain DOM and SVG from the delayed public feed, which
// the page reads itself from the broker over MQTT on WebSockets (the vendored mqtt.js;
// config.json names the broker, the venue's public and competition topics and the delay).
// Everything else comes from the page's own files. Clocks count down locally between
// updates; model.js folds the messages.
"use strict";

const SIZE = 15;
const COLS = "abcdefghijklmno";
const STARS = [[3, 3], [11, 3], [7, 7], [3, 11], [11, 11]];
const $ = (id) => document.getElementById(id);
const view = {
  tables: new Map(), competition: null, meta: {}, game: null, gameId: null, at: 0,
  events: [], // a hall of several events: [{id, name, tables, competition}]; [] for one
  eventId: null, // the event this page opens (?event=ID), or null
  model: null, // the FeedModel (model.js)
};
window.wuziSeen = {}; // "table:seq" -> Date.now() when the update arrived (tests, latency)
window.wuziEvents = 0;

function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => (
    { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

function pointName(p) {
  return COLS[p % SIZE] + (Math.floor(p / SIZE) + 1);
}

function pad(n) {
  return String(n).padStart(2, "0");
}

// The face the table's own clock shows (wuzi.clock.face.face_text).
function clockText(ms) {
  if (ms <= 0) return "0.0";
  if (ms <= 10000) {
    const tenths = Math.ceil(ms / 100);
    return `${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const s = Math.ceil(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

function remaining(t, side) {
  const base = side === "black" ? t.black_ms : t.white_ms;
  if (t.running !== side || t.status !== "playing") return base;
  return base - (performance.now() - t._got);
}

function clockClass(ms) {
  if (ms <= 0) return "clock flag";
  return ms < 60000 ? "clock low" : "clock";
}

// The board as SVG: row 1 at the bottom (the first Black player's side), h8 the centre.
function boardSvg(moves, offers, upTo, numbers, coords) {
  const shown = moves.slice(0, upTo);
  const xy = (p) => [p % SIZE, SIZE - 1 - Math.floor(p / SIZE)];
  const pad0 = coords ? 1.1 : 0.6;
  const span = SIZE - 1 + pad0 + 0.6;
  const parts = [
    `<svg class="board" viewBox="${-pad0} -0.6 ${span} ${span}" role="img" aria-label="board">`,
    // the wood fills the view, so the coordinates are printed on it as on a real board
    `<rect class="wood" x="${-pad0}" y="-0.6" width="${span}" height="${span}" rx=".2"/>`,
  ];
  for (let i = 0; i < SIZE; i++) {
    parts.push(`<line x1="0" y1="${i}" x2="${SIZE - 1}" y2="${i}"/>`);
    parts.push(`<line x1="${i}" y1="0" x2="${i}" y2="${SIZE - 1}"/>`);
  }
  for (const [c, r] of STARS) parts.push(`<circle class="star" cx="${c}" cy="${SIZE - 1 - r}" r=".12"/>`);
  if (coords) {
    for (let i = 0; i < SIZE; i++) {
      parts.push(`<text class="coord" x="${i}" y="${SIZE - 0.35}">${COLS[i]}</text>`);
      parts.push(`<text class="coord" x="-0.85" y="${SIZE - 1 - i}">${i + 1}</text>`);
    }
  }
  shown.forEach((p, i) => {
    const [x, y] = xy(p);
    const colour = i % 2 === 0 ? "b" : "w";
    parts.push(`<circle class="${colour}" cx="${x}" cy="${y}" r=".46"/>`);
    if (numbers) parts.push(`<text class="on-${colour}" x="${x}" y="${y}">${i + 1}</text>`);
  });
  if (upTo === moves.length) {
    for (const p of offers || []) {
      const [x, y] = xy(p);
      parts.push(`<circle class="offer" cx="${x}" cy="${y}" r=".42"/>`);
    }
  }
  if (shown.length && !numbers) {
    const [x, y] = xy(shown[shown.length - 1]);
    parts.push(`<circle class="last" cx="${x}" cy="${y}" r=".2"/>`);
  } else if (shown.length) {
    const [x, y] = xy(shown[shown.length - 1]);
    parts.push(`<circle class="last" cx="${x}" cy="${y}" r=".5"/>`);
  }
  parts.push("</svg>");
  return parts.join("");
}

function playerRow(t, side) {
  const ms = remaining(t, side);
  const running = t.running === side && t.status === "playing";
  const label = side === "black" ? "黑 Black" : "白 White";
  const clock = t.status === "idle" ? "" : clockText(ms);
  return `<div class="player${running ? " running" : ""}" data-side="${side}">`
    + `<span class="who"><span class="stone ${side[0]}" title="${label}"></span>`
    + `<span class="name">${esc(t[side] || label)}</span></span>`
    + `<span class="${clockClass(ms)}" data-clock="${side}">${clock}</span></div>`;
}

function matchText(m) {
  if (!m) return "";
  return `${esc(m.first)} <b>${esc(m.first_score)} : ${esc(m.second_score)}</b> ${esc(m.second || "—")}`
    + (m.label ? `<br>${esc(m.label)}` : "");
}

// A hall of several events: the event a page shows, and whether a table belongs to it.
function several() {
  return view.events.length > 1;
}

function chosenEvent() {
  return view.eventId ? view.events.find((e) => e.id === view.eventId) || null : null;
}

function shown(t) {
  return !view.eventId || t.event === view.eventId;
}

// The summary the standings and bracket show: the opened event's, the one event's.
function currentCompetition() {
  if (view.eventId) {
    const ev = chosenEvent();
    return ev ? ev.competition : null;
  }
  return several() ? null : view.competition;
}

function roundText(c) {
  if (!c) return "";
  return (c.round ? `第${c.round}/${c.rounds}轮 Round ${c.round}/${c.rounds}` : "")
    + (c.finished ? " · 已结束 Finished" : "");
}

function renderEvents() {
  const many = several();
  $("nav-events").hidden = !many;
  $("events-box").hidden = !many || Boolean(view.eventId);
  $("event-head").hidden = !view.eventId;
  if (view.eventId) {
    const ev = chosenEvent();
    const title = ev ? `${ev.name} ${roundText(ev.competition)}`
      : `未知赛事 No event ${view.eventId}`;
    $("event-title").textContent = title;
    document.title = `${ev ? ev.name : view.eventId} · ${view.meta.name || "Wuzi"}`;
  }
  if (!many) return;
  $("events-list").innerHTML = view.events.map((ev) => {
    const c = ev.competition;
    const leaders = c ? c.standings.slice(0, 3).map((s) => `<li>${esc(s.entrant)} `
      + `<span class="pts">${esc(s.points)}</span></li>`).join("") : "";
    const tables = ev.tables.length ? `第${ev.tables.join(", ")}桌 Tables` : "";
    return `<a class="event" id="ev-${esc(ev.id)}" href="./?event=${encodeURIComponent(ev.id)}">`
      + `<h3>${esc(ev.name)}</h3><div class="note">${esc(roundText(c))}</div>`
      + `<div class="note">${esc(tables)}</div>${leaders ? `<ol>${leaders}</ol>` : ""}</a>`;
  }).join("");
}

function cardHtml(t) {
  const moveNo = t.moves.length ? `第${t.moves.length}手 Move ${t.moves.length}` : "";
  const status = [t.status_text, moveNo].filter(Boolean).join(" · ");
  const link = t.game_id
    ? `<a class="open" href="./?game=${encodeURIComponent(t.game_id)}">棋谱 Game record ›</a>` : "";
  const board = t.board ? ` · 第${t.board}台 Board ${t.board}` : "";
  const ev = several() && !view.eventId && t.event_name
    ? `<span class="ev">${esc(t.event_name)}</span>` : "";
  return `<div class="top"><span class="num">第${t.table}桌 Table ${t.table}${board}</span>${ev}`
    + `<span class="match">${matchText(t.match)}</span></div>`
    + `<div class="body">${boardSvg(t.moves, t.offers, t.moves.length, false, false)}`
    + `<div class="players">${playerRow(t, "black")}${playerRow(t, "white")}`
    + `<div class="status">${esc(status)}</div>${link}</div></div>`;
}

function renderCard(t) {
  const box = $("tables");
  let card = $(`t-${t.table}`);
  if (t.gone || !shown(t)) { // gone, or a table of another event than the one opened
    if (card) card.remove();
    $("empty").hidden = box.children.length > 0;
    return;
  }
  if (!card) {
    card = document.createElement("article");
    card.className = "card";
    card.id = `t-${t.table}`;
    const after = [...box.children].find((c) => Number(c.dataset.table) > t.table);
    box.insertBefore(card, after || null);
  }
  card.dataset.table = t.table;
  card.dataset.moves = t.moves.length;
  card.dataset.status = t.status;
  card.innerHTML = cardHtml(t);
  $("empty").hidden = box.children.length > 0;
}

function renderCompetition() {
  renderEvents();
  const c = currentCompetition();
  $("standings-box").hidden = !c || !c.standings.length;
  $("nav-standings").hidden = $("standings-box").hidden;
  $("bracket-box").hidden = !c || !c.bracket.length;
  $("nav-bracket").hidden = $("bracket-box").hidden;
  for (const t of view.tables.values()) renderCard(t); // the match, the event on each card
  if (!c) return;
  $("round").textContent = `${c.event} · ${roundText(c)}`;
  const head = ["名次 Place", "选手/队 Entrant", "积分 Pts", ...c.tiebreaks];
  $("standings-table").innerHTML = `<thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join("")}</tr></thead><tbody>`
    + c.standings.map((s) => `<tr><td>${esc(s.place)}</td><td>${esc(s.entrant)}</td><td>${esc(s.points)}</td>`
      + s.tiebreaks.map((x) => `<td>${esc(x)}</td>`).join("") + "</tr>").join("") + "</tbody>";
  $("bracket-list").innerHTML = c.bracket.map((m) => {
    const cls = (name) => (m.winner && m.winner === name ? "win" : "");
    return `<div class="m"><div class="places">第${esc(m.round)}轮 Round ${esc(m.round)} · `
      + `第${esc(m.places)}名 Places ${esc(m.places)}</div>`
      + `<div class="${cls(m.first)}">${esc(m.first)} ${esc(m.first_score)}</div>`
      + `<div class="${cls(m.second)}">${esc(m.second || "—")} ${esc(m.second_score)}</div></div>`;
  }).join("");
}

let gamesTimer = null;
function refreshGames() {
  if (gamesTimer || !view.model) return;
  gamesTimer = setTimeout(() => {
    gamesTimer = null;
    const games = view.model.gamesList().filter((g) => !view.eventId || g.event === view.eventId);
    $("games-list").innerHTML = games.map((g) => `<li><a href="./?game=${encodeURIComponent(g.game_id)}">`
      + `第${g.table}桌 Table ${g.table}: ${esc(g.black)} – ${esc(g.white)}</a> `
      + `${esc(g.result || (g.status === "playing" ? "对局中 playing" : ""))}</li>`).join("");
  }, 300);
}

// --- the game page --------------------------------------------------------------------

function renderGame() {
  const g = view.game;
  if (!g) return;
  const n = g.moves.length;
  view.at = Math.max(0, Math.min(view.at, n));
  $("game-title").textContent = `第${g.table}桌 Table ${g.table} · ${g.black} – ${g.white}`;
  $("game-match").innerHTML = (g.event ? esc(g.event) + " · " : "") + matchText(g.match)
    + (g.status_text ? ` · ${esc(g.status_text)}` : "");
  $("game-players").innerHTML = playerRow(g, "black") + playerRow(g, "white");
  $("game-svg").innerHTML = boardSvg(g.moves, g.offers, view.at, true, true);
  const slider = $("slider");
  slider.max = n;
  slider.value = view.at;
  $("game-at").textContent = view.at
    ? `第${view.at}手 Move ${view.at}: ${pointName(g.moves[view.at - 1])} / ${n}` : `0 / ${n}`;
  $("move-list").innerHTML = g.moves.map((p, i) => `<li data-i="${i + 1}" class="${i + 1 === view.at ? "at" : ""}">`
    + `${i % 2 === 0 ? "●" : "○"} ${pointName(p)}</li>`).join("");
}

// The records as downloads, built here from the moves (model.js): made when clicked.
function download(fmt) {
  const g = view.game;
  if (!g) return;
  const rules = view.meta.rulesets || {};
  const text = fmt === "sgf" ? recordSgf(g, rules[g.event_id || ""] || rules[""] || "renju") : recordPsq(g);
  const link = $(`dl-${fmt}`);
  if (link.dataset.url) URL.revokeObjectURL(link.dataset.url);
  link.dataset.url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
  link.href = link.dataset.url;
  link.download = `${String(view.gameId).replace(/[^A-Za-z0-9_.-]+/g, "-") || "game"}.${fmt}`;
}

function go(at) {
  view.at = at;
  renderGame();
}

function setUpGamePage(id) {
  view.gameId = id;
  $("home").hidden = true;
  $("game").hidden = false;
  $("first").onclick = () => go(0);
  $("prev").onclick = () => go(view.at - 1);
  $("next").onclick = () => go(view.at + 1);
  $("last").onclick = () => go(view.game ? view.game.moves.length : 0);
  $("slider").oninput = (e) => go(Number(e.target.value));
  $("move-list").onclick = (e) => { const li = e.target.closest("li"); if (li) go(Number(li.dataset.i)); };
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft") go(view.at - 1);
    if (e.key === "ArrowRight") go(view.at + 1);
  });
  $("dl-sgf").onclick = () => download("sgf");
  $("dl-psq").onclick = () => download("psq");
  $("game-title").textContent = "等待数据 Waiting for the public feed…";
}

function onGameUpdate() {
  const g = view.model.gameView(view.gameId);
  if (!g) return;
  const following = !view.game || view.at === view.game.moves.length;
  view.game = g;
  if (following) view.at = g.moves.length;
  renderGame();
}

// --- the stream -----------------------------------------------------------------------

function onTable(table) {
  const before = view.tables.get(table);
  const t = view.model.tableView(table);
  if (t) {
    view.tables.set(table, t);
    window.wuziSeen[`${t.table}:${t.seq}`] = Date.now();
  } else view.tables.delete(table);
  if (!view.gameId) renderCard(t || { table, gone: true }); else onGameUpdate();
  if (!before || !t || before.game_id !== t.game_id || before.status !== t.status) refreshGames();
}

function onCompetition() {
  const events = view.model.events();
  view.events = events.length > 1 ? view.model.eventsView() : [];
  view.competition = events.length > 1 ? null : view.model.competitionView();
  for (const n of view.tables.keys()) {
    const t = view.model.tableView(n); // the match and the event's name on each card
    if (t) view.tables.set(n, t);
  }
  if (view.gameId) onGameUpdate(); else renderCompetition();
}

function showMeta(config) {
  view.meta = config;
  const name = config.name || "五子棋 Gomoku";
  $("venue").textContent = name;
  if (!view.eventId) document.title = `${config.name || "Wuzi"} · 五子棋 Gomoku`;
  const words = delayWords(config.delay_minutes);
  $("delay").hidden = !words;
  $("delay").textContent = words;
}

function linkState(text) {
  $("link").hidden = !text;
  $("link").textContent = text || "";
}

function connect(config) {
  view.model = new FeedModel(config);
  const client = mqtt.connect(config.mqtt_url, {
    clean: true, reconnectPeriod: 2000, connectTimeout: 10000, keepalive: 30,
    timerVariant: "native", // a blob: worker's timers would need a looser CSP (worker-src blob:)
    clientId: `wuzi-web-${Math.random().toString(16).slice(2, 10)}`,
  });
  const decoder = new TextDecoder();
  client.on("connect", () => {
    linkState("");
    client.subscribe(view.model.filters(), { qos: 0 });
  });
  client.on("offline", () => linkState("未连接 Offline: reconnecting"));
  client.on("error", () => linkState("未连接 Offline: reconnecting"));
  client.on("message", (topic, payload) => {
    let changes;
    try {
      changes = view.model.apply(topic, decoder.decode(payload), performance.now());
    } catch (e) {
      return; // a message the page cannot read is skipped, never shown half
    }
    window.wuziEvents++;
    for (const [kind, key] of changes) {
      if (kind === "table") onTable(key); else onCompetition();
    }
    if (changes.some(([kind]) => kind === "table")) {
      const several = view.model.events().length > 1;
      if (several !== view.events.length > 1) onCompetition();
    }
    $("empty").hidden = view.tables.size > 0;
  });
  window.wuziClient = client;
}

// Running clocks tick locally, ten times a second, touching only their own text.
function tick() {
  const update = (root, t) => {
    if (!t || t.status !== "playing" || !t.running) return;
    const el = root && root.querySelector(`[data-clock="${t.running}"]`);
    if (!el) return;
    const ms = remaining(t, t.running);
    const text = clockText(ms);
    if (el.textContent !== text) { el.textContent = text; el.className = clockClass(ms); }
  };
  if (view.gameId) update($("game-players"), view.game);
  else for (const t of view.tables.values()) update($(`t-${t.table}`), t);
}

async function start() {
  const query = new URLSearchParams(location.search);
  const id = query.get("game") || (location.pathname.endsWith("/game") ? query.get("id") : null);
  if (id) setUpGamePage(id);
  else if (query.get("event")) view.eventId = query.get("event");
  let config;
  try {
    config = await (await fetch("config.json", { cache: "no-store" })).json();
  } catch (e) {
    linkState("config.json 无法读取 cannot be read");
    return;
  }
  showMeta(config);
  connect(config);
  setInterval(tick, 100);
}

start();
