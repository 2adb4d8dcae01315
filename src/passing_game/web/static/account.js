// Accounts on the page (issue 13): sign up, sign in, sign out, change the
// password, delete the account; "My games" and the leaderboards; the lobby's
// "Rated game" switch. The rating changes at the end of a rated match, the
// ratings' help and the leaderboard's table are ratings.js's.
//
// The server's account endpoints (web/account_api.py) need the page's CSRF
// token, read from GET /api/account and sent as X-CSRF-Token. Names are user
// text: always put on the page as text (h's `text` or text nodes), never HTML.

import { ICONS, dialogBox, field, h, toolButton } from "./dom.js";
import { I18N, dateTime, nt, sentenceStart, t } from "./i18n.js";
import { BOT_POOLS, PEOPLE_POOLS, leaderboardBody, poolWord, ratingNum, signed } from "./ratings.js";
import { botMark } from "./seat.js";
import { reopen, savedName, savedSeat, send } from "./socket.js";
import { S, changed, notify, render } from "./state.js";

const ACCOUNT = {
  loaded: false,
  user: null, // {id, name, created} when signed in
  csrf: null,
  minPassword: 10,
  seats: {}, // table code -> the seat the account holds there
  panel: null, // "signin" | "signup" | "codes" | "recover" | "menu" | "password" | "delete" | "games" | "leaders"
  codes: null, // a new account's recovery codes, shown once
  form: {}, // what the person typed, kept across renders
  error: null,
  busy: false,
  games: null, // GET /api/account/games
  leaders: null, // GET /api/leaderboard
  pool: "2",
  version: 0, // bumped whenever the dialog's content changes
  view: null, // {version, node}: the dialog as last built (kept so typing survives a render)
  epoch: 0, // sign-ins and sign-outs so far (accountLoad)
};

ICONS.user = "M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9zM3.5 21a8.5 8.5 0 0 1 17 0";

// The lobby's "Rated game" choice, when it applies (signed in and switched on).
export function accountRated() {
  return !!(ACCOUNT.user && S.lobbyRated);
}

// The seat the signed-in account holds at a table (taken back without a token), or null.
export function accountSeat(code) {
  if (!ACCOUNT.user || !code || !Object.prototype.hasOwnProperty.call(ACCOUNT.seats, code)) return null;
  return ACCOUNT.seats[code];
}

// The signed-in person ({id, name}), or null (a guest).
export function accountUser() {
  return ACCOUNT.user || null;
}

// A seat the account was just given (a tournament's table): taken back without a token.
export function accountHolds(code, seat) {
  if (ACCOUNT.user) ACCOUNT.seats[code] = seat;
}

// Every seat the signed-in account holds: table code -> seat ({} for a guest).
export function accountSeats() {
  return ACCOUNT.user ? { ...ACCOUNT.seats } : {};
}

function accountChanged() {
  ACCOUNT.version += 1;
  changed();
}

// -- talking to the server ---------------------------------------------------------

async function accountFetch(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" }, cache: "no-store" });
  const data = await response.json().catch(() => ({}));
  return { ok: response.ok, data };
}

// A POST with the page's CSRF token (the tutorial's progress uses it too).
export async function accountPost(path, body) {
  if (!ACCOUNT.csrf) await accountLoad();
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": ACCOUNT.csrf || "" },
    body: JSON.stringify(body || {}),
  });
  const data = await response.json().catch(() => ({}));
  if (data && typeof data.csrf === "string") ACCOUNT.csrf = data.csrf; // a new session, a new token
  return { ok: response.ok, data };
}

// The server closed this page's socket: its session ended (signed out elsewhere, the
// password changed, the account suspended or deleted). The page carries on as a guest;
// the socket opens again by itself.
export async function accountEnded(msg) {
  await accountLoad(false);
  if (!ACCOUNT.user) notify(sentenceStart(msg.message), "error");
}

