// The tutorial (issue 25): /learn. Short lessons, each a set-up position in which
// the page asks for one move; the server (web/learn/api.py) knows the lessons,
// replays each through the engine and says whether a move is the one asked for
// and why. This page only draws the learner's view and sends the move tapped.
// Progress is kept in the browser (localStorage), by lesson id, and for a
// signed-in person on the account too (GET /api/learn's `done`, POST
// /api/learn/done): what the browser did before signing in is added. The lessons
// come in parts (P47): the basics end in a real game against the Beginner bot, as
// the lobby's card starts it (or "More lessons"); the target and teams, and playing
// well, follow, offered by the lobby once the basics are done (lessons.js). "Play
// the computer now" starts that game at any time. Keys: D, P, Escape, the arrows
// (onKey, from keys.js).

import { accountPost } from "./account.js";
import { backTile, domino, h, tileParts, tileText } from "./dom.js";
import { I18N, nt, t } from "./i18n.js";
import { DONE_KEY, lessonsDone } from "./lessons.js";
import { savedName, send } from "./socket.js";
import { S, changed } from "./state.js";
import { pageTools } from "./tools.js";

// Each part's heading (the lessons' `part`, passing_game.learn.PARTS).
function partTitle(part) {
  return part === "basics" ? t("The basics") : part === "game" ? t("Target and teams") : t("Playing well");
}

