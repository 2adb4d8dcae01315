// Replay and analysis of a finished game (issue 13; the server's side is web/review.py).
//
// /replay/CODE/GAME steps through a table's finished game; /replay opens a
// downloaded record (an upload, never stored). The server replays the record
// through the engine and sends every step (train, hands, boneyard, the move and
// its sentence, scores, round results): this page draws them and knows no rule.
// From one seat's view the other hands stay face down until their round ends;
// "Every hand open" shows them all. ← and → step, Home and End jump, and
// ?seat=N&step=K (N from 1, 0 for every hand) is the link to share.
//
// The analysis: the expert judges each decision of one seat from that seat's
// view (POST /api/analysis starts it in the server's worker processes, GET
// /api/analysis/HASH/SEAT tells its progress and then its result).
// Every text comes from t()/nt() (i18n.js) or from the server, in the page's language.

import { backTile, domino, field, h, tileParts, toolButton } from "./dom.js";
import { boardMarks, decisionMarks, evalGraph, markTile, points, signed, stepOf } from "./evalgraph.js";
import { I18N, nt, sentenceStart, t } from "./i18n.js";
import { replayFairness } from "./fairness.js";
import { Motion } from "./motion.js";
import { Practice, closePractice, decisionPracticeButton, practiceButton, practiceDialog } from "./practice.js";
import { botMark, seatNo } from "./seat.js";
import { changed } from "./state.js";
import { copyLink, pageTools } from "./tools.js";

