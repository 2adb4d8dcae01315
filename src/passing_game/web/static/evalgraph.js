// The analysis drawn for the replay (replay.js; issue 24, item 8): the graph of
// the expert's evaluation over the game, its mistakes and blunders marked, and
// the marks of one decision on the board (the move played, the expert's choice).
//
// The graph is an SVG whose every point is a button (a roving tab stop: Tab
// reaches the graph once, ← → Home End move between its points, Enter or Space
// shows one), each with a text label; no number is worked out here: the server
// sends every value already rounded as the page shows it (web/review/analyses.py
// shown_values), so the list, the table, the board and the graph say the same.

import { h, svg } from "./dom.js";
import { I18N, t } from "./i18n.js";

// The graph's own units (its viewBox); it is drawn as wide as its card.
const W = 300, H = 132, LEFT = 28, RIGHT = 6, TOP = 9, BOTTOM = 17;

export function signed(value) {
  return new Intl.NumberFormat(I18N.language, { maximumFractionDigits: 1, minimumFractionDigits: 1, signDisplay: "exceptZero" }).format(value);
}

export function points(value) {
  return new Intl.NumberFormat(I18N.language, { maximumFractionDigits: 1, minimumFractionDigits: 1 }).format(value);
}

// The step that shows a decision: the position just after its move, so that the
// step's "move 4 of N" is the decision's "move 4" (row.step is the one before it).
export function stepOf(row) {
  return row.step + 1;
}

// Where the graph puts a decision: the value of the move played, else (a move the
// searches never tried) the expert's.
function valueOf(row) {
  return row.played_value !== null && row.played_value !== undefined ? row.played_value : row.best_value;
}

// A point's label: the list's own texts, one after another.
export function pointLabel(row) {
  const parts = [t("Round {n}, move {i}", { n: row.round, i: row.index }),
    t("Decision: {move} (points: {points})", { move: row.played_words, points: signed(valueOf(row)) }),
    t("Points lost: {points}", { points: points(row.loss) })];
  return parts.concat(row.mark ? [t(row.mark)] : []).join(" · ");
}

// The graph of one seat's decisions; `step` is the replay's step (its decision is
// ringed), `pick(row)` shows a decision.
export function evalGraph(rows, step, pick) {
  const list = rows.filter((row) => typeof valueOf(row) === "number");
  if (!list.length) return null;
  const values = list.flatMap((row) => [valueOf(row), typeof row.best_value === "number" ? row.best_value : valueOf(row)]);
  const hi = Math.ceil(Math.max(1, ...values)), lo = Math.floor(Math.min(-1, ...values));
  const dx = (W - LEFT - RIGHT) / list.length;
  const x = (i) => LEFT + (i + 0.5) * dx;
  const y = (v) => TOP + ((hi - v) / (hi - lo)) * (H - TOP - BOTTOM);
  const shown = list.findIndex((row) => stepOf(row) === step);
  const stop = shown >= 0 ? shown : Math.max(0, list.findIndex((row) => row.mark));
  const parts = [svg("title", { text: t("The expert's evaluation over the game") }),
    svg("line", { class: "ev-zero", x1: LEFT, x2: W - RIGHT, y1: y(0), y2: y(0) })];
  // The axis: the top, 0 and the bottom, a bound left out where it would overlap 0's label.
  for (const v of [hi, 0, lo].filter((v) => v === 0 || Math.abs(y(v) - y(0)) >= 11)) parts.push(svg("text", { class: "ev-axis", x: LEFT - 4, y: y(v) + 4, "text-anchor": "end", text: signed(v).replace(/[.,]0$/, "") }));
  // One line per round: a round's values are the points expected at its own end.
  let from = 0;
  list.forEach((row, i) => {
    if (i + 1 < list.length && list[i + 1].round === row.round) return;
    const xs = list.slice(from, i + 1).map((r, k) => `${x(from + k).toFixed(1)},${y(valueOf(r)).toFixed(1)}`);
    parts.push(svg("polyline", { class: "ev-line", points: xs.join(" ") }));
    parts.push(svg("text", { class: "ev-round", x: (x(from) + x(i)) / 2, y: H - 4, "text-anchor": "middle", text: String(row.round) }));
    if (i + 1 < list.length) parts.push(svg("line", { class: "ev-split", x1: x(i) + dx / 2, x2: x(i) + dx / 2, y1: TOP, y2: H - BOTTOM }));
    from = i + 1;
  });
  const dots = list.map((row, i) => {
    const cls = ["ev-point", row.mark ? "is-" + row.mark : "", row.auto ? "auto" : "", i === shown ? "current" : ""].filter(Boolean);
    const cy = y(valueOf(row));
    const label = pointLabel(row);
    return svg("g", { class: cls.join(" "), role: "button", tabindex: i === stop ? 0 : -1, "aria-label": label,
      "aria-current": i === shown ? "step" : null, "data-key": "ev-" + row.step, "data-step": stepOf(row), onclick: () => pick(row) },
      svg("title", { text: label }),
      row.mark && typeof row.best_value === "number" ? svg("line", { class: "ev-drop", x1: x(i), x2: x(i), y1: y(row.best_value), y2: cy }) : null,
      svg("circle", { class: "ev-hit", cx: x(i), cy, r: Math.max(6, dx / 2) }),
      i === shown ? svg("circle", { class: "ev-ring", cx: x(i), cy, r: 6.5 }) : null,
      svg("circle", { class: "ev-dot", cx: x(i), cy, r: row.mark ? 4.2 : 2.4 }));
  });
  const onkeydown = (event) => {
    const at = dots.indexOf(event.target.closest(".ev-point"));
    if (at < 0) return;
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: dots.length - 1 }[event.key];
    if (event.key === "Enter" || event.key === " ") pick(list[at]);
    else if (to === undefined) return;
    else {
      const next = dots[Math.max(0, Math.min(dots.length - 1, to))];
      dots.forEach((p) => p.setAttribute("tabindex", p === next ? "0" : "-1"));
      next.focus();
    }
    event.preventDefault();
    event.stopPropagation(); // the replay's own ← → step through the game
  };
  const graph = svg("svg", { class: "eval-graph", id: "eval-graph", viewBox: `0 0 ${W} ${H}`, role: "group",
    "aria-label": t("The expert's evaluation over the game"), "aria-describedby": "eval-graph-about", onkeydown }, parts, dots);
  return h("figure", { class: "eval-figure" },
    h("h3", { text: t("The expert's evaluation over the game") }), graph,
    h("figcaption", { class: "muted small", id: "eval-graph-about",
      text: t("One point per decision, at its move's value; a dotted line rises to the expert's choice.") }));
}

