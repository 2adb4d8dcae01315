// Quick play, the public tables and the daily deal, on the lobby (issue 13).
//
// "Play now" sends {type: "quick", players, rated, bots[, name]} (bots: bot accounts
// may sit at the table too, the person's choice, remembered); while the
// person waits the server sends {type: "queue", players, rated, waiting,
// since, waited_ms, fill_after, fill_in_ms}, and once they are seated the
// usual "joined" and state frames (messages.js takes over from there). After
// fill_in_ms the waiting panel offers bots ({type: "quick_fill"});
// "Stop waiting" sends {type: "quick_cancel"}, answered {type: "queue_left"}.
// The public tables come from GET /api/tables/public, the daily deal's
// table from GET /api/daily[/DAY]; {type: "daily"} plays today's deal.
// Every word through t()/nt(); names only ever through textContent.

import { Countdown } from "./clock.js";
import { field, h } from "./dom.js";
import { nt, t } from "./i18n.js";
import { joinTable, refused, savedName, send, watchTable } from "./socket.js";
import { S, changed, notify, render } from "./state.js";

export const Quick = {
  players: 2,
  rated: false,
  // Meet bot accounts too (P62): the person's choice, remembered in this browser.
  bots: localStorage.getItem("passing-game:quick-bots") === "1",
  asked: null, // the last quick message sent (sent again after a reconnection)
  pending: false, // "Play now" pressed while the socket was still connecting
  queue: null, // the last queue frame while waiting, with `at` (its arrival, performance.now())
  ticker: null,
  user: undefined, // the signed-in person as account.js last said (null: a guest; undefined: not yet known)
  tables: null, // GET /api/tables/public
  daily: null, // GET /api/daily[/DAY]
  dailyDay: null, // the day shown (null: today)
  fetchedAt: 0,
  loading: false,
};

// How long the lobby's lists are fresh (ms); "Refresh" fetches at once.
const QUICK_FRESH_MS = 30_000;

// -- frames ---------------------------------------------------------------------

// Called first by receive() (messages.js): true when the message was quick play's own.
Quick.receive = function (msg) {
  if (msg.type === "queue") {
    Quick.queue = { ...msg, at: performance.now() };
    Quick.startTicker();
    changed();
    return true;
  }
  if (msg.type === "queue_left") {
    if (Quick.queue) {
      Quick.queue = null;
      Quick.asked = null;
      changed();
    }
    return true;
  }
  if (msg.type === "joined" && Quick.queue) {
    // Seated (by the queue, or the person went to another table): no longer waiting.
    Quick.queue = null;
    Quick.asked = null;
    send({ type: "quick_cancel" });
  }
  if (msg.type === "error" && msg.code === "not-waiting") {
    Quick.queue = null;
    Quick.asked = null;
  }
  return false;
};

// The socket opened again: the server dropped the wait when it closed, so ask again.
Quick.reopened = function () {
  if (Quick.asked && (Quick.queue || Quick.pending)) send(Quick.asked);
  Quick.pending = false;
};

// -- the data the lobby shows ---------------------------------------------------------

async function quickFetch(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(String(response.status));
  return response.json();
}

Quick.refresh = async function (force) {
  if (Quick.loading || (!force && performance.now() - Quick.fetchedAt < QUICK_FRESH_MS && Quick.fetchedAt)) return;
  Quick.loading = true;
  Quick.fetchedAt = performance.now();
  const day = Quick.dailyDay ? "/" + encodeURIComponent(Quick.dailyDay) : "";
  // Who is signed in is account.js's to say ("passing-game:account" below): a second
  // asking here could answer late, as a guest, after a sign-in.
  const [tables, daily] = await Promise.allSettled([
    quickFetch("/api/tables/public"), quickFetch("/api/daily" + day),
  ]);
  Quick.loading = false;
  if (tables.status === "fulfilled") Quick.tables = tables.value.tables || [];
  if (daily.status === "fulfilled") Quick.daily = daily.value;
  if (!S.code) changed();
};

function otherDay(day, step) {
  const date = new Date(day + "T12:00:00Z");
  date.setUTCDate(date.getUTCDate() + step);
  return date.toISOString().slice(0, 10);
}