export async function accountLoad(resume = true) {
  // A load sent before the latest sign-in or sign-out is not heard: the page's first
  // load may answer (as a guest) after a sign-up made meanwhile, and must not sign
  // the account out again. Loads of one epoch are all heard, in the order they come,
  // as the browser keeps the cookie of the last answer that came.
  const epoch = ACCOUNT.epoch;
  try {
    const { ok, data } = await accountFetch("/api/account");
    if (!ok || epoch !== ACCOUNT.epoch) return;
    ACCOUNT.csrf = data.csrf;
    ACCOUNT.minPassword = data.min_password || ACCOUNT.minPassword;
    ACCOUNT.user = data.user;
    ACCOUNT.loaded = true;
    if (ACCOUNT.user) {
      // The button was pressed before the page knew who is signed in: the account's menu.
      if (ACCOUNT.panel === "signin") ACCOUNT.panel = "menu";
      fillName();
      await loadSeats();
      if (resume) resumeOwnSeat();
    }
    // Other scripts (quick play, the replay) may follow who is signed in.
    window.dispatchEvent(new CustomEvent("passing-game:account", { detail: { user: ACCOUNT.user } }));
    accountChanged();
  } catch (e) {
    /* the page works without an account */
  }
}

async function loadSeats() {
  ACCOUNT.seats = {};
  if (!ACCOUNT.user) return;
  const { ok, data } = await accountFetch("/api/account/tables");
  if (!ok) return;
  for (const entry of data.tables || []) ACCOUNT.seats[entry.code] = entry.seat;
}

// The seats this browser holds as a guest (localStorage), offered to the account.
function guestSeats() {
  const seats = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i) || "";
    if (!key.startsWith("passing-game:seat:")) continue;
    const saved = savedSeat(key.slice("passing-game:seat:".length));
    if (saved) seats.push({ code: key.slice("passing-game:seat:".length), seat: saved.seat, token: saved.token });
  }
  return seats.slice(0, 200);
}

// The name the lobby's forms start with, once signed in.
function fillName() {
  if (ACCOUNT.user && !(S.lobbyName ?? savedName())) S.lobbyName = ACCOUNT.user.name;
}

// At a table's link without this browser's token: the account's own seat, taken back.
function resumeOwnSeat() {
  if (!S.code || S.watching || S.invite || savedSeat(S.code)) return;
  if (S.frame && S.frame.table === S.code) return;
  const seat = accountSeat(S.code);
  if (seat !== null && S.wsOpen) send({ type: "resume", code: S.code, seat });
}

function failed(data) {
  ACCOUNT.busy = false;
  ACCOUNT.error = data && data.error ? sentenceStart(data.error) : t("Something went wrong; try again.");
  accountChanged();
}

async function submitSign(kind) {
  if (ACCOUNT.busy) return;
  const name = (ACCOUNT.form.name || "").trim();
  const password = ACCOUNT.form.password || "";
  ACCOUNT.busy = true;
  ACCOUNT.error = null;
  accountChanged();
  try {
    const { ok, data } = await accountPost(kind === "signup" ? "/api/account/signup" : "/api/account/signin",
      { name, password, seats: guestSeats() });
    if (!ok) return failed(data);
    await signedIn(data, (name) => (kind === "signup" ? t("Welcome, {name}! Your account is ready.", { name }) : t("Signed in as {name}.", { name })));
    // A new account's recovery codes, shown this once (web/accounts/recovery.py).
    if (data.recovery_codes) {
      ACCOUNT.codes = data.recovery_codes;
      openPanel("codes");
    }
  } catch (e) {
    failed(null);
  }
}

async function signedIn(data, say) {
  ACCOUNT.user = data.user;
  ACCOUNT.epoch += 1;
  ACCOUNT.busy = false;
  ACCOUNT.form = {};
  ACCOUNT.panel = null;
  await accountLoad(false); // the account's seats, taken back once the socket knows the account
  reopen();
  notify(say(ACCOUNT.user.name), "info");
}

