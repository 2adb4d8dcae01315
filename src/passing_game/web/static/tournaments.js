// The lobby's card of tournaments (issue 26, item 1): the public ones (GET
// /api/tournaments), and for a signed-in person a form that creates one for
// friends (POST /api/tournaments) and opens its page (tournament.js).

import { accountPost, accountUser } from "./account.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { S, changed } from "./state.js";

const List = { items: null };
// What the person chose in the form, kept across the lobby's renders.
const Form = { open: false, values: { "t-kind": "swiss", "t-size": "2", "t-length": "3", "t-clock": "45", "t-starts": "5", "t-min": "0" } };

// A kind of tournament in words.
export function kindName(kind) {
  return { arena: t("Arena"), swiss: t("Swiss"), duplicate: t("Duplicate") }[kind] || kind;
}

function open(path) {
  history.pushState(null, "", path);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

async function loadList() {
  List.items = [];
  try {
    const got = await fetch("/api/tournaments", { cache: "no-store" });
    if (got.ok) List.items = (await got.json()).tournaments || [];
  } catch (e) { /* the card says there are none */ }
  changed();
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
  };
  const value = Form.values[name] ?? attrs.value;
  return h(tag, { ...attrs, name, id: name, value: tag === "input" ? value : undefined, oninput: keep, onchange: keep }, ...children);
}

export function tournamentsCard() {
  if (List.items === null) loadList();
  const listed = (List.items || []).map((e) => h("li", {},
    h("a", { href: "/tournament/" + e.id, onclick: (ev) => { ev.preventDefault(); open("/tournament/" + e.id); } }, e.name),
    h("span", { class: "note", text: " · " + kindName(e.kind) })));
  const parts = [h("h2", { text: t("Tournaments") }),
    listed.length ? h("ul", { class: "tournament-list" }, listed) : h("p", { class: "hint", text: t("No public tournament is on now.") })];
  if (accountUser()) {
    const length = Form.values["t-kind"] === "arena" ? t("Minutes") : t("Rounds");
    const form = h("form", { class: "tournament-form", onsubmit: (ev) => { ev.preventDefault(); create(ev.target); } },
      h("label", {}, t("Name"), kept("input", "t-name", { required: true, maxlength: 60, value: t("Friends' tournament") })),
      h("label", {}, t("Kind"), kept("select", "t-kind", {}, ["swiss", "arena", "duplicate"].map((k) => option("t-kind", k, kindName(k))))),
      h("label", {}, t("People at a table"), kept("select", "t-size", {}, option("t-size", "2", "2"), option("t-size", "4", t("4, in partnerships")))),
      h("label", {}, length, kept("input", "t-length", { type: "number", min: 1, max: 240 })),
      h("label", {}, t("Clock"), kept("select", "t-clock", {}, ["20", "45", "90"].map((c) => option("t-clock", c, t("{move} s a move", { move: c }))))),
      h("label", {}, t("Starts in (minutes)"), kept("input", "t-starts", { type: "number", min: 0, max: 1440 })),
      h("label", {}, t("Games finished, at least"), kept("select", "t-min", {}, ["0", "70", "80", "90"].map((n) => option("t-min", n, n === "0" ? t("anyone may join") : `${n} %`)))),
      h("label", { class: "check" }, h("input", { type: "checkbox", id: "t-rated", checked: !!Form.rated, onchange: (ev) => { Form.rated = ev.target.checked; } }),
        h("span", { text: t("Rated: its games change the players' ratings") })),
      h("button", { type: "submit", "data-key": "t-create" }, t("Create a tournament")));
    parts.push(h("details", { open: Form.open, ontoggle: (ev) => { Form.open = ev.target.open; } }, h("summary", { text: t("Create a tournament for friends") }), form));
  }
  return h("section", { class: "card tournaments-card" }, parts);
}