async function showDay(day) {
  Quick.dailyDay = day;
  try {
    Quick.daily = await quickFetch("/api/daily" + (day ? "/" + encodeURIComponent(day) : ""));
  } catch (e) {
    notify(t("The server could not be reached; try again."), "error");
  }
  render();
  document.querySelector(`[data-key="${day ? "daily-prev" : "daily-next"}"]`)?.focus();
}

// -- Play now ----------------------------------------------------------------------

function quickName() {
  return Quick.user ? Quick.user.name : (S.lobbyName ?? savedName()).trim();
}

function playNow() {
  const name = quickName();
  if (!name) {
    notify(t("Please give your name."), "error");
    document.getElementById("q-name")?.focus();
    return;
  }
  const msg = { type: "quick", players: Quick.players, rated: !!(Quick.user && Quick.rated), bots: Quick.bots };
  if (!Quick.user) {
    localStorage.setItem("passing-game:name", name);
    msg.name = name;
  }
  S.watching = false;
  Quick.asked = msg;
  if (S.ws && S.wsOpen) {
    send(msg);
  } else {
    // A page that is still connecting (just opened): asked as soon as the socket opens.
    Quick.pending = true;
    notify(t("Connecting…"), "info");
  }
}

function fillWithBots() {
  if (!(S.ws && S.wsOpen)) {
    refused();
    return;
  }
  send({ type: "quick_fill" });
}

function stopWaiting() {
  if (S.ws && S.wsOpen) send({ type: "quick_cancel" });
  // Offline: the server dropped the wait with the connection.
  Quick.queue = null;
  Quick.asked = null;
  render();
  document.getElementById("quick-button")?.focus();
}

function playNowCard() {
  if (Quick.queue) return waitingCard();
  const signedIn = !!Quick.user;
  const players = Quick.players;
  const radios = h("div", { class: "segmented", role: "radiogroup", "aria-label": t("Players") },
    [2, 3, 4].map((n) => h("label", { class: n === players ? "on" : "" },
      h("input", { type: "radio", name: "quick-players", value: n, checked: n === players, "data-key": "quick-players-" + n,
        onchange: () => { Quick.players = n; changed(); } }),
      h("span", { text: String(n) }))));
  const rated = h("input", { type: "checkbox", id: "q-rated", "data-key": "quick-rated", checked: signedIn && Quick.rated, disabled: !signedIn,
    onchange: (e) => { Quick.rated = e.target.checked; } });
  const meetBots = h("input", { type: "checkbox", id: "q-bots", "data-key": "quick-bots", checked: Quick.bots, "aria-describedby": "q-bots-hint",
    onchange: (e) => { Quick.bots = e.target.checked; localStorage.setItem("passing-game:quick-bots", Quick.bots ? "1" : "0"); } });
  const who = signedIn
    ? h("p", { class: "quick-who", text: t("Playing as {name}", { name: Quick.user.name }) })
    : field(t("Your name"), h("input", { type: "text", id: "q-name", maxlength: S.config.max_name, autocomplete: "nickname",
      value: S.lobbyName ?? savedName(), oninput: (e) => { S.lobbyName = e.target.value; } }));
  return h("form", { class: "card quick", id: "quick-card", onsubmit: (e) => { e.preventDefault(); playNow(); } },
    h("h2", { text: t("Play now") }),
    h("p", { class: "tagline", text: t("Sit down with other people who want to play now.") }),
    who,
    h("fieldset", {}, h("legend", { text: t("Players") }), radios),
    h("label", { class: "check" }, rated, h("span", { text: t("Rated game") })),
    signedIn ? null : h("p", { class: "hint", text: t("Sign in to play rated games.") }),
    h("label", { class: "check" }, meetBots, h("span", { text: t("Meet bot accounts too") })),
    h("p", { class: "hint", id: "q-bots-hint", text: t("Programs that people run. A rated game with one counts in the bots' ratings, apart from the people's.") }),
    h("div", { class: "row" }, h("button", { type: "submit", class: "primary big", id: "quick-button", "data-key": "quick-play", text: t("Play now") })));
}

