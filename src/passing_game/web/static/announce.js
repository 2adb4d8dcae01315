// What just happened: moves, turns, a round's end (marks, sounds, the flying
// tile), and for a person away from the tab the title and a notification.

import { t } from "./i18n.js";
import { Motion } from "./motion.js";
import { isPlay } from "./seat.js";
import { Sound } from "./sound.js";
import { S, changed, notify } from "./state.js";

const FLASH_MS = 1800;

function myTurn(frame) {
  return !!frame && frame.you !== null && frame.round.legal.length > 0;
}

// The moves `after` holds that `before` did not (same table and game; a new round's are all new).
function newMoves(before, after) {
  if (!before || before.table !== after.table || before.game !== after.game) return [];
  const was = before.round.history;
  const now = after.round.history;
  if (before.round.number !== after.round.number) return now.slice();
  return now.length > was.length ? now.slice(was.length) : [];
}

// Marks every new move on its seat, plays the sounds, and tells a person away from the tab.
export function announce(before, after) {
  const moves = newMoves(before, after);
  const now = performance.now();
  for (const turn of moves) {
    if (turn.move === "pass" || turn.move === "draw") {
      S.flashes[turn.seat] = { kind: turn.move, at: now };
      setTimeout(() => unflash(turn.seat, now), FLASH_MS);
    }
  }
  const lastTurn = moves[moves.length - 1];
  if (lastTurn && isPlay(lastTurn.move) && after.round.last && after.round.last.index !== undefined) {
    S.fly = { seat: lastTurn.seat, tile: lastTurn.move.slice(1) };
  }
  const roundOver = !!after.summary && !!before && (!before.summary || before.summary.round !== after.summary.round || before.game !== after.game);
  const turnCame = myTurn(after) && !myTurn(before) && !!before;
  if (roundOver || (after.over && before && !before.over)) Sound.play("end");
  else if (lastTurn) Sound.play(lastTurn.move === "pass" ? "pass" : lastTurn.move === "draw" ? "draw" : "move");
  if (turnCame) {
    setTimeout(() => Sound.play("turn"), lastTurn ? 260 : 0);
    if (document.hidden) tellAway(after);
  }
}

function unflash(seat, at) {
  const flash = S.flashes[seat];
  if (!flash || flash.at !== at) return;
  delete S.flashes[seat];
  changed(); // the seat's last-move line comes back in the bubble's place
}

// After a render: the played tile flies from its seat (or from the hand) into the train.
export function afterRender() {
  const fly = S.fly;
  S.fly = null;
  const frame = S.frame;
  if (!fly || !frame) return;
  const target = document.querySelector(".train .domino.last");
  if (!target) return;
  let from = null;
  if (fly.seat === frame.you) {
    if (S.playedFrom && S.playedFrom.tile === fly.tile) from = S.playedFrom.rect;
    else from = document.querySelector(".hand")?.getBoundingClientRect() || null;
  } else {
    from = document.querySelector(`.seat-card[data-seat="${fly.seat}"]`)?.getBoundingClientRect() || null;
  }
  S.playedFrom = null;
  const anim = Motion.flyFrom(target, from);
  if (anim) {
    target.classList.add("flying");
    anim.finished.then(() => target.classList.remove("flying"), () => {});
  }
}


const NOTIFY_KEY = "passing-game:notify";

export function notifyWanted() {
  try {
    return localStorage.getItem(NOTIFY_KEY) === "on" && "Notification" in window && Notification.permission === "granted";
  } catch (e) {
    return false;
  }
}

export async function toggleNotify() {
  if (!("Notification" in window)) return;
  if (notifyWanted()) {
    localStorage.setItem(NOTIFY_KEY, "off");
  } else {
    let permission = Notification.permission;
    if (permission === "default") permission = await Notification.requestPermission();
    localStorage.setItem(NOTIFY_KEY, permission === "granted" ? "on" : "off");
    if (permission !== "granted") notify(t("Notifications are blocked in this browser."), "info");
  }
  changed();
}

function tellAway(frame) {
  updateTitle();
  if (!notifyWanted()) return;
  try {
    const note = new Notification(t("Your turn"), { body: t("Table {code}", { code: frame.table }), tag: "passing-game-turn", icon: "/static/icon.svg" });
    note.onclick = () => { window.focus(); note.close(); };
  } catch (e) {
    /* some browsers only notify from a service worker: the title still says it */
  }
}

export function updateTitle() {
  const frame = S.frame;
  const game = t("The Passing Game");
  if (!frame || S.code !== frame.table) document.title = game;
  else if (document.hidden && myTurn(frame)) document.title = `● ${t("Your turn")} · ${game}`;
  else document.title = frame.status ? `${frame.status} · ${game}` : game;
}
