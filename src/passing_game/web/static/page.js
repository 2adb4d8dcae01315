// Drawing everything: drawPage() puts the page for the state S on the screen
// (the screen it is on and the overlays), keeping the focus. Modules ask for
// it through state.js (changed(), or render() at once); app.js hands it over.

import { renderAccount } from "./account.js";
import { updateTitle } from "./announce.js";
import { Countdown } from "./clock.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { renderJoinPanel, renderLobby } from "./lobby.js";
import { Ladder } from "./ladder.js";
import { Learn } from "./learn.js";
import { Profile } from "./profile.js";
import { Puzzles } from "./puzzles.js";
import { Replay } from "./replay.js";
import { savedSeat } from "./socket.js";
import { S } from "./state.js";
import { renderTable } from "./table.js";
import { Tournament } from "./tournament.js";
import { renderRulesPanel } from "./tools.js";

// A click spans a press: a render between the press and the release replaces the
// pressed button, and the click is lost (a fetch landing then was enough). So a
// render waits for the press to end (at most a second), then runs.
const Press = { since: 0, pending: false };

// The click that a release makes comes after it: at once for a mouse, after the
// gesture is recognised for a finger. The waiting render runs once that click is
// handled (or, if none comes, a moment later), never before it.
function pressEnded() {
  if (!Press.since) return;
  Press.since = 0;
  if (!Press.pending) return;
  Press.pending = false;
  let done = false;
  const later = () => {
    if (done) return;
    done = true;
    document.removeEventListener("click", onClick, true);
    setTimeout(drawPage, 0);
  };
  const onClick = () => later();
  document.addEventListener("click", onClick, true);
  setTimeout(later, 400);
}
document.addEventListener("pointerdown", () => { Press.since = performance.now(); }, true);
for (const type of ["pointerup", "pointercancel"]) document.addEventListener(type, pressEnded, true);
window.addEventListener("blur", pressEnded);

export function drawPage() {
  const root = document.getElementById("app");
  if (!S.config) return;
  if (Press.since && performance.now() - Press.since < 1000) {
    Press.pending = true;
    return;
  }
  // What has the focus keeps it across the new nodes (by its data-key, else its id), with
  // its caret: a render while someone types (a fetch landing) must not swallow the keys.
  const active = document.activeElement && document.activeElement !== document.body ? document.activeElement : null;
  const focused = !active ? null : active.dataset && active.dataset.key ? `[data-key="${CSS.escape(active.dataset.key)}"]`
    : active.id ? "#" + CSS.escape(active.id) : null;
  const caret = active && typeof active.selectionStart === "number" ? [active.selectionStart, active.selectionEnd] : null;
  const logEl = document.getElementById("log");
  const atBottom = !logEl || logEl.scrollTop + logEl.clientHeight >= logEl.scrollHeight - 4;
  let page;
  if (Replay.active()) page = Replay.render(); // a finished game's replay (replay.js)
  else if (S.frame && S.code === S.frame.table) page = renderTable();
  else if (Learn.active()) page = Learn.render(); // the tutorial (learn.js)
  else if (Puzzles.active()) page = Puzzles.render(); // the puzzles (puzzles.js)
  else if (Tournament.active()) page = Tournament.render(); // a tournament (tournament.js)
  else if (Profile.active()) page = Profile.render(); // a player's profile (profile.js)
  else if (Ladder.active()) page = Ladder.render(); // the computer players' ladder (ladder.js)
  else if (S.code && (S.invite || !savedSeat(S.code)) && !S.watching) page = renderJoinPanel();
  else if (S.code) page = h("main", { class: "lobby" }, h("p", { class: "loading", text: t("Connecting…") }));
  else page = renderLobby();
  // At the table the notice has a line of its own under the status (table.js): a toast
  // floating over the table would cover its buttons.
  const atTable = !!S.frame && S.code === S.frame.table && !Replay.active();
  const notice = S.notice && !atTable ? h("div", { class: "notice " + S.notice.kind, role: "alert", text: S.notice.text }) : null;
  root.replaceChildren(page, notice || "", renderRulesPanel() || "", renderAccount() || "");
  const again = focused ? root.querySelector(focused) : null;
  if (again && again !== document.activeElement) {
    again.focus();
    if (caret) try { again.setSelectionRange(caret[0], caret[1]); } catch (e) { /* not a text field */ }
  }
  const log = document.getElementById("log");
  if (log && atBottom) log.scrollTop = log.scrollHeight;
  if (root.querySelector("[data-countdown]")) Countdown.start();
  updateTitle();
}