// Back in with a recovery code and a new password (POST /api/account/recover).
async function submitRecover() {
  if (ACCOUNT.busy) return;
  ACCOUNT.busy = true;
  ACCOUNT.error = null;
  accountChanged();
  try {
    const f = ACCOUNT.form;
    const { ok, data } = await accountPost("/api/account/recover", { name: (f.name || "").trim(), code: f.code || "", password: f.password || "" });
    if (!ok) return failed(data);
    await signedIn(data, (name) => t("You are back in, {name}: your password is changed.", { name }));
  } catch (e) {
    failed(null);
  }
}

async function signOut() {
  const { ok, data } = await accountPost("/api/account/signout", {});
  if (!ok) return failed(data);
  ACCOUNT.user = null;
  ACCOUNT.epoch += 1;
  ACCOUNT.seats = {};
  ACCOUNT.panel = null;
  ACCOUNT.games = null;
  S.lobbyRated = false;
  await accountLoad();
  reopen();
  notify(t("You are signed out."), "info");
}

async function submitPassword() {
  if (ACCOUNT.busy) return;
  ACCOUNT.busy = true;
  ACCOUNT.error = null;
  accountChanged();
  const { ok, data } = await accountPost("/api/account/password", { old: ACCOUNT.form.old || "", new: ACCOUNT.form.new || "" });
  if (!ok) return failed(data);
  ACCOUNT.busy = false;
  ACCOUNT.form = {};
  ACCOUNT.panel = null;
  accountChanged();
  reopen(); // a new session: every other one ended, this page's socket starts again with it
  notify(t("Your password is changed."), "info");
}

async function submitDelete() {
  if (ACCOUNT.busy) return;
  ACCOUNT.busy = true;
  ACCOUNT.error = null;
  accountChanged();
  const { ok, data } = await accountPost("/api/account/delete", { password: ACCOUNT.form.deletePassword || "" });
  if (!ok) return failed(data);
  ACCOUNT.busy = false;
  ACCOUNT.form = {};
  ACCOUNT.user = null;
  ACCOUNT.epoch += 1;
  ACCOUNT.seats = {};
  ACCOUNT.panel = null;
  S.lobbyRated = false;
  await accountLoad();
  reopen();
  notify(t("Your account is deleted. Its games stay, without your name."), "info");
}

async function showGames() {
  openPanel("games");
  const { ok, data } = await accountFetch("/api/account/games");
  ACCOUNT.games = ok ? data.games : [];
  accountChanged();
}

async function showLeaders(pool) {
  ACCOUNT.pool = pool || ACCOUNT.pool;
  if (ACCOUNT.panel !== "leaders") openPanel("leaders");
  ACCOUNT.leaders = null;
  accountChanged();
  const { ok, data } = await accountFetch("/api/leaderboard?pool=" + encodeURIComponent(ACCOUNT.pool));
  ACCOUNT.leaders = ok ? data.players : [];
  accountChanged();
}

function openPanel(panel) {
  S.menuOpen = false;
  ACCOUNT.panel = panel;
  ACCOUNT.error = null;
  ACCOUNT.busy = false;
  accountChanged();
  render(); // now: its first field takes the focus
  const first = document.querySelector("#account-dialog input, #account-dialog button");
  first?.focus();
}

function closePanel() {
  ACCOUNT.panel = null;
  ACCOUNT.error = null;
  ACCOUNT.form = {};
  accountChanged();
  render(); // now: the focus goes back to the account's button
  const button = document.getElementById("account-button");
  (button && button.offsetParent ? button : document.getElementById("menu-button"))?.focus();
}

// -- what the page shows ------------------------------------------------------------

// The account's button on the page's tool bar (lobby, join panel, table; `prefix` for the phone's menu).
export function accountButton(prefix = "") {
  const user = ACCOUNT.user;
  return toolButton({ id: prefix + "account-button", key: prefix + "account", icon: "user",
    label: user ? user.name : t("Sign in"), title: user ? t("Your account: {name}", { name: user.name }) : t("Sign in or create an account"),
    onclick: () => openPanel(ACCOUNT.user ? "menu" : "signin") }); // as the page knows it when pressed
}

