// The Passing Game in the browser. No framework, no build step.
//
// Everything a player reads comes from /api/i18n (made by the server's `_`)
// or from the server's frames. User text (names) is only ever put on the
// page with textContent: no script of the page parses text as HTML.
//
// The page's scripts, loaded in this order (index.html), share one global
// scope: i18n.js (t, nt's catalog), sound.js (Sound), motion.js (Motion),
// clock.js (Countdown), dom.js (h, icons, dominoes, tileText), lobby.js
// (the lobby and the join panel), dialogs.js (confirm steps, the creator's
// seat options, the phone's menu) and this file: the connection, the
// state S, what just happened, the table, render() and the keys.
"use strict";

const S = {
  config: null,
  ws: null,
  wsOpen: false,
  live: false, // a state frame came since the socket (re)opened: the page may act
  retry: 0,
  retryTimer: null,
  frame: null,
  last: -1, // the state counter of the last frame applied
  code: null,
  seat: null,
  watching: false,
  invite: null, // ?invite=TOKEN: the join panel takes that seat
  inviteSeat: null, // ?seat=N (1-based) beside an invitation, for the join panel's words
  choosing: null, // a tile waiting for the player to pick an end
  hint: null,
  notice: null,
  noticeTimer: null,
  queue: [], // only create/join/resume/watch wait for the socket; moves never do
  summaryOpen: false,
  confirm: null, // a question before an action: {title, text, yes, action}
  seatTools: null, // the creator's dialog for an absent person's seat: {seat, link}
  flashes: {}, // seat -> {kind, at}: a pass or a draw shown on the seat for a moment
  fly: null, // the tile to fly into the train after the next render: {seat, tile}
  playedFrom: null, // where our own tile was when it was clicked: {tile, rect}
  nudgeAt: 0, // when a click was refused offline (the banner says so again)
  menuOpen: false, // the phone's menu of the top bar's tools
  rulesPanel: false,
  rulesNodes: null, // the rules panel's content, once fetched
};

// -- texts ---------------------------------------------------------------

// Texts come from the server's catalogs through static/i18n.js (loaded first).
function t(key, params) {
  return I18N.t(key, params);
}

function nt(key, n, params) {
  return I18N.nt(key, n, params);
}

// Seats are 0-based in the protocol and 1-based for people.
function seatNo(seat) {
  return t("Seat {n}", { n: seat + 1 });
}

