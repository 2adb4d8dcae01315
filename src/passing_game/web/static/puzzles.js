// Puzzles (issue 25, item 2): /puzzles. A position from a real round in which one
// move is best, proved by the server's search (passing_game.puzzles); the solver
// taps the move, the server (web/puzzles/api.py) judges it, rates a first attempt
// (Glicko-2, the solver's and the puzzle's) and answers with every move's value
// and why. Three ways in: the next puzzle near your rating (/puzzles), the puzzle
// of the day (/puzzles/daily) and the streak (/puzzles/streak: harder and harder,
// one wrong answer ends it); /puzzles/ID opens one puzzle. An open puzzle shows
// every hand and the boneyard's order; a view puzzle only what the seat to move
// sees (the server sends no more) until the answer reveals the deal. /puzzles/mine
// lists the blunders of your own analysed games, /puzzles/mine/ID is one of them
// (minepuzzles.js; never rated).
// Keys: D, P, Escape, the arrows along the hand (onKey, from keys.js).

import { backTile, domino, h, tileParts, tileText } from "./dom.js";
import { I18N, nt, sentenceStart, t } from "./i18n.js";
import { mineAbout, mineList, mineTold } from "./minepuzzles.js";
import { ratingNum, signed } from "./ratings.js";
import { changed } from "./state.js";
import { pageTools } from "./tools.js";

