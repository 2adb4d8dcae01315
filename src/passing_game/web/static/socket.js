// The connection: the socket, what waits for it, and the seats: joining a
// table, watching one, taking a seat back on (re)connecting, and what this
// browser remembers (seat tokens, the name).
//
// What the connection hands up is wired by app.js, so that nothing here
// imports a module above it: what the server says goes to receive()
// (messages.js), an open socket asks again for quick play's wait
// (quickplay.js), and account.js knows the seat a signed-in account holds.

import { I18N, t } from "./i18n.js";
import { S, changed, notify } from "./state.js";

const wired = { receive: () => {}, reopened: () => {}, accountSeat: () => null };

export function wire(parts) {
  Object.assign(wired, parts);
}

function wsUrl() {
  return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws?lang=" + encodeURIComponent(I18N.language);
}

export function connect() {
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
    wired.reopened();
    for (const msg of queued) ws.send(JSON.stringify(msg));
    changed();
  });
  ws.addEventListener("message", (event) => {
    if (S.ws !== ws) return;
    let msg;
    try {
      msg = JSON.parse(event.data);
    } catch (e) {
      return;
    }
    wired.receive(msg);
  });
  ws.addEventListener("close", () => {
    if (S.ws !== ws) return;
    S.wsOpen = false;
    S.live = false;
    S.choosing = null;
    changed();
    const wait = Math.min(8000, 300 * 2 ** S.retry);
    S.retry += 1;
    S.retryTimer = setTimeout(connect, wait);
  });
}

// A new socket at once: the server learns the page's language and who is signed
// in when a socket opens (a language switched, somebody signed in or out).
export function reopen() {
  const old = S.ws;
  S.ws = null;
  S.wsOpen = false;
  S.live = false;
  if (old) old.close();
  connect();
}

// "Try again now" on the offline banner: no waiting for the next attempt.
export function reconnectNow() {
  if (S.wsOpen) return;
  const old = S.ws;
  S.ws = null;
  if (old) old.close();
  connect();
}

// Intents that only find a table wait for the socket (the latest one); nothing else ever waits.
const SEATING = new Set(["create", "join", "resume", "watch"]);

export function send(msg) {
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
export function online() {
  return S.wsOpen && S.live;
}

// A game action (play, draw, pass, hint, continue, rematch, leave, ...): sent now or not at all.
export function act(msg) {
  if (!online()) {
    refused();
    return false;
  }
  return send(msg);
}

// A click while offline did nothing: say so, and show the banner again.
export function refused() {
  S.nudgeAt = performance.now();
  notify(t("Not sent: you are offline."), "error");
}

export function seatKey(code) {
  return "passing-game:seat:" + code;
}

export function savedSeat(code) {
  try {
    const data = JSON.parse(localStorage.getItem(seatKey(code)) || "null");
    if (data && typeof data.token === "string" && Number.isInteger(data.seat)) return data;
  } catch (e) {
    /* a damaged entry is ignored */
  }
  return null;
}

// On (re)connecting to a table: take the seat back with its token, or watch.
export function takeSeat() {
  if (S.invite) return; // the join panel takes the invited seat
  const saved = savedSeat(S.code);
  if (saved) send({ type: "resume", code: S.code, seat: saved.seat, token: saved.token });
  else if (wired.accountSeat(S.code) !== null) send({ type: "resume", code: S.code, seat: wired.accountSeat(S.code) }); // the account's seat (account.js)
  else if (S.watching) send({ type: "watch", code: S.code });
}

// The lobby's and quick play's ways to a table: sitting down, or watching.
export function normCode(text) {
  return (text || "").toUpperCase().replace(/[\s-]/g, "");
}

export function joinTable(code, name) {
  code = normCode(code);
  name = (name || "").trim();
  if (!name) {
    notify(t("Please give your name."), "error");
    return;
  }
  localStorage.setItem("passing-game:name", name);
  S.code = code;
  S.watching = false;
  if (S.invite) {
    send({ type: "join", code, name, invite: S.invite });
    return;
  }
  const saved = savedSeat(code);
  if (saved) send({ type: "resume", code, seat: saved.seat, token: saved.token });
  else if (wired.accountSeat(code) !== null) send({ type: "resume", code, seat: wired.accountSeat(code) });
  else send({ type: "join", code, name });
}

export function watchTable(code) {
  code = normCode(code);
  S.code = code;
  S.watching = true;
  S.invite = null;
  send({ type: "watch", code });
}

// The name this browser's forms start with (the last one given).
export function savedName() {
  return localStorage.getItem("passing-game:name") || "";
}