function accountInput(key, type, autocomplete, label, hint) {
  const input = h("input", { type, id: "acc-" + key, name: key, "data-key": "acc-" + key, autocomplete, required: true,
    maxlength: type === "password" ? 256 : S.config.max_name, value: ACCOUNT.form[key] || "",
    oninput: (e) => { ACCOUNT.form[key] = e.target.value; } });
  return field(label, input, hint);
}

function errorLine() {
  return ACCOUNT.error ? h("p", { class: "account-error", id: "account-error", role: "alert", text: ACCOUNT.error }) : null;
}

function passwordHint() {
  return nt("At least {n} character", ACCOUNT.minPassword);
}

function signPanel(kind) {
  const up = kind === "signup";
  const form = h("form", { class: "account-form", id: "account-form", onsubmit: (e) => { e.preventDefault(); submitSign(kind); } },
    accountInput("name", "text", "username", t("User name")),
    accountInput("password", "password", up ? "new-password" : "current-password", t("Password"), up ? passwordHint() : null),
    errorLine(),
    h("button", { type: "submit", class: "primary", id: "acc-submit", "data-key": "acc-submit", "aria-disabled": ACCOUNT.busy ? "true" : null },
      up ? t("Create the account") : t("Sign in")));
  return {
    title: up ? t("Create an account") : t("Sign in"),
    body: [
      h("p", { class: "muted", text: up
        ? t("Your games on any device and a rating; the tables of this browser become yours.")
        : t("Your games on any device; the tables of this browser become yours.") }),
      form,
      h("p", { class: "account-switch" },
        h("button", { type: "button", class: "small", id: "acc-switch", "data-key": "acc-switch", onclick: () => openPanel(up ? "signin" : "signup") },
          up ? t("I have an account: sign in") : t("New here? Create an account")),
        up ? null : h("button", { type: "button", class: "small", id: "acc-lost", "data-key": "acc-lost", onclick: () => openPanel("recover") }, t("Lost your password?"))),
    ],
    buttons: [h("button", { type: "button", id: "acc-leaders", "data-key": "acc-leaders", onclick: () => showLeaders() }, t("Leaderboard"))],
  };
}

function codesPanel() {
  return {
    title: t("Your recovery codes"),
    body: [
      h("p", { text: t("Each code lets you back into your account once if you lose your password. Keep them somewhere safe: they are shown only now.") }),
      h("ul", { class: "recovery-codes", id: "acc-codes" }, (ACCOUNT.codes || []).map((code) => h("li", {}, h("code", { text: code })))),
    ],
    buttons: [h("button", { type: "button", class: "primary", id: "acc-codes-kept", "data-key": "acc-codes-kept", onclick: () => { ACCOUNT.codes = null; closePanel(); } }, t("I have kept them"))],
  };
}

function recoverPanel() {
  return {
    title: t("Lost your password?"),
    body: [
      h("p", { class: "muted", text: t("Use one of the recovery codes shown when the account was made. None left? A moderator can give you one.") }),
      h("form", { class: "account-form", id: "account-form", onsubmit: (e) => { e.preventDefault(); submitRecover(); } },
        accountInput("name", "text", "username", t("User name")),
        accountInput("code", "text", "one-time-code", t("Recovery code")),
        accountInput("password", "password", "new-password", t("New password"), passwordHint()),
        errorLine(),
        h("button", { type: "submit", class: "primary", id: "acc-recover-submit", "data-key": "acc-recover-submit" }, t("Back in with a new password")))],
    buttons: [],
  };
}

