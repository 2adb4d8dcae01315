// The lobby's card of tournaments (issue 26, item 1): the public ones (GET
// /api/tournaments, read again every LIST_MS while the card is shown), each
// with its start time and a live countdown, and for a signed-in person a form
// that creates one for friends (POST /api/tournaments) and opens its page
// (tournament.js). What a tournament's settings and its state say in words is
// written here once, for the list and the page alike.

import { accountPost, accountUser } from "./account.js";
import { h } from "./dom.js";
import { dateTime, nt, t } from "./i18n.js";
import { S, changed } from "./state.js";

const LIST_MS = 20000;
// items: the list as last read; at: performance.now() when it came (its countdowns
// run from the server's own time); timer: the next read.
const List = { items: null, at: 0, timer: null };
// What the person chose in the form, kept across the lobby's renders.
const Form = { open: false, values: { "t-kind": "swiss", "t-size": "2", "t-length": "3", "t-clock": "45", "t-starts": "5", "t-min": "0", "t-target": "", "t-bots": "0", "t-bot-level": "easy" } };

// A kind of tournament in words.
export function kindName(kind) {
  return { arena: t("Arena"), swiss: t("Swiss"), duplicate: t("Duplicate") }[kind] || kind;
}

// The countdowns' words (clock.js ticks them; app.js hands these over): the time
// to a tournament's start, and an arena's pairing time left.
export function startsWords(secs) {
  if (secs > 2 * 86400) return nt("Starts in {n} day", Math.round(secs / 86400));
  if (secs > 90 * 60) return nt("Starts in {n} hour", Math.round(secs / 3600));
  if (secs > 90) return nt("Starts in {n} minute", Math.ceil(secs / 60));
  return secs > 0 ? nt("Starts in {n} second", secs) : t("Starting: waiting for enough people.");
}

export function pairingWords(secs) {
  return secs > 0 ? nt("Pairing for {n} more minute", Math.ceil(secs / 60)) : t("The last games are being played.");
}

const COUNTDOWN_WORDS = { "tournament-start": startsWords, "arena-end": pairingWords };

function countdown(kind, secondsLeft, at) {
  const end = at + secondsLeft * 1000;
  const left = Math.max(0, Math.ceil((end - performance.now()) / 1000));
  return h("span", { class: "countdown", "data-countdown": kind, "data-end": String(end), text: COUNTDOWN_WORDS[kind](left) });
}

// How a tournament stands, for the lobby's list and its page: before its start, when
// it starts and a countdown; an arena's minutes left; the round; or over.
// d: {status, round, now, settings}; at: performance.now() when d arrived.
export function tournamentStatus(d, at) {
  const s = d.settings;
  if (d.status === "finished") return [h("span", { text: t("The tournament is over.") })];
  if (d.status === "open" || d.now < s.starts) {
    return [h("time", { class: "starts", datetime: new Date(s.starts * 1000).toISOString(), text: dateTime(s.starts) }),
      " · ", countdown("tournament-start", s.starts - d.now, at)];
  }
  if (s.kind === "arena") return [countdown("arena-end", s.starts + s.minutes * 60 - d.now, at)];
  return [h("span", { text: t("Round {n} of {total}", { n: d.round, total: s.rounds }) })];
}

// A tournament's settings in a line: kind, table, length, clock, rated, its bots.
export function settingsLine(s) {
  const parts = [kindName(s.kind), s.size === 4 ? t("4 a table, in partnerships") : t("2 a table"),
    s.kind === "arena" ? nt("{n} minute", s.minutes) : nt("{n} round", s.rounds),
    t("clock: {move} s a move", { move: s.clock }), s.rated ? t("rated") : t("casual")];
  if (s.bots > 0) parts.push(nt("{n} bot playing", s.bots));
  if (s.min_finished > 0) parts.push(t("games finished: at least {n} %", { n: Math.round(s.min_finished * 100) }));
  return parts.join(" · ");
}

