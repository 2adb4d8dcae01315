// Practice from any position (issue 25, item 3; the server's side is web/practice/).
//
// The replay's "Play on from here" opens a dialog: the seat you play (the one
// whose view is shown; asked when every hand is open), the computer's level
// for every other seat, and the hidden tiles as they were or dealt again in
// keeping with what the seat saw. An analysed decision opens the same dialog for
// the position where it was taken, before its move, from the analysed seat
// (ctx.decision: its round and move). POST /api/practice makes a practice table (a
// real table of one round, never rated); this browser keeps its seat token as
// for any table and goes there. At that table, practiceNote() marks the round
// and practiceLinks() leads back to the replay it came from.

import { accountPost } from "./account.js";
import { dialogBox, h } from "./dom.js";
import { I18N, sentenceStart, t } from "./i18n.js";
import { seatNo } from "./seat.js";
import { savedName, seatKey } from "./socket.js";
import { S, changed } from "./state.js";

const FROM = "passing-game:practice:";

export const Practice = {
  open: false,
  ctx: null, // the replay's position the dialog was opened for
  seat: null,
  level: null,
  hidden: "real",
  busy: false,
  error: null,
};

function levels() {
  return ((S.config && S.config.levels) || []).filter((l) => l.about);
}

// The dialog's state for a replay at one step: ctx = {names, seat (null: every hand open),
// toMove, decision (null, or {round, index, name}: before that move), and what start() needs}.
export function openPractice(ctx) {
  Practice.open = true;
  Practice.ctx = ctx;
  Practice.seat = ctx.seat !== null ? ctx.seat : ctx.toMove !== null && ctx.toMove !== undefined ? ctx.toMove : 0;
  const all = levels();
  if (!all.some((l) => l.name === Practice.level)) Practice.level = (all[1] || all[0] || { name: "medium" }).name;
  Practice.error = null;
  Practice.busy = false;
  changed();
  requestAnimationFrame(() => document.getElementById("practice-start")?.focus());
}

export function closePractice() {
  const from = Practice.ctx && Practice.ctx.opener;
  Practice.open = false;
  Practice.ctx = null;
  changed();
  document.getElementById(from || "practice-button")?.focus();
}

// ctx = {names, seat, body(seat, level, hidden) -> JSON text, post(url, text) -> Response, from (the replay's link)}.
async function start(ctx) {
  if (Practice.busy) return;
  Practice.busy = true;
  Practice.error = null;
  changed();
  try {
    const body = ctx.body({ seat: Practice.seat, level: Practice.level, hidden: Practice.hidden, name: savedName() });
    const response = await ctx.post("/api/practice", body);
    let got = null;
    try {
      got = await response.json();
    } catch (e) {
      got = null;
    }
    go(response.ok, got, ctx.from, body);
  } catch (e) {
    Practice.busy = false;
    Practice.error = e.message;
    changed();
  }
}

// To the practice table made (``got``: POST /api/practice's answer), keeping its seat's
// token, the replay it came from and, for a table's game (a short body), how to make
// it again; a refusal is thrown as its sentence.
function go(ok, got, from, body) {
  if (!ok || !got || !got.code) throw new Error(got && got.error ? sentenceStart(got.error) : t("The server could not be reached; try again."));
  localStorage.setItem(seatKey(got.code), JSON.stringify({ seat: got.seat, token: got.token }));
  localStorage.setItem(FROM + got.code, JSON.stringify({ from, again: body.length < 2000 ? body : null }));
  location.assign(got.link);
}

function saved(code) {
  try {
    const found = JSON.parse(localStorage.getItem(FROM + code) || "null");
    return found && typeof found.from === "string" ? found : null;
  } catch (e) {
    return null;
  }
}

// The summary's "Play it again": the same position, the same choices, a new table.
async function again(frame, found, button) {
  button.disabled = true;
  try {
    const { ok, data } = await accountPost("/api/practice?lang=" + encodeURIComponent(I18N.language), JSON.parse(found.again));
    go(ok, data, found.from, found.again);
  } catch (e) {
    button.disabled = false;
    button.title = e.message;
    button.textContent = e.message;
  }
}

function radios(name, choices, chosen, pick) {
  return h("div", { class: "segmented practice-choice", role: "radiogroup", "aria-labelledby": name + "-title" },
    choices.map(([value, label]) => h("label", { class: "level" + (value === chosen ? " on" : "") },
      h("input", { type: "radio", name, value: String(value), checked: value === chosen, onchange: () => { pick(value); changed(); } }),
      h("span", { text: label }))));
}

