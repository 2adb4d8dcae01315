// The lobby (a new table, joining a friend's table, watching) and the join
// panel that a table's link or an invitation opens; quick play's cards are
// quickplay.js's, and joining and watching themselves socket.js's. Its words
// come from t() and nt() like the rest of the page (i18n.js).

import { accountRated, accountRatedField } from "./account.js";
import { domino, field, h, select } from "./dom.js";
import { nt, t } from "./i18n.js";
import { learnOffer } from "./lessons.js";
import { Quick } from "./quickplay.js";
import { seatNo } from "./seat.js";
import { friendsCard } from "./social.js";
import { joinTable, savedName, send, watchTable } from "./socket.js";
import { S, changed, notify } from "./state.js";
import { pageTools } from "./tools.js";
import { tournamentsCard } from "./tournaments.js";
import { yoursCard } from "./yours.js";

function ruleWord(kind, value) {
  return t(`rule.${kind}.${value}`);
}

// The clocks a new table may have: seconds per move, or none.
const CLOCKS = ["none", "20", "45", "90"];

export function renderLobby() {
  const cfg = S.config;
  const form = h("form", { class: "card create", id: "create-form", onsubmit: (e) => { e.preventDefault(); createTable(); } });
  const players = Number(S.lobbyPlayers || 2);
  const partnerships = players === 4 && !!S.lobbyTeams;
  const seatRows = [];
  for (let seat = 0; seat < players; seat++) {
    if (seat === 0) {
      seatRows.push(h("li", { class: "seat-choice you" }, h("span", { class: "seat-no", text: seatNo(seat) }),
        h("span", { text: t("You") })));
      continue;
    }
    // A rated table seats people only (account.js).
    const chosen = accountRated() ? "person" : (S.lobbySeats || {})[seat] || cfg.default_level;
    const options = [["person", t("A person (invite with the code)")]].concat(accountRated() ? [] :
      cfg.levels.map((l) => [l.name, t("Bot: {level}", { level: l.label })]));
    const sel = select("seat" + seat, options, chosen);
    sel.setAttribute("aria-label", t("Who sits in seat {n}", { n: seat + 1 }));
    sel.addEventListener("change", () => {
      S.lobbySeats = { ...(S.lobbySeats || {}), [seat]: sel.value };
    });
    const team = partnerships ? h("span", { class: "team", text: seat % 2 === 0 ? t("your partner") : t("opponent") }) : null;
    seatRows.push(h("li", { class: "seat-choice" }, h("span", { class: "seat-no", text: seatNo(seat) }), sel, team));
  }
  const playerRadios = h("div", { class: "segmented", role: "radiogroup", "aria-label": t("Players") },
    [2, 3, 4].map((n) => h("label", { class: n === players ? "on" : "" },
      h("input", { type: "radio", name: "players", value: n, checked: n === players, onchange: () => { S.lobbyPlayers = n; if (n !== 4) S.lobbyTeams = false; changed(); } }),
      h("span", { text: String(n) }))));
  const teams = h("input", { type: "checkbox", name: "partnerships", id: "f-partnerships", checked: partnerships, disabled: players !== 4,
    onchange: (e) => { S.lobbyTeams = e.target.checked; changed(); } });
  const preset = S.lobbyPreset || cfg.rules.target_presets[0];
  const presetTarget = (cfg.preset_targets[preset] || {})[String(players) + (partnerships ? "p" : "")] || cfg.targets[String(players)];
  const target = h("input", { type: "number", name: "target", id: "f-target", min: 1, max: 10000, inputmode: "numeric",
    placeholder: String(presetTarget), value: S.lobbyTarget || "", oninput: (e) => { S.lobbyTarget = e.target.value; } });
  const presetSel = select("target_preset", cfg.rules.target_presets.map((v) => [v, ruleWord("target_preset", v)]), preset);
  presetSel.addEventListener("change", () => { S.lobbyPreset = presetSel.value; changed(); });
  const clock = select("clock", CLOCKS.map((v) => [v, v === "none" ? t("No clock") : nt("{n} second per move", Number(v))]), S.lobbyClock || "none");
  clock.addEventListener("change", () => { S.lobbyClock = clock.value; });
  const name = h("input", { type: "text", name: "name", id: "f-name", maxlength: cfg.max_name, required: true, autocomplete: "nickname", value: S.lobbyName ?? savedName(),
    oninput: (e) => { S.lobbyName = e.target.value; } });
  const rule = (kind, values, value) => {
    const sel = select(kind, values.map((v) => [v, ruleWord(kind, v)]), (S.lobbyRules || {})[kind] || value);
    sel.addEventListener("change", () => { S.lobbyRules = { ...(S.lobbyRules || {}), [kind]: sel.value }; });
    return sel;
  };
  form.append(
    h("h2", { text: t("New table") }),
    field(t("Your name"), name),
    h("fieldset", {}, h("legend", { text: t("Players") }), playerRadios,
      h("label", { class: "check" }, teams, h("span", { text: t("Partnerships (seats 1+3 against 2+4)") }))),
    h("fieldset", {}, h("legend", { text: t("Seats") }), h("ol", { class: "seat-list" }, seatRows)),
    field(t("Clock"), clock, t("When someone's time runs out, the game makes a move for them.")),
    accountRatedField() ?? "",
    h("label", { class: "check" }, h("input", { type: "checkbox", name: "public", id: "f-public", checked: !!S.lobbyPublic,
      onchange: (e) => { S.lobbyPublic = e.target.checked; } }), h("span", { text: t("List this table") })),
    h("p", { class: "hint", text: t("Anyone can find a listed table in the public tables, to join or to watch.") }),
    h("details", { class: "rules-box", open: !!S.rulesOpen, ontoggle: (e) => { S.rulesOpen = e.target.open; } }, h("summary", { text: t("Rules and variants") }),
      field(t("Drawing"), rule("draw", cfg.rules.draw, "ends-turn")),
      field(t("Passing"), rule("passing", cfg.rules.passing, "free")),
      field(t("Scoring"), rule("scoring", cfg.rules.scoring, "literal")),
      field(t("Who leads each round"), rule("leader", cfg.rules.leader, "random")),
      field(t("Target score"), target, nt("Empty: {n} point", presetTarget)),
      field(t("Target preset"), presetSel, t("Used when no target score is given"))),
    h("button", { type: "submit", class: "primary big", id: "create-button", text: t("Create table") }),
  );

  const code = h("input", { type: "text", name: "code", id: "j-code", maxlength: 12, autocomplete: "off", autocapitalize: "characters",
    placeholder: "K7M2QX", value: S.joinCode || "", oninput: (e) => { S.joinCode = e.target.value; } });
  const joinName = h("input", { type: "text", name: "name", id: "j-name", maxlength: cfg.max_name, autocomplete: "nickname",
    value: S.lobbyName ?? savedName(), oninput: (e) => { S.lobbyName = e.target.value; } });
  const join = h("form", { class: "card join", onsubmit: (e) => { e.preventDefault(); joinTable(code.value, joinName.value); } },
    h("h2", { text: t("Join a friend's table") }),
    field(t("Table code"), code),
    field(t("Your name"), joinName),
    h("div", { class: "row" },
      h("button", { type: "submit", class: "primary", id: "join-button", text: t("Join") }),
      h("button", { type: "button", id: "watch-button", text: t("Watch"), onclick: () => watchTable(code.value) })),
    // replay.js: a downloaded record, stepped through and analysed.
    h("p", { class: "open-record" }, h("a", { href: "/replay", id: "open-record-link", text: t("Open a game record") })));

  return h("main", { class: "lobby" },
    pageTools(),
    h("header", { class: "hero" },
      h("div", { class: "hero-tiles", "aria-hidden": "true" }, domino(6, 6), domino(3, 5, { across: true }), domino(1, 4)),
      h("h1", { text: t("The Passing Game") }),
      h("p", { class: "tagline", text: t("A domino game for 2 to 4 players. Play friends or bots in your browser.") })),
    yoursCard(), // yours.js: the tables where you hold a seat
    computerCard(),
    learnOffer(), // lessons.js: the tutorial on a first visit, then its rest; after the computer, still one tap
    puzzlesCard(), // the puzzles (puzzles.js): the next one, the puzzle of the day
    Quick.lobbyTop(), // quickplay.js: Play now, the daily deal
    h("div", { class: "lobby-cards" }, form, join),
    Quick.lobbyBottom(), // quickplay.js: the public tables
    // social.js: the accounts you follow, challenges, blocks; below the first screen,
    // which stays the computer's and quick play's (a challenge's notice shows anywhere).
    friendsCard(),
    tournamentsCard()); // tournaments.js: the public tournaments, and one for friends
}

