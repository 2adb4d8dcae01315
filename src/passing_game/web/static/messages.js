// What the server says: joined, a new state, a hint, an invitation, an error.

import { accountEnded } from "./account.js";
import { afterRender, announce } from "./announce.js";
import { goToLobby } from "./dialogs.js";
import { contribute } from "./fairness.js";
import { sentenceStart, t } from "./i18n.js";
import { Quick } from "./quickplay.js";
import { seatKey, send } from "./socket.js";
import { S, notify, render } from "./state.js";
import { seenKey } from "./summary.js";
import { refreshTracker } from "./tracker.js";

export function receive(msg) {
  if (Quick.receive(msg)) return; // quick play's own frames (quickplay.js)
  if (msg.type === "joined") {
    S.code = msg.table;
    S.seat = msg.seat;
    S.last = msg.state;
    if (msg.token) {
      localStorage.setItem(seatKey(msg.table), JSON.stringify({ seat: msg.seat, token: msg.token }));
    }
    S.watching = msg.seat === null;
    if (S.invite) {
      // The invitation is used up: the address loses ?invite (the seat token is kept as always).
      S.invite = null;
      S.inviteSeat = null;
      history.replaceState(null, "", msg.link);
    } else if (location.pathname !== msg.link) {
      history.pushState(null, "", msg.link);
      window.scrollTo(0, 0);
    }
    return;
  }
  if (msg.type === "state" && S.code !== msg.table) return; // a table this page has left
  if (typeof msg.state === "number" && S.last >= 0 && msg.state > S.last + (msg.type === "state" ? 1 : 0)) {
    // A message was missed: ask for the whole state again.
    send({ type: "sync" });
  }
  if (msg.type === "state") {
    if (S.last >= 0 && msg.state <= S.last && S.frame && S.frame.table === msg.table) {
      if (msg.state < S.last) return; // stale
    }
    S.last = msg.state;
    S.live = true;
    msg.at = performance.now(); // countdowns run from the frame's arrival
    const before = S.frame;
    S.frame = msg;
    contribute(msg); // the deal waits for this browser's random part (fairness.js)
    if (!before || before.round.number !== msg.round.number || before.game !== msg.game || msg.round.history.length !== before.round.history.length) {
      S.hint = null;
      S.choosing = null;
      if (S.confirm && S.confirm.kind === "pass") S.confirm = null;
    }
    if (before && before.table === msg.table && before.game === msg.game && !msg.over
        && before.paused && before.waiting.includes(before.you) && !msg.paused
        && msg.summary && before.summary && msg.summary.round === before.summary.round) {
      // The summary's countdown ended while this person read it: the table
      // went on without them, so the summary closes (its result stays one
      // click away) and the page says why.
      localStorage.setItem(seenKey(msg), String(msg.summary.round));
      if (S.summaryOpen) {
        S.summaryOpen = false;
        notify(t("The next round has started."), "info");
      }
    }
    // The summary opens by itself for whom the table waits (summary_due), or
    // when a round ends in front of this page; a person arriving or coming
    // back mid-round sees the round, and the last result is one click away.
    const endedHere = before && before.table === msg.table && before.game === msg.game
      && msg.pad.length > before.pad.length;
    if (msg.summary && (msg.summary_due || endedHere) && !seenSummary(msg)) S.summaryOpen = true;
    if (msg.over) S.summaryOpen = true;
    announce(before, msg);
    if (msg.you === null) S.trackerOpen = false; // a spectator has no tracker
    refreshTracker();
    render();
    afterRender();
    return;
  }
  if (msg.type === "signed_out") {
    accountEnded(msg);
    return;
  }
  if (msg.type === "tracker") {
    if (S.trackerOpen) {
      S.tracker = msg;
      render();
    }
    return;
  }
  if (msg.type === "hint") {
    S.hint = msg;
    render();
    return;
  }
  if (msg.type === "left") {
    // This seat left the table (here or in another tab): back to the lobby.
    if (S.code === msg.table) {
      goToLobby();
      notify(t("You left the table."), "info");
    }
    return;
  }
  if (msg.type === "invite") {
    if (S.seatTools && S.seatTools.seat === msg.seat) S.seatTools = { ...S.seatTools, link: msg.link };
    render();
    document.getElementById("invite-copy")?.focus();
    return;
  }
  if (msg.type === "error") {
    if (msg.code === "bad-token" || msg.code === "no-such-table") {
      if (S.code) localStorage.removeItem(seatKey(S.code));
      // The seat is no longer this page's (its token was revoked): the join panel, not a stale table.
      if (msg.code === "bad-token" && !S.watching) {
        S.frame = null;
        S.live = false;
      }
      if (msg.code === "no-such-table") {
        S.code = null;
        S.frame = null;
        history.pushState(null, "", "/");
      }
    }
    // The server's reasons are fragments written to follow "Not allowed: …"; alone, a sentence.
    notify(sentenceStart(msg.message), "error");
  }
}

function seenSummary(frame) {
  return Number(localStorage.getItem(seenKey(frame)) || 0) >= frame.summary.round;
}
