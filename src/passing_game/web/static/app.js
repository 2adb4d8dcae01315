// The Passing Game in the browser. No framework, no build step.
//
// Everything a player reads comes from /api/i18n (made by the server's `_`)
// or from the server's frames. User text (names) is only ever put on the
// page with textContent: this file never parses text as HTML.
"use strict";

const S = {
  config: null,
  ws: null,
  wsOpen: false,
  retry: 0,
  frame: null,
  last: -1, // the state counter of the last frame applied
  code: null,
  seat: null,
  watching: false,
  choosing: null, // a tile waiting for the player to pick an end
  hint: null,
  notice: null,
  noticeTimer: null,
  onJoined: null,
  queue: [],
  summaryOpen: false,
  logOpen: false,
};

// -- texts ---------------------------------------------------------------

// Texts come from the server's catalogs through static/i18n.js (loaded first).
function t(key, params) {
  return I18N.t(key, params);
}

function nt(key, n, params) {
  return I18N.nt(key, n, params);
}

// The language switch (lobby and table): remembered, and the socket reconnects
// so that the server words its frames in the new language too.
function languageSwitch() {
  const sel = h("select", { id: "lang-switch", class: "lang-switch", "aria-label": t("Language"), title: t("Language") },
    I18N.languages.map((l) => h("option", { value: l.code, selected: l.code === I18N.language, lang: l.code }, l.name)));
  sel.addEventListener("change", () => switchLanguage(sel.value));
  return sel;
}

async function switchLanguage(code) {
  if (!I18N.known(code)) return;
  I18N.remember(code);
  const [, cfg] = await Promise.all([I18N.load(code), fetchConfig(code)]);
  S.config = cfg;
  S.rulesNodes = null;
  const old = S.ws;
  S.ws = null;
  S.wsOpen = false;
  if (old) old.close();
  connect();
  render();
  document.getElementById("lang-switch")?.focus();
}

function fetchConfig(code) {
  return fetch("/api/config?lang=" + encodeURIComponent(code)).then((r) => r.json());
}

function rulesButton() {
  return h("button", { type: "button", class: "small rules-button", id: "rules-button", "data-key": "rules", onclick: () => openRules() }, t("Rules of the game"));
}

async function openRules() {
  if (!S.rulesNodes) S.rulesNodes = await I18N.rules();
  S.rulesPanel = true;
  render();
  document.getElementById("rules-close")?.focus();
}

function closeRules() {
  S.rulesPanel = false;
  render();
  document.getElementById("rules-button")?.focus();
}

// The players' rules (texts/rules*.md, rendered by the server) in a dialog.
function renderRulesPanel() {
  if (!S.rulesPanel || !S.rulesNodes) return null;
  return h("div", { class: "overlay rules-overlay", onclick: (e) => { if (e.target === e.currentTarget) closeRules(); } },
    h("section", { class: "rules-panel card", role: "dialog", "aria-modal": "true", "aria-label": t("Rules of the game"), lang: I18N.language },
      h("div", { class: "rules-head" },
        h("button", { type: "button", id: "rules-close", "data-key": "rules-close", onclick: closeRules }, t("Close"))),
      h("div", { class: "rules-text", id: "rules-text" }, S.rulesNodes.map((node) => node.cloneNode(true)))));
}

function pageTools() {
  return h("nav", { class: "page-tools" }, rulesButton(), languageSwitch());
}

// -- building the page -----------------------------------------------------

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") el.className = value;
    else if (name === "text") el.textContent = value;
    else if (name.startsWith("on")) el.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// Pip positions in a 3x3 grid, cells 1..9 read left to right, top to bottom.
const PIPS = {
  0: [],
  1: [5],
  2: [3, 7],
  3: [3, 5, 7],
  4: [1, 3, 7, 9],
  5: [1, 3, 5, 7, 9],
  6: [1, 3, 4, 6, 7, 9],
};
const PIPS_ACROSS = { ...PIPS, 2: [1, 9], 3: [1, 5, 9], 6: [1, 2, 3, 7, 8, 9] };

function half(n, across) {
  const el = h("span", { class: "half", dataset: { n: String(n) } });
  for (const cell of (across ? PIPS_ACROSS : PIPS)[n]) {
    el.append(h("span", { class: "pip c" + cell }));
  }
  return el;
}

