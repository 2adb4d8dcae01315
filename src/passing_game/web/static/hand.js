// The player's hand and moves: clicking a tile, choosing its end, passing.

import { openConfirm } from "./dialogs.js";
import { domino, h, tileOf, tileParts, tileText } from "./dom.js";
import { t } from "./i18n.js";
import { isPlay } from "./seat.js";
import { act, online, refused } from "./socket.js";
import { S, changed, notify, render } from "./state.js";

function playsFor(frame, tile) {
  return frame.round.legal.filter((m) => isPlay(m) && m.slice(1) === tile);
}

function clickTile(tile, el) {
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

function playEnd(end) {
  const tile = S.choosing;
  if (!tile) return;
  if (act({ type: "play", move: end + tile })) {
    const el = document.querySelector(`.hand [data-tile="${tile}"]`);
    if (el) S.playedFrom = { tile, rect: el.getBoundingClientRect() };
    S.choosing = null;
  }
  changed();
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
    hand.append(button);
  });
  if (!r.hand.length) hand.append(h("p", { class: "muted", text: t("No tiles in hand.") }));
  return hand;
}

export function endChoice(frame) {
  if (!S.choosing) return null;
  const r = frame.round;
  const [a, b] = tileParts(S.choosing);
  return h("div", { class: "end-choice", role: "dialog", "aria-label": t("Which end?") },
    h("span", { text: t("Play {tile} on which end?", { tile: tileText(a, b) }) }),
    h("div", { class: "end-buttons" },
      h("button", { type: "button", class: "primary", "data-key": "end-left", onclick: () => playEnd("L") },
        t("Left (shows {n})", { n: r.ends[0] })),
      h("button", { type: "button", class: "primary", "data-key": "end-right", onclick: () => playEnd("R") },
        t("Right (shows {n})", { n: r.ends[1] })),
      h("button", { type: "button", "data-key": "end-cancel", onclick: () => { S.choosing = null; changed(); } }, t("Cancel"))));
}