// -- one decision on the board ----------------------------------------------------------

// A move in the protocol's notation ("L3-5", "R6-6", "draw", "pass"): its tile and end.
function moveOf(text) {
  const play = /^([LR])(\d-\d)$/.exec(text || "");
  return play ? { tile: play[2], end: play[1] === "L" ? "left" : "right" } : { word: text };
}

// What the board marks for decision `row`, shown at its step: the train's index of
// the tile played, the tile of the mover's hand the expert would have played, and
// which of them drew from the boneyard.
export function boardMarks(row, trainLength) {
  if (!row) return null;
  const played = moveOf(row.played), best = moveOf(row.best);
  const kind = row.played === row.best ? "is-agreed" : "is-" + (row.mark || "fine");
  return {
    kind,
    trainAt: played.tile ? (played.end === "left" ? 0 : trainLength - 1) : null,
    handTile: best.tile && best.tile !== played.tile ? best.tile : null,
    boneyard: played.word === "draw" ? "played-mark " + kind : best.word === "draw" ? "best-mark" : "",
  };
}

// Marks a tile of the board (a domino element) as the move played or the expert's choice.
export function markTile(el, mark, kind) {
  el.classList.add(...(mark === "played" ? ["played-mark", kind] : ["best-mark"]));
  const what = mark === "played" ? t("Played") : t("The expert's choice");
  el.setAttribute("aria-label", el.getAttribute("aria-label") + ", " + what);
  el.setAttribute("title", el.getAttribute("aria-label"));
  return el;
}

// The key above the train: what each mark means, in words, with the values shown
// everywhere else for this decision; `action` (a button: play on from before the move)
// closes it.
export function decisionMarks(row, action) {
  if (!row) return null;
  const line = (cls, text, extra) => h("p", { class: "decision-mark " + cls },
    h("span", { class: "swatch", "aria-hidden": "true" }), h("span", { text }), extra || null);
  const played = t("Decision: {move} (points: {points})", { move: row.played_words, points: signed(row.played_value ?? row.best_value) });
  if (row.played === row.best) {
    return h("div", { class: "decision-marks", id: "replay-marks" },
      line("played best-mark", played, h("span", { class: "agreed", text: t("As the expert would play") })), action || null);
  }
  const kind = "is-" + (row.mark || "fine");
  const lost = row.loss > 0 ? h("span", { class: "lost", text: t("Points lost: {points}", { points: points(row.loss) }) }) : null;
  return h("div", { class: "decision-marks", id: "replay-marks" },
    line("played-mark " + kind, played, lost),
    line("best-mark", t("The expert's choice: {move} (points: {points})", { move: row.best_words, points: signed(row.best_value) })),
    action || null);
}