// One domino face up: `across` lays it on its side (a-b read left to right).
function domino(a, b, opts = {}) {
  const across = !!opts.across;
  const cls = ["domino", across ? "across" : "upright"];
  if (a === b) cls.push("double");
  if (opts.small) cls.push("small");
  if (opts.extra) cls.push(opts.extra);
  const tag = opts.button ? "button" : "span";
  const attrs = {
    class: cls.join(" "),
    role: opts.button ? null : "img",
    "aria-label": opts.label || t("Domino {a} and {b}", { a, b }),
    title: opts.title || `${a}-${b}`,
  };
  if (opts.button) {
    attrs.type = "button";
    Object.assign(attrs, opts.button);
  }
  return h(tag, attrs, half(a, across), h("span", { class: "bar", "aria-hidden": "true" }), half(b, across));
}

function backTile(opts = {}) {
  const cls = ["domino", "back", opts.across ? "across" : "upright"];
  if (opts.small) cls.push("small");
  if (opts.locked) cls.push("locked");
  return h("span", { class: cls.join(" "), "aria-hidden": "true" },
    opts.locked ? h("span", { class: "lock" }, "🔒") : null);
}

function tileParts(text) {
  const [a, b] = text.split("-").map(Number);
  return [a, b];
}

// -- the connection ----------------------------------------------------------

function wsUrl() {
  return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws?lang=" + encodeURIComponent(I18N.language);
}

function connect() {
  const ws = new WebSocket(wsUrl());
  S.ws = ws;
  ws.addEventListener("open", () => {
    S.wsOpen = true;
    S.retry = 0;
    S.last = -1;
    const queued = S.queue.splice(0);
    if (S.code && !queued.some((m) => m.type === "join" || m.type === "create")) takeSeat();
    for (const msg of queued) ws.send(JSON.stringify(msg));
    render();
  });
  ws.addEventListener("message", (event) => {
    let msg;
    try {
      msg = JSON.parse(event.data);
    } catch (e) {
      return;
    }
    receive(msg);
  });
  ws.addEventListener("close", () => {
    if (S.ws !== ws) return;
    S.wsOpen = false;
    render();
    const wait = Math.min(8000, 300 * 2 ** S.retry);
    S.retry += 1;
    setTimeout(connect, wait);
  });
}

function send(msg) {
  if (S.ws && S.wsOpen) S.ws.send(JSON.stringify(msg));
  else S.queue.push(msg);
}

function seatKey(code) {
  return "passing-game:seat:" + code;
}

function savedSeat(code) {
  try {
    const data = JSON.parse(localStorage.getItem(seatKey(code)) || "null");
    if (data && typeof data.token === "string" && Number.isInteger(data.seat)) return data;
  } catch (e) {
    /* a damaged entry is ignored */
  }
  return null;
}

// On (re)connecting to a table: take the seat back with its token, or watch.
function takeSeat() {
  const saved = savedSeat(S.code);
  if (saved) send({ type: "resume", code: S.code, seat: saved.seat, token: saved.token });
  else if (S.watching) send({ type: "watch", code: S.code });
}

function receive(msg) {
  if (msg.type === "joined") {
    S.code = msg.table;
    S.seat = msg.seat;
    S.last = msg.state;
    if (msg.token) {
      localStorage.setItem(seatKey(msg.table), JSON.stringify({ seat: msg.seat, token: msg.token }));
    }
    S.watching = msg.seat === null;
    if (location.pathname !== msg.link) {
      history.pushState(null, "", msg.link);
      window.scrollTo(0, 0);
    }
    return;
  }
  if (typeof msg.state === "number" && S.last >= 0 && msg.state > S.last + (msg.type === "state" ? 1 : 0)) {
    // A message was missed: ask for the whole state again.
    send({ type: "sync" });
  }
  if (msg.type === "state") {
    if (S.last >= 0 && msg.state <= S.last && S.frame && S.frame.table === msg.table) {
      if (msg.state < S.last) return; // stale
    }
    S.last = msg.state;
    const before = S.frame;
    S.frame = msg;
    if (!before || before.round.number !== msg.round.number || before.game !== msg.game || msg.round.history.length !== before.round.history.length) {
      S.hint = null;
      S.choosing = null;
    }
    if (msg.summary && !seenSummary(msg)) S.summaryOpen = true;
    if (msg.over) S.summaryOpen = true;
    render();
    return;
  }
  if (msg.type === "hint") {
    S.hint = msg;
    render();
    return;
  }
  if (msg.type === "error") {
    if (msg.code === "bad-token" || msg.code === "no-such-table") {
      if (S.code) localStorage.removeItem(seatKey(S.code));
      if (msg.code === "no-such-table") {
        S.code = null;
        S.frame = null;
        history.pushState(null, "", "/");
      }
    }
    notify(msg.message, "error");
  }
}

