// The train on the table, laid out as domino players lay it: a snake that runs
// to the board's edge and turns back, each row's first tile under the last
// tile of the row before, so the chain never breaks and never grows past the
// board. Its two open ends are the places a tile is played: while a tile waits
// for its end (hand.js), each end is a button, and a tile dragged from the hand
// is dropped on one (hand.js finds them by `data-end`).

import { domino, h, tileText } from "./dom.js";
import { chooseEnd, playsFor, showsAfter } from "./hand.js";
import { t } from "./i18n.js";
import { S, changed } from "./state.js";

// The sizes app.css gives a train's tiles (--train-u) and the gaps between them.
const GAP = 2;
const MARK = 56; // an end's mark beside the end tile: "◀ 6", or "6 → 2" while choosing

function unit() {
  const u = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--train-u"));
  return Number.isFinite(u) && u > 0 ? u : 30;
}

function tileWidth(a, b, u) {
  return a === b ? u + 2 : 2 * u + 4; // a double stands across the train
}

// The train as rows: [from, to) tile indices and the row's left edge in px.
// A row runs to the board's edge and the next runs back from where it ended,
// so each turn keeps the chain's two tiles one above the other. The left end's
// mark opens the first row, the right end's mark closes the last.
export function snakeRows(widths, width) {
  const rows = [];
  let from = 0;
  let back = false;
  let edge = 0; // where the current row starts: its left edge, or its right edge running back
  let used = MARK + GAP;
  const fits = (extra) => (back ? edge - used - extra >= 0 : edge + used + extra <= width);
  const close = (to) => {
    rows.push({ from, to, left: back ? edge - used + GAP : edge, width: used - GAP, back });
    const end = back ? edge - used + GAP : edge + used - GAP;
    edge = end;
    back = !back;
    from = to;
    used = 0;
  };
  for (let i = 0; i < widths.length; i++) {
    if (i > from && !fits(widths[i])) close(i);
    used += widths[i] + GAP;
  }
  // The right end's mark goes with the last tile: if it does not fit, both start a row.
  if (!fits(MARK) && widths.length - from > 1) {
    used -= widths[widths.length - 1] + GAP;
    close(widths.length - 1);
    used = widths[widths.length - 1] + GAP;
  }
  used += MARK + GAP;
  close(widths.length);
  return rows;
}

// The train is laid out for the width its box had on the screen (the box
// does not grow with the train); if that was not yet known, or changed, one
// more render follows with the width measured.
let refitted = -1;

function fitLater(width) {
  requestAnimationFrame(() => {
    const el = document.getElementById("train");
    if (!el) return;
    const now = Math.floor(el.clientWidth);
    if (Math.abs(now - width) > 1 && now !== refitted) {
      refitted = now;
      changed();
    }
  });
}
window.addEventListener("resize", () => {
  if (document.getElementById("train")) changed();
});

// An open end: its mark, and while a tile waits for an end (or is dragged), the
// place to play it, saying what the end will show after.
function endMark(frame, end, outward) {
  const r = frame.round;
  const shown = r.ends[end === "L" ? 0 : 1];
  const tile = S.choosing || S.dragging;
  const fits = tile && playsFor(frame, tile).some((m) => m[0] === end);
  const name = end === "L" ? t("Left end shows {n}", { n: shown }) : t("Right end shows {n}", { n: shown });
  const cls = "end-mark " + (end === "L" ? "left" : "right") + (fits ? " drop-ok" : "");
  // The arrow points the way the chain goes on from this end: off the row's side.
  if (!fits) return h("span", { class: cls, dataset: { end }, "aria-label": name }, outward === "left" ? "◀ " + shown : shown + " ▶");
  const after = showsAfter(tile, shown);
  const label = end === "L" ? t("Play on the left end: it will show {n}", { n: after }) : t("Play on the right end: it will show {n}", { n: after });
  return h("button", { type: "button", class: cls, dataset: { end }, "data-key": "train-end-" + end, "aria-label": label, title: label,
    onclick: () => chooseEnd(end) }, shown + " → " + after);
}

export function renderTrain(frame) {
  const r = frame.round;
  const box = h("div", { class: "train", id: "train", role: "list", "aria-label": t("The train") });
  if (!r.train.length) {
    const leading = S.choosing || S.dragging;
    box.append(h("p", { class: "empty-train" + (leading ? " drop-ok" : ""), dataset: { end: "L" }, text: t("The train is empty: any tile may lead.") }));
    return box;
  }
  const width = Math.floor(document.getElementById("train")?.clientWidth || window.innerWidth * 0.6);
  // A long train takes smaller tiles rather than more rows: the board stays short
  // enough for the hand to stay in view (three rows on a phone, four on a wide screen).
  const most = window.innerWidth <= 640 ? 3 : 4;
  const full = unit();
  let u = full;
  let rows;
  for (;;) {
    const size = u;
    rows = snakeRows(r.train.map(([a, b]) => tileWidth(a, b, size)), width);
    if (rows.length <= most || u <= Math.round(full * 0.6)) break;
    u -= 1;
  }
  if (u !== full) box.style.setProperty("--train-u", u + "px");
  const last = r.last && r.last.index !== undefined ? r.last.index : -1;
  const single = rows.length === 1;
  rows.forEach(({ from, to, left, back }, k) => {
    // A row running back is drawn right to left, each tile turned round.
    const row = h("div", { class: "train-row" + (back ? " back" : "") });
    // Set through the CSSOM: the page's CSP allows no style attribute.
    if (!single) row.style.marginLeft = Math.max(0, left) + "px";
    for (let i = from; i < to; i++) {
      const [a, b] = r.train[i];
      const label = tileText(a, b) + (i === last ? ". " + t("Last tile played") : "");
      const [x, y] = back ? [b, a] : [a, b];
      const tile = domino(x, y, { across: a !== b, label, extra: i === last ? "last" : "" });
      tile.setAttribute("role", "listitem");
      if (i === 0) tile.dataset.end = "L";
      if (i === r.train.length - 1) tile.dataset.end = "R";
      row.append(tile);
    }
    if (k === 0) row.prepend(endMark(frame, "L", "left"));
    if (k === rows.length - 1) row.append(endMark(frame, "R", back ? "left" : "right"));
    box.append(row);
  });
  if (!single) box.classList.add("snake");
  fitLater(width);
  return box;
}
