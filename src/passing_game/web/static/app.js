// The Passing Game in the browser. No framework, no build step.
//
// Everything a player reads comes from /api/i18n (made by the server's `_`)
// or from the server's frames. User text (names) is only ever put on the
// page with textContent: no script of the page parses text as HTML.
//
// The page's scripts are ES modules, each named for what it holds, in layers:
// each imports only from below it (tests/test_web_static_imports.py).
//   top:     this one (routes, start, and the wiring below), page.js (draws the
//            page: which screen, and the overlays), keys.js, messages.js (what
//            the server says)
//   screens: lobby.js, table.js, replay.js, learn.js, puzzles.js, tournament.js, profile.js,
//            ladder.js; no screen imports another
//   parts:   announce.js (what just happened), hand.js, train.js, summary.js,
//            tracker.js (the table's), quickplay.js, yours.js, tournaments.js (the lobby's),
//            chat.js (the table's and the tournament's chat panel), bots.js (the
//            account's "My bots")
//   widgets: seat.js (a seat's card and words), account.js (its button, its
//            dialog), tools.js (the tool bar, language, rules, copy link),
//            dialogs.js (the table's questions and seat options)
//   base:    dom.js (h, icons, dominoes, the dialog box, the tool button),
//            i18n.js (t, nt), clock.js (countdowns), motion.js, sound.js,
//            state.js (the state S, and changed(), the one render scheduler),
//            socket.js (the connection, joining and taking seats)
// What a lower module hands up is wired here: page.js's drawing to state.js,
// and the server's messages, quick play's wait and the account's seats to
// socket.js.

import { accountLoad, accountSeat } from "./account.js";
import { updateTitle } from "./announce.js";
import "./bots.js"; // "My bots" in the account's dialog (it registers itself there)
import { Chat } from "./chat.js";
import { Countdown } from "./clock.js";
import { trapFocus } from "./dialogs.js";
import { I18N, nt } from "./i18n.js";
import { onKey } from "./keys.js";
import { drawPage } from "./page.js";
import { Ladder } from "./ladder.js";
import { Learn } from "./learn.js";
import { Profile } from "./profile.js";
import { Puzzles } from "./puzzles.js";
import { Replay } from "./replay.js";
import { Social } from "./social.js";
import { receive } from "./messages.js";
import { Motion } from "./motion.js";
import { Quick } from "./quickplay.js";
import { connect, normCode, send, takeSeat, wire } from "./socket.js";
import { Sound } from "./sound.js";
import { S, changed, drawWith, render } from "./state.js";
import { fetchConfig } from "./tools.js";
import { Tournament } from "./tournament.js";
import { pairingWords, startsWords } from "./tournaments.js";

// The chat's panel sits beside #app (chat.js): after each render it follows the page's
// place, and the socket's chat frames go to it first.
drawWith(() => { drawPage(); Chat.sync(); });
wire({ receive: (msg) => Chat.receive(msg) || receive(msg), reopened: () => Quick.reopened(), accountSeat });

function route() {
  if (Replay.route() || Learn.route() || Puzzles.route() || Tournament.route() || Profile.route() || Ladder.route()) { // /replay..., /learn, /puzzles..., /tournament/..., /u/..., /ladder: no table on this page
    S.code = null;
    S.frame = null;
    render();
    return;
  }
  const match = location.pathname.match(/^\/t\/([A-Za-z0-9]+)\/?$/);
  S.code = match ? normCode(match[1]) : null;
  const query = new URLSearchParams(location.search);
  S.invite = S.code ? query.get("invite") : null;
  const asked = Number(query.get("seat"));
  S.inviteSeat = S.invite && Number.isInteger(asked) && asked >= 1 && asked <= 4 ? asked : null;
  if (!S.code) {
    S.frame = null;
  } else if (S.wsOpen) {
    takeSeat();
  }
  render();
}

async function start() {
  // No language asked for or remembered: the server follows Accept-Language.
  const cat = await I18N.load(I18N.wanted());
  S.config = await fetchConfig(cat.language);
  Countdown.configure({
    clock: (total, inBank, shown) => (inBank ? nt("{n} second left in the bank", total) : nt("{n} second left for this move", shown)),
    summary: (secs) => nt("Next round in {n} second", secs),
    "tournament-start": startsWords, // tournaments.js: the lobby's list and a tournament's page
    "arena-end": pairingWords,
  });
  document.addEventListener("keydown", onKey);
  document.addEventListener("keydown", trapFocus);
  document.addEventListener("pointerdown", () => Sound.unlock(), { passive: true });
  document.addEventListener("visibilitychange", updateTitle);
  window.addEventListener("popstate", route);
  route();
  connect();
  accountLoad(); // who is signed in (account.js)
  Social.start(); // friends and challenges, asked every few seconds (social.js)
  // Installable, and the page's own files kept for a quick start (web/install/api.py).
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
}

// The browser tests (tests/test_web_*_e2e.py) read the state and speak for the
// server through these; nothing on the page uses them.
Object.assign(window, { S, send, receive, nt, I18N, Sound, Motion, Replay, Learn, Puzzles, Quick, Tournament, changed });

start();