function notify(text, kind) {
  S.notice = { text, kind };
  clearTimeout(S.noticeTimer);
  S.noticeTimer = setTimeout(() => {
    S.notice = null;
    render();
  }, 6000);
  render();
}

function seenKey(frame) {
  return `passing-game:seen:${frame.table}:${frame.game}`;
}

function seenSummary(frame) {
  return Number(localStorage.getItem(seenKey(frame)) || 0) >= frame.summary.round;
}

// -- the lobby ---------------------------------------------------------------

function savedName() {
  return localStorage.getItem("passing-game:name") || "";
}

function field(label, control, hint) {
  return h("label", { class: "field" }, h("span", { class: "label", text: label }), control,
    hint ? h("span", { class: "hint", text: hint }) : null);
}

function select(name, options, value) {
  return h("select", { name, id: "f-" + name },
    options.map(([v, label]) => h("option", { value: v, selected: v === value }, label)));
}

function ruleWord(kind, value) {
  return t(`rule.${kind}.${value}`);
}

function renderLobby() {
  const cfg = S.config;
  const form = h("form", { class: "card create", id: "create-form", onsubmit: (e) => { e.preventDefault(); createTable(); } });
  const players = Number(S.lobbyPlayers || 2);
  const partnerships = players === 4 && !!S.lobbyTeams;
  const seatRows = [];
  for (let seat = 0; seat < players; seat++) {
    if (seat === 0) {
      seatRows.push(h("li", { class: "seat-choice you" }, h("span", { class: "seat-no", text: t("Seat {n}", { n: seat }) }),
        h("span", { text: t("You") })));
      continue;
    }
    const chosen = (S.lobbySeats || {})[seat] || cfg.default_level;
    const options = [["person", t("A person (invite with the code)")]].concat(
      cfg.levels.map((l) => [l.name, t("Bot: {level}", { level: l.label })]));
    const sel = select("seat" + seat, options, chosen);
    sel.setAttribute("aria-label", t("Who sits in seat {n}", { n: seat }));
    sel.addEventListener("change", () => {
      S.lobbySeats = { ...(S.lobbySeats || {}), [seat]: sel.value };
    });
    const team = partnerships ? h("span", { class: "team", text: seat % 2 === 0 ? t("your partner") : t("opponent") }) : null;
    seatRows.push(h("li", { class: "seat-choice" }, h("span", { class: "seat-no", text: t("Seat {n}", { n: seat }) }), sel, team));
  }
  const playerRadios = h("div", { class: "segmented", role: "radiogroup", "aria-label": t("Players") },
    [2, 3, 4].map((n) => h("label", { class: n === players ? "on" : "" },
      h("input", { type: "radio", name: "players", value: n, checked: n === players, onchange: () => { S.lobbyPlayers = n; if (n !== 4) S.lobbyTeams = false; render(); } }),
      h("span", { text: String(n) }))));
  const teams = h("input", { type: "checkbox", name: "partnerships", id: "f-partnerships", checked: partnerships, disabled: players !== 4,
    onchange: (e) => { S.lobbyTeams = e.target.checked; render(); } });
  const preset = S.lobbyPreset || cfg.rules.target_presets[0];
  const presetTarget = (cfg.preset_targets[preset] || {})[String(players) + (partnerships ? "p" : "")] || cfg.targets[String(players)];
  const target = h("input", { type: "number", name: "target", id: "f-target", min: 1, max: 10000, inputmode: "numeric",
    placeholder: String(presetTarget), value: S.lobbyTarget || "", oninput: (e) => { S.lobbyTarget = e.target.value; } });
  const presetSel = select("target_preset", cfg.rules.target_presets.map((v) => [v, ruleWord("target_preset", v)]), preset);
  presetSel.addEventListener("change", () => { S.lobbyPreset = presetSel.value; render(); });
  const name = h("input", { type: "text", name: "name", id: "f-name", maxlength: cfg.max_name, required: true, autocomplete: "nickname", value: S.lobbyName ?? savedName(),
    oninput: (e) => { S.lobbyName = e.target.value; } });
  const rule = (kind, values, value) => {
    const sel = select(kind, values.map((v) => [v, ruleWord(kind, v)]), (S.lobbyRules || {})[kind] || value);
    sel.addEventListener("change", () => { S.lobbyRules = { ...(S.lobbyRules || {}), [kind]: sel.value }; });
    return sel;
  };
  form.append(
    h("h2", { text: t("New table") }),
    field(t("Your name"), name),
    h("fieldset", {}, h("legend", { text: t("Players") }), playerRadios,
      h("label", { class: "check" }, teams, h("span", { text: t("Partnerships (seats 0+2 against 1+3)") }))),
    h("fieldset", {}, h("legend", { text: t("Seats") }), h("ol", { class: "seat-list" }, seatRows)),
    h("details", { class: "rules-box", open: !!S.rulesOpen, ontoggle: (e) => { S.rulesOpen = e.target.open; } }, h("summary", { text: t("Rules and variants") }),
      field(t("Drawing"), rule("draw", cfg.rules.draw, "ends-turn")),
      field(t("Passing"), rule("passing", cfg.rules.passing, "free")),
      field(t("Scoring"), rule("scoring", cfg.rules.scoring, "literal")),
      field(t("Who leads each round"), rule("leader", cfg.rules.leader, "random")),
      field(t("Target score"), target, nt("Empty: {n} point", presetTarget)),
      field(t("Target preset"), presetSel, t("Used when no target score is given"))),
    h("button", { type: "submit", class: "primary big", id: "create-button", text: t("Create table") }),
  );

  const code = h("input", { type: "text", name: "code", id: "j-code", maxlength: 12, autocomplete: "off", autocapitalize: "characters",
    placeholder: "K7M2QX", value: S.joinCode || "", oninput: (e) => { S.joinCode = e.target.value; } });
  const joinName = h("input", { type: "text", name: "name", id: "j-name", maxlength: cfg.max_name, autocomplete: "nickname",
    value: S.lobbyName ?? savedName(), oninput: (e) => { S.lobbyName = e.target.value; } });
  const join = h("form", { class: "card join", onsubmit: (e) => { e.preventDefault(); joinTable(code.value, joinName.value); } },
    h("h2", { text: t("Join a friend's table") }),
    field(t("Table code"), code),
    field(t("Your name"), joinName),
    h("div", { class: "row" },
      h("button", { type: "submit", class: "primary", id: "join-button", text: t("Join") }),
      h("button", { type: "button", id: "watch-button", text: t("Watch"), onclick: () => watchTable(code.value) })));

  return h("main", { class: "lobby" },
    pageTools(),
    h("header", { class: "hero" },
      h("div", { class: "hero-tiles", "aria-hidden": "true" }, domino(6, 6), domino(3, 5, { across: true }), domino(1, 4)),
      h("h1", { text: t("The Passing Game") }),
      h("p", { class: "tagline", text: t("A domino game for 2 to 4 players. Play friends or bots in your browser.") })),
    h("div", { class: "lobby-cards" }, form, join));
}