function waitingCard() {
  const q = Quick.queue;
  const offered = performance.now() >= q.at + q.fill_in_ms;
  return h("section", { class: "card quick waiting", id: "quick-card", "aria-labelledby": "quick-title" },
    h("h2", { id: "quick-title", text: t("Play now") }),
    h("p", { class: "quick-looking", role: "status", text: t("Looking for players…") }),
    h("p", { class: "quick-what" },
      h("span", { text: nt("{n} player", q.players) }),
      h("span", { class: "badge", text: q.rated ? t("Rated") : t("Casual") })),
    h("p", { class: "quick-count", id: "quick-count", text: nt("{n} person waiting for this game", q.waiting) }),
    h("p", { class: "quick-elapsed", id: "quick-elapsed", text: quickElapsed(q) }),
    h("p", { class: "quick-offer", id: "quick-offer", "aria-live": "polite", text: quickOffer(q) }),
    q.rated ? h("p", { class: "hint", text: t("A game with bots is not rated.") }) : null,
    h("div", { class: "row" },
      h("button", { type: "button", class: "primary", id: "quick-fill", "data-key": "quick-fill", hidden: !offered, onclick: fillWithBots },
        t("Fill the empty seats with bots")),
      h("button", { type: "button", id: "quick-cancel", "data-key": "quick-cancel", onclick: stopWaiting }, t("Stop waiting"))));
}

function quickElapsed(q) {
  const ms = q.waited_ms + (performance.now() - q.at);
  return t("Waiting for {time}", { time: Countdown.mmss(ms) });
}

function quickOffer(q) {
  const left = q.at + q.fill_in_ms - performance.now();
  if (left > 0) return nt("Bots can fill the empty seats in {n} second", Math.ceil(left / 1000));
  return t("Nobody else yet? Bots can fill the empty seats.");
}

// Four times a second while waiting: the clock, the countdown, and the bots' button.
Quick.startTicker = function () {
  if (Quick.ticker) return;
  Quick.ticker = setInterval(() => {
    const q = Quick.queue;
    if (!q) {
      clearInterval(Quick.ticker);
      Quick.ticker = null;
      return;
    }
    const elapsed = document.getElementById("quick-elapsed");
    if (elapsed) elapsed.textContent = quickElapsed(q);
    const offer = document.getElementById("quick-offer");
    const text = quickOffer(q);
    if (offer && offer.textContent !== text) offer.textContent = text;
    const fill = document.getElementById("quick-fill");
    if (fill && fill.hidden && performance.now() >= q.at + q.fill_in_ms) fill.hidden = false;
  }, 250);
};

// -- the public tables --------------------------------------------------------------

function publicRow(table) {
  const waiting = table.status === "waiting";
  const facts = [
    h("span", { text: nt("{n} player", table.players) }),
    h("span", { text: nt("Seats taken: {taken} of {n}", table.seats, { taken: table.taken }) }),
  ];
  if (table.rules.partnerships) facts.push(h("span", { text: t("Partnerships") }));
  if (table.rules.target) facts.push(h("span", { text: nt("to {n} point", table.rules.target) }));
  if (table.rated) facts.push(h("span", { class: "badge", text: t("Rated") }));
  const name = quickName();
  return h("li", { class: "public-table" + (waiting ? " open" : "") },
    h("strong", { class: "public-code", text: table.code }),
    h("span", { class: "public-status", text: waiting ? t("Waiting for players") : t("Playing") }),
    h("span", { class: "facts" }, facts),
    h("span", { class: "public-actions" },
      waiting ? h("button", { type: "button", class: "primary", "data-key": "public-join-" + table.code,
        onclick: () => joinTable(table.code, name || (S.lobbyName ?? savedName())) }, t("Join")) : null,
      h("button", { type: "button", "data-key": "public-watch-" + table.code, onclick: () => watchTable(table.code) }, t("Watch"))));
}

function publicCard() {
  const list = Quick.tables;
  let body;
  if (list === null) body = h("p", { class: "muted", text: t("Connecting…") });
  else if (!list.length) body = h("p", { class: "muted", text: t("No public tables right now.") });
  else body = h("ul", { class: "public-list", id: "public-list" }, list.map(publicRow));
  return h("section", { class: "card public-card", id: "public-card", "aria-labelledby": "public-title" },
    h("div", { class: "card-head" },
      h("h2", { id: "public-title", text: t("Public tables") }),
      h("button", { type: "button", class: "small", id: "public-refresh", "data-key": "public-refresh", onclick: () => Quick.refresh(true) }, t("Refresh"))),
    body);
}

// -- the daily deal -------------------------------------------------------------------

