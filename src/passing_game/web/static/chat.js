// The chat panel (issue 27, item 1; docs/DECISIONS.md P58): at a table over its
// socket ("say", "chat_history", "chat_mute", "chat_report"; web/chat/service.py)
// and on a tournament's page over HTTP (/api/chat/t/ID, polled; web/chat/api.py).
//
// The panel lives beside #app, not in it: the page's render replaces #app's
// nodes, and a text box being typed in must stay. app.js calls Chat.sync() after
// every render (which place the page is at now) and hands the socket's chat frames
// to Chat.receive() first. People's text is only ever put on the page with
// textContent. Ready messages come worded by the server in this page's language.
//
// "Chat off" is one tap and remembered (localStorage); a guest's mutes stay in
// this browser, a signed-in person's are the account's (web_ignores).

import { accountPost } from "./account.js";
import { h } from "./dom.js";
import { I18N, t } from "./i18n.js";
import { send } from "./socket.js";
import { S } from "./state.js";

const OFF_KEY = "passing-game:chat-off";
const MUTED_KEY = "passing-game:chat-muted";
const POLL_MS = 3000;
const KEPT = 100;

// Author key -> {author, name, message}: whom this browser muted (a message of theirs
// names them to the server again for an unmute).
function loadMuted() {
  try {
    const list = JSON.parse(localStorage.getItem(MUTED_KEY) || "[]");
    const ok = (m) => m && typeof m.author === "string" && typeof m.name === "string" && Number.isInteger(m.message);
    return new Map((Array.isArray(list) ? list.filter(ok) : []).map((m) => [m.author, m]));
  } catch (e) {
    return new Map();
  }
}

function saveMuted() {
  try {
    localStorage.setItem(MUTED_KEY, JSON.stringify([...C.muted.values()].slice(-200)));
  } catch (e) {
    /* a full storage keeps the mute for this page only */
  }
}

const C = {
  place: null, // a table's code, or "t:" and a tournament's id
  messages: [],
  presets: [],
  write: false,
  signedIn: false, // a tournament page's asker (its GET says)
  limit: 200,
  channel: null,
  status: null, // {text, kind}: the last refusal or news, under the box
  off: localStorage.getItem(OFF_KEY) === "1",
  open: !window.matchMedia("(max-width: 700px)").matches, // collapsed on a phone
  muted: loadMuted(),
  reported: new Set(),
  needHistory: false,
  over: null,
  last: 0,
  language: null, // the page's language when the panel was last drawn
  timer: null,
  root: null,
  input: null,
};

function tournamentId() {
  const found = location.pathname.match(/^\/tournament\/([A-Za-z0-9_-]+)\/?$/);
  return found ? found[1] : null;
}

// Where the page is: at a table, on a tournament's page, or neither.
function placeNow() {
  if (S.frame && S.code === S.frame.table) return S.frame.table;
  const id = tournamentId();
  return id ? "t:" + id : null;
}

function atTournament() {
  return C.place && C.place.startsWith("t:");
}

// -- what the server says ------------------------------------------------------

function add(list) {
  const known = new Set(C.messages.map((m) => m.id));
  for (const m of list) if (!known.has(m.id)) C.messages.push(m);
  C.messages.sort((a, b) => a.id - b.id);
  if (C.messages.length > KEPT) C.messages = C.messages.slice(-KEPT);
  for (const m of list) C.last = Math.max(C.last, m.id);
}

function setStatus(text, kind) {
  C.status = text ? { text, kind } : null;
}

// A socket's frame: true when it was the chat's (messages.js never sees it).
function receive(msg) {
  if (msg.type === "joined") {
    C.needHistory = true; // (re)joined a table: its recent messages again
    return false;
  }
  if (msg.type === "chat") {
    if (msg.place !== C.place) return true;
    if (msg.history) {
      C.messages = [];
      C.presets = msg.presets || [];
      C.write = !!msg.write;
      C.limit = msg.limit || 200;
      C.channel = msg.channel || null;
    }
    add(msg.messages || []);
    draw();
    return true;
  }
  if (msg.type === "chat_deleted") {
    if (msg.place === C.place) drop(msg.ids || []);
    return true;
  }
  if (msg.type === "chat_unmuted") {
    unmuted(msg.author, msg.name);
    return true;
  }
  if (msg.type === "chat_muted") {
    muteLocally({ author: msg.author, name: msg.name, message: msg.message });
    setStatus(t("You muted {name}: their messages no longer reach you.", { name: msg.name || t("A spectator") }), "info");
    draw();
    return true;
  }
  if (msg.type === "chat_reported") {
    C.reported.add(msg.message);
    setStatus(t("Reported: a moderator will look at it."), "info");
    draw();
    return true;
  }
  if (msg.type === "error" && typeof msg.code === "string" && msg.code.startsWith("chat-")) {
    setStatus(msg.message, "error");
    draw();
    return true;
  }
  return false;
}

function drop(ids) {
  const gone = new Set(ids);
  C.messages = C.messages.filter((m) => !gone.has(m.id));
  draw();
}