function menuPanel() {
  const item = (id, text, onclick, cls) => h("button", { type: "button", id, "data-key": id, class: cls || null, onclick }, text);
  return {
    title: ACCOUNT.user.name,
    body: [h("div", { class: "account-menu" },
      item("acc-games", t("My games"), () => showGames()),
      // Every finished game's record, as JSON lines (web/yourdata/export.py).
      h("a", { class: "button", id: "acc-export", "data-key": "acc-export", href: "/api/account/export", download: "passing-game-games.jsonl" }, t("Download my games")),
      h("a", { class: "button", id: "acc-profile", "data-key": "acc-profile", href: "/u/" + encodeURIComponent(ACCOUNT.user.name) }, t("My profile")), // profile.js
      ...EXTRA.map((x) => item("acc-" + x.name, x.label(), () => { openPanel(x.name); x.opened(); })),
      item("acc-leaders", t("Leaderboard"), () => showLeaders()),
      item("acc-password-open", t("Change the password"), () => openPanel("password")),
      item("acc-signout", t("Sign out"), () => signOut()),
      item("acc-delete-open", t("Delete the account…"), () => openPanel("delete"), "danger"))],
    buttons: [],
  };
}

function passwordPanel() {
  return {
    title: t("Change the password"),
    body: [h("form", { class: "account-form", id: "account-form", onsubmit: (e) => { e.preventDefault(); submitPassword(); } },
      accountInput("old", "password", "current-password", t("Current password")),
      accountInput("new", "password", "new-password", t("New password"), passwordHint()),
      h("p", { class: "muted", text: t("Your other devices are signed out.") }),
      errorLine(),
      h("button", { type: "submit", class: "primary", id: "acc-password-submit", "data-key": "acc-password-submit" }, t("Change the password")))],
    buttons: [],
  };
}

function deletePanel() {
  return {
    title: t("Delete the account?"),
    body: [h("form", { class: "account-form", id: "account-form", onsubmit: (e) => { e.preventDefault(); submitDelete(); } },
      h("p", { text: t("This cannot be undone. Your games stay, without your name; you leave the leaderboards.") }),
      accountInput("deletePassword", "password", "current-password", t("Your password, to confirm")),
      errorLine(),
      h("button", { type: "submit", class: "primary danger", id: "acc-delete-confirm", "data-key": "acc-delete-confirm" }, t("Delete my account")))],
    buttons: [],
  };
}

function resultText(game) {
  const r = game.result;
  if (!game.over) return t("In progress");
  if (!r) return "";
  if (r.won) return t("Won");
  if (r.of === 2) return t("Lost");
  return t("Place {n} of {m}", { n: r.place, m: r.of });
}

function ratingText(game) {
  const r = game.rating;
  if (!game.rated) return t("Not rated");
  if (!r) return game.over ? "" : t("Rated");
  if (r.removed) return t("Removed from the ratings");
  return t("{before} → {after}", { before: ratingNum(r.before), after: ratingNum(r.after) }) + " (" + signed(r.delta) + ")";
}

function gamesPanel() {
  let content;
  if (ACCOUNT.games === null) content = h("p", { class: "muted", text: t("Loading…") });
  else if (!ACCOUNT.games.length) content = h("p", { class: "muted", id: "no-games", text: t("No games yet.") });
  else {
    content = h("table", { class: "account-table", id: "my-games" },
      h("thead", {}, h("tr", {}, [t("Date"), t("Players"), t("Result"), t("Rating"), ""].map((text) => h("th", { scope: "col", text })))),
      h("tbody", {}, ACCOUNT.games.map((game) => h("tr", { class: "game-row", dataset: { code: game.code, game: String(game.game) } },
        h("td", { text: dateTime(game.date) }),
        h("td", { class: "players" }, game.players.map((p, i) => [i ? ", " : "", h(p.you ? "strong" : "span", { text: p.name }), p.bot ? botMark() : null])),
        h("td", { class: "result", text: resultText(game) + (game.result ? " · " + game.result.scores.join("–") : "") }),
        h("td", { class: "rating " + (game.rating && !game.rating.removed ? (game.rating.delta > 0 ? "up" : game.rating.delta < 0 ? "down" : "") : ""), text: ratingText(game) }),
        h("td", {}, h("a", { href: game.link, class: "button small" }, game.over ? t("Replay") : t("Open the table")))))));
  }
  return { title: t("My games"), body: [content], buttons: [], wide: true };
}