function createTable() {
  const cfg = S.config;
  const name = (S.lobbyName ?? savedName()).trim();
  if (!name) {
    notify(t("Please give your name."), "error");
    document.getElementById("f-name")?.focus();
    return;
  }
  localStorage.setItem("passing-game:name", name);
  const players = Number(S.lobbyPlayers || 2);
  const seats = ["you"];
  for (let seat = 1; seat < players; seat++) seats.push((S.lobbySeats || {})[seat] || cfg.default_level);
  const rules = { players, partnerships: players === 4 && !!S.lobbyTeams, ...(S.lobbyRules || {}) };
  const target = parseInt(S.lobbyTarget || "", 10);
  if (Number.isInteger(target) && target > 0) rules.target = target;
  else if (S.lobbyPreset) rules.target_preset = S.lobbyPreset;
  S.watching = false;
  send({ type: "create", name, seats, rules });
}

function normCode(text) {
  return (text || "").toUpperCase().replace(/[\s-]/g, "");
}

function joinTable(code, name) {
  code = normCode(code);
  name = (name || "").trim();
  if (!name) {
    notify(t("Please give your name."), "error");
    return;
  }
  localStorage.setItem("passing-game:name", name);
  S.code = code;
  S.watching = false;
  const saved = savedSeat(code);
  if (saved) send({ type: "resume", code, seat: saved.seat, token: saved.token });
  else send({ type: "join", code, name });
}

function watchTable(code) {
  code = normCode(code);
  S.code = code;
  S.watching = true;
  send({ type: "watch", code });
}

// -- the table ---------------------------------------------------------------

function seatLabel(frame, seat) {
  return seat === frame.you ? t("You") : frame.seats[seat].name;
}

function playsFor(frame, tile) {
  return frame.round.legal.filter((m) => m.length > 1 && m.slice(1) === tile);
}

