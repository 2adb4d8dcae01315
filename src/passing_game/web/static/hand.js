// The player's hand and moves: clicking a tile, choosing its end (by the
// train's ends, train.js, or the end-choice box), dragging a tile to an end
// with a mouse, a pen or a finger, passing.

import { openConfirm } from "./dialogs.js";
import { domino, h, tileOf, tileParts, tileText } from "./dom.js";
import { t } from "./i18n.js";
import { isPlay } from "./seat.js";
import { act, online, refused } from "./socket.js";
import { S, changed, notify, render } from "./state.js";

export function playsFor(frame, tile) {
  return frame.round.legal.filter((m) => isPlay(m) && m.slice(1) === tile);
}

function clickTile(tile, el) {
  if (Drag.swallow) return; // the click that ends a drag on the tile it started from
  if (!online()) {
    refused();
    return;
  }
  const frame = S.frame;
  const plays = playsFor(frame, tile);
  if (!plays.length) {
    notify(frame.round.to_move === frame.you ? t("{tile} does not fit either end.", { tile: tileOf(tile) }) : t("Wait for your turn."), "info");
    return;
  }
  S.playedFrom = { tile, rect: el ? el.getBoundingClientRect() : null };
  if (plays.length === 1) {
    act({ type: "play", move: plays[0] });
    S.choosing = null;
    return;
  }
  S.choosing = tile;
  render();
  document.querySelector(".end-choice button")?.focus();
}

// The tile waiting for its end goes on `end` ("L" or "R"): the train's end
// buttons and the end-choice box call this.
export function chooseEnd(end) {
  const tile = S.choosing;
  if (!tile) return;
  playOn(tile, end);
}

function playOn(tile, end) {
  if (!online()) return refused();
  const move = playsFor(S.frame, tile).find((m) => m[0] === end);
  if (!move) {
    notify(t("{tile} does not fit that end.", { tile: tileOf(tile) }), "info");
    return;
  }
  if (act({ type: "play", move })) {
    const el = document.querySelector(`.hand [data-tile="${tile}"]`);
    if (el) S.playedFrom = { tile, rect: el.getBoundingClientRect() };
    S.choosing = null;
  }
  changed();
}

// -- dragging a tile to an end of the train -------------------------------------------
// Pointer events serve the mouse, the pen and the finger alike; the listeners
// sit on the document, since a render may replace the tile being dragged. The
// tile's copy follows the pointer; the train's ends that take it light up.
const Drag = { tile: null, x: 0, y: 0, ghost: null, over: null, swallow: false };

function dragStart(event, tile, el) {
  if (event.button !== 0 || !online() || !playsFor(S.frame, tile).length) return;
  Object.assign(Drag, { tile, x: event.clientX, y: event.clientY, ghost: null, over: null, from: el });
  document.addEventListener("pointermove", dragMove);
  document.addEventListener("pointerup", dragEnd);
  document.addEventListener("pointercancel", dragCancel);
}

function dropTarget(x, y) {
  const el = document.elementFromPoint(x, y);
  return el && el.closest ? el.closest("#train [data-end], .board") : null;
}

function dragMove(event) {
  if (!Drag.tile) return;
  if (!Drag.ghost) {
    if (Math.hypot(event.clientX - Drag.x, event.clientY - Drag.y) < 8) return;
    const rect = Drag.from.getBoundingClientRect();
    Drag.ghost = Drag.from.cloneNode(true);
    Drag.ghost.className += " drag-ghost";
    Drag.ghost.removeAttribute("data-key");
    Drag.ghost.setAttribute("aria-hidden", "true");
    Drag.ghost.style.width = rect.width + "px";
    Drag.ghost.style.height = rect.height + "px";
    document.body.append(Drag.ghost);
    S.dragging = Drag.tile;
    S.choosing = null;
    changed();
  }
  event.preventDefault();
  const g = Drag.ghost;
  g.style.left = event.clientX - g.offsetWidth / 2 + "px";
  g.style.top = event.clientY - g.offsetHeight / 2 + "px";
  const over = dropTarget(event.clientX, event.clientY);
  if (over !== Drag.over) {
    Drag.over?.classList.remove("drop-hover");
    over?.classList.add("drop-hover");
    Drag.over = over;
  }
}