function muteLocally(m) {
  if (!m.author) return;
  C.muted.set(m.author, { author: m.author, name: m.name, message: m.id ?? m.message });
  saveMuted();
}

// Heard again: off the list, and the place's messages read again (theirs among them).
function unmuted(author, name) {
  C.muted.delete(author);
  saveMuted();
  setStatus(t("You hear {name} again.", { name: name || t("A spectator") }), "info");
  C.messages = [];
  C.last = 0;
  if (atTournament()) {
    clearTimeout(C.timer);
    poll();
  } else {
    send({ type: "chat_history" });
  }
  draw();
}

async function unmute(m) {
  const signedIn = atTournament() ? C.signedIn : C.write;
  if (!signedIn) {
    unmuted(m.author, m.name);
    return;
  }
  if (!atTournament()) {
    send({ type: "chat_unmute", message: m.message });
    return;
  }
  await accountPost(`/api/chat/${m.message}/unmute`, {});
  unmuted(m.author, m.name);
}

// -- the tournament's poll -----------------------------------------------------

async function poll() {
  const place = C.place;
  if (!atTournament()) return;
  const first = C.messages.length ? C.messages[0].id : 0;
  try {
    const got = await fetch(`/api/chat/t/${encodeURIComponent(place.slice(2))}?after=${C.last}&from=${first}`, { cache: "no-store" });
    if (got.ok && C.place === place) {
      const data = await got.json();
      C.presets = data.presets || [];
      C.write = !!data.write;
      C.signedIn = !!data.signed_in;
      C.limit = data.limit || 200;
      C.channel = "tournament";
      const gone = new Set(data.deleted || []);
      C.messages = C.messages.filter((m) => !gone.has(m.id));
      add(data.messages || []);
      draw();
    }
  } catch (e) {
    /* the next poll tries again */
  }
  if (C.place === place) C.timer = setTimeout(poll, POLL_MS);
}

// -- what this person does -----------------------------------------------------

async function say(body) {
  setStatus(null);
  if (!atTournament()) {
    send({ type: "say", ...body });
    return true;
  }
  const { ok, data } = await accountPost(`/api/chat/t/${encodeURIComponent(C.place.slice(2))}`, body);
  if (!ok) {
    setStatus(data.error || t("Not sent."), "error");
    draw();
    return false;
  }
  add([data.message]);
  draw();
  return true;
}

async function mute(m) {
  muteLocally(m); // at once here; the account keeps it too (signed in)
  C.messages = C.messages.filter((x) => x.author !== m.author);
  if (!atTournament()) {
    if (C.write) send({ type: "chat_mute", message: m.id });
    else setStatus(t("You muted {name} in this browser.", { name: m.name }), "info");
  } else {
    await accountPost(`/api/chat/${m.id}/mute`, {});
    setStatus(t("You muted {name}: their messages no longer reach you.", { name: m.name }), "info");
  }
  draw();
}

async function report(m) {
  if (!atTournament()) {
    send({ type: "chat_report", message: m.id });
    return;
  }
  const { ok, data } = await accountPost(`/api/chat/${m.id}/report`, {});
  if (ok) {
    C.reported.add(m.id);
    setStatus(t("Reported: a moderator will look at it."), "info");
  } else {
    setStatus(data.error || t("Not sent."), "error");
  }
  draw();
}

function setOff(off) {
  C.off = off;
  localStorage.setItem(OFF_KEY, off ? "1" : "0");
  draw();
  const again = document.getElementById(off ? "chat-on" : "chat-off");
  if (again) again.focus();
}

// -- drawing -------------------------------------------------------------------

function line(m) {
  const mine = !!m.mine;
  // On a tournament's page muting and reporting are an account's (POSTs); at a table a
  // guest mutes in this browser and reports over the socket.
  const tools = mine || (atTournament() && !C.signedIn) ? null : h("span", { class: "chat-tools" },
    h("button", { type: "button", class: "chat-tool", id: "chat-mute-" + m.id, "aria-label": t("Mute {name}", { name: m.name }), text: t("Mute"), onclick: () => mute(m) }),
    C.reported.has(m.id)
      ? h("span", { class: "chat-tool muted small", text: t("Reported") })
      : h("button", { type: "button", class: "chat-tool", id: "chat-report-" + m.id, "aria-label": t("Report this message by {name}", { name: m.name }), text: t("Report"), onclick: () => report(m) }),
  );
  return h("li", { class: "chat-line" + (mine ? " mine" : "") + (m.channel === "spectators" ? " spectators" : ""), dataset: { id: String(m.id) } },
    h("span", { class: "chat-name", text: m.name }),
    m.channel === "spectators" && C.channel !== "spectators" ? h("span", { class: "chat-tag", text: t("spectator") }) : null,
    h("span", { class: "chat-text", text: m.text }),
    tools,
  );
}

function writeLabel() {
  if (C.channel === "spectators") return t("Message to the spectators");
  if (C.channel === "tournament") return t("Message to the tournament's players");
  return t("Message to the table");
}

function ensureInput() {
  if (C.input) return C.input;
  C.input = h("input", { id: "chat-text", type: "text", autocomplete: "off", enterkeyhint: "send" });
  return C.input;
}