function clickTile(tile) {
  const frame = S.frame;
  const plays = playsFor(frame, tile);
  if (!plays.length) {
    notify(frame.round.to_move === frame.you ? t("{tile} does not fit either end.", { tile }) : t("Wait for your turn."), "info");
    return;
  }
  if (plays.length === 1) {
    send({ type: "play", move: plays[0] });
    S.choosing = null;
    return;
  }
  S.choosing = tile;
  render();
  document.querySelector(".end-choice button")?.focus();
}

function renderTrain(frame) {
  const r = frame.round;
  const box = h("div", { class: "train", id: "train", role: "list", "aria-label": t("The train") });
  if (!r.train.length) {
    box.append(h("p", { class: "empty-train", text: t("The train is empty: any tile may lead.") }));
    return box;
  }
  const last = r.last && r.last.index !== undefined ? r.last.index : -1;
  const tiles = r.train.map(([a, b], i) => {
    const isDouble = a === b;
    const label = t("Domino {a} and {b}", { a, b }) + (i === last ? ". " + t("Last tile played") : "");
    const tile = domino(a, b, { across: !isDouble, label, extra: i === last ? "last" : "" });
    tile.setAttribute("role", "listitem");
    return tile;
  });
  // The end marks stay with the end tiles when the train wraps.
  const left = h("span", { class: "end-mark left", "aria-label": t("Left end shows {n}", { n: r.ends[0] }) }, "◀ " + r.ends[0]);
  const right = h("span", { class: "end-mark right", "aria-label": t("Right end shows {n}", { n: r.ends[1] }) }, r.ends[1] + " ▶");
  if (tiles.length === 1) {
    box.append(h("span", { class: "keep" }, left, tiles[0], right));
  } else {
    box.append(h("span", { class: "keep" }, left, tiles[0]), ...tiles.slice(1, -1), h("span", { class: "keep" }, tiles[tiles.length - 1], right));
  }
  return box;
}

function renderSeat(frame, seat) {
  const s = frame.seats[seat];
  const r = frame.round;
  const toMove = r.to_move === seat && frame.started && !frame.over;
  const cls = ["seat-card"];
  if (toMove) cls.push("to-move");
  if (s.you) cls.push("you");
  const backs = h("div", { class: "backs", "aria-hidden": "true" });
  for (let i = 0; i < s.tiles; i++) backs.append(backTile({ small: true }));
  const status = s.kind === "bot" ? t("bot") : s.kind === "open" ? t("waiting to join") : s.connected ? t("online") : t("offline");
  const score = frame.scores[s.side];
  return h("section", { class: cls.join(" "), "aria-label": seatLabel(frame, seat), dataset: { seat: String(seat) } },
    h("div", { class: "seat-head" },
      h("span", { class: "dot " + (s.connected ? "on" : "off"), title: status, "aria-hidden": "true" }),
      h("span", { class: "seat-name", text: s.you ? t("{name} (you)", { name: s.name }) : s.name }),
      toMove ? h("span", { class: "turn-badge", text: t("to move") }) : null),
    h("div", { class: "seat-meta" },
      h("span", { class: "seat-no", text: t("Seat {n}", { n: seat }) }),
      h("span", { class: "count", text: nt("{n} tile", s.tiles) }),
      h("span", { class: "conn", text: status }),
      frame.rules.partnerships ? h("span", { class: "team", text: t("Team {a}+{b}", { a: s.side, b: s.side + 2 }) }) : null,
      h("span", { class: "score", text: t("{n} pts", { n: score }) })),
    s.you ? null : backs);
}

function renderBoneyard(frame) {
  const r = frame.round;
  const pile = h("div", { class: "pile", "aria-hidden": "true" });
  for (let i = 0; i < r.drawable; i++) pile.append(backTile({ small: true }));
  for (let i = 0; i < r.locked; i++) pile.append(backTile({ small: true, locked: true }));
  return h("div", { class: "boneyard", role: "group",
      "aria-label": nt("Boneyard: {n} tile, {d} can be drawn, {l} locked", r.boneyard, { d: r.drawable, l: r.locked }) },
    h("div", { class: "boneyard-title", text: t("Boneyard") }),
    pile,
    h("div", { class: "boneyard-note", text: t("{d} to draw · {l} locked", { d: r.drawable, l: r.locked }) }));
}