// The puzzles (issue 25, item 2): links to /puzzles and the puzzle of the day.
function puzzlesCard() {
  return h("section", { class: "card puzzles-card", id: "puzzles-card", "aria-labelledby": "puzzles-card-title" },
    h("h2", { id: "puzzles-card-title", text: t("Puzzles") }),
    h("p", { text: t("Find the best move in positions from real rounds, with answers proved by a full search.") }),
    h("div", { class: "row" },
      h("a", { href: "/puzzles", class: "button primary", id: "puzzles-link" }, t("Solve a puzzle")),
      h("a", { href: "/puzzles/daily", class: "button", id: "puzzles-daily-link" }, t("Puzzle of the day"))));
}

// Play the computer in one tap (issue 24, item 1): a level chosen by how it plays.
function computerCard() {
  const levels = S.config.levels.filter((l) => l.about);
  if (!levels.length) return null;
  const chosen = levels.find((l) => l.name === S.lobbyLevel) || levels.find((l) => l.name === S.config.default_level) || levels[0];
  return h("section", { class: "card computer", id: "computer-card", "aria-labelledby": "computer-title" },
    h("h2", { id: "computer-title", text: t("Play the computer") }),
    h("div", { class: "segmented levels", role: "radiogroup", "aria-labelledby": "computer-title" },
      levels.map((l) => h("label", { class: "level" + (l === chosen ? " on" : "") },
        h("input", { type: "radio", name: "level", value: l.name, checked: l === chosen, "aria-describedby": "level-about",
          onchange: () => { S.lobbyLevel = l.name; changed(); } }),
        h("span", { text: l.title })))),
    h("p", { class: "level-about", id: "level-about", "aria-live": "polite", text: chosen.about }),
    h("button", { type: "button", class: "primary big", id: "computer-button", onclick: playComputer }, t("Play")),
    // How strong each level is, measured (ladder.js, /ladder).
    h("a", { href: "/ladder", class: "ladder-link", id: "ladder-link", text: t("The computer players' ladder") }));
}