// One row of pools to choose from: the people's, or the bots' (P62) apart.
function poolChoices(pools, label, id) {
  return h("div", { class: "segmented pools", id, role: "radiogroup", "aria-label": label },
    pools.map((pool) => h("label", { class: pool === ACCOUNT.pool ? "on" : "" },
      h("input", { type: "radio", name: "pool", value: pool, checked: pool === ACCOUNT.pool, onchange: () => showLeaders(pool) }),
      h("span", { text: poolWord(pool) }))));
}

function leadersPanel() {
  const pools = [poolChoices(PEOPLE_POOLS, t("Leaderboard"), "pools-people"),
    h("p", { class: "pools-heading", text: t("Games with bots") }),
    poolChoices(BOT_POOLS, t("Games with bots"), "pools-bots")];
  let content;
  if (ACCOUNT.leaders === null) content = h("p", { class: "muted", text: t("Loading…") });
  else if (!ACCOUNT.leaders.length) content = h("p", { class: "muted", text: t("Nobody is rated here yet.") });
  else content = leaderboardBody(ACCOUNT.leaders, ACCOUNT.user ? ACCOUNT.user.name : null);
  return {
    title: t("Leaderboard"),
    body: [pools, content],
    buttons: [],
    wide: true,
  };
}

const PANELS = { signin: () => signPanel("signin"), signup: () => signPanel("signup"), codes: codesPanel, recover: recoverPanel, menu: menuPanel, password: passwordPanel, delete: deletePanel, games: gamesPanel, leaders: leadersPanel };

// Panels other modules add to the dialog, each with its item in the account's menu
// (bots.js: "My bots"); `build` returns {title, body, buttons, wide} as the panels here.
const EXTRA = [];
export function accountPanel(name, label, build, opened) {
  PANELS[name] = build;
  EXTRA.push({ name, label, opened });
}

// Draw the dialog again (a panel of another module changed).
export function accountRefresh() {
  accountChanged();
}

// The panels a person who is not signed in may see.
const SIGNED_OUT_PANELS = new Set(["signin", "signup", "recover", "leaders"]);

// The account's dialog, if open (page.js puts it on the page).
export function renderAccount() {
  const panel = ACCOUNT.panel;
  if (!panel || !PANELS[panel] || (!SIGNED_OUT_PANELS.has(panel) && !ACCOUNT.user)) return null;
  const view = ACCOUNT.view;
  if (view && view.version === ACCOUNT.version && view.panel === panel && view.language === I18N.language) return view.node;
  const spec = PANELS[panel]();
  const node = dialogBox({
    cls: "account-dialog" + (spec.wide ? " wide" : ""),
    labelledby: "account-title",
    onBackdrop: closePanel,
    body: [h("h2", { id: "account-title", text: spec.title }), spec.body],
    buttons: [...spec.buttons, h("button", { type: "button", id: "account-close", "data-key": "account-close", onclick: closePanel }, t("Close"))],
  });
  node.querySelector('[role="dialog"]').id = "account-dialog";
  ACCOUNT.view = { version: ACCOUNT.version, panel, node, language: I18N.language };
  return node;
}

// Escape closes the account's dialog; the table's keys wait while it is open.
window.addEventListener("keydown", (event) => {
  if (!ACCOUNT.panel) return;
  if (event.key === "Escape") {
    event.stopImmediatePropagation();
    closePanel();
    return;
  }
  const typing = event.target && ["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName);
  if (event.key !== "Tab" && !typing) event.stopImmediatePropagation();
}, true);

// The lobby's "Rated game" switch: for signed-in people; a rated table seats people only.
export function accountRatedField() {
  if (!ACCOUNT.user) return null;
  const box = h("input", { type: "checkbox", name: "rated", id: "f-rated", checked: accountRated(),
    onchange: (e) => { S.lobbyRated = e.target.checked; changed(); } });
  return h("div", { class: "rated-box" },
    h("label", { class: "check" }, box, h("span", { text: t("Rated game") })),
    h("p", { class: "hint muted", text: t("Only people who are signed in sit at a rated table; the result changes their ratings.") }));
}