export const Learn = (() => {
  const L = { on: false, list: null, view: null, id: null, answer: null, choosing: null, error: null, busy: false, lang: null, signedIn: false };

  const done = lessonsDone;

  function markDone(...ids) {
    const got = done();
    for (const id of ids) got.add(id);
    localStorage.setItem(DONE_KEY, JSON.stringify([...got]));
  }

  // A signed-in person's lessons: the account's join the browser's, and the
  // browser's the account lacks are sent to it.
  function joinAccount(listed) {
    L.signedIn = Array.isArray(listed.done);
    if (!L.signedIn) return;
    const known = new Set(L.list.map((l) => l.id));
    const missing = [...done()].filter((id) => known.has(id) && !listed.done.includes(id));
    markDone(...listed.done);
    if (missing.length) accountPost("/api/learn/done", { lessons: missing }).catch(() => {});
  }

  function active() {
    return L.on && location.pathname.replace(/\/$/, "") === "/learn";
  }

  // True when the address is the tutorial's: loads the lessons' list and the first
  // lesson not yet done.
  function route() {
    if (location.pathname.replace(/\/$/, "") !== "/learn") {
      L.on = false;
      return false;
    }
    L.on = true;
    if (!L.list) loadList();
    return true;
  }

  async function get(url) {
    const lang = encodeURIComponent(I18N.language || "en");
    const got = await fetch(url + (url.includes("?") ? "&" : "?") + "lang=" + lang);
    if (!got.ok) throw new Error(String(got.status));
    return got.json();
  }

  async function loadList() {
    L.lang = I18N.language;
    try {
      const listed = await get("/api/learn");
      L.list = listed.lessons;
      joinAccount(listed);
      const finished = done();
      const first = L.list.find((l) => !finished.has(l.id)) || L.list[0];
      await open(first.id);
    } catch (e) {
      L.error = t("The lesson could not be loaded.");
      changed();
    }
  }

  async function open(id) {
    L.id = id;
    L.answer = null;
    L.choosing = null;
    try {
      L.view = await get("/api/learn/" + encodeURIComponent(id));
      L.error = null;
    } catch (e) {
      L.error = t("The lesson could not be loaded.");
    }
    changed();
    requestAnimationFrame(() => document.getElementById("learn-title")?.focus());
  }

  async function tryMove(move) {
    if (L.busy || (L.answer && L.answer.ok)) return;
    L.busy = true;
    L.choosing = null;
    try {
      const got = await fetch("/api/learn/" + encodeURIComponent(L.id) + "/try?lang=" + encodeURIComponent(I18N.language || "en"), {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ move }) });
      const body = await got.json();
      L.answer = got.ok ? body : { ok: false, sentence: body.error };
      if (L.answer.ok) {
        markDone(L.id);
        if (L.signedIn) accountPost("/api/learn/done", { lessons: [L.id] }).catch(() => {});
        if (body.after) L.view = { ...L.view, ...body.after, legal: [] }; // what the move did
      }
    } finally {
      L.busy = false;
      changed();
      requestAnimationFrame(() => (L.answer && L.answer.ok ? document.getElementById("learn-play") || document.getElementById("learn-next") : document.getElementById("learn-sentence"))?.focus());
    }
  }

  // A tapped tile: the play if it has one end, the end choice if two, else the
  // server's sentence on why it does not fit.
  function tapTile(tile) {
    const plays = L.view.legal.filter((m) => m.slice(1) === tile && (m[0] === "L" || m[0] === "R"));
    if (plays.length === 2) {
      L.choosing = tile;
      L.answer = null;
      changed();
      requestAnimationFrame(() => document.getElementById("learn-end-L")?.focus());
    } else {
      tryMove(plays.length ? plays[0] : "L" + tile);
    }
  }

  function playComputer() {
    const name = (S.lobbyName ?? savedName()).trim() || t("Player");
    const levels = (S.config.levels || []).filter((l) => l.about);
    const level = (levels[0] || {}).name || S.config.default_level;
    S.watching = false;
    send({ type: "create", name, seats: ["you", level], rules: { players: 2 } });
  }

  function seats(v) {
    const rows = [];
    for (let i = 1; i < v.players; i++) {
      const seat = (v.seat + i) % v.players;
      const who = v.partnerships ? (seat % 2 === v.seat % 2 ? t("your partner") : t("opponent")) : null;
      rows.push(h("li", { class: "learn-seat" }, h("span", { class: "seat-name", text: t("Seat {n}", { n: seat + 1 }) }),
        who ? h("span", { class: "team", text: who }) : null, h("span", { text: nt("{n} tile", v.hand_sizes[seat]) })));
    }
    return h("ul", { class: "learn-seats" }, rows);
  }

  function train(v) {
    if (!v.train.length) return h("p", { class: "learn-train empty", text: t("The train is empty: any tile may lead.") });
    const tiles = v.train.map(([a, b]) => domino(a, b, { across: a !== b, small: true }));
    const ends = [];
    if (L.choosing) {
      const [a, b] = tileParts(L.choosing);
      const other = (n) => (n === a ? b : a);
      ends.push(h("p", { class: "learn-choose", text: t("Which end? Tap one.") }));
      for (const [end, shown] of [["L", v.ends[0]], ["R", v.ends[1]]]) {
        const label = t(end === "L" ? "Put [{a}|{b}] on the left end: it will show {n}" : "Put [{a}|{b}] on the right end: it will show {n}", { a, b, n: other(shown) });
        ends.push(h("button", { type: "button", class: "learn-end", id: "learn-end-" + end, "data-key": "learn-end-" + end, onclick: () => tryMove(end + L.choosing) }, label));
      }
    }
    return h("div", { class: "learn-board" },
      h("div", { class: "learn-train", role: "img", "aria-label": t("The train") + ": " + v.train.map(([a, b]) => tileText(a, b)).join(" ") },
        v.ends ? h("span", { class: "learn-endmark", text: t("Left end shows {n}", { n: v.ends[0] }) }) : null,
        h("span", { class: "learn-tiles" }, tiles),
        v.ends ? h("span", { class: "learn-endmark", text: t("Right end shows {n}", { n: v.ends[1] }) }) : null),
      ends.length ? h("div", { class: "learn-ends" }, ends) : null);
  }

  function lessonList() {
    const finished = done();
    const list = L.list || [];
    const parts = [...new Set(list.map((l) => l.part))];
    const item = (l) => h("li", { class: l.id === L.id ? "current" : "" },
      h("button", { type: "button", class: "small learn-pick", "data-key": "learn-pick-" + l.id, "aria-current": l.id === L.id ? "step" : null, onclick: () => open(l.id) },
        h("span", { text: l.title }), finished.has(l.id) ? h("span", { class: "tick", title: t("done") }, "✓", h("span", { class: "sr-only", text: " " + t("done") })) : null));
    return h("nav", { class: "learn-list card", "aria-labelledby": "learn-list-title" },
      h("h2", { id: "learn-list-title", text: t("Lessons") }),
      h("p", { class: "hint", text: nt("{n} lesson done", list.filter((l) => finished.has(l.id)).length) }),
      parts.map((part) => [h("h3", { class: "learn-part", id: "learn-part-" + part, text: partTitle(part) }),
        h("ol", { "aria-labelledby": "learn-part-" + part }, list.filter((l) => l.part === part).map(item))]));
  }

  // The lessons' words are the server's: a new language asks for them again.
  async function relanguage() {
    L.lang = I18N.language;
    const answered = L.answer;
    L.list = (await get("/api/learn")).lessons;
    await open(L.id);
    if (answered && answered.ok) markDone(L.id);
  }

  function draw() {
    if (L.view && L.lang && L.lang !== I18N.language) relanguage();
    const v = L.view;
    const head = h("header", { class: "learn-head" }, h("h1", { text: t("Learn to play") }),
      h("button", { type: "button", class: "primary", id: "learn-computer", onclick: playComputer }, t("Play the computer now")));
    if (!v) {
      return h("main", { class: "learn" }, pageTools(), head, h("p", { class: L.error ? "error" : "loading", text: L.error || "…" }));
    }
    const answer = L.answer;
    const last = !v.next;
    // The basics lead to a real game (P47); "More lessons" goes on to the next part.
    const toPlay = v.part === "basics" && v.part_end;
    const right = !answer || !answer.ok ? [] : last ? [
      h("p", { class: "learn-finished", text: t("You finished the tutorial. Now play a real game against the computer.") }),
      h("button", { type: "button", class: "primary big", id: "learn-play", onclick: playComputer }, t("Play the computer"))] : toPlay ? [
      h("p", { class: "learn-finished", text: t("You know the basics. Now play a real game against the computer.") }),
      h("div", { class: "row learn-fork" },
        h("button", { type: "button", class: "primary big", id: "learn-play", onclick: playComputer }, t("Play the computer")),
        h("button", { type: "button", id: "learn-next", onclick: () => open(v.next) }, t("More lessons")))] : [
      h("button", { type: "button", class: "primary big", id: "learn-next", onclick: () => open(v.next) }, t("Next lesson"))];
    const feedback = answer ? h("div", { class: "learn-feedback " + (answer.ok ? "right" : "wrong") },
      h("p", { id: "learn-sentence", tabindex: "-1", text: answer.sentence }),
      right,
      !answer.ok ? h("button", { type: "button", id: "learn-again", onclick: () => { L.answer = null; changed(); } }, t("Try again")) : null) : null;
    const locked = !!(answer && answer.ok);
    const hand = h("div", { class: "learn-hand", role: "group", "aria-label": t("Your hand") },
      v.hand.map((tile) => {
        const [a, b] = tileParts(tile);
        return domino(a, b, { button: { disabled: locked || L.busy, "data-key": "learn-tile-" + tile, onclick: () => tapTile(tile) }, extra: L.choosing === tile ? "chosen" : "" });
      }));
    const actions = h("div", { class: "learn-actions" },
      h("button", { type: "button", id: "learn-draw", disabled: locked || L.busy, onclick: () => tryMove("draw") }, t("Draw")),
      h("button", { type: "button", id: "learn-pass", disabled: locked || L.busy, onclick: () => tryMove("pass") }, t("Pass")));
    const scores = v.scores ? h("p", { class: "learn-scores", text: t("Scores: you {you}, your opponent {them}. Target {target}.", { you: v.scores[0], them: v.scores[1], target: v.target }) }) : null;
    return h("main", { class: "learn" }, pageTools(), head,
      h("div", { class: "learn-body" },
        h("section", { class: "learn-lesson card", "aria-labelledby": "learn-title" },
          h("p", { class: "learn-progress", text: t("Lesson {n} of {total}", { n: v.number, total: v.total }) + " · " + partTitle(v.part) }),
          h("h2", { id: "learn-title", tabindex: "-1", text: v.title }),
          h("p", { class: "learn-text", text: v.text }),
          seats(v),
          h("div", { class: "learn-boneyard" }, h("span", { text: nt("Boneyard: {n} tile.", v.boneyard) }),
            // Face down; the last two locked (R2.4): the text above says how many.
            h("span", { class: "learn-backs" }, Array.from({ length: v.boneyard }, (_, i) => backTile({ small: true, across: true, locked: i >= v.drawable })))),
          scores,
          train(v),
          hand,
          actions,
          h("div", { "aria-live": "polite" }, feedback)),
        lessonList()));
  }

  // The table's keys (keys.js): D draws, P passes, Escape drops the end choice,
  // the arrows move along the hand; Tab and Enter reach and press every button.
  function onKey(event) {
    const v = L.view;
    if (!v) return;
    const key = event.key.toLowerCase();
    const open = !(L.answer && L.answer.ok) && !L.busy;
    if (key === "escape" && L.choosing) {
      L.choosing = null;
      changed();
    } else if (key === "d" && open) {
      tryMove("draw");
    } else if (key === "p" && open) {
      tryMove("pass");
    } else if ((key === "arrowleft" || key === "arrowright") && event.target.closest && event.target.closest(".learn-hand")) {
      const tiles = [...document.querySelectorAll(".learn-hand .domino")];
      const at = tiles.indexOf(event.target);
      tiles[(at + (key === "arrowright" ? 1 : -1) + tiles.length) % tiles.length]?.focus();
      event.preventDefault();
    }
  }

  return { active, route, render: draw, onKey, get state() { return L; } };
})();
