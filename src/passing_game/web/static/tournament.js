// A tournament's page (issue 26, item 1): /tournament/ID. The server
// (web/tournament/) pairs the games and keeps the standings; this page reads
// GET /api/tournaments/ID every two seconds and draws it: when it starts (a
// countdown), the standings, each round's tables (watch one), and the
// signed-in person's own game the moment it is made ("Your game has started",
// also as a notification and in the tab's title), with Join, Withdraw, Pause
// and Come back. The lobby's card (tournaments.js) lists the public ones and
// lets a signed-in person create one.

import { accountHolds, accountPost, accountUser } from "./account.js";
import { h } from "./dom.js";
import { nt, t } from "./i18n.js";
import { S, changed } from "./state.js";
import { keepPart, newPart, partKey, settingsLine, tournamentStatus } from "./tournaments.js";

const POLL_MS = 2000;

export const Tournament = (() => {
  // only: the player whose games the tables list shows (null: everyone's).
  // at: performance.now() when data came (its countdowns run from the server's time).
  const T = { id: null, data: null, at: 0, error: null, timer: null, told: null, busy: false, only: null };

  function idOf() {
    const found = location.pathname.match(/^\/tournament\/([A-Za-z0-9_-]+)\/?$/);
    return found ? found[1] : null;
  }

  function active() {
    return T.id !== null && idOf() === T.id;
  }

  // True when the address is a tournament's: its state is read now and then every POLL_MS.
  function route() {
    const id = idOf();
    if (id === null) {
      stop();
      return false;
    }
    if (T.id !== id) {
      T.id = id;
      T.data = null;
      T.error = null;
      T.told = null;
    }
    if (!T.timer) poll();
    return true;
  }

  function stop() {
    T.id = null;
    clearTimeout(T.timer);
    T.timer = null;
  }

  async function poll() {
    clearTimeout(T.timer);
    if (T.id === null) return;
    try {
      const got = await fetch("/api/tournaments/" + encodeURIComponent(T.id), { cache: "no-store" });
      const data = await got.json();
      if (!got.ok) T.error = data.error || t("Something went wrong; try again.");
      else take(data);
    } catch (e) {
      T.error = t("The server could not be reached; trying again.");
    }
    changed();
    T.timer = setTimeout(poll, POLL_MS);
  }

  function take(data) {
    T.data = data;
    T.at = performance.now();
    T.error = null;
    const yours = data.yours;
    if (yours && T.told !== yours.code) {
      T.told = yours.code;
      tell(yours.code);
    }
  }

  // "Your game has started", also where the tab is hidden.
  function tell(code) {
    const text = t("Your game has started: table {code}.", { code });
    S.notice = { kind: "info", text };
    if (document.hidden) document.title = "● " + text;
    if ("Notification" in window && Notification.permission === "granted") {
      try { new Notification(t("The Passing Game"), { body: text }); } catch (e) { /* not allowed here */ }
    }
  }

  async function act(action) {
    if (T.busy) return;
    T.busy = true;
    try {
      const body = {};
      if (action === "join") body.contribution = localStorage.getItem(partKey(T.id)) || newPart();
      const { ok, data } = await accountPost(`/api/tournaments/${encodeURIComponent(T.id)}/${action}`, body);
      if (ok && body.contribution) keepPart(T.id, body.contribution);
      if (ok) take(data);
      else S.notice = { kind: "error", text: data.error || t("Something went wrong; try again.") };
      if (ok && action === "join" && "Notification" in window && Notification.permission === "default") {
        Notification.requestPermission().catch(() => {});
      }
    } finally {
      T.busy = false;
      changed();
    }
  }

  function goTo(code, seat) {
    if (seat !== undefined && seat !== null) accountHolds(code, seat);
    sessionStorage.setItem("passing-game:tournament:" + code, T.id); // the game's summary links back (summary.js)
    history.pushState(null, "", "/t/" + code);
    window.dispatchEvent(new PopStateEvent("popstate"));
  }

  function buttons(d) {
    if (!accountUser()) return h("p", { class: "hint", text: t("Sign in to join a tournament.") });
    const mine = d.standings.find((line) => line.you);
    const out = [];
    const button = (key, text, action) => h("button", { type: "button", "data-key": key, disabled: T.busy, onclick: () => act(action) }, text);
    if (d.status === "finished") return null;
    if (d.yours_to_start && d.status === "open" && d.now < d.settings.starts) out.push(button("t-start", t("Start now"), "start"));
    if (!d.joined) out.push(button("t-join", mine ? t("Join again") : t("Join"), "join"));
    else {
      out.push(button("t-withdraw", t("Withdraw"), "withdraw"));
      out.push(mine && mine.paused ? button("t-resume", t("Come back"), "resume") : button("t-pause", t("Pause"), "pause"));
    }
    return h("div", { class: "actions" }, out);
  }

  function standings(d) {
    const kind = d.settings.kind;
    const tiebreak = kind === "swiss" ? t("Buchholz") : kind === "duplicate" ? t("Share") : t("Wins");
    const head = h("tr", {}, [t("Place"), t("Player"), kind === "duplicate" ? t("Matchpoints") : t("Points"), tiebreak, t("Games")].map((text) => h("th", { scope: "col", text })));
    const rows = d.standings.map((line) => {
      const notes = [];
      if (line.withdrawn) notes.push(t("withdrawn"));
      else if (line.paused) notes.push(t("paused"));
      if (line.forfeits) notes.push(nt("{n} game forfeited", line.forfeits));
      if (kind === "arena" && line.streak >= 2) notes.push(t("on a streak"));
      const third = kind === "swiss" ? String(line.tiebreak) : kind === "duplicate" ? `${line.tiebreak} %` : String(line.wins);
      return h("tr", { class: line.you ? "you" : "" },
        h("td", { text: String(line.rank) }),
        h("td", {}, h("button", { type: "button", class: "link", "aria-pressed": T.only === line.name ? "true" : "false",
          title: t("Show this player's games"), onclick: () => { T.only = T.only === line.name ? null : line.name; changed(); } }, line.name),
          line.bot ? null : [" ", h("a", { class: "profile-link small", href: "/u/" + encodeURIComponent(line.name), "aria-label": t("Profile of {name}", { name: line.name }) }, t("Profile"))], // profile.js; a bot has none
          notes.length ? h("span", { class: "note", text: " (" + notes.join(", ") + ")" }) : null),
        h("td", { text: String(line.points) }), h("td", { text: third }), h("td", { text: String(line.games) }));
    });
    return h("div", { class: "standings-wrap" }, h("table", { class: "standings" }, h("thead", {}, head), h("tbody", {}, rows)));
  }

  function tableLine(table) {
    const names = table.seats.map((name) => name === null ? t("a bot") : name);
    if (table.bye) return h("li", { text: t("{name}: a bye (counts as a win)", { name: names[0] }) });
    const result = table.finished ? table.points.join(" – ") : t("being played");
    const out = [h("span", { class: "who", text: names.join(" · ") }), h("span", { class: "result", text: result })];
    if (table.forfeited.length) out.push(h("span", { class: "note", text: t("forfeited: {names}", { names: table.forfeited.join(", ") }) }));
    if (!table.finished) out.push(h("button", { type: "button", class: "link", onclick: () => goTo(table.code) }, t("Watch")));
    else out.push(h("a", { class: "button small", href: `/replay/${table.code}/1`, "data-key": "replay-" + table.code }, t("Replay and analysis")));
    return h("li", {}, out);
  }

  function tables(d) {
    const rounds = new Map();
    for (const table of d.tables.filter((one) => !T.only || one.seats.includes(T.only))) {
      const key = d.settings.kind === "arena" ? 0 : table.round;
      if (!rounds.has(key)) rounds.set(key, []);
      rounds.get(key).push(table);
    }
    const out = [];
    for (const [round, list] of [...rounds.entries()].sort((a, b) => b[0] - a[0])) {
      out.push(h("h3", { text: round ? t("Round {n}", { n: round }) : t("Games") }));
      out.push(h("ul", { class: "tournament-tables" }, list.map(tableLine)));
    }
    const only = T.only ? h("p", { class: "only" }, h("span", { text: t("Games of {name}", { name: T.only }) + " " }),
      h("button", { type: "button", class: "small", "data-key": "t-all", onclick: () => { T.only = null; changed(); } }, t("Show all"))) : null;
    return out.length || only ? h("section", { class: "card" }, h("h2", { text: t("Tables") }), only, out) : null;
  }

  // A duplicate's deals: the commitment from the start, this browser's part,
  // and once it is over whether every round's deals follow (web/tournament/parts.py).
  function fairness(d) {
    const f = d.fairness;
    if (d.settings.kind !== "duplicate" || !f || !f.commitment) return null;
    const mine = localStorage.getItem(partKey(d.id));
    const short = (hex) => hex.slice(0, 12) + "…";
    const inIt = mine && (f.rounds || []).some((r) => r.parts.includes(mine));
    return h("section", { class: "card fairness", id: "t-fairness" },
      h("h2", { text: t("Deal commitment") }),
      h("p", { class: "muted small", text: t("Every round's deals follow from this tournament's secret, committed here before it began, and from each person's random part, given with their join.") }),
      h("p", {}, h("code", { id: "t-commitment", "data-full": f.commitment, text: short(f.commitment) })),
      mine ? h("p", { class: "small" }, h("span", { class: "label", text: t("Your browser's part") }), " ", h("code", { id: "t-my-part", "data-full": mine, text: short(mine) })) : null,
      f.verified === true ? h("p", { class: "fairness-ok", id: "t-fairness-verdict", text: t("Verified: the commitment shown before the tournament began matches its secret, and every round's deals follow from the secret and the people's parts.") }) : null,
      f.verified === false ? h("p", { class: "fairness-bad", id: "t-fairness-verdict", role: "alert", text: t("Not verified: {reason}", { reason: f.problem }) }) : null,
      inIt ? h("p", { class: "fairness-ok small", id: "t-fairness-mine", text: t("This browser's own part is in the seed.") }) : null);
  }

  function render() {
    const d = T.data;
    if (!d) return h("main", { class: "lobby tournament" }, h("p", { class: "loading", text: T.error || t("Loading…") }));
    const yours = d.yours ? h("div", { class: "your-game", role: "status" },
      h("span", { text: t("Your game has started: table {code}.", { code: d.yours.code }) }),
      h("button", { type: "button", "data-key": "t-go", class: "primary", onclick: () => goTo(d.yours.code, d.yours.seat) }, t("Go to your game"))) : null;
    return h("main", { class: "lobby tournament" },
      h("a", { href: "/", class: "back", text: t("Back to the lobby") }),
      h("h1", { text: d.settings.name }),
      h("p", { class: "settings", text: settingsLine(d.settings) }),
      h("p", { class: "status", "data-status": d.status }, tournamentStatus(d, T.at)),
      yours, buttons(d), T.error ? h("p", { class: "error", text: T.error }) : null,
      h("section", { class: "card" }, h("h2", { text: t("Standings") }), standings(d)),
      tables(d), fairness(d));
  }

  return { route, active, render };
})();