export const Replay = (() => {
  const MAX_BYTES = 256 * 1024;
  const R = {
    on: false,
    code: null,
    game: null,
    data: null,
    record: null, // the uploaded record's text, to ask for its analysis
    error: null,
    loading: false,
    step: 0,
    seat: null, // the seat whose view is shown (0-based), null: every hand open
    analyseSeat: 0,
    analyses: {}, // seat -> {status, done, total, analysis, error}
    poll: null,
    csrf: null,
  };

  // -- the address ---------------------------------------------------------------

  function active() {
    return R.on;
  }

  // Reads /replay[/CODE/GAME][?seat=N&step=K]; true when this page is a replay.
  function route() {
    const path = location.pathname.match(/^\/replay(?:\/([A-Za-z0-9]+)\/([0-9]{1,10}))?\/?$/);
    if (!path) {
      R.on = false;
      return false;
    }
    const query = new URLSearchParams(location.search);
    const code = path[1] ? path[1].toUpperCase() : null;
    const game = path[2] ? Number(path[2]) : null;
    const fresh = !R.on || code !== R.code || game !== R.game;
    R.on = true;
    R.code = code;
    R.game = game;
    const seat = Number(query.get("seat"));
    R.wantSeat = Number.isInteger(seat) && seat >= 1 && seat <= 4 ? seat - 1 : null;
    const step = Number(query.get("step"));
    R.wantStep = Number.isInteger(step) && step >= 0 ? step : 0;
    if (fresh) {
      R.data = null;
      R.error = null;
      R.analyses = {};
      if (code) load();
    }
    if (R.data) applyWanted();
    return true;
  }

  function applyWanted() {
    R.seat = R.wantSeat !== null && R.wantSeat < R.data.players ? R.wantSeat : null;
    R.step = Math.min(R.wantStep, R.data.steps.length - 1);
    if (R.seat !== null) R.analyseSeat = R.seat;
  }

  function shareLink() {
    const base = location.origin + `/replay/${R.code}/${R.game}`;
    return base + `?seat=${R.seat === null ? 0 : R.seat + 1}&step=${R.step}`;
  }

  function remember() {
    if (!R.code) return;
    const url = `/replay/${R.code}/${R.game}?seat=${R.seat === null ? 0 : R.seat + 1}&step=${R.step}`;
    if (location.pathname + location.search !== url) history.replaceState(null, "", url);
  }

  // -- talking to the server -------------------------------------------------------

  async function csrf() {
    if (!R.csrf) {
      const got = await fetch("/api/account", { credentials: "same-origin" }).then((r) => r.json());
      R.csrf = got.csrf;
    }
    return R.csrf;
  }

  async function post(url, body, type) {
    const send = async () => fetch(url, { method: "POST", credentials: "same-origin", body,
      headers: { "Content-Type": type || "application/json", "X-CSRF-Token": await csrf() } });
    let response = await send();
    if (response.status === 403) {
      // The token is the session's: signing in or out on this page changed it.
      R.csrf = null;
      response = await send();
    }
    return response;
  }

  async function answer(response) {
    let body = null;
    try {
      body = await response.json();
    } catch (e) {
      body = null;
    }
    if (!response.ok && !(body && body.status)) {
      throw new Error(body && body.error ? sentenceStart(body.error) : t("The server could not be reached; try again."));
    }
    return body;
  }

  async function load() {
    R.loading = true;
    R.error = null;
    rerender();
    try {
      let response;
      if (R.code) response = await fetch(`/api/replay/${R.code}/${R.game}?lang=` + encodeURIComponent(I18N.language));
      else response = await post("/api/replay?lang=" + encodeURIComponent(I18N.language), R.record);
      R.data = await answer(response);
      applyWanted();
      remember();
      for (const seat of Object.keys(R.analyses)) if (R.analyses[seat].status === "done") checkAnalysis(Number(seat));
    } catch (e) {
      R.data = null;
      R.error = e.message;
    }
    R.loading = false;
    rerender();
  }

  function rerender() {
    if (R.on) changed();
  }

  // -- the upload ------------------------------------------------------------------------

  async function openFile(input) {
    const file = input.files && input.files[0];
    if (!file) return;
    if (file.size > MAX_BYTES) {
      R.error = t("The file is too large: a game record is at most {n} KB.", { n: MAX_BYTES / 1024 });
      rerender();
      return;
    }
    R.record = await file.text();
    R.analyses = {};
    await load();
  }

  function renderUpload() {
    const input = h("input", { type: "file", id: "record-file", accept: ".json,application/json", onchange: (e) => openFile(e.target) });
    return h("main", { class: "lobby replay-open" },
      pageTools(),
      h("header", { class: "hero" },
        h("h1", { text: t("Replay a game") }),
        h("p", { class: "tagline", text: t("Open a game record downloaded at the end of a game to step through it and analyse it.") })),
      h("section", { class: "card" },
        field(t("Game record (a .json file)"), input),
        R.loading ? h("p", { class: "muted", text: t("Loading…") }) : null,
        R.error ? h("p", { class: "replay-error", id: "replay-error", role: "alert", text: R.error }) : null,
        h("p", {}, h("a", { href: "/", text: t("Back to the lobby") }))));
  }

  // -- stepping --------------------------------------------------------------------------

  function go(step) {
    if (!R.data) return;
    R.step = Math.max(0, Math.min(R.data.steps.length - 1, step));
    remember();
    changed();
  }

  function onKey(event) {
    if (!R.data) return;
    const key = event.key;
    if (Practice.open) { // the dialog's radios take the arrows; Escape closes it
      if (key === "Escape") closePractice();
      return;
    }
    if (key === "ArrowRight") go(R.step + 1);
    else if (key === "ArrowLeft") go(R.step - 1);
    else if (key === "Home") go(0);
    else if (key === "End") go(R.data.steps.length - 1);
    else return;
    event.preventDefault();
  }

  function chooseSeat(value) {
    R.seat = value === "" ? null : Number(value);
    if (R.seat !== null) R.analyseSeat = R.seat;
    remember();
    changed();
  }

  // -- drawing a step ----------------------------------------------------------------------

  function tiles(list, small) {
    return list.map((tile) => { const [a, b] = tileParts(tile); return domino(a, b, { small }); });
  }

  function seatName(seat) {
    return R.data.names[seat];
  }

  function renderSeat(step, seat, marks) {
    const d = R.data;
    const hand = step.hands[seat];
    const roundOver = !!step.summary;
    const open = R.seat === null || R.seat === seat || roundOver;
    const cls = ["seat-card", "replay-seat"];
    if (step.to_move === seat) cls.push("to-move");
    if (R.seat === seat) cls.push("you");
    const score = step.scores[d.side_of[seat]];
    return h("section", { class: cls.join(" "), "aria-label": seatName(seat) + ", " + seatNo(seat), dataset: { seat: String(seat) } },
      h("div", { class: "seat-head" },
        h("span", { class: "seat-name", text: seatName(seat) }),
        d.bots && d.bots[seat] ? botMark() : null, // a bot account's seat (P62)
        step.to_move === seat ? h("span", { class: "turn-badge", text: t("to move") }) : null),
      h("div", { class: "seat-meta" },
        h("span", { class: "seat-no", text: seatNo(seat) }),
        h("span", { class: "count", text: nt("{n} tile", hand.length) }),
        open ? h("span", { class: "pips", text: nt("{n} pip", step.pips[seat]) }) : null,
        d.rules.partnerships ? h("span", { class: "team", text: t("Team {a}+{b}", { a: d.side_of[seat] + 1, b: d.side_of[seat] + 3 }) }) : null,
        h("span", { class: "score", text: nt("{n} point", score) })),
      h("div", { class: open ? "replay-hand" : "backs", role: open ? "list" : null, "aria-hidden": open ? null : "true" },
        open ? (hand.length ? tiles(hand, true).map((el, i) => (marks && step.turn.seat === seat && hand[i] === marks.handTile ? markTile(el, "best") : el))
          : h("em", { text: t("empty") })) : hand.map(() => backTile({ small: true }))));
  }

  function renderTrain(step, marks) {
    const box = h("div", { class: "train", id: "replay-train", role: "list", "aria-label": t("The train") });
    if (!step.train.length) {
      box.append(h("p", { class: "empty-train", text: t("The train is empty: any tile may lead.") }));
      return box;
    }
    step.train.forEach(([a, b], i) => {
      const tile = domino(a, b, { across: a !== b });
      tile.setAttribute("role", "listitem");
      if (marks && marks.trainAt === i) markTile(tile, "played", marks.kind);
      box.append(tile);
    });
    return box;
  }

  function stepTitle(step) {
    if (step.index === 0) return t("Round {n} · the deal", { n: step.round });
    return t("Round {n} · move {i} of {total}", { n: step.round, i: step.index, total: step.total });
  }

  // The analysis's row for the move that made this step, if that seat's analysis is done.
  function evaluationOf(step) {
    if (!step.turn) return null;
    const found = R.analyses[step.turn.seat];
    if (!found || !found.analysis) return null;
    return found.analysis.evaluations.find((e) => e.round === step.round && e.index === step.index) || null;
  }

  function markBadge(mark) {
    if (!mark) return null;
    return h("span", { class: "mark mark-" + mark, text: mark === "blunder" ? t("blunder") : t("mistake") });
  }

  function renderPad(step) {
    const d = R.data;
    const rows = d.pad.slice(0, step.finished);
    return h("table", { class: "pad", id: "replay-pad" },
      h("caption", { text: t("Score pad · first to {n}", { n: d.target }) }),
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("Round") }), d.sides.map((name) => h("th", { scope: "col", text: name })))),
      h("tbody", {}, rows.map((row) => h("tr", {},
        h("th", { scope: "row", text: String(row.round), title: row.reason_word }),
        row.points.map((p, i) => h("td", { class: row.winner === i ? "won" : "", text: p ? String(p) : "·" }))))),
      h("tfoot", {}, h("tr", {}, h("th", { scope: "row", text: t("Total") }), step.scores.map((s) => h("td", { text: String(s) })))));
  }

  function renderSummary(step) {
    const sum = step.summary;
    if (!sum) return null;
    return h("section", { class: "card replay-summary", id: "replay-summary" },
      h("h2", { text: t("Round {n} is over", { n: sum.round }) }),
      h("p", { class: "reason", text: sum.reason_text }),
      h("p", { class: "locked-line" }, h("span", { text: t("Locked in the boneyard, never drawn:") + " " }), tiles(sum.locked, true)),
      h("div", { class: "scoring" }, sum.lines.map((line) => h("p", { text: line }))));
  }

  function renderControls(steps) {
    const last = steps.length - 1;
    const slider = h("input", { type: "range", id: "replay-slider", min: 0, max: last, value: R.step, step: 1, "aria-label": t("Move"),
      "aria-valuetext": stepTitle(steps[R.step]), oninput: (e) => go(Number(e.target.value)) });
    const button = (key, label, text, to, off) => h("button", { type: "button", class: "small", id: "replay-" + key, "data-key": "replay-" + key,
      "aria-label": label, title: label, disabled: off, onclick: () => go(to) }, text);
    const view = h("select", { id: "replay-seat", "aria-label": t("Whose view") },
      h("option", { value: "", selected: R.seat === null }, t("Every hand open")),
      R.data.names.map((name, seat) => h("option", { value: String(seat), selected: R.seat === seat }, seatNo(seat) + ": " + name)));
    view.addEventListener("change", () => chooseSeat(view.value));
    return h("div", { class: "replay-controls", role: "group", "aria-label": t("Replay") },
      h("div", { class: "replay-buttons" },
        button("first", t("First move"), "|◀", 0, R.step === 0),
        button("prev", t("Previous move (←)"), "◀", R.step - 1, R.step === 0),
        slider,
        button("next", t("Next move (→)"), "▶", R.step + 1, R.step === last),
        button("last", t("Last move"), "▶|", last, R.step === last)),
      h("div", { class: "replay-where" },
        h("span", { id: "replay-position", text: stepTitle(steps[R.step]) }),
        field(t("Whose view"), view)));
  }

  // The page of a replay (page.js puts it in place).
  function draw() {
    if (!R.data) {
      const page = R.code
        ? h("main", { class: "lobby" }, pageTools(), h("p", { class: R.error ? "replay-error" : "loading", id: "replay-error", role: R.error ? "alert" : null, text: R.error || t("Loading…") }),
          h("p", { class: "loading" }, h("a", { href: "/", text: t("Back to the lobby") })))
        : renderUpload();
      return page;
    }
    if (R.data.language !== I18N.language && !R.loading) {
      load();
    }
    const d = R.data;
    const steps = d.steps;
    const step = steps[R.step];
    const row = evaluationOf(step);
    const mark = row && row.mark;
    const marks = boardMarks(row, step.train.length);
    const line = step.turn && R.seat !== null && R.seat !== step.turn.seat ? step.line_public : step.line;
    const end = R.step === steps.length - 1;
    const top = h("header", { class: "topbar" },
      h("div", { class: "topbar-main" },
        h("a", { href: "/", class: "brand", text: t("The Passing Game") }),
        h("span", { class: "code" }, h("strong", { text: t("Replay") }), R.code ? h("span", { text: " " + t("Table {code}", { code: R.code }) }) : null),
        R.code ? toolButton({ key: "replay-copy", icon: "link", label: t("Copy link"), onclick: () => copyLink(shareLink()) }) : null),
      pageTools());
    const seats = h("div", { class: "opponents replay-seats seats-" + d.players }, d.names.map((_, seat) => renderSeat(step, seat, marks)));
    // The boneyard heads the board, as at the table; a decision's key sits over the train.
    const board = h("div", { class: "board", id: "replay-board" },
      h("div", { class: "boneyard", role: "group", "aria-label": t("Boneyard") },
        h("span", { class: "boneyard-box " + (marks ? marks.boneyard : "") }, h("span", { class: "boneyard-title", text: t("Boneyard") }),
          h("span", { class: "boneyard-note", id: "replay-boneyard", text: nt("{n} tile", step.boneyard) }))),
      decisionMarks(row, row ? decisionPracticeButton(decisionContext(row, step.turn.seat, "practice-marks")) : null), renderTrain(step, marks));
    const said = h("p", { class: "status replay-line", id: "replay-line", role: "status", "aria-live": "polite" },
      h("span", { text: line }), markBadge(mark));
    const ending = end && d.ending ? h("p", { class: "replay-ending", id: "replay-ending", text: d.ending }) : null;
    const practice = practiceContext(R.step, R.seat);
    if (R.reveal) requestAnimationFrame(reveal);
    R.reveal = false;
    return h("div", { class: "table-page replay-page" },
      top,
      h("main", { class: "table-grid" },
        h("div", { class: "play" }, renderControls(steps), said, practiceButton(practice, !!step.summary), ending, seats, board, renderSummary(step)),
        h("aside", { class: "side" }, renderPad(step), replayFairness(R.data, { code: R.code, game: R.game }), renderAnalysis())),
      practiceDialog());
  }

  // Play on from replay step `at` (practice.js) as `seat` (null: asked, every hand open).
  function practiceContext(at, seat) {
    return {
      names: R.data.names,
      seat,
      toMove: R.data.steps[at].to_move,
      decision: null,
      post: (url, body) => post(url + "?lang=" + encodeURIComponent(I18N.language), body),
      body: (chosen) => JSON.stringify({ ...(R.code ? { code: R.code, game: R.game } : { record: JSON.parse(R.record) }), step: at, ...chosen }),
      from: R.code ? `/replay/${R.code}/${R.game}?seat=${seat === null ? 0 : seat + 1}&step=${at}` : "/replay",
    };
  }

  // Play on from an analysed decision of `seat`: the step before its move (row.step),
  // where that seat was to move; `opener` is the button's id.
  function decisionContext(row, seat, opener) {
    return { ...practiceContext(row.step, seat), opener,
      decision: { round: row.round, index: row.index, name: R.data.names[seat] } };
  }

  // -- the analysis --------------------------------------------------------------------------

  async function startAnalysis() {
    const seat = R.analyseSeat;
    R.analyses[seat] = { status: "running", done: 0, total: 0 };
    changed();
    const body = R.code ? { code: R.code, game: R.game, seat } : { record: JSON.parse(R.record), seat };
    try {
      const got = await answer(await post("/api/analysis?lang=" + encodeURIComponent(I18N.language), JSON.stringify(body)));
      took(seat, got);
    } catch (e) {
      R.analyses[seat] = { status: "failed", error: e.message };
      rerender();
    }
  }

  function took(seat, got) {
    R.analyses[seat] = got;
    rerender();
    if (got.status === "running") {
      clearTimeout(R.poll);
      R.poll = setTimeout(() => checkAnalysis(seat), 600);
    }
  }

  async function checkAnalysis(seat) {
    if (!R.on || !R.data) return;
    try {
      const response = await fetch(`/api/analysis/${R.data.hash}/${seat}?lang=` + encodeURIComponent(I18N.language));
      if (response.status === 404) {
        startAnalysis();
        return;
      }
      took(seat, await answer(response));
    } catch (e) {
      R.analyses[seat] = { status: "failed", error: e.message };
      rerender();
    }
  }

  // A decision from the list, the table or the graph: its step from the seat's view,
  // the board brought into sight (on a phone it is far above the analysis).
  function showDecision(row) {
    R.seat = R.analyseSeat;
    R.reveal = true;
    go(stepOf(row));
  }

  // The board in view, with the mover's hand above it when both fit the screen.
  function reveal() {
    const board = document.getElementById("replay-board"), turn = R.data.steps[R.step].turn;
    const mover = turn ? document.querySelector(`.replay-seat[data-seat="${turn.seat}"]`) : null;
    if (!board) return;
    const box = board.getBoundingClientRect(), top = mover ? Math.min(mover.getBoundingClientRect().top, box.top) : box.top;
    if (top >= 0 && box.bottom <= innerHeight) return;
    const from = box.bottom - top <= innerHeight ? top - (innerHeight - (box.bottom - top)) / 2 : box.top;
    window.scrollBy({ top: from, behavior: Motion.reduced() ? "auto" : "smooth" });
  }

  function renderAnalysis() {
    const d = R.data;
    const seat = R.analyseSeat;
    const found = R.analyses[seat];
    const pick = h("select", { id: "analysis-seat", "aria-label": t("Seat to analyse") },
      d.names.map((name, s) => h("option", { value: String(s), selected: s === seat }, seatNo(s) + ": " + name)));
    pick.addEventListener("change", () => { R.analyseSeat = Number(pick.value); changed(); });
    const running = found && found.status === "running";
    const parts = [
      h("h2", { text: t("Analysis") }),
      h("p", { class: "muted", text: t("The expert judges each decision of one seat from what that seat could see, and marks the costly ones.") }),
      h("div", { class: "row" }, pick,
        h("button", { type: "button", class: "primary small", id: "analyse-button", "data-key": "analyse", disabled: running || (found && found.status === "done"),
          onclick: startAnalysis }, t("Analyse"))),
    ];
    if (running) {
      const total = found.total || 0;
      parts.push(h("div", { class: "analysis-progress", role: "status" },
        h("progress", { id: "analysis-progress", max: total || 1, value: found.done || 0 }),
        h("span", { text: total ? t("Analysing… {done} of {total}", { done: found.done || 0, total }) : t("Analysing…") })));
    } else if (found && found.status === "failed") {
      parts.push(h("p", { class: "replay-error", role: "alert", text: found.error || t("The analysis failed; try again.") }));
    } else if (found && found.analysis) {
      parts.push(renderResult(found.analysis));
    }
    return h("section", { class: "card analysis", id: "analysis", "aria-label": t("Analysis") }, parts);
  }

  function renderResult(a) {
    const facts = [
      [t("Decisions"), String(a.decisions), "decisions"],
      [t("As the expert would play"), String(a.agreed), "agreed"],
      [t("Mistakes"), String(a.mistakes), "mistakes"],
      [t("Blunders"), String(a.blunders), "blunders"],
      [t("Points lost in all"), points(a.total_loss), "lost"],
    ];
    const costly = a.costliest.map((row) => h("li", { class: "costly" + (row.mark ? " " + row.mark : "") },
      h("div", { class: "costly-head" },
        h("strong", { text: t("Round {n}, move {i}", { n: row.round, i: row.index }) }), " ", markBadge(row.mark)),
      h("p", { text: t("Decision: {move} (points: {points})", { move: row.played_words, points: signed(row.played_value) }) }),
      h("p", { text: t("The expert's choice: {move} (points: {points})", { move: row.best_words, points: signed(row.best_value) }) }),
      h("p", { class: "costly-loss", text: t("Points lost: {points}", { points: points(row.loss) }) }),
      h("p", { class: "explanation", text: row.text }),
      h("div", { class: "costly-actions" },
        h("button", { type: "button", class: "small", "data-key": `show-${row.round}-${row.index}`, onclick: () => showDecision(row) }, t("Show")),
        decisionPracticeButton(decisionContext(row, a.seat, `practice-${row.round}-${row.index}`)))));
    const marked = a.evaluations.filter((e) => e.mark || e.auto);
    const rows = a.evaluations.map((e) => h("tr", { class: e.mark ? "mark-row " + e.mark : "" },
      h("td", { text: String(e.round) }),
      h("td", { text: String(e.index) }),
      h("td", { text: e.played_words }),
      h("td", { text: e.played === e.best ? "=" : e.best_words }),
      h("td", { class: "num", text: points(e.loss) }),
      h("td", {}, e.auto ? h("span", { class: "auto", text: e.auto === "timeout" ? t("(auto-played)") : t("(stand-in)") }) : markBadge(e.mark),
        h("button", { type: "button", class: "small link", "data-key": `show-row-${e.round}-${e.index}`, "aria-label": t("Show"), title: t("Show"),
          onclick: () => showDecision(e) }, "↗"))));
    // Luck and skill (issue 26, item 2): the seat's net points, and what made them.
    const split = a.luck ? h("section", { class: "luck-skill", id: "luck-and-skill" },
      h("h3", { text: t("Luck and skill") }),
      h("dl", { class: "analysis-facts" }, [
        [t("Result (net points)"), a.luck.result, "result"],
        [t("Luck: the deals, with the expert in every seat"), a.luck.luck, "luck"],
        [t("Skill: what your decisions cost against the expert's"), a.luck.skill, "skill"],
        [t("The rest: the others' play and the hidden tiles"), a.luck.rest, "rest"],
      ].map(([label, value, key]) => [h("dt", { text: label }), h("dd", { id: "luck-" + key, text: signed(value) })]))) : null;
    return h("div", { class: "analysis-result", id: "analysis-result" },
      h("dl", { class: "analysis-facts" }, facts.map(([label, value, key]) => [h("dt", { text: label }), h("dd", { id: "analysis-" + key, text: value })])),
      split,
      h("p", { class: "muted small", text: t("A loss of {mistake} points or more is a mistake, {blunder} or more a blunder (expected points at the end of the round).",
        { mistake: a.thresholds.mistake, blunder: a.thresholds.blunder }) }),
      evalGraph(a.evaluations, R.step, showDecision),
      costly.length ? h("h3", { text: t("The costliest decisions") }) : null,
      costly.length ? h("ol", { class: "costliest", id: "analysis-costliest" }, costly) : null,
      marked.length === 0 ? h("p", { class: "no-marks", id: "analysis-clean", text: t("No mistakes and no blunders.") }) : null,
      h("details", { class: "decisions", open: R.everyOpen, ontoggle: (e) => { R.everyOpen = e.target.open; } }, // open across renders
        h("summary", { text: t("Every decision") }),
        h("table", { class: "decisions-table" },
          h("thead", {}, h("tr", {}, [t("Round"), t("Move"), t("Played"), t("The expert's choice"), t("Points lost"), ""].map((x) => h("th", { scope: "col", text: x })))),
          h("tbody", {}, rows))));
  }

  return { active, route, render: draw, onKey, get state() { return R; } };
})();