function dragStop() {
  document.removeEventListener("pointermove", dragMove);
  document.removeEventListener("pointerup", dragEnd);
  document.removeEventListener("pointercancel", dragCancel);
  Drag.over?.classList.remove("drop-hover");
  const dragged = !!Drag.ghost;
  Drag.ghost?.remove();
  Object.assign(Drag, { tile: null, ghost: null, over: null, from: null });
  if (dragged) {
    // The browser's click follows this release at once, before any timer runs.
    Drag.swallow = true;
    setTimeout(() => { Drag.swallow = false; }, 0);
    S.dragging = null;
    changed();
  }
  return dragged;
}

function dragCancel() {
  dragStop();
}

function dragEnd(event) {
  const tile = Drag.tile;
  const target = Drag.ghost ? dropTarget(event.clientX, event.clientY) : null;
  if (!dragStop() || !target) return;
  // On an end: that end. Anywhere else on the board: the one end the tile fits, if only one.
  const ends = [...new Set(playsFor(S.frame, tile).map((m) => m[0]))];
  const end = target.dataset.end || (ends.length === 1 ? ends[0] : null);
  if (end) playOn(tile, end);
  else {
    S.choosing = tile;
    changed();
  }
}

export function doPass() {
  const r = S.frame.round;
  if (!online()) return refused();
  if (r.pass_ends_round) {
    openConfirm({
      kind: "pass",
      title: t("Passing now ends the round"),
      text: t("The round ends and every hand is counted as it is now."),
      yes: t("Pass anyway"),
      action: () => act({ type: "pass" }),
    });
    return;
  }
  act({ type: "pass" });
}

export function renderHand(frame) {
  const r = frame.round;
  const isMine = r.legal.length > 0;
  const live = online();
  const hintTile = S.hint && isPlay(S.hint.move) ? S.hint.move.slice(1) : null;
  const hand = h("div", { class: "hand" + (live ? "" : " offline"), role: "group", "aria-label": t("Your hand") });
  r.hand.forEach((tile) => {
    const [a, b] = tileParts(tile);
    const plays = playsFor(frame, tile);
    let where = "";
    if (plays.length === 2) where = t("fits both ends");
    else if (plays.length === 1) {
      where = !r.ends ? t("can lead") : plays[0][0] === "L" ? t("fits the left end") : t("fits the right end");
      if (r.ends && r.ends[0] === r.ends[1]) where = t("fits");
    }
    const cls = [plays.length ? "playable" : isMine ? "dead" : "", hintTile === tile ? "hinted" : "", S.choosing === tile ? "choosing" : ""].join(" ");
    const label = tileText(a, b) + (where ? ", " + where : "");
    const button = domino(a, b, { label, extra: cls, button: { dataset: { tile }, "data-key": "tile-" + tile, "aria-disabled": live ? null : "true" } });
    button.addEventListener("click", () => clickTile(tile, button));
    if (plays.length) button.addEventListener("pointerdown", (event) => dragStart(event, tile, button));
    hand.append(button);
  });
  if (!r.hand.length) hand.append(h("p", { class: "muted", text: frame.dealing ? t("Your tiles come with the deal.") : t("No tiles in hand.") }));
  return hand;
}

// What an end showing `shown` shows once `tile` is on it: the tile's other number.
export function showsAfter(tile, shown) {
  const [a, b] = tileParts(tile);
  return a === shown ? b : a;
}

export function endChoice(frame) {
  if (!S.choosing) return null;
  const r = frame.round;
  const [a, b] = tileParts(S.choosing);
  const after = (shown) => showsAfter(S.choosing, shown);
  return h("div", { class: "end-choice", role: "dialog", "aria-label": t("Which end?") },
    h("span", { text: t("Play {tile} on which end? Tap an end of the train, or:", { tile: tileText(a, b) }) }),
    h("div", { class: "end-buttons" },
      h("button", { type: "button", class: "primary", "data-key": "end-left", onclick: () => chooseEnd("L") },
        t("Left end: it will show {n}", { n: after(r.ends[0]) })),
      h("button", { type: "button", class: "primary", "data-key": "end-right", onclick: () => chooseEnd("R") },
        t("Right end: it will show {n}", { n: after(r.ends[1]) })),
      h("button", { type: "button", "data-key": "end-cancel", onclick: () => { S.choosing = null; changed(); } }, t("Cancel"))));
}