function playComputer() {
  const name = (S.lobbyName ?? savedName()).trim() || t("Player");
  S.watching = false;
  const level = S.lobbyLevel || (S.config.levels.find((l) => l.about) || {}).name || S.config.default_level;
  send({ type: "create", name, seats: ["you", level], rules: { players: 2 } });
}

function createTable() {
  const cfg = S.config;
  const name = (S.lobbyName ?? savedName()).trim();
  if (!name) {
    notify(t("Please give your name."), "error");
    document.getElementById("f-name")?.focus();
    return;
  }
  localStorage.setItem("passing-game:name", name);
  const players = Number(S.lobbyPlayers || 2);
  const seats = ["you"];
  for (let seat = 1; seat < players; seat++) seats.push(accountRated() ? "person" : (S.lobbySeats || {})[seat] || cfg.default_level);
  const rules = { players, partnerships: players === 4 && !!S.lobbyTeams, ...(S.lobbyRules || {}) };
  const target = parseInt(S.lobbyTarget || "", 10);
  if (Number.isInteger(target) && target > 0) rules.target = target;
  else if (S.lobbyPreset) rules.target_preset = S.lobbyPreset;
  S.watching = false;
  const msg = { type: "create", name, seats, rules };
  if (accountRated()) msg.rated = true;
  // "none" is the default: left out, so that a server without clocks still takes the table.
  if (S.lobbyClock && S.lobbyClock !== "none") msg.clock = S.lobbyClock;
  if (S.lobbyPublic) msg.public = true;
  send(msg);
}

export function renderJoinPanel() {
  const name = h("input", { type: "text", id: "jp-name", maxlength: S.config.max_name, value: S.lobbyName ?? savedName(), oninput: (e) => { S.lobbyName = e.target.value; } });
  let invited = null;
  if (S.invite) {
    invited = h("p", { class: "invited", id: "invited",
      text: S.inviteSeat ? t("You are invited to take seat {n}.", { n: S.inviteSeat }) : t("You are invited to take a seat at this table.") });
  }
  return h("main", { class: "lobby" },
    pageTools(),
    h("header", { class: "hero" }, h("h1", { text: t("The Passing Game") }),
      h("p", { class: "tagline", text: t("Table {code}", { code: S.code }) })),
    h("form", { class: "card join", onsubmit: (e) => { e.preventDefault(); joinTable(S.code, name.value); } },
      h("h2", { text: t("Take a seat") }),
      invited,
      field(t("Your name"), name),
      h("div", { class: "row" },
        h("button", { type: "submit", class: "primary", id: "join-button", text: t("Join") }),
        h("button", { type: "button", id: "watch-button", text: t("Watch"), onclick: () => watchTable(S.code) }))));
}
