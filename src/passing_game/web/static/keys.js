// The keys: D, P and H at the table, Escape, the arrows in the hand; the replay's
// and the tutorial's own keys.

import { closeConfirm } from "./dialogs.js";
import { doPass } from "./hand.js";
import { Learn } from "./learn.js";
import { Puzzles } from "./puzzles.js";
import { Replay } from "./replay.js";
import { closeSeatTools } from "./seat.js";
import { act } from "./socket.js";
import { Sound } from "./sound.js";
import { S, changed } from "./state.js";
import { closeMenu } from "./table.js";
import { closeRules } from "./tools.js";
import { closeTracker, openTracker } from "./tracker.js";

export function onKey(event) {
  Sound.unlock();
  if (event.target && ["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName)) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (S.rulesPanel) {
    if (event.key === "Escape") closeRules();
    return;
  }
  if (Replay.active()) {
    Replay.onKey(event);
    return;
  }
  if (Learn.active() && !(S.frame && S.code === S.frame.table)) {
    Learn.onKey(event);
    return;
  }
  if (Puzzles.active() && !(S.frame && S.code === S.frame.table)) {
    Puzzles.onKey(event);
    return;
  }
  const frame = S.frame;
  if (!frame || S.code !== frame.table) return;
  const key = event.key.toLowerCase();
  if (key === "escape") {
    if (S.trackerOpen) closeTracker();
    else if (S.confirm) closeConfirm();
    else if (S.seatTools) closeSeatTools();
    else if (S.menuOpen) closeMenu();
    else if (S.choosing) { S.choosing = null; changed(); }
    else if (S.summaryOpen) document.querySelector('[data-key="continue"], [data-key="close-summary"]')?.click();
    return;
  }
  if (S.summaryOpen || S.confirm || S.seatTools || S.menuOpen || S.trackerOpen) return;
  if (key === "d" && frame.round.can_draw) act({ type: "draw" });
  else if (key === "p" && frame.round.can_pass) doPass();
  else if (key === "h" && frame.round.legal.length) act({ type: "hint" });
  else if (key === "t" && frame.you !== null) openTracker();
  else if ((key === "arrowleft" || key === "arrowright") && event.target.closest && event.target.closest(".hand")) {
    const tiles = [...document.querySelectorAll(".hand .domino")];
    const at = tiles.indexOf(event.target);
    const next = tiles[(at + (key === "arrowright" ? 1 : -1) + tiles.length) % tiles.length];
    next?.focus();
    event.preventDefault();
  }
}
