// The connection: the socket, what waits for it, and taking a seat back on
// (re)connecting. What the server says is read by receive() (messages.js).

import { accountSeat } from "./account.js";
import { I18N, t } from "./i18n.js";
import { receive } from "./messages.js";
import { notify, render } from "./page.js";
import { Quick } from "./quickplay.js";
import { S } from "./state.js";

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
  else if (accountSeat(S.code) !== null) send({ type: "resume", code: S.code, seat: accountSeat(S.code) }); // the account's seat (account.js)
  else if (S.watching) send({ type: "watch", code: S.code });
}