function open(path) {
  history.pushState(null, "", path);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

// The list, read now and again every LIST_MS while the lobby's card is on the page;
// once it is not, the next render of the card reads it again.
async function loadList() {
  clearTimeout(List.timer);
  List.timer = null;
  if (List.items === null) List.items = [];
  try {
    const got = await fetch("/api/tournaments", { cache: "no-store" });
    if (got.ok) {
      const data = await got.json();
      List.items = (data.tournaments || []).map((e) => ({ ...e, now: data.now }));
      List.at = performance.now();
    }
  } catch (e) { /* the card keeps what it had, or says there are none */ }
  changed();
  List.timer = setTimeout(() => {
    List.timer = null;
    if (document.querySelector(".tournaments-card")) loadList();
    else List.items = null; // read again when the lobby shows the card
  }, LIST_MS);
}

// This browser's random part of a duplicate tournament's deals, given with its
// join and kept to be found again in the deals once it is over (web/tournament/parts.py).
export function newPart() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export function partKey(id) {
  return "passing-game:tournament-part:" + id;
}

export function keepPart(id, part) {
  localStorage.setItem(partKey(id), part);
}

async function create(form) {
  const get = (name) => form.querySelector(`[name="${name}"]`).value;
  const kind = get("t-kind");
  const body = { kind, name: get("t-name").trim(), size: Number(get("t-size")), clock: get("t-clock"),
    starts: Date.now() / 1000 + Number(get("t-starts")) * 60, rated: !!Form.rated,
    min_finished: Number(get("t-min")) / 100 };
  if (kind === "arena") body.minutes = Number(get("t-length"));
  else body.rounds = Number(get("t-length"));
  if (get("t-target")) body.target = Number(get("t-target")); // empty: the rules' own (D10)
  body.bots = Number(get("t-bots")); // computer players taking part (web/tournament/model.py)
  if (body.bots) body.bot_level = get("t-bot-level");
  body.contribution = newPart(); // its creator joins it: this browser's part (tournament.js)
  const { ok, data } = await accountPost("/api/tournaments", body);
  if (!ok) {
    S.notice = { kind: "error", text: data.error || t("Something went wrong; try again.") };
    changed();
    return;
  }
  keepPart(data.id, body.contribution);
  open(data.link);
}

// A game's target when the form leaves it empty: the rules' own for the table (D10).
function defaultTarget() {
  const cfg = S.config || {};
  const four = Form.values["t-size"] === "4";
  const presets = cfg.preset_targets && cfg.rules ? cfg.preset_targets[cfg.rules.target_presets[0]] || {} : {};
  return presets[four ? "4p" : "2"] || (cfg.targets || {})[four ? "4" : "2"] || "";
}

// The bot levels the lobby offers (easy, medium, hard, expert; web/http/app.py).
function levels() {
  return ((S.config && S.config.levels) || []).filter((l) => l.about);
}

function option(name, value, text) {
  return h("option", { value, selected: Form.values[name] === value }, text);
}

// A form control that keeps its value in Form across renders.
function kept(tag, name, attrs, ...children) {
  const keep = (ev) => {
    Form.values[name] = ev.target.value;
    if (name === "t-kind" && ev.type === "change") { // an arena lasts minutes, the others have rounds
      Form.values["t-length"] = ev.target.value === "arena" ? "30" : "3";
      changed();
    }
    if ((name === "t-bots" || name === "t-size") && ev.type === "change") changed(); // the bots' level; the target's hint
  };
  const value = Form.values[name] ?? attrs.value;
  return h(tag, { ...attrs, name, id: name, value: tag === "input" ? value : undefined, oninput: keep, onchange: keep }, ...children);
}

function listed(e) {
  const d = { status: e.status, round: e.round, now: e.now, settings: e };
  return h("li", { "data-id": e.id },
    h("div", { class: "name" },
      h("a", { href: "/tournament/" + e.id, onclick: (ev) => { ev.preventDefault(); open("/tournament/" + e.id); } }, e.name),
      h("span", { class: "note", text: " · " + settingsLine(e) })),
    h("div", { class: "when", "data-status": e.status }, tournamentStatus(d, List.at)));
}

export function tournamentsCard() {
  if (List.items === null) loadList();
  const items = List.items || [];
  const parts = [h("h2", { text: t("Tournaments") }),
    items.length ? h("ul", { class: "tournament-list" }, items.map(listed)) : h("p", { class: "hint", text: t("No public tournament is on now.") })];
  if (accountUser()) {
    const length = Form.values["t-kind"] === "arena" ? t("Minutes") : t("Rounds");
    const form = h("form", { class: "tournament-form", onsubmit: (ev) => { ev.preventDefault(); create(ev.target); } },
      h("label", {}, t("Name"), kept("input", "t-name", { required: true, maxlength: 60, value: t("Friends' tournament") })),
      h("label", {}, t("Kind"), kept("select", "t-kind", {}, ["swiss", "arena", "duplicate"].map((k) => option("t-kind", k, kindName(k))))),
      h("label", {}, t("People at a table"), kept("select", "t-size", {}, option("t-size", "2", "2"), option("t-size", "4", t("4, in partnerships")))),
      h("label", {}, length, kept("input", "t-length", { type: "number", min: 1, max: 240 })),
      h("label", {}, t("Clock"), kept("select", "t-clock", {}, ["20", "45", "90"].map((c) => option("t-clock", c, t("{move} s a move", { move: c }))))),
      h("label", {}, t("Starts in (minutes)"), kept("input", "t-starts", { type: "number", min: 0, max: 1440 })),
      h("label", {}, t("Target score"), kept("input", "t-target", { type: "number", min: 10, max: 500, inputmode: "numeric",
        placeholder: String(defaultTarget()), "aria-describedby": "t-target-hint" }),
        h("span", { class: "hint small", id: "t-target-hint", text: nt("Empty: {n} point", defaultTarget()) })),
      h("label", {}, t("Games finished, at least"), kept("select", "t-min", {}, ["0", "70", "80", "90"].map((n) => option("t-min", n, n === "0" ? t("anyone may join") : `${n} %`)))),
      h("label", {}, t("Bots playing"), kept("select", "t-bots", {}, ["0", "1", "2", "3", "4"].map((n) => option("t-bots", n, n)))),
      Form.values["t-bots"] !== "0" ? h("label", {}, t("The bots' level"), kept("select", "t-bot-level", {},
        levels().map((l) => option("t-bot-level", l.name, l.label)))) : null,
      h("label", { class: "check" }, h("input", { type: "checkbox", id: "t-rated", checked: !!Form.rated, onchange: (ev) => { Form.rated = ev.target.checked; } }),
        h("span", { text: t("Rated: its games change the players' ratings") })),
      h("button", { type: "submit", "data-key": "t-create" }, t("Create a tournament")));
    parts.push(h("details", { open: Form.open, ontoggle: (ev) => { Form.open = ev.target.open; } }, h("summary", { text: t("Create a tournament for friends") }), form));
  }
  return h("section", { class: "card tournaments-card" }, parts);
}