function renderHand(frame) {
  const r = frame.round;
  const myTurn = r.legal.length > 0;
  const hintTile = S.hint && S.hint.move.length > 1 ? S.hint.move.slice(1) : null;
  const hand = h("div", { class: "hand", role: "group", "aria-label": t("Your hand") });
  r.hand.forEach((tile) => {
    const [a, b] = tileParts(tile);
    const plays = playsFor(frame, tile);
    let where = "";
    if (plays.length === 2) where = t("fits both ends");
    else if (plays.length === 1) {
      where = !r.ends ? t("can lead") : plays[0][0] === "L" ? t("fits the left end") : t("fits the right end");
      if (r.ends && r.ends[0] === r.ends[1]) where = t("fits");
    }
    const cls = [plays.length ? "playable" : myTurn ? "dead" : "", hintTile === tile ? "hinted" : "", S.choosing === tile ? "choosing" : ""].join(" ");
    const label = t("Domino {a} and {b}", { a, b }) + (where ? ", " + where : "");
    hand.append(domino(a, b, { label, extra: cls, button: { onclick: () => clickTile(tile), dataset: { tile }, "data-key": "tile-" + tile } }));
  });
  if (!r.hand.length) hand.append(h("p", { class: "muted", text: t("No tiles in hand.") }));
  return hand;
}

function endChoice(frame) {
  if (!S.choosing) return null;
  const r = frame.round;
  const [a, b] = tileParts(S.choosing);
  return h("div", { class: "end-choice", role: "dialog", "aria-label": t("Which end?") },
    h("span", { text: t("Play {tile} on which end?", { tile: `${a}-${b}` }) }),
    h("button", { type: "button", class: "primary", "data-key": "end-left", onclick: () => { send({ type: "play", move: "L" + S.choosing }); S.choosing = null; render(); } },
      t("Left (shows {n})", { n: r.ends[0] })),
    h("button", { type: "button", class: "primary", "data-key": "end-right", onclick: () => { send({ type: "play", move: "R" + S.choosing }); S.choosing = null; render(); } },
      t("Right (shows {n})", { n: r.ends[1] })),
    h("button", { type: "button", "data-key": "end-cancel", onclick: () => { S.choosing = null; render(); } }, t("Cancel")));
}

function renderPad(frame) {
  const sides = frame.sides;
  const table = h("table", { class: "pad" },
    h("caption", { text: t("Score pad · first to {n}", { n: frame.target }) }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("Round") }), sides.map((s) => h("th", { scope: "col", text: s })))),
    h("tbody", {}, frame.pad.map((row) => h("tr", {},
      h("th", { scope: "row", text: String(row.round), title: row.reason_word }),
      row.points.map((p, i) => h("td", { class: row.winner === i ? "won" : "", text: p ? String(p) : "·" }))))),
    h("tfoot", {}, h("tr", {}, h("th", { scope: "row", text: t("Total") }), frame.scores.map((s) => h("td", { text: String(s) })))));
  return table;
}

function renderLog(frame) {
  const list = h("ol", { class: "log", id: "log", "aria-label": t("Moves this round") });
  for (const line of frame.round.log) list.append(h("li", { text: line }));
  if (!frame.round.log.length) list.append(h("li", { class: "muted", text: t("No moves yet this round.") }));
  return list;
}