async function submitText(event) {
  event.preventDefault();
  const input = ensureInput();
  const text = input.value.trim();
  if (!text) return;
  if (await say({ text })) input.value = "";
}

function draw() {
  if (!C.root) return;
  C.language = I18N.language;
  if (!C.place) {
    C.root.hidden = true;
    C.root.replaceChildren();
    return;
  }
  C.root.hidden = false;
  C.root.classList.toggle("at-tournament", atTournament()); // as wide as the tournament's page
  const active = document.activeElement;
  const keep = active && C.root.contains(active) ? active.id : null;
  const caret = keep === "chat-text" && C.input ? [C.input.selectionStart, C.input.selectionEnd] : null;
  const head = h("div", { class: "chat-head" },
    h("button", { type: "button", id: "chat-toggle", class: "chat-toggle", "aria-expanded": String(C.open), "aria-controls": "chat-body",
      onclick: () => { C.open = !C.open; draw(); } },
    t("Chat") + (C.open ? "" : C.messages.length && !C.off ? ` (${C.messages.length})` : "")),
    C.off
      ? h("button", { type: "button", id: "chat-on", class: "chat-switch", onclick: () => setOff(false), text: t("Chat on") })
      : h("button", { type: "button", id: "chat-off", class: "chat-switch", onclick: () => setOff(true), text: t("Chat off") }),
  );
  let body = null;
  if (C.open) {
    if (C.off) {
      body = h("div", { id: "chat-body", class: "chat-body" }, h("p", { class: "muted small", text: t("The chat is off: nobody's messages are shown.") }));
    } else {
      const shown = C.messages.filter((m) => !C.muted.has(m.author));
      const log = h("ul", { class: "chat-log", id: "chat-log", role: "log", "aria-live": "polite", "aria-label": t("Chat messages") },
        shown.length ? shown.map(line) : h("li", { class: "muted small", text: t("No messages yet.") }));
      const presets = C.write || C.channel !== "tournament"
        ? h("div", { class: "chat-presets", role: "group", "aria-label": t("Ready messages") },
          C.presets.map((p) => h("button", { type: "button", class: "chat-preset", id: "chat-preset-" + p.key, dataset: { preset: p.key }, text: p.text, onclick: () => say({ preset: p.key }) })))
        : null;
      const input = ensureInput();
      input.maxLength = C.limit;
      input.setAttribute("aria-label", writeLabel());
      input.placeholder = writeLabel();
      const form = C.write
        ? h("form", { class: "chat-form", onsubmit: submitText }, input, h("button", { type: "submit", id: "chat-send", text: t("Send") }))
        : h("p", { class: "muted small", text: atTournament() ? t("The tournament's players write here.") : t("Sign in to write your own messages; everyone may send the ready ones.") });
      const muted = C.muted.size
        ? h("div", { class: "chat-muted", role: "group", "aria-label": t("Muted people") },
          h("span", { class: "muted small", text: t("Muted people") }),
          [...C.muted.values()].map((m) => h("button", { type: "button", class: "chat-tool", id: "chat-unmute-" + m.message, text: t("Unmute {name}", { name: m.name || t("A spectator") }), onclick: () => unmute(m) })))
        : null;
      const status = C.status ? h("p", { class: "chat-status " + C.status.kind, role: C.status.kind === "error" ? "alert" : "status", text: C.status.text }) : null;
      body = h("div", { id: "chat-body", class: "chat-body" }, log, presets, form, status, muted);
    }
  }
  C.root.replaceChildren(head, body || "");
  const logEl = document.getElementById("chat-log");
  if (logEl) logEl.scrollTop = logEl.scrollHeight;
  if (keep && keep !== "chat-text") {
    const again = document.getElementById(keep);
    if (again) again.focus();
  } else if (keep === "chat-text" && C.input) {
    C.input.focus(); // the same node: its text stays, and its caret is put back
    if (caret) C.input.setSelectionRange(caret[0], caret[1]);
  }
}

// After every render of the page: which place it shows now; a new one starts afresh.
function sync() {
  if (!C.root) {
    C.root = h("section", { id: "chat", class: "chat", "aria-label": t("Chat") });
    C.root.hidden = true;
    document.body.append(C.root);
  }
  const place = placeNow();
  // A new language: the panel's own texts now, the server's ready messages with its reply.
  if (C.place && place === C.place && C.language !== I18N.language) draw();
  if (place !== C.place) {
    clearTimeout(C.timer);
    C.place = place;
    C.messages = [];
    C.last = 0;
    C.status = null;
    C.over = null;
    C.needHistory = !!place && !place.startsWith("t:");
    if (atTournament()) poll();
    draw();
  }
  if (C.place && !atTournament()) {
    const over = !!(S.frame && S.frame.over);
    if (C.over !== null && over !== C.over) C.needHistory = true; // over: the spectators' channel too
    C.over = over;
    if (C.needHistory && S.wsOpen) {
      C.needHistory = false;
      send({ type: "chat_history" });
    }
  }
}

export const Chat = { receive, sync };

// The browser tests read the panel's state through this; nothing on the page uses it.
window.PassingChat = C;