function dailyStandings(d) {
  if (!d.entries.length) return h("p", { class: "muted", text: d.today ? t("No results yet today.") : t("No results for this day.") });
  // A rank and a share of the others beaten mean something once there are others (issue 24).
  const several = d.entries.length > 1;
  return h("div", { class: "daily-table-wrap" },
    h("table", { class: "daily-table", id: "daily-table" },
      h("caption", { class: "sr-only", text: t("The day's results") }),
      h("thead", {}, h("tr", {},
        several ? h("th", { scope: "col", text: t("Rank") }) : null,
        h("th", { scope: "col", class: "name", text: t("Player") }),
        h("th", { scope: "col", text: t("Points") }),
        h("th", { scope: "col", text: t("Bot") }),
        h("th", { scope: "col", text: t("Net") }),
        several ? h("th", { scope: "col", text: t("Matchpoints") }) : null)),
      h("tbody", {}, d.entries.map((e) => h("tr", { class: e.you ? "you" : "" },
        several ? h("td", { text: String(e.rank) }) : null,
        h("td", { class: "name", text: e.you ? t("{name} (you)", { name: e.name }) : e.name }),
        h("td", { text: String(e.points) }),
        h("td", { text: String(e.bots) }),
        h("td", { text: (e.net > 0 ? "+" : "") + String(e.net) }),
        several ? h("td", { text: t("{n}%", { n: e.percent }) }) : null)))),
    h("p", { class: "hint", id: "daily-words", text: several
      ? t("Net: your points minus the bot's. Matchpoints: the share of the others you beat on net, a tie counting half.")
      : t("Net: your points minus the bot's. A rank comes once someone else has played this deal.") }));
}

function dailyCard() {
  const d = Quick.daily;
  const level = ((S.config.levels || []).find((l) => l.name === (d && d.level)) || {}).label || (d ? d.level : "");
  let action = null;
  if (Quick.user === null) {
    action = h("p", { class: "hint", id: "daily-signin", text: t("Sign in to play the daily deal.") });
  } else if (d && d.today) {
    const mine = d.you;
    const label = !mine ? t("Play today's deal") : mine.finished ? t("See your game") : t("Back to your game");
    action = h("button", { type: "button", class: mine ? "" : "primary", id: "daily-button", "data-key": "daily-play",
      onclick: () => { if (S.ws && S.wsOpen) { S.watching = false; send({ type: "daily" }); } else refused(); } }, label);
  }
  const nav = d ? h("div", { class: "row daily-nav" },
    h("button", { type: "button", class: "small", "data-key": "daily-prev", onclick: () => showDay(otherDay(d.day, -1)) }, t("Previous day")),
    h("button", { type: "button", class: "small", "data-key": "daily-next", disabled: d.today,
      onclick: () => { const next = otherDay(d.day, 1); showDay(next >= todayUtc() ? null : next); } }, t("Next day"))) : null;
  return h("section", { class: "card daily-card", id: "daily-card", "aria-labelledby": "daily-title" },
    h("h2", { id: "daily-title", text: d ? t("Daily deal · {day}", { day: d.day }) : t("Daily deal") }),
    d ? h("p", { class: "tagline", text: nt("Everyone plays the same tiles: {n} round against the {level} bot.", d.rounds, { level }) }) : null,
    h("p", { class: "hint", text: t("One attempt per account. Ranked by net: your points minus the bot's.") }),
    action,
    d ? dailyStandings(d) : h("p", { class: "muted", text: t("Connecting…") }),
    d && d.playing ? h("p", { class: "muted", text: nt("{n} person still playing", d.playing) }) : null,
    nav);
}

function todayUtc() {
  return new Date().toISOString().slice(0, 10);
}

// Somebody signed in or out (account.js): the rated switch, the daily deal's button and "you".
window.addEventListener("passing-game:account", (event) => {
  Quick.user = (event.detail && event.detail.user) || null;
  if (!Quick.user) Quick.rated = false;
  Quick.refresh(true);
});

// -- the lobby's hooks (lobby.js) ----------------------------------------------------------

Quick.lobbyTop = function () {
  Quick.refresh(false);
  return h("div", { class: "quick-cards" }, playNowCard(), dailyCard());
};

Quick.lobbyBottom = function () {
  return publicCard();
};