function renderSummary(frame) {
  const sum = frame.summary;
  if (!S.summaryOpen || (!sum && !frame.over)) return null;
  const hands = sum ? sum.hands.map((hand, seat) => h("li", { class: "reveal" + (sum.pips[seat] === Math.min(...sum.pips) ? " low" : "") },
    h("span", { class: "who", text: seatLabel(frame, seat) }),
    h("span", { class: "tiles" }, hand.length ? hand.map((tile) => { const [a, b] = tileParts(tile); return domino(a, b, { small: true }); }) : h("em", { text: t("empty") })),
    h("span", { class: "pips", text: nt("{n} pip", sum.pips[seat]) }))) : [];
  const close = () => {
    if (sum) localStorage.setItem(seenKey(frame), String(sum.round));
    S.summaryOpen = false;
    send({ type: "continue" });
    render();
  };
  const buttons = [];
  if (frame.over) {
    if (!frame.spectator) buttons.push(h("button", { type: "button", class: "primary", id: "rematch-button", "data-key": "rematch", onclick: () => { S.summaryOpen = false; send({ type: "rematch" }); } }, t("Rematch")));
    buttons.push(h("a", { class: "button", href: `/api/tables/${frame.table}/record?game=${frame.game}`, download: "" }, t("Download the record")));
    buttons.push(h("a", { class: "button", href: "/" }, t("Back to the lobby")));
    buttons.push(h("button", { type: "button", "data-key": "close-summary", onclick: () => { S.summaryOpen = false; render(); } }, t("Close")));
  } else {
    buttons.push(h("button", { type: "button", class: "primary", id: "continue-button", "data-key": "continue", onclick: close }, t("Next round")));
  }
  return h("div", { class: "overlay" },
    h("section", { class: "summary card", role: "dialog", "aria-modal": "true", "aria-labelledby": "summary-title" },
      h("h2", { id: "summary-title", text: frame.over ? frame.status : t("Round {n} is over", { n: sum.round }) }),
      sum ? h("p", { class: "reason", text: sum.reason_text }) : null,
      sum && sum.train.length ? h("div", { class: "final-train", role: "img", "aria-label": t("The train") },
        sum.train.map(([a, b]) => domino(a, b, { across: a !== b, small: true }))) : null,
      sum ? h("h3", { text: t("Hands revealed") }) : null,
      sum ? h("ul", { class: "reveals" }, hands) : null,
      sum ? h("p", { class: "locked-line" }, h("span", { text: t("Locked in the boneyard, never drawn:") + " " }),
        sum.locked.map((tile) => { const [a, b] = tileParts(tile); return domino(a, b, { small: true, across: true }); })) : null,
      sum ? h("div", { class: "scoring" }, sum.lines.map((line) => h("p", { text: line }))) : null,
      renderPad(frame),
      h("div", { class: "row" }, buttons)));
}

function renderTable() {
  const frame = S.frame;
  const r = frame.round;
  const order = [];
  const me = frame.you;
  const n = frame.seats.length;
  for (let i = 1; i <= n; i++) {
    const seat = me === null ? i - 1 : (me + i) % n;
    if (seat !== me) order.push(seat);
  }
  const link = location.origin + "/t/" + frame.table;
  const top = h("header", { class: "topbar" },
    h("a", { href: "/", class: "brand", text: t("The Passing Game") }),
    h("span", { class: "code" }, h("span", { text: t("Table") + " " }), h("strong", { id: "table-code", text: frame.table })),
    h("button", { type: "button", class: "small", "data-key": "copy", onclick: () => copyLink(link) }, t("Copy link")),
    h("span", { class: "net " + (S.wsOpen ? "on" : "off"), text: S.wsOpen ? t("connected") : t("reconnecting…") }),
    h("span", { class: "round-no", text: t("Round {n}", { n: r.number }) }),
    pageTools());
  const status = h("p", { class: "status" + (r.legal.length ? " mine" : ""), id: "status", role: "status", "aria-live": "polite", text: frame.status });
  const opponents = h("div", { class: "opponents" }, order.map((seat) => renderSeat(frame, seat)));
  const board = h("div", { class: "board" }, renderTrain(frame), renderBoneyard(frame));
  let mine = null;
  if (me !== null) {
    const hintText = S.hint ? h("p", { class: "hint-text", role: "status" }, h("strong", { text: S.hint.text + " " }), S.hint.reason || "") : null;
    mine = h("section", { class: "my-area", "aria-label": t("Your hand") },
      renderSeat(frame, me),
      endChoice(frame),
      renderHand(frame),
      h("div", { class: "actions" },
        h("button", { type: "button", id: "draw-button", "data-key": "draw", disabled: !r.can_draw, onclick: () => send({ type: "draw" }), title: t("Shortcut: D") }, t("Draw")),
        h("button", { type: "button", id: "pass-button", "data-key": "pass", disabled: !r.can_pass, onclick: () => send({ type: "pass" }), title: t("Shortcut: P") }, t("Pass")),
        h("button", { type: "button", id: "hint-button", "data-key": "hint", disabled: !r.legal.length, onclick: () => send({ type: "hint" }), title: t("Shortcut: H") }, t("Hint")),
        h("span", { class: "pips-mine", text: t("Your pips: {n}", { n: r.pips }) })),
      hintText);
  } else {
    mine = h("p", { class: "watching", text: t("You are watching this table. Hands stay hidden.") });
  }
  let invite = null;
  if (!frame.started) {
    invite = h("div", { class: "invite card" },
      h("p", { text: t("Share this code or link with your friends:") }),
      h("p", { class: "big-code", text: frame.table }),
      h("p", {}, h("code", { text: link })),
      h("button", { type: "button", class: "primary", onclick: () => copyLink(link) }, t("Copy link")));
  }
  const side = h("aside", { class: "side" },
    renderPad(frame),
    frame.summary && !S.summaryOpen ? h("button", { type: "button", class: "small", "data-key": "show-summary", onclick: () => { S.summaryOpen = true; render(); } }, t("Last round's result")) : null,
    h("h2", { text: t("Moves") }),
    renderLog(frame));
  return h("div", { class: "table-page" },
    top,
    h("main", { class: "table-grid" },
      h("div", { class: "play" }, opponents, status, invite, board, mine),
      side),
    renderSummary(frame));
}