export const Puzzles = (() => {
  const P = { on: false, path: null, mode: null, data: null, result: null, choosing: null, busy: false, error: null, note: null, csrf: null, lang: null };

  function here() {
    return location.pathname.replace(/\/$/, "");
  }

  function active() {
    return P.on && here().startsWith("/puzzles");
  }

  // True when the address is the puzzles': loads what it names (once per address).
  function route() {
    const path = here();
    if (path !== "/puzzles" && !path.startsWith("/puzzles/")) {
      P.on = false;
      return false;
    }
    P.on = true;
    if (P.path !== path) {
      P.path = path;
      const rest = path.slice("/puzzles/".length);
      P.mode = path === "/puzzles" ? "next" : rest === "daily" || rest === "streak" || rest === "mine" ? rest : rest.startsWith("mine/") ? "mine-one" : "one";
      const api = { next: "/api/puzzles/next", one: "/api/puzzles/" + encodeURIComponent(rest),
        "mine-one": "/api/puzzles/mine/" + encodeURIComponent(rest.slice("mine/".length)) }[P.mode] || "/api/puzzles/" + P.mode;
      load(api);
    }
    return true;
  }

  function go(path) {
    if (here() !== path) history.pushState(null, "", path);
    P.path = null;
    route();
  }

  // -- talking to the server ---------------------------------------------------------

  function withLang(url) {
    return url + (url.includes("?") ? "&" : "?") + "lang=" + encodeURIComponent(I18N.language || "en");
  }

  async function csrf() {
    if (!P.csrf) P.csrf = (await fetch("/api/account", { credentials: "same-origin" }).then((r) => r.json())).csrf;
    return P.csrf;
  }

  async function post(url, body) {
    const send = async () => fetch(withLang(url), { method: "POST", credentials: "same-origin", body: JSON.stringify(body || {}),
      headers: { "Content-Type": "application/json", "X-CSRF-Token": await csrf() } });
    let response = await send();
    if (response.status === 403) { // the token is the session's: signing in or out changed it
      P.csrf = null;
      response = await send();
    }
    return response;
  }

  async function load(url, options) {
    P.busy = true;
    P.result = null;
    P.choosing = null;
    P.note = null;
    P.lang = I18N.language;
    changed();
    try {
      const got = options ? await post(url) : await fetch(withLang(url), { credentials: "same-origin", cache: "no-store" });
      const body = await got.json();
      if (body.you) P.you = body.you;
      if (!got.ok) {
        P.data = null;
        P.error = body.code === "signed-out" ? t("Sign in to make puzzles of your own games.") : body.error || t("The puzzle could not be loaded.");
      } else {
        P.data = body;
        P.error = null;
        if (P.mode === "streak" && !body.puzzle) P.data = { ...body, puzzle: null };
      }
    } catch (e) {
      P.error = t("The puzzle could not be loaded.");
    } finally {
      P.busy = false;
      changed();
      requestAnimationFrame(() => document.getElementById("puzzle-prompt")?.focus());
    }
  }

  async function answer(move) {
    const puzzle = P.data && P.data.puzzle;
    if (!puzzle || P.busy || P.result) return;
    P.busy = true;
    P.choosing = null;
    P.note = null;
    changed();
    try {
      const base = P.mode === "mine-one" ? "/api/puzzles/mine/" : "/api/puzzles/";
      const got = await post(base + encodeURIComponent(puzzle.id) + "/solve", { move });
      const body = await got.json();
      if (got.ok) {
        P.result = body;
        P.you = body.you;
      } else {
        P.note = body.error || t("The puzzle could not be loaded.");
      }
    } catch (e) {
      P.note = t("The puzzle could not be loaded.");
    } finally {
      P.busy = false;
      changed();
      requestAnimationFrame(() => document.getElementById(P.result ? "puzzle-verdict" : "puzzle-note")?.focus());
    }
  }

  function next() {
    if (P.mode === "streak") {
      const s = P.result && P.result.streak;
      if (s && !s.over && s.next) load("/api/puzzles/" + encodeURIComponent(s.next));
      else load("/api/puzzles/streak", { post: true });
    } else if (P.mode === "next") {
      load("/api/puzzles/next");
    } else {
      go("/puzzles");
    }
  }

  // A tapped tile: the play if it has one end, the end choice if two; a tile that
  // fits no end is sent too, and the server says why it is not a move.
  function tapTile(tile) {
    const plays = P.data.puzzle.legal.filter((m) => m.slice(1) === tile && (m[0] === "L" || m[0] === "R"));
    if (plays.length === 2) {
      P.choosing = tile;
      P.note = null;
      changed();
      requestAnimationFrame(() => document.getElementById("puzzle-end-L")?.focus());
    } else {
      answer(plays.length ? plays[0] : "L" + tile);
    }
  }

  // -- drawing -----------------------------------------------------------------------

  function value(v, kind) {
    return new Intl.NumberFormat(I18N.language, { maximumFractionDigits: kind === "view" ? 1 : 0, signDisplay: "exceptZero" }).format(v);
  }

  function tiles(list, opts = {}) {
    return h("span", { class: "puzzle-tiles" + (opts.cls ? " " + opts.cls : "") }, list.map((tile, i) => {
      const [a, b] = tileParts(tile);
      return domino(a, b, { small: true, extra: opts.locked && i >= list.length - 2 ? "locked" : "" });
    }));
  }

  function who(p, seat) {
    if (seat === p.seat) return t("You");
    return t("Seat {n}", { n: seat + 1 });
  }

  function side(p, seat) {
    if (!p.partnerships || seat === p.seat) return null;
    return h("span", { class: "team", text: seat % 2 === p.seat % 2 ? t("your partner") : t("opponent") });
  }

  // The other seats: their tiles (an open puzzle's, or every one once revealed) or their count.
  function seats(p, reveal) {
    const hands = reveal ? reveal.hands : p.hands;
    const rows = [];
    for (let i = 1; i < p.players; i++) {
      const seat = (p.seat + i) % p.players;
      rows.push(h("li", { class: "puzzle-seat", "data-seat": String(seat) },
        h("span", { class: "seat-name", text: who(p, seat) }), side(p, seat),
        hands ? tiles(hands[seat]) : h("span", { text: nt("{n} tile", p.hand_sizes[seat]) })));
    }
    return h("ul", { class: "puzzle-seats" }, rows);
  }

  function boneyard(p, reveal) {
    const order = reveal ? reveal.boneyard_tiles : p.boneyard_tiles;
    return h("div", { class: "puzzle-boneyard" },
      h("span", { text: nt("Boneyard: {n} tile.", p.boneyard) }),
      order ? h("span", { class: "puzzle-order", "aria-label": t("Boneyard, in the order it is drawn") }, tiles(order, { locked: true }))
        : h("span", { class: "puzzle-backs" }, Array.from({ length: p.boneyard }, (_, i) => backTile({ small: true, locked: i >= p.drawable }))));
  }

  function train(p) {
    if (!p.train.length) return h("div", { class: "puzzle-board" }, h("p", { class: "puzzle-train empty", text: t("The train is empty: any tile may lead.") }));
    const ends = [];
    if (P.choosing) {
      const [a, b] = tileParts(P.choosing);
      const other = (n) => (n === a ? b : a);
      ends.push(h("p", { class: "puzzle-choose", text: t("Which end? Tap one.") }));
      for (const [end, shown] of [["L", p.ends[0]], ["R", p.ends[1]]]) {
        const label = t(end === "L" ? "Put [{a}|{b}] on the left end: it will show {n}" : "Put [{a}|{b}] on the right end: it will show {n}", { a, b, n: other(shown) });
        ends.push(h("button", { type: "button", class: "puzzle-end", id: "puzzle-end-" + end, "data-key": "puzzle-end-" + end, onclick: () => answer(end + P.choosing) }, label));
      }
    }
    return h("div", { class: "puzzle-board" },
      h("div", { class: "puzzle-train", role: "img", "aria-label": t("The train") + ": " + p.train.map(([a, b]) => tileText(a, b)).join(" ") },
        h("span", { class: "puzzle-endmark", text: t("Left end shows {n}", { n: p.ends[0] }) }),
        h("span", { class: "puzzle-line" }, p.train.map(([a, b]) => domino(a, b, { across: a !== b, small: true }))),
        h("span", { class: "puzzle-endmark", text: t("Right end shows {n}", { n: p.ends[1] }) })),
      ends.length ? h("div", { class: "puzzle-ends" }, ends) : null);
  }

  function hand(p) {
    const locked = !!P.result || P.busy;
    return h("div", { class: "puzzle-hand", role: "group", "aria-label": t("Your hand") },
      p.hand.map((tile) => {
        const [a, b] = tileParts(tile);
        return domino(a, b, { button: { disabled: locked, "data-key": "puzzle-tile-" + tile, onclick: () => tapTile(tile) }, extra: P.choosing === tile ? "chosen" : "" });
      }));
  }

  function actions(p) {
    const locked = !!P.result || P.busy;
    return h("div", { class: "puzzle-actions" },
      h("button", { type: "button", id: "puzzle-draw", disabled: locked || !p.legal.includes("draw"), onclick: () => answer("draw") }, t("Draw")),
      h("button", { type: "button", id: "puzzle-pass", disabled: locked || !p.legal.includes("pass"), onclick: () => answer("pass") }, t("Pass")));
  }

  function youBox() {
    const you = P.you;
    if (!you) return null;
    return h("p", { class: "puzzle-you", id: "puzzle-you" },
      h("span", { id: "puzzle-you-rating", text: t("Your puzzle rating: {rating}", { rating: ratingNum(you.rating) }) }),
      you.settling ? h("span", { class: "settling", text: t("still settling") }) : null,
      h("span", { text: nt("{n} puzzle solved", you.solved) }),
      you.streak.best ? h("span", { text: t("Best streak: {n}", { n: you.streak.best }) }) : null);
  }

  function tabs() {
    const on = (mode) => P.mode === mode || (mode === "mine" && P.mode === "mine-one");
    const tab = (mode, path, label) => h("a", { href: path, class: "button small" + (on(mode) ? " on" : ""), id: "puzzles-tab-" + mode,
      "aria-current": on(mode) ? "page" : null, onclick: (e) => { e.preventDefault(); go(path); } }, label);
    return h("nav", { class: "puzzle-tabs", "aria-label": t("Puzzles") },
      tab("next", "/puzzles", t("Solve a puzzle")), tab("daily", "/puzzles/daily", t("Puzzle of the day")), tab("streak", "/puzzles/streak", t("Streak")),
      tab("mine", "/puzzles/mine", t("From your games")));
  }

  function change(label, c, id) {
    return h("p", { class: "puzzle-change", id },
      h("span", { class: "label", text: label }),
      h("span", { text: t("{before} → {after}", { before: ratingNum(c.before), after: ratingNum(c.after) }) }),
      h("span", { class: c.delta > 0 ? "up" : c.delta < 0 ? "down" : "", text: signed(c.delta) }));
  }

  function verdict(p) {
    const r = P.result;
    const mine = r.values.find((row) => row.move === r.move);
    const best = r.values.filter((row) => r.answer.includes(row.move));
    const streak = P.mode === "streak" ? r.streak : null;
    const estimate = p.mine && p.mine.valued === "estimate";
    const caption = estimate ? t("Points for your side, as the analysis estimated them.")
      : p.kind === "view" ? t("Points for your side with best play after it, on average over the deals.") : t("Points for your side with best play after it.");
    return h("div", { class: "puzzle-feedback " + (r.correct ? "right" : "wrong") },
      h("p", { class: "puzzle-verdict", id: "puzzle-verdict", tabindex: "-1", text: r.correct ? (estimate ? t("Right: the analysis finds no mistake in that move.") : t("Right: that is the best move.")) : t("Not the best move.") }),
      !r.correct && mine ? h("p", {}, h("span", { class: "label", text: t("Your move") }), h("span", { text: sentenceStart(mine.words) }), h("span", { text: mine.text })) : null,
      h("p", {}, h("span", { class: "label", text: t("The best move") }), h("span", { id: "puzzle-best", text: best.map((row) => sentenceStart(row.words)).join(" · ") })),
      h("table", { class: "puzzle-values" },
        h("caption", { text: t("Every move") + ": " + caption }),
        h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("Move") }), h("th", { scope: "col", text: t("Points") }), h("th", { scope: "col", class: "why" }))),
        h("tbody", {}, r.values.map((row) => h("tr", { class: (row.best ? "best" : "") + (row.move === r.move ? " mine" : ""), "data-move": row.move },
          h("th", { scope: "row", text: sentenceStart(row.words) }), h("td", { class: "num", text: value(row.value, p.kind) }), h("td", { class: "why", text: row.text }))))),
      r.mine ? mineTold(r, go)
        : r.rated ? [change(t("Your puzzle rating"), r.solver, "puzzle-solver-change"), change(t("This puzzle's rating"), r.puzzle_rating, "puzzle-rating-change")]
          : h("p", { class: "hint", text: t("You tried this puzzle before: this answer does not change the ratings.") }),
      streak && streak.over ? h("p", { class: "puzzle-streak-over", id: "puzzle-streak-over", text: nt("The streak ends: {n} puzzle solved.", streak.run) }) : null,
      r.mine ? null : h("div", { class: "row" },
        P.mode === "daily" ? null : h("button", { type: "button", class: "primary big", id: "puzzle-next", onclick: next },
          streak && streak.over ? t("Start a new streak") : t("Next puzzle")),
        P.mode === "daily" ? h("a", { href: "/puzzles", class: "button primary big", id: "puzzle-next", onclick: (e) => { e.preventDefault(); go("/puzzles"); } }, t("Solve a puzzle")) : null));
  }

  function streakStart() {
    const you = P.you || { streak: { best: 0 } };
    return h("section", { class: "puzzle card" },
      h("h2", { id: "puzzle-prompt", tabindex: "-1", text: t("Streak") }),
      h("p", { text: t("Harder and harder puzzles: one wrong answer ends the streak.") }),
      you.streak.best ? h("p", { text: t("Best streak: {n}", { n: you.streak.best }) }) : null,
      h("button", { type: "button", class: "primary big", id: "puzzle-streak-start", disabled: P.busy, onclick: () => load("/api/puzzles/streak", { post: true }) }, t("Start a streak")));
  }

  function puzzleCard(p) {
    const data = P.data;
    const reveal = P.result ? P.result.reveal : null;
    const streakRun = P.mode === "streak" ? (P.result && P.result.streak ? P.result.streak.run : (P.you ? P.you.streak.run : 0)) : null;
    const about = p.kind === "open" ? t("Open hands: you see every hand and the order of the boneyard.") : t("Your view: you see your own hand and what everyone played, as at the table.");
    const proof = p.kind !== "view" ? null : p.proof === "every-deal" ? t("The best move is the best in every possible deal of the tiles you cannot see.")
      : t("The best move is the best on average over every possible deal of the tiles you cannot see.");
    return h("section", { class: "puzzle card", "aria-labelledby": "puzzle-prompt", "data-puzzle": p.id, "data-kind": p.kind },
      h("div", { class: "puzzle-meta" },
        P.mode === "daily" && data.day ? h("span", { class: "puzzle-day", text: t("Puzzle of the day") + " · " + data.day }) : null,
        streakRun !== null ? h("span", { class: "puzzle-run", id: "puzzle-run", text: t("Streak: {n}", { n: streakRun }) }) : null,
        p.mine ? null : h("span", { id: "puzzle-rating", text: t("Puzzle rating: {rating}", { rating: ratingNum(p.rating) }) }),
        // the themes say what the answer is about (a block, a pass that wins): shown once answered, as lichess does
        P.result && p.themes.length ? h("span", { class: "puzzle-themes", "aria-label": t("Themes") }, p.themes.map((th) => h("span", { class: "chip", text: th.name }))) : null),
      h("h2", { id: "puzzle-prompt", tabindex: "-1", text: t("Your move: find the best one.") }),
      p.mine ? mineAbout(p) : [h("p", { class: "puzzle-about", text: about }), proof ? h("p", { class: "puzzle-about hint", text: proof }) : null],
      data.tried && !P.result && !p.mine ? h("p", { class: "hint", text: t("You tried this puzzle before: this answer does not change the ratings.") }) : null,
      seats(p, reveal),
      boneyard(p, reveal),
      train(p),
      h("p", { class: "puzzle-hand-label", text: t("Your hand") }),
      hand(p),
      actions(p),
      P.note ? h("p", { class: "error", id: "puzzle-note", tabindex: "-1", role: "alert", text: P.note }) : null,
      h("div", { "aria-live": "polite" }, P.result ? verdict(p) : null),
      p.log.length ? h("details", { class: "puzzle-log" }, h("summary", { text: t("Moves so far") }), h("ol", {}, p.log.map((line) => h("li", { text: line })))) : null);
  }

  function draw() {
    if (P.lang && P.lang !== I18N.language && !P.busy) { // the server's words, again in the new language
      P.path = null;
      route();
    }
    const head = h("header", { class: "puzzle-head" }, h("h1", { text: t("Puzzles") }), youBox());
    let body;
    if (P.error) body = h("p", { class: "error", id: "puzzle-error", text: P.error });
    else if (P.mode === "streak" && P.data && !P.data.puzzle) body = streakStart();
    else if (P.mode === "mine" && P.data) body = mineList(P.data, go);
    else if (!P.data || !P.data.puzzle) body = h("p", { class: "loading", text: "…" });
    else body = puzzleCard(P.data.puzzle);
    return h("main", { class: "puzzles" }, pageTools(), head, tabs(), body);
  }

  function onKey(event) {
    const p = P.data && P.data.puzzle;
    if (!p) return;
    const key = event.key.toLowerCase();
    const open = !P.result && !P.busy;
    if (key === "escape" && P.choosing) {
      P.choosing = null;
      changed();
    } else if (key === "d" && open && p.legal.includes("draw")) {
      answer("draw");
    } else if (key === "p" && open && p.legal.includes("pass")) {
      answer("pass");
    } else if ((key === "arrowleft" || key === "arrowright") && event.target.closest && event.target.closest(".puzzle-hand")) {
      const all = [...document.querySelectorAll(".puzzle-hand .domino")];
      const at = all.indexOf(event.target);
      all[(at + (key === "arrowright" ? 1 : -1) + all.length) % all.length]?.focus();
      event.preventDefault();
    }
  }

  return { active, route, render: draw, onKey, get state() { return P; } };
})();