// The language switch (lobby and table): remembered, and the socket reconnects
// so that the server words its frames in the new language too.
function languageSwitch(prefix = "") {
  const sel = h("select", { id: prefix + "lang-switch", class: "lang-switch", "aria-label": t("Language"), title: t("Language") },
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
  S.live = false;
  if (old) old.close();
  connect();
  render();
  document.getElementById("lang-switch")?.focus();
}

function fetchConfig(code) {
  return fetch("/api/config?lang=" + encodeURIComponent(code)).then((r) => r.json());
}

function rulesButton(prefix = "") {
  return toolButton({ id: prefix + "rules-button", key: prefix + "rules", icon: "help", label: t("Rules of the game"), onclick: () => openRules() });
}

async function openRules() {
  if (!S.rulesNodes) S.rulesNodes = await I18N.rules();
  S.menuOpen = false;
  S.rulesPanel = true;
  render();
  document.getElementById("rules-close")?.focus();
}

function closeRules() {
  S.rulesPanel = false;
  render();
  const button = document.getElementById("rules-button");
  (button && button.offsetParent ? button : document.getElementById("menu-button"))?.focus();
}

// The players' rules (texts/rules*.md, rendered by the server) in a dialog.
function renderRulesPanel() {
  if (!S.rulesPanel || !S.rulesNodes) return null;
  return h("div", { class: "overlay rules-overlay", onclick: (e) => { if (e.target === e.currentTarget) closeRules(); } },
    h("section", { class: "dialog rules-panel card", role: "dialog", "aria-modal": "true", "aria-label": t("Rules of the game"), lang: I18N.language },
      h("div", { class: "dialog-body rules-text", id: "rules-text" }, S.rulesNodes.map((node) => node.cloneNode(true))),
      h("div", { class: "dialog-buttons" },
        h("button", { type: "button", id: "rules-close", "data-key": "rules-close", onclick: closeRules }, t("Close")))));
}

// A button of the tool bars: an icon and a word; on a phone the icon alone (the word stays its name).
function toolButton({ id, key, icon: name, label, onclick, pressed, disabled, title, iconOnly }) {
  return h("button", { type: "button", class: "small tool" + (iconOnly ? " icon-only" : ""), id, "data-key": key, title: title || label,
      "aria-pressed": pressed === undefined ? null : String(!!pressed), disabled, onclick },
    icon(name), h("span", { class: "word", text: label }));
}

function pageTools(extra) {
  return h("nav", { class: "page-tools" }, extra || null, accountButton(), rulesButton(), languageSwitch());
}

// -- the connection ----------------------------------------------------------

function wsUrl() {
  return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws?lang=" + encodeURIComponent(I18N.language);
}

function connect() {
  clearTimeout(S.retryTimer);
  S.retryTimer = null;
  const ws = new WebSocket(wsUrl());
  S.ws = ws;
  ws.addEventListener("open", () => {
    if (S.ws !== ws) return;
    S.wsOpen = true;
    S.retry = 0;
    S.last = -1;
    const queued = S.queue.splice(0);
    if (S.code && !queued.some((m) => m.type === "join" || m.type === "create" || m.type === "resume" || m.type === "watch")) takeSeat();
    Quick.reopened();
    for (const msg of queued) ws.send(JSON.stringify(msg));
    render();
  });
  ws.addEventListener("message", (event) => {
    if (S.ws !== ws) return;
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
    S.live = false;
    S.choosing = null;
    render();
    const wait = Math.min(8000, 300 * 2 ** S.retry);
    S.retry += 1;
    S.retryTimer = setTimeout(connect, wait);
  });
}

// "Try again now" on the offline banner: no waiting for the next attempt.
function reconnectNow() {
  if (S.wsOpen) return;
  const old = S.ws;
  S.ws = null;
  if (old) old.close();
  connect();
}

// Intents that only find a table wait for the socket (the latest one); nothing else ever waits.
const SEATING = new Set(["create", "join", "resume", "watch"]);

function send(msg) {
  if (S.ws && S.wsOpen) {
    S.ws.send(JSON.stringify(msg));
    return true;
  }
  if (SEATING.has(msg.type)) {
    S.queue = S.queue.filter((m) => !SEATING.has(m.type)).concat([msg]);
    return true;
  }
  return false;
}

// Whether the page may act at its table now: connected, and the table's state is fresh.
function online() {
  return S.wsOpen && S.live;
}

// A game action (play, draw, pass, hint, continue, rematch, leave, ...): sent now or not at all.
function act(msg) {
  if (!online()) {
    refused();
    return false;
  }
  return send(msg);
}

// A click while offline did nothing: say so, and show the banner again.
function refused() {
  S.nudgeAt = performance.now();
  notify(t("Not sent: you are offline."), "error");
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
  if (S.invite) return; // the join panel takes the invited seat
  const saved = savedSeat(S.code);
  if (saved) send({ type: "resume", code: S.code, seat: saved.seat, token: saved.token });
  else if (accountSeat(S.code) !== null) send({ type: "resume", code: S.code, seat: accountSeat(S.code) }); // the account's seat (account.js)
  else if (S.watching) send({ type: "watch", code: S.code });
}

function receive(msg) {
  if (Quick.receive(msg)) return; // quick play's own frames (quickplay.js)
  if (msg.type === "joined") {
    S.code = msg.table;
    S.seat = msg.seat;
    S.last = msg.state;
    if (msg.token) {
      localStorage.setItem(seatKey(msg.table), JSON.stringify({ seat: msg.seat, token: msg.token }));
    }
    S.watching = msg.seat === null;
    if (S.invite) {
      // The invitation is used up: the address loses ?invite (the seat token is kept as always).
      S.invite = null;
      S.inviteSeat = null;
      history.replaceState(null, "", msg.link);
    } else if (location.pathname !== msg.link) {
      history.pushState(null, "", msg.link);
      window.scrollTo(0, 0);
    }
    return;
  }
  if (msg.type === "state" && S.code !== msg.table) return; // a table this page has left
  if (typeof msg.state === "number" && S.last >= 0 && msg.state > S.last + (msg.type === "state" ? 1 : 0)) {
    // A message was missed: ask for the whole state again.
    send({ type: "sync" });
  }
  if (msg.type === "state") {
    if (S.last >= 0 && msg.state <= S.last && S.frame && S.frame.table === msg.table) {
      if (msg.state < S.last) return; // stale
    }
    S.last = msg.state;
    S.live = true;
    msg.at = performance.now(); // countdowns run from the frame's arrival
    const before = S.frame;
    S.frame = msg;
    if (!before || before.round.number !== msg.round.number || before.game !== msg.game || msg.round.history.length !== before.round.history.length) {
      S.hint = null;
      S.choosing = null;
      if (S.confirm && S.confirm.kind === "pass") S.confirm = null;
    }
    if (before && before.table === msg.table && before.game === msg.game && !msg.over
        && before.paused && before.waiting.includes(before.you) && !msg.paused
        && msg.summary && before.summary && msg.summary.round === before.summary.round) {
      // The summary's countdown ended while this person read it: the table
      // went on without them, so the summary closes (its result stays one
      // click away) and the page says why.
      localStorage.setItem(seenKey(msg), String(msg.summary.round));
      if (S.summaryOpen) {
        S.summaryOpen = false;
        notify(t("The next round has started."), "info");
      }
    }
    if (msg.summary && !seenSummary(msg)) S.summaryOpen = true;
    if (msg.over) S.summaryOpen = true;
    announce(before, msg);
    render();
    afterRender();
    return;
  }
  if (msg.type === "hint") {
    S.hint = msg;
    render();
    return;
  }
  if (msg.type === "left") {
    // This seat left the table (here or in another tab): back to the lobby.
    if (S.code === msg.table) {
      goToLobby();
      notify(t("You left the table."), "info");
    }
    return;
  }
  if (msg.type === "invite") {
    if (S.seatTools && S.seatTools.seat === msg.seat) S.seatTools = { ...S.seatTools, link: msg.link };
    render();
    document.getElementById("invite-copy")?.focus();
    return;
  }
  if (msg.type === "error") {
    if (msg.code === "bad-token" || msg.code === "no-such-table") {
      if (S.code) localStorage.removeItem(seatKey(S.code));
      // The seat is no longer this page's (its token was revoked): the join panel, not a stale table.
      if (msg.code === "bad-token" && !S.watching) {
        S.frame = null;
        S.live = false;
      }
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

// -- what just happened: moves, turns, a round's end ---------------------------

const FLASH_MS = 1800;

function myTurn(frame) {
  return !!frame && frame.you !== null && frame.round.legal.length > 0;
}

// The moves `after` holds that `before` did not (same table and game; a new round's are all new).
function newMoves(before, after) {
  if (!before || before.table !== after.table || before.game !== after.game) return [];
  const was = before.round.history;
  const now = after.round.history;
  if (before.round.number !== after.round.number) return now.slice();
  return now.length > was.length ? now.slice(was.length) : [];
}

// Marks every new move on its seat, plays the sounds, and tells a person away from the tab.
function announce(before, after) {
  const moves = newMoves(before, after);
  const now = performance.now();
  for (const turn of moves) {
    if (turn.move === "pass" || turn.move === "draw") {
      S.flashes[turn.seat] = { kind: turn.move, at: now };
      setTimeout(() => unflash(turn.seat, now), FLASH_MS);
    }
  }
  const lastTurn = moves[moves.length - 1];
  if (lastTurn && isPlay(lastTurn.move) && after.round.last && after.round.last.index !== undefined) {
    S.fly = { seat: lastTurn.seat, tile: lastTurn.move.slice(1) };
  }
  const roundOver = !!after.summary && !!before && (!before.summary || before.summary.round !== after.summary.round || before.game !== after.game);
  const turnCame = myTurn(after) && !myTurn(before) && !!before;
  if (roundOver || (after.over && before && !before.over)) Sound.play("end");
  else if (lastTurn) Sound.play(lastTurn.move === "pass" ? "pass" : lastTurn.move === "draw" ? "draw" : "move");
  if (turnCame) {
    setTimeout(() => Sound.play("turn"), lastTurn ? 260 : 0);
    if (document.hidden) tellAway(after);
  }
}

function unflash(seat, at) {
  const flash = S.flashes[seat];
  if (!flash || flash.at !== at) return;
  delete S.flashes[seat];
  document.querySelectorAll(`.move-badge[data-seat="${seat}"]`).forEach((el) => el.remove());
}

// After a render: the played tile flies from its seat (or from the hand) into the train.
function afterRender() {
  const fly = S.fly;
  S.fly = null;
  const frame = S.frame;
  if (!fly || !frame) return;
  const target = document.querySelector(".train .domino.last");
  if (!target) return;
  let from = null;
  if (fly.seat === frame.you) {
    if (S.playedFrom && S.playedFrom.tile === fly.tile) from = S.playedFrom.rect;
    else from = document.querySelector(".hand")?.getBoundingClientRect() || null;
  } else {
    from = document.querySelector(`.seat-card[data-seat="${fly.seat}"]`)?.getBoundingClientRect() || null;
  }
  S.playedFrom = null;
  const anim = Motion.flyFrom(target, from);
  if (anim) {
    target.classList.add("flying");
    anim.finished.then(() => target.classList.remove("flying"), () => {});
  }
}

// -- a person away from the tab: the title and, if they asked for it, a notification ------

const NOTIFY_KEY = "passing-game:notify";

function notifyWanted() {
  try {
    return localStorage.getItem(NOTIFY_KEY) === "on" && "Notification" in window && Notification.permission === "granted";
  } catch (e) {
    return false;
  }
}

async function toggleNotify() {
  if (!("Notification" in window)) return;
  if (notifyWanted()) {
    localStorage.setItem(NOTIFY_KEY, "off");
  } else {
    let permission = Notification.permission;
    if (permission === "default") permission = await Notification.requestPermission();
    localStorage.setItem(NOTIFY_KEY, permission === "granted" ? "on" : "off");
    if (permission !== "granted") notify(t("Notifications are blocked in this browser."), "info");
  }
  render();
}

function tellAway(frame) {
  updateTitle();
  if (!notifyWanted()) return;
  try {
    const note = new Notification(t("Your turn"), { body: t("Table {code}", { code: frame.table }), tag: "passing-game-turn", icon: "/static/icon.svg" });
    note.onclick = () => { window.focus(); note.close(); };
  } catch (e) {
    /* some browsers only notify from a service worker: the title still says it */
  }
}

function updateTitle() {
  const frame = S.frame;
  const game = t("The Passing Game");
  if (!frame || S.code !== frame.table) document.title = game;
  else if (document.hidden && myTurn(frame)) document.title = `● ${t("Your turn")} · ${game}`;
  else document.title = frame.status ? `${frame.status} · ${game}` : game;
}

// -- the table ---------------------------------------------------------------

function seatLabel(frame, seat) {
  return seat === frame.you ? t("You") : frame.seats[seat].name;
}

// A seat named for people: the name and the seat number as two separate texts.
function whoParts(frame, seat, cls = "who") {
  return h("span", { class: cls },
    h("span", { class: "name", text: seatLabel(frame, seat) }),
    h("span", { class: "seat-no", text: seatNo(seat) }));
}

// "L3-5" and "R3-5" play a tile; "draw" and "pass" do not.
function isPlay(move) {
  return move[0] === "L" || move[0] === "R";
}

function playsFor(frame, tile) {
  return frame.round.legal.filter((m) => isPlay(m) && m.slice(1) === tile);
}

function clickTile(tile, el) {
  if (!online()) {
    refused();
    return;
  }
  const frame = S.frame;
  const plays = playsFor(frame, tile);
  if (!plays.length) {
    notify(frame.round.to_move === frame.you ? t("{tile} does not fit either end.", { tile: tileOf(tile) }) : t("Wait for your turn."), "info");
    return;
  }
  S.playedFrom = { tile, rect: el ? el.getBoundingClientRect() : null };
  if (plays.length === 1) {
    act({ type: "play", move: plays[0] });
    S.choosing = null;
    return;
  }
  S.choosing = tile;
  render();
  document.querySelector(".end-choice button")?.focus();
}

function playEnd(end) {
  const tile = S.choosing;
  if (!tile) return;
  if (act({ type: "play", move: end + tile })) {
    const el = document.querySelector(`.hand [data-tile="${tile}"]`);
    if (el) S.playedFrom = { tile, rect: el.getBoundingClientRect() };
    S.choosing = null;
  }
  render();
}

function doPass() {
  const r = S.frame.round;
  if (!online()) return refused();
  if (r.pass_ends_round) {
    openConfirm({
      kind: "pass",
      title: t("Passing now ends the round"),
      text: t("The round ends and every hand is counted as it is now."),
      yes: t("Pass anyway"),
      action: () => act({ type: "pass" }),
    });
    return;
  }
  act({ type: "pass" });
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
    const label = tileText(a, b) + (i === last ? ". " + t("Last tile played") : "");
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

// A move as a short phrase for the seat's last-move line and the strip ("pass", "[3|5] on the left").
function moveWords(frame, turn) {
  const move = turn.move;
  if (move === "pass") return t("last.pass");
  if (move === "draw") return turn.drawn ? t("last.drawn", { tile: tileOf(turn.drawn) }) : t("last.draw");
  const tile = tileOf(move.slice(1));
  const firstPlay = frame.round.history.find((x) => isPlay(x.move));
  if (firstPlay === turn) return t("last.lead", { tile });
  return move[0] === "L" ? t("last.left", { tile }) : t("last.right", { tile });
}

// "(auto-played)" when the clock moved for the seat, "(stand-in)" when a stand-in bot did.
function autoMark(turn) {
  if (turn.auto === "timeout") return h("span", { class: "auto", text: t("(auto-played)") });
  if (turn.auto === "stand-in") return h("span", { class: "auto", text: t("(stand-in)") });
  return null;
}

function lastTurnOf(frame, seat) {
  const history = frame.round.history;
  for (let i = history.length - 1; i >= 0; i--) if (history[i].seat === seat) return history[i];
  return null;
}

// A seat's clock: a countdown ticking on the page (clock.js) while it runs, its bank otherwise.
function seatClock(frame, seat) {
  const clock = frame.clock;
  if (!clock) return null;
  if (clock.seat === seat && clock.remaining_ms !== null && clock.remaining_ms !== undefined) {
    const at = frame.at || performance.now();
    return h("span", { class: "clock running", role: "timer",
        dataset: { countdown: "clock", end: String(at + clock.remaining_ms), moveEnd: String(at + (clock.move_ms || 0)) } },
      icon("clock"), h("span", { class: "time" }),
      h("span", { class: "bank-left", "aria-hidden": "true" }), h("span", { class: "bank-word", text: t("bank") }));
  }
  const bank = (clock.banks || [])[seat];
  if (bank === undefined || bank === null) return null;
  return h("span", { class: "clock idle", title: t("Time bank"), "aria-label": nt("{n} second left in the bank", Math.ceil(bank)) },
    icon("clock"), h("span", { class: "time", text: Countdown.mmss(bank * 1000) }));
}

function seatStatus(s) {
  if (s.you && !S.wsOpen) return t("offline");
  if (s.standin) return t("Stand-in bot playing");
  if (s.away === "left") return t("left the table");
  if (s.away === "timeout") return t("ran out of time");
  if (s.away === "invited") return t("invited, not here yet");
  if (s.away === "offline") return t("offline");
  if (s.kind === "bot") return t("bot");
  if (s.kind === "open") return t("waiting to join");
  return s.connected ? t("online") : t("offline");
}

// The creator may invite someone or hand the seat to a bot when its person is away or
// offline; an open seat nobody took may go to a bot as well.
function personAbsent(frame, seat) {
  const s = frame.seats[seat];
  if (seat === frame.you || frame.over) return false;
  if (s.kind === "bot" && !s.standin) return false;
  if (s.kind === "open") return true;
  return !!s.away || !!s.standin || !s.connected;
}

function renderSeat(frame, seat) {
  const s = frame.seats[seat];
  const r = frame.round;
  const toMove = r.to_move === seat && frame.started && !frame.over;
  const cls = ["seat-card"];
  if (toMove) cls.push("to-move");
  if (s.you) cls.push("you");
  if (s.standin) cls.push("standin");
  if (s.away) cls.push("away");
  const backs = h("div", { class: "backs", "aria-hidden": "true" });
  for (let i = 0; i < s.tiles; i++) backs.append(backTile({ small: true }));
  const status = seatStatus(s);
  const score = frame.scores[s.side];
  const last = lastTurnOf(frame, seat);
  const flash = S.flashes[seat];
  let badge = null;
  if (flash && seat !== frame.you) {
    badge = Motion.resume(h("span", { class: "move-badge " + flash.kind, "aria-hidden": "true", dataset: { seat: String(seat) },
      text: flash.kind === "pass" ? t("Passes") : t("Draws a tile") }), performance.now() - flash.at);
  }
  const tools = frame.creator && personAbsent(frame, seat)
    ? h("button", { type: "button", class: "small seat-tools", "data-key": "seat-tools-" + seat, onclick: () => openSeatTools(seat) }, t("Seat options"))
    : null;
  return h("section", { class: cls.join(" "), "aria-label": seatLabel(frame, seat) + ", " + seatNo(seat), dataset: { seat: String(seat) } },
    h("div", { class: "seat-head" },
      h("span", { class: "dot " + (s.connected && !s.away && (!s.you || S.wsOpen) ? "on" : "off"), title: status, "aria-hidden": "true" }),
      h("span", { class: "seat-name", text: s.you ? t("{name} (you)", { name: s.name }) : s.name }),
      toMove ? h("span", { class: "turn-badge", text: t("to move") }) : null,
      seatClock(frame, seat)),
    h("div", { class: "seat-meta" },
      h("span", { class: "seat-no", text: seatNo(seat) }),
      h("span", { class: "count", text: nt("{n} tile", s.tiles) }),
      s.standin ? null : h("span", { class: "conn", text: status }),
      frame.rules.partnerships ? h("span", { class: "team", text: t("Team {a}+{b}", { a: s.side + 1, b: s.side + 3 }) }) : null,
      h("span", { class: "score", text: t("{n} pts", { n: score }) })),
    s.standin ? h("div", { class: "standin-note" }, icon("robot"), h("span", { text: t("Stand-in bot playing") })) : null,
    s.you && (s.standin || s.away) ? h("button", { type: "button", class: "primary small", id: "back-button", "data-key": "back",
      onclick: () => act({ type: "back" }) }, t("Take my seat back")) : null,
    h("div", { class: "last-move" + (last ? "" : " none") },
      h("span", { class: "label", text: t("Last move:") }),
      h("span", { class: "what", text: last ? moveWords(frame, last) : "–" }),
      last ? autoMark(last) : null),
    s.you ? null : backs,
    tools,
    badge);
}

// The last few moves of the round, newest last, just above the hand: readable on a phone too.
function renderRecent(frame) {
  const history = frame.round.history;
  if (!history.length) return null;
  const recent = history.slice(-Math.min(3, frame.seats.length));
  return h("ol", { class: "recent", "aria-label": t("Last moves") },
    recent.map((turn, i) => h("li", { class: "recent-move m-" + (isPlay(turn.move) ? "play" : turn.move) + (i === recent.length - 1 ? " newest" : "") },
      whoParts(frame, turn.seat),
      h("span", { class: "what", text: moveWords(frame, turn) }),
      autoMark(turn))));
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
  const isMine = r.legal.length > 0;
  const live = online();
  const hintTile = S.hint && isPlay(S.hint.move) ? S.hint.move.slice(1) : null;
  const hand = h("div", { class: "hand" + (live ? "" : " offline"), role: "group", "aria-label": t("Your hand") });
  r.hand.forEach((tile) => {
    const [a, b] = tileParts(tile);
    const plays = playsFor(frame, tile);
    let where = "";
    if (plays.length === 2) where = t("fits both ends");
    else if (plays.length === 1) {
      where = !r.ends ? t("can lead") : plays[0][0] === "L" ? t("fits the left end") : t("fits the right end");
      if (r.ends && r.ends[0] === r.ends[1]) where = t("fits");
    }
    const cls = [plays.length ? "playable" : isMine ? "dead" : "", hintTile === tile ? "hinted" : "", S.choosing === tile ? "choosing" : ""].join(" ");
    const label = tileText(a, b) + (where ? ", " + where : "");
    const button = domino(a, b, { label, extra: cls, button: { dataset: { tile }, "data-key": "tile-" + tile, "aria-disabled": live ? null : "true" } });
    button.addEventListener("click", () => clickTile(tile, button));
    hand.append(button);
  });
  if (!r.hand.length) hand.append(h("p", { class: "muted", text: t("No tiles in hand.") }));
  return hand;
}

function endChoice(frame) {
  if (!S.choosing) return null;
  const r = frame.round;
  const [a, b] = tileParts(S.choosing);
  return h("div", { class: "end-choice", role: "dialog", "aria-label": t("Which end?") },
    h("span", { text: t("Play {tile} on which end?", { tile: tileText(a, b) }) }),
    h("div", { class: "end-buttons" },
      h("button", { type: "button", class: "primary", "data-key": "end-left", onclick: () => playEnd("L") },
        t("Left (shows {n})", { n: r.ends[0] })),
      h("button", { type: "button", class: "primary", "data-key": "end-right", onclick: () => playEnd("R") },
        t("Right (shows {n})", { n: r.ends[1] })),
      h("button", { type: "button", "data-key": "end-cancel", onclick: () => { S.choosing = null; render(); } }, t("Cancel"))));
}

// The score pad's column heads: a seat's name and number, or a team and its seats, as separate texts.
function padHead(frame, side) {
  if (frame.rules.partnerships) {
    const mine = frame.you !== null && frame.seats[frame.you].side === side;
    return h("th", { scope: "col" },
      h("span", { class: "name", text: mine ? t("Your team") : t("Team") }),
      h("span", { class: "seat-no", text: t("Seats {a}+{b}", { a: side + 1, b: side + 3 }) }));
  }
  return h("th", { scope: "col" }, whoParts(frame, side));
}

function renderPad(frame) {
  const table = h("table", { class: "pad" },
    h("caption", { text: frame.daily ? nt("Score pad · {n} round", frame.daily.rounds) : t("Score pad · first to {n}", { n: frame.target }) }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("Round") }), frame.scores.map((_, side) => padHead(frame, side)))),
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
    whoParts(frame, seat),
    h("span", { class: "tiles" }, hand.length ? hand.map((tile) => { const [a, b] = tileParts(tile); return domino(a, b, { small: true }); }) : h("em", { text: t("empty") })),
    h("span", { class: "pips", text: nt("{n} pip", sum.pips[seat]) }))) : [];
  const close = () => {
    if (!act({ type: "continue" })) return;
    if (sum) localStorage.setItem(seenKey(frame), String(sum.round));
    S.summaryOpen = false;
    render();
  };
  const live = online();
  const buttons = [];
  if (frame.over) {
    if (!frame.spectator && !frame.daily) buttons.push(h("button", { type: "button", class: "primary", id: "rematch-button", "data-key": "rematch", "aria-disabled": live ? null : "true", onclick: () => { if (act({ type: "rematch" })) { S.summaryOpen = false; render(); } } }, t("Rematch")));
    buttons.push(h("a", { class: "button", href: `/api/tables/${frame.table}/record?game=${frame.game}`, download: "" }, t("Download the record")));
    buttons.push(h("a", { class: "button", id: "replay-link", href: `/replay/${frame.table}/${frame.game}` }, t("Replay and analysis")));
    buttons.push(h("a", { class: "button", href: "/" }, t("Back to the lobby")));
    buttons.push(h("button", { type: "button", "data-key": "close-summary", onclick: () => { S.summaryOpen = false; render(); } }, t("Close")));
  } else {
    buttons.push(h("button", { type: "button", class: "primary", id: "continue-button", "data-key": "continue", "aria-disabled": live ? null : "true", onclick: close }, t("Next round")));
    if (frame.summary_ms !== null && frame.summary_ms !== undefined && frame.paused) {
      buttons.push(h("span", { class: "summary-countdown", role: "timer", dataset: { countdown: "summary", end: String((frame.at || performance.now()) + frame.summary_ms) } }));
    }
  }
  let resigned = null;
  if (frame.over && frame.resigned !== null && frame.resigned !== undefined) {
    resigned = h("p", { class: "resigned", text: frame.resigned === frame.you ? t("You resigned.") : t("{name} resigned.", { name: frame.seats[frame.resigned].name }) });
  }
  return dialogBox({
    cls: "summary",
    labelledby: "summary-title",
    body: [
      h("h2", { id: "summary-title", text: frame.over ? frame.status : t("Round {n} is over", { n: sum.round }) }),
      resigned,
      sum ? h("p", { class: "reason", text: sum.reason_text }) : null,
      sum && sum.train.length ? h("div", { class: "final-train", role: "img", "aria-label": t("The train") },
        sum.train.map(([a, b]) => domino(a, b, { across: a !== b, small: true }))) : null,
      sum ? h("h3", { text: t("Hands revealed") }) : null,
      sum ? h("ul", { class: "reveals" }, hands) : null,
      sum ? h("p", { class: "locked-line" }, h("span", { text: t("Locked in the boneyard, never drawn:") + " " }),
        sum.locked.map((tile) => { const [a, b] = tileParts(tile); return domino(a, b, { small: true, across: true }); })) : null,
      sum ? h("div", { class: "scoring" }, sum.lines.map((line) => h("p", { text: line }))) : null,
      accountRatings(frame),
      renderPad(frame),
    ],
    buttons,
  });
}

// -- the table page ------------------------------------------------------------------

function offlineBanner() {
  if (online()) return null;
  const nudged = performance.now() - S.nudgeAt < 1000;
  return h("div", { class: "offline-banner" + (nudged ? " nudge" : ""), id: "offline-banner", role: "status" },
    h("strong", { text: t("Connection lost: reconnecting…") }),
    h("span", { text: t("Nothing you click is sent until the connection is back.") }),
    h("button", { type: "button", class: "small", "data-key": "reconnect", onclick: reconnectNow }, t("Try again now")));
}

// The table's own tools (the top bar on a wide screen, the menu on a phone: `prefix` keeps ids apart).
function tableTools(frame, prefix = "") {
  const soundOn = Sound.enabled();
  const tools = [
    toolButton({ id: prefix + "sound-button", key: prefix + "sound", icon: soundOn ? "sound" : "mute", label: t("Sounds"), pressed: soundOn, iconOnly: !prefix,
      onclick: () => { Sound.setEnabled(!Sound.enabled()); render(); } }),
  ];
  if ("Notification" in window && frame.you !== null) {
    const blocked = Notification.permission === "denied";
    tools.push(toolButton({ id: prefix + "notify-button", key: prefix + "notify", icon: "bell", label: t("Tell me when it is my turn"), pressed: notifyWanted(), iconOnly: !prefix,
      disabled: blocked, title: blocked ? t("Notifications are blocked in this browser.") : null, onclick: toggleNotify }));
  }
  // The page's top bar keeps to the page's tools; the seat's own actions
  // (resign, leave) sit with the player's hand, and all of them in the phone's menu.
  if (prefix) tools.push(...seatActions(frame, prefix));
  return tools;
}

function seatActions(frame, prefix = "") {
  const live = online();
  const actions = [];
  if (frame.can_resign) {
    actions.push(toolButton({ id: prefix + "resign-button", key: prefix + "resign", icon: "flag", label: t("Resign"), onclick: () => (live ? askResign() : refused()) }));
  }
  if (frame.you !== null) {
    actions.push(toolButton({ id: prefix + "leave-button", key: prefix + "leave", icon: "leave", label: t("Leave the table"),
      onclick: () => (live || frame.over ? askLeave() : refused()) }));
  }
  return actions;
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
  const live = online();
  const link = location.origin + "/t/" + frame.table;
  const top = h("header", { class: "topbar" },
    h("div", { class: "topbar-main" },
      h("a", { href: "/", class: "brand", text: t("The Passing Game") }),
      h("span", { class: "code" }, h("span", { text: t("Table") + " " }), h("strong", { id: "table-code", text: frame.table })),
      toolButton({ key: "copy", icon: "link", label: t("Copy link"), onclick: () => copyLink(link) }),
      h("span", { class: "net " + (S.wsOpen ? "on" : "off"), text: S.wsOpen ? t("connected") : t("reconnecting…") }),
      h("span", { class: "round-no", text: t("Round {n}", { n: r.number }) }),
      toolButton({ id: "menu-button", key: "menu", icon: "menu", label: t("Menu"), onclick: openMenu })),
    pageTools(tableTools(frame)));
  const status = h("p", { class: "status" + (r.legal.length ? " mine" : ""), id: "status", role: "status", "aria-live": "polite", text: frame.status });
  const opponents = h("div", { class: "opponents seats-" + order.length }, order.map((seat) => renderSeat(frame, seat)));
  const board = h("div", { class: "board" }, renderTrain(frame), renderBoneyard(frame));
  let mine = null;
  if (me !== null) {
    const hintText = S.hint ? h("p", { class: "hint-text", role: "status" }, h("strong", { text: S.hint.text + " " }), S.hint.reason || "") : null;
    const off = live ? null : "true";
    const passWarning = r.pass_ends_round && r.can_pass
      ? h("span", { class: "pass-warning", id: "pass-warning", role: "note" }, icon("warning"), h("span", { text: t("Passing now ends the round") }))
      : null;
    mine = h("section", { class: "my-area", "aria-label": t("Your hand") },
      renderSeat(frame, me),
      endChoice(frame),
      renderHand(frame),
      h("div", { class: "actions" },
        h("button", { type: "button", id: "draw-button", "data-key": "draw", disabled: !r.can_draw, "aria-disabled": off, onclick: () => act({ type: "draw" }), title: t("Shortcut: D") }, t("Draw")),
        h("button", { type: "button", id: "pass-button", "data-key": "pass", disabled: !r.can_pass, "aria-disabled": off, "aria-describedby": passWarning ? "pass-warning" : null, onclick: doPass, title: t("Shortcut: P") }, t("Pass")),
        h("button", { type: "button", id: "hint-button", "data-key": "hint", disabled: !r.legal.length, "aria-disabled": off, onclick: () => act({ type: "hint" }), title: t("Shortcut: H") }, t("Hint")),
        passWarning,
        h("span", { class: "pips-mine", text: t("Your pips: {n}", { n: r.pips }) }),
        h("span", { class: "seat-actions" }, seatActions(frame))),
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
    offlineBanner(),
    h("main", { class: "table-grid" },
      h("div", { class: "play" }, opponents, status, invite, board, renderRecent(frame), mine),
      side),
    renderSummary(frame),
    renderSeatTools(frame),
    renderMenu(frame),
    renderConfirm());
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

// A click spans a press: a render between the press and the release replaces the
// pressed button, and the click is lost (a fetch landing then was enough). So a
// render waits for the press to end (at most a second), then runs.
const Press = { since: 0, pending: false };
function pressEnded() {
  if (!Press.since) return;
  Press.since = 0;
  if (Press.pending) {
    Press.pending = false;
    setTimeout(render, 0); // after the click that this release makes
  }
}
document.addEventListener("pointerdown", () => { Press.since = performance.now(); }, true);
for (const type of ["pointerup", "pointercancel"]) document.addEventListener(type, pressEnded, true);
window.addEventListener("blur", pressEnded);

function render() {
  const root = document.getElementById("app");
  if (!S.config) return;
  if (Press.since && performance.now() - Press.since < 1000) {
    Press.pending = true;
    return;
  }
  // What has the focus keeps it across the new nodes (by its data-key, else its id), with
  // its caret: a render while someone types (a fetch landing) must not swallow the keys.
  const active = document.activeElement && document.activeElement !== document.body ? document.activeElement : null;
  const focused = !active ? null : active.dataset && active.dataset.key ? `[data-key="${CSS.escape(active.dataset.key)}"]`
    : active.id ? "#" + CSS.escape(active.id) : null;
  const caret = active && typeof active.selectionStart === "number" ? [active.selectionStart, active.selectionEnd] : null;
  const logEl = document.getElementById("log");
  const atBottom = !logEl || logEl.scrollTop + logEl.clientHeight >= logEl.scrollHeight - 4;
  let page;
  if (Replay.active()) page = Replay.render(); // a finished game's replay (replay.js)
  else if (S.frame && S.code === S.frame.table) page = renderTable();
  else if (S.code && (S.invite || !savedSeat(S.code)) && !S.watching) page = renderJoinPanel();
  else if (S.code) page = h("main", { class: "lobby" }, h("p", { class: "loading", text: t("Connecting…") }));
  else page = renderLobby();
  const notice = S.notice ? h("div", { class: "notice " + S.notice.kind, role: "alert", text: S.notice.text }) : null;
  root.replaceChildren(page, notice || "", renderRulesPanel() || "", renderAccount() || "");
  const again = focused ? root.querySelector(focused) : null;
  if (again && again !== document.activeElement) {
    again.focus();
    if (caret) try { again.setSelectionRange(caret[0], caret[1]); } catch (e) { /* not a text field */ }
  }
  const log = document.getElementById("log");
  if (log && atBottom) log.scrollTop = log.scrollHeight;
  if (root.querySelector("[data-countdown]")) Countdown.start();
  updateTitle();
}

function onKey(event) {
  Sound.unlock();
  if (event.target && ["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName)) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (S.rulesPanel) {
    if (event.key === "Escape") closeRules();
    return;
  }
  if (Replay.active()) {
    Replay.onKey(event);
    return;
  }
  const frame = S.frame;
  if (!frame || S.code !== frame.table) return;
  const key = event.key.toLowerCase();
  if (key === "escape") {
    if (S.confirm) closeConfirm();
    else if (S.seatTools) closeSeatTools();
    else if (S.menuOpen) closeMenu();
    else if (S.choosing) { S.choosing = null; render(); }
    else if (S.summaryOpen) document.querySelector('[data-key="continue"], [data-key="close-summary"]')?.click();
    return;
  }
  if (S.summaryOpen || S.confirm || S.seatTools || S.menuOpen) return;
  if (key === "d" && frame.round.can_draw) act({ type: "draw" });
  else if (key === "p" && frame.round.can_pass) doPass();
  else if (key === "h" && frame.round.legal.length) act({ type: "hint" });
  else if ((key === "arrowleft" || key === "arrowright") && event.target.closest && event.target.closest(".hand")) {
    const tiles = [...document.querySelectorAll(".hand .domino")];
    const at = tiles.indexOf(event.target);
    const next = tiles[(at + (key === "arrowright" ? 1 : -1) + tiles.length) % tiles.length];
    next?.focus();
    event.preventDefault();
  }
}

function route() {
  if (Replay.route()) { // /replay...: no table on this page
    S.code = null;
    S.frame = null;
    render();
    return;
  }
  const match = location.pathname.match(/^\/t\/([A-Za-z0-9]+)\/?$/);
  S.code = match ? normCode(match[1]) : null;
  const query = new URLSearchParams(location.search);
  S.invite = S.code ? query.get("invite") : null;
  const asked = Number(query.get("seat"));
  S.inviteSeat = S.invite && Number.isInteger(asked) && asked >= 1 && asked <= 4 ? asked : null;
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
  Countdown.configure({
    clock: (total, inBank, shown) => (inBank ? nt("{n} second left in the bank", total) : nt("{n} second left for this move", shown)),
    summary: (secs) => nt("Next round in {n} second", secs),
  });
  document.addEventListener("keydown", onKey);
  document.addEventListener("keydown", trapFocus);
  document.addEventListener("pointerdown", () => Sound.unlock(), { passive: true });
  document.addEventListener("visibilitychange", updateTitle);
  window.addEventListener("popstate", route);
  route();
  connect();
  accountLoad(); // who is signed in (account.js)
}

start();