function renderJoinPanel() {
  const name = h("input", { type: "text", id: "jp-name", maxlength: S.config.max_name, value: S.lobbyName ?? savedName(), oninput: (e) => { S.lobbyName = e.target.value; } });
  return h("main", { class: "lobby" },
    pageTools(),
    h("header", { class: "hero" }, h("h1", { text: t("The Passing Game") }),
      h("p", { class: "tagline", text: t("Table {code}", { code: S.code }) })),
    h("form", { class: "card join", onsubmit: (e) => { e.preventDefault(); joinTable(S.code, name.value); } },
      h("h2", { text: t("Take a seat") }),
      field(t("Your name"), name),
      h("div", { class: "row" },
        h("button", { type: "submit", class: "primary", id: "join-button", text: t("Join") }),
        h("button", { type: "button", id: "watch-button", text: t("Watch"), onclick: () => watchTable(S.code) }))));
}

async function copyLink(link) {
  try {
    await navigator.clipboard.writeText(link);
    notify(t("Link copied."), "info");
  } catch (e) {
    notify(link, "info");
  }
}

// -- drawing everything -----------------------------------------------------------

function render() {
  const root = document.getElementById("app");
  if (!S.config) return;
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
  const logEl = document.getElementById("log");
  const atBottom = !logEl || logEl.scrollTop + logEl.clientHeight >= logEl.scrollHeight - 4;
  let page;
  if (S.frame && S.code === S.frame.table) page = renderTable();
  else if (S.code && !savedSeat(S.code) && !S.watching) page = renderJoinPanel();
  else if (S.code) page = h("main", { class: "lobby" }, h("p", { class: "loading", text: t("Connecting…") }));
  else page = renderLobby();
  const notice = S.notice ? h("div", { class: "notice " + S.notice.kind, role: "alert", text: S.notice.text }) : null;
  root.replaceChildren(page, notice || "", renderRulesPanel() || "");
  if (focused) root.querySelector(`[data-key="${CSS.escape(focused)}"]`)?.focus();
  const log = document.getElementById("log");
  if (log && atBottom) log.scrollTop = log.scrollHeight;
  document.title = S.frame && S.code === S.frame.table ? `${S.frame.status} · ${t("The Passing Game")}` : t("The Passing Game");
}

function onKey(event) {
  if (event.target && ["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName)) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (S.rulesPanel) {
    if (event.key === "Escape") closeRules();
    return;
  }
  const frame = S.frame;
  if (!frame || S.code !== frame.table) return;
  const key = event.key.toLowerCase();
  if (key === "escape") {
    if (S.choosing) { S.choosing = null; render(); }
    else if (S.summaryOpen) document.querySelector('[data-key="continue"], [data-key="close-summary"]')?.click();
    return;
  }
  if (S.summaryOpen) return;
  if (key === "d" && frame.round.can_draw) send({ type: "draw" });
  else if (key === "p" && frame.round.can_pass) send({ type: "pass" });
  else if (key === "h" && frame.round.legal.length) send({ type: "hint" });
  else if ((key === "arrowleft" || key === "arrowright") && event.target.closest && event.target.closest(".hand")) {
    const tiles = [...document.querySelectorAll(".hand .domino")];
    const at = tiles.indexOf(event.target);
    const next = tiles[(at + (key === "arrowright" ? 1 : -1) + tiles.length) % tiles.length];
    next?.focus();
    event.preventDefault();
  }
}

function route() {
  const match = location.pathname.match(/^\/t\/([A-Za-z0-9]+)\/?$/);
  S.code = match ? normCode(match[1]) : null;
  if (!S.code) {
    S.frame = null;
  } else if (S.wsOpen) {
    takeSeat();
  }
  render();
}

async function start() {
  // No language asked for or remembered: the server follows Accept-Language.
  const cat = await I18N.load(I18N.wanted());
  S.config = await fetchConfig(cat.language);
  document.addEventListener("keydown", onKey);
  window.addEventListener("popstate", route);
  route();
  connect();
}

start();