// The replay's button (disabled where the round is over at the step shown).
export function practiceButton(ctx, over) {
  return h("div", { class: "practice-start" },
    h("button", { type: "button", class: "primary small", id: "practice-button", "data-key": "practice", "aria-haspopup": "dialog",
      disabled: over, "aria-describedby": "practice-why", onclick: () => openPractice(ctx) }, t("Play on from here")),
    h("span", { class: "muted small", id: "practice-why", text: over
      ? t("The round is over at this move: step back to a move where it goes on.")
      : t("Play this position on against the computer, from the seat whose view is shown.") }));
}

// A decision's own button (the analysis's list, the board's marks): the dialog for the
// position before its move. ctx as for openPractice, with ctx.decision and ctx.opener
// (this button's id, focused again when the dialog closes).
export function decisionPracticeButton(ctx) {
  return h("button", { type: "button", class: "small practice-decision", id: ctx.opener, "data-key": ctx.opener, "aria-haspopup": "dialog",
    onclick: () => openPractice(ctx) }, t("Play on from before this move"));
}

// The dialog, for the position it was opened for (Practice.ctx).
export function practiceDialog() {
  const ctx = Practice.ctx;
  if (!Practice.open || !ctx) return null;
  const all = levels();
  const chosen = all.find((l) => l.name === Practice.level) || all[0] || null;
  const where = ctx.decision;
  const body = [
    h("h2", { id: "practice-title", text: where ? t("Play on from before this move") : t("Play on from here") }),
    where ? h("p", { id: "practice-where", text: t("Round {n}, before move {i}: {name} to move.", { n: where.round, i: where.index, name: where.name }) }) : null,
    h("p", { class: "muted", text: t("One round, not rated, not kept in your games.") }),
  ];
  if (ctx.seat === null) {
    body.push(h("h3", { id: "practice-seat-title", text: t("Your seat") }),
      radios("practice-seat", ctx.names.map((name, seat) => [seat, seatNo(seat) + ": " + name]), Practice.seat, (v) => { Practice.seat = v; }));
  }
  body.push(h("h3", { id: "practice-level-title", text: t("The computer plays") }),
    radios("practice-level", all.map((l) => [l.name, l.title]), Practice.level, (v) => { Practice.level = v; }),
    chosen ? h("p", { class: "level-about", text: chosen.about }) : null,
    h("h3", { id: "practice-hidden-title", text: t("The hidden tiles") }),
    radios("practice-hidden", [["real", t("As they were")], ["redeal", t("Dealt again")]], Practice.hidden, (v) => { Practice.hidden = v; }),
    h("p", { class: "level-about", id: "practice-hidden-about", text: Practice.hidden === "real"
      ? t("The other hands and the boneyard hold what they held in the game.")
      : t("The tiles you cannot see are shuffled again among the other hands and the boneyard, in keeping with everything you saw.") }),
    Practice.busy ? h("p", { class: "muted", role: "status", text: t("Setting up the table…") }) : null,
    Practice.error ? h("p", { class: "replay-error", id: "practice-error", role: "alert", text: Practice.error }) : null);
  return dialogBox({
    cls: "practice-dialog",
    labelledby: "practice-title",
    onBackdrop: closePractice,
    body,
    buttons: [
      h("button", { type: "button", class: "primary", id: "practice-start", "data-key": "practice-start", disabled: Practice.busy || !chosen,
        onclick: () => start(ctx) }, t("Start playing")),
      h("button", { type: "button", id: "practice-cancel", "data-key": "practice-cancel", onclick: closePractice }, t("Cancel")),
    ],
  });
}

// -- at the practice table ------------------------------------------------------------

export function practiceNote(frame) {
  if (!frame.practice) return null;
  return h("p", { class: "practice-note", id: "practice-note" },
    h("strong", { text: t("Practice round") }), " ", h("span", { text: t("One round, not rated, not kept in your games.") }));
}

export function practiceLinks(frame) {
  const found = saved(frame.table);
  if (!found || !found.from.startsWith("/replay")) return [];
  const links = [h("a", { class: "button primary", id: "practice-back", href: found.from }, t("Back to the replay"))];
  if (found.again) {
    links.push(h("button", { type: "button", id: "practice-again", "data-key": "practice-again", onclick: (e) => again(frame, found, e.currentTarget) }, t("Play it again")));
  }
  return links;
}
