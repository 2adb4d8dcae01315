// Friends, who of them is online and where, challenges and blocks (issue 27, item 2;
// web/social/api.py). The lobby's "Friends" card (friendsCard) lists the accounts
// followed, with a dot and a sentence for each ("Online — playing at table ABCD"),
// and a form to follow, challenge or block an account by name. A challenge for you
// shows wherever you are on the site, as a notice of its own below the page
// (#social-notices, outside the page's render) with Accept and Decline.
//
// The page asks GET /api/social every few seconds: the store is the truth,
// whichever server process wrote it. Names are user text: always put on the page
// as text, never as HTML.

import { accountEnded, accountHolds, accountLoad, accountPost, accountUser } from "./account.js";
import { field, h, select } from "./dom.js";
import { nt, sentenceStart, t } from "./i18n.js";
import { botMark } from "./seat.js";
import { watchTable } from "./socket.js";
import { S, changed, notify } from "./state.js";

const POLL_MS = 4000;
const HIDDEN_POLL_MS = 20000;
const CLOCKS = ["none", "20", "45", "90"];
const HANDLED_KEY = "passing-game:social-handled";

const SOCIAL = {
  data: null, // GET /api/social
  shown: "", // the JSON last drawn, to draw again only when it changed
  noticesShown: "",
  form: { name: "", players: "2", bots: "", target: "", clock: "45", rated: false },
  challengeOpen: false,
  busy: false,
  error: null,
  timer: null,
  lastPoll: 0,
};

function handled() {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(HANDLED_KEY) || "[]"));
  } catch (e) {
    return new Set();
  }
}

function markHandled(key) {
  const seen = handled();
  seen.add(key);
  sessionStorage.setItem(HANDLED_KEY, JSON.stringify([...seen].slice(-100)));
}

function goTo(code, seat) {
  if (seat !== undefined && seat !== null) accountHolds(code, seat); // taken back without a token
  history.pushState(null, "", "/t/" + code);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

async function poll() {
  if (!accountUser()) {
    if (SOCIAL.data) {
      SOCIAL.data = null;
      SOCIAL.shown = "";
      drawNotices();
      changed();
    }
    return;
  }
  SOCIAL.lastPoll = Date.now();
  try {
    const response = await fetch("/api/social", { headers: { Accept: "application/json" }, cache: "no-store" });
    if (response.status === 401) {
      // This page's session is gone. Ended elsewhere (a recovery, a password change,
      // a sign-out on another device: "session-ended"), the page says why and goes
      // on as a guest, as its socket would be told; with no session cookie left
      // (signed out in another tab, whose socket tells), it only goes on as a guest.
      const data = await response.json().catch(() => ({}));
      if (data.code === "session-ended") await accountEnded({ message: data.error || "" });
      else await accountLoad(false);
      return;
    }
    if (!response.ok) return;
    take(await response.json());
  } catch (e) {
    /* the next poll tries again */
  }
}

function take(data) {
  SOCIAL.data = data;
  for (const c of data.recent || []) answered(c);
  const text = JSON.stringify({ friends: data.friends, blocked: data.blocked, challenges: (data.challenges || []).map((c) => [c.id, c.status]) });
  if (text !== SOCIAL.shown) {
    SOCIAL.shown = text;
    changed();
  }
  drawNotices();
}

// A challenge of yours answered: said once; an accepted one takes you to its table.
function answered(c) {
  const key = c.id + ":" + c.status;
  if (c.incoming || handled().has(key)) return;
  markHandled(key);
  if (c.status === "accepted" && c.code) {
    notify(t("{name} accepted your challenge.", { name: c.to }), "info");
    goTo(c.code, c.seat);
  } else if (c.status === "declined") {
    notify(t("{name} declined your challenge.", { name: c.to }), "info");
  } else if (c.status === "expired") {
    notify(t("Your challenge to {name} expired.", { name: c.to }), "info");
  }
}

function schedule() {
  clearTimeout(SOCIAL.timer);
  const wait = document.hidden ? HIDDEN_POLL_MS : POLL_MS;
  SOCIAL.timer = setTimeout(async () => {
    await poll();
    schedule();
  }, wait);
}

// Started once by app.js.
export const Social = {
  start() {
    window.addEventListener("passing-game:account", () => poll());
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden && Date.now() - SOCIAL.lastPoll > POLL_MS) poll();
    });
    schedule();
  },
  // The browser tests ask at once instead of waiting for the next poll.
  poll,
};

async function post(path, body) {
  if (SOCIAL.busy) return null;
  SOCIAL.busy = true;
  SOCIAL.error = null;
  changed();
  try {
    const { ok, data } = await accountPost(path, body);
    if (!ok) {
      SOCIAL.error = sentenceStart(data && data.error ? data.error : t("Something went wrong; try again."));
      return null;
    }
    if (data && data.friends) take(data);
    return data;
  } catch (e) {
    SOCIAL.error = t("Something went wrong; try again.");
    return null;
  } finally {
    SOCIAL.busy = false;
    changed();
  }
}

async function act(action, name) {
  const done = await post("/api/social/" + action, { name });
  if (!done) return;
  const said = {
    follow: t("You follow {name}.", { name: done.name }),
    unfollow: t("You no longer follow {name}.", { name: done.name }),
    block: t("You block {name}: no chat and no challenges from this account.", { name: done.name }),
    unblock: t("You no longer block {name}.", { name: done.name }),
  }[action];
  notify(said, "info");
}

function challengeBody() {
  const f = SOCIAL.form;
  const players = Number(f.players);
  const bots = f.bots || (S.config && S.config.default_level) || "easy";
  const seats = ["you", "person"];
  while (seats.length < players) seats.push(bots);
  const rules = { players };
  if (String(f.target).trim()) rules.target = Number(f.target);
  return { name: f.name.trim(), rules, seats, clock: f.clock, rated: players === 2 && !!f.rated };
}

async function sendChallenge() {
  const done = await post("/api/social/challenge", challengeBody());
  if (!done) return;
  SOCIAL.challengeOpen = false;
  notify(t("Challenge sent to {name}. It waits 10 minutes for the answer.", { name: done.challenge.to }), "info");
  await poll();
}

async function answer(c, action) {
  const done = await post(`/api/social/challenges/${encodeURIComponent(c.id)}/${action}`, {});
  if (!done) {
    if (SOCIAL.error) notify(SOCIAL.error, "error");
    await poll();
    return;
  }
  if (action === "accept") {
    markHandled(c.id + ":accepted");
    goTo(done.code, done.seat);
  }
  await poll();
}

// A challenge's table in a few words: players, target, clock, rated or not.
export function challengeSummary(c) {
  const parts = [nt("{n} player", c.players)];
  if (c.target) parts.push(nt("to {n} point", c.target));
  parts.push(c.clock ? t("{move} s a move", { move: c.clock.move }) : t("No clock"));
  if (c.bots && c.bots.length) parts.push(t("Bot: {level}", { level: levelLabel(c.bots[0]) }));
  parts.push(c.rated ? t("rated") : t("casual"));
  return parts.join(" · ");
}

function levelLabel(name) {
  const level = ((S.config && S.config.levels) || []).find((l) => l.name === name);
  return level ? level.label : name;
}

// -- the notices: challenges for you, wherever you are -------------------------------

function drawNotices() {
  let box = document.getElementById("social-notices");
  const incoming = ((SOCIAL.data && SOCIAL.data.challenges) || []).filter((c) => c.incoming && c.status === "open");
  const text = JSON.stringify(incoming.map((c) => c.id));
  if (box && text === SOCIAL.noticesShown) return;
  SOCIAL.noticesShown = text;
  if (!box) {
    box = h("div", { id: "social-notices", class: "social-notices", role: "region", "aria-label": t("Challenges for you") });
    document.body.append(box);
  }
  box.replaceChildren(...incoming.map((c) => h("div", { class: "social-notice", role: "alert", "data-challenge": c.id },
    h("p", { class: "social-notice-text" }, t("{name} challenges you.", { name: c.from }), c.from_bot ? botMark() : null),
    h("p", { class: "hint", text: challengeSummary(c) }),
    h("div", { class: "row" },
      h("button", { type: "button", class: "primary", "data-key": "accept-" + c.id, onclick: () => answer(c, "accept") }, t("Accept")),
      h("button", { type: "button", "data-key": "decline-" + c.id, onclick: () => answer(c, "decline") }, t("Decline"))))));
}

// -- the lobby's card -------------------------------------------------------------

function presenceText(f) {
  if (!f.online) return t("Offline");
  if (f.table) return t("Online — playing at table {code}", { code: f.table.code });
  return t("Online");
}

// The account's public profile (profile.js draws /u/NAME).
function profileLink(name) {
  const path = "/u/" + encodeURIComponent(name);
  return h("a", { href: path, text: name, onclick: (ev) => {
    ev.preventDefault();
    history.pushState(null, "", path);
    window.dispatchEvent(new PopStateEvent("popstate"));
  } });
}

function friendRow(f) {
  const where = f.table ? h("span", { class: "hint", text: " " + f.table.players.join(", ") + (f.table.rated ? " · " + t("rated") : "") }) : null;
  return h("li", { class: "friend" + (f.online ? " online" : "") },
    h("span", { class: "friend-dot", "aria-hidden": "true" }),
    h("span", { class: "friend-who" }, h("strong", {}, profileLink(f.name)), f.bot ? botMark() : null, h("span", { class: "friend-status", text: " — " + presenceText(f) }), where),
    h("span", { class: "friend-actions" },
      f.table ? h("button", { type: "button", onclick: () => watchTable(f.table.code) }, t("Watch")) : null,
      h("button", { type: "button", onclick: () => { SOCIAL.form.name = f.name; SOCIAL.challengeOpen = true; changed(); } }, t("Challenge")),
      h("button", { type: "button", onclick: () => act("unfollow", f.name) }, t("Unfollow")),
      h("button", { type: "button", onclick: () => act("block", f.name) }, t("Block account"))));
}

function kept(name, attrs) {
  const keep = (ev) => {
    SOCIAL.form[name] = ev.target.type === "checkbox" ? ev.target.checked : ev.target.value;
    if (name === "players") changed();
  };
  const id = attrs.id || "social-" + name;
  return h("input", { ...attrs, id, "data-key": id, value: attrs.type === "checkbox" ? undefined : SOCIAL.form[name],
    checked: attrs.type === "checkbox" ? !!SOCIAL.form[name] : undefined, oninput: keep, onchange: keep });
}

function keptSelect(name, options) {
  const sel = select("social-" + name, options, String(SOCIAL.form[name]));
  sel.id = "social-" + name;
  sel.dataset.key = "social-" + name;
  sel.addEventListener("change", () => { SOCIAL.form[name] = sel.value; changed(); });
  return sel;
}

function challengeForm() {
  const f = SOCIAL.form;
  const levels = ((S.config && S.config.levels) || []).map((l) => [l.name, t("Bot: {level}", { level: l.label })]);
  if (!f.bots && levels.length) f.bots = (S.config && S.config.default_level) || levels[0][0];
  const players = Number(f.players);
  return h("form", { class: "social-challenge", id: "social-challenge", onsubmit: (ev) => { ev.preventDefault(); sendChallenge(); } },
    h("h3", { text: t("Challenge an account") }),
    field(t("Account name"), kept("name", { type: "text", maxlength: 64, required: true, autocomplete: "off", id: "social-challenge-name" })),
    field(t("Players"), keptSelect("players", [["2", "2"], ["3", "3"], ["4", "4"]])),
    players > 2 ? field(t("The other seats"), keptSelect("bots", levels)) : null,
    field(t("Target score"), kept("target", { type: "number", min: 1, max: 10000, inputmode: "numeric" }), t("Empty: the rules' usual target")),
    field(t("Clock"), keptSelect("clock", CLOCKS.map((v) => [v, v === "none" ? t("No clock") : nt("{n} second per move", Number(v))]))),
    players === 2 ? h("label", { class: "check" }, kept("rated", { type: "checkbox" }), h("span", { text: t("Rated: the game changes both ratings") })) : null,
    h("div", { class: "row" },
      h("button", { type: "submit", class: "primary", id: "social-send", disabled: SOCIAL.busy }, t("Send the challenge")),
      h("button", { type: "button", onclick: () => { SOCIAL.challengeOpen = false; changed(); } }, t("Cancel"))));
}

// A profile's own buttons (profile.js): follow or unfollow, challenge (the lobby's
// form, the name filled in), block or unblock; nothing for a guest or oneself.
export function profileActions(name) {
  const me = accountUser();
  if (!me || me.name === name) return null;
  if (!SOCIAL.data && !SOCIAL.lastPoll) poll();
  const data = SOCIAL.data || { friends: [], blocked: [] };
  const follows = data.friends.some((f) => f.name === name);
  const blocked = (data.blocked || []).includes(name);
  const challenge = () => {
    SOCIAL.form.name = name;
    SOCIAL.challengeOpen = true;
    history.pushState(null, "", "/");
    window.dispatchEvent(new PopStateEvent("popstate"));
  };
  return h("div", { class: "row profile-actions", id: "profile-actions" },
    blocked ? null : h("button", { type: "button", id: "profile-follow", disabled: SOCIAL.busy, onclick: () => act(follows ? "unfollow" : "follow", name) }, follows ? t("Unfollow") : t("Follow")),
    blocked ? null : h("button", { type: "button", id: "profile-challenge", onclick: challenge }, t("Challenge")),
    h("button", { type: "button", id: "profile-block", disabled: SOCIAL.busy, onclick: () => act(blocked ? "unblock" : "block", name) }, blocked ? t("Unblock") : t("Block account")),
    SOCIAL.error ? h("p", { class: "error", role: "alert", text: SOCIAL.error }) : null);
}

export function friendsCard() {
  const parts = [h("h2", { id: "friends-title", text: t("Friends") })];
  if (!accountUser()) {
    parts.push(h("p", { class: "hint", text: t("Sign in to follow people and challenge them.") }));
    return h("section", { class: "card friends-card", id: "friends", "aria-labelledby": "friends-title" }, parts);
  }
  if (!SOCIAL.data && !SOCIAL.lastPoll) poll();
  const data = SOCIAL.data || { friends: [], blocked: [], challenges: [] };
  const byName = h("form", { class: "social-name row", onsubmit: (ev) => { ev.preventDefault(); act("follow", SOCIAL.form.name); } },
    h("label", { class: "field" }, h("span", { class: "label", text: t("Account name") }), kept("name", { type: "text", maxlength: 64, autocomplete: "off", id: "social-name" })),
    h("div", { class: "row" },
      h("button", { type: "submit", id: "social-follow", disabled: SOCIAL.busy }, t("Follow")),
      h("button", { type: "button", id: "social-open-challenge", onclick: () => { SOCIAL.challengeOpen = true; changed(); } }, t("Challenge")),
      h("button", { type: "button", id: "social-block", disabled: SOCIAL.busy, onclick: () => act("block", SOCIAL.form.name) }, t("Block account"))));
  parts.push(byName);
  if (SOCIAL.error) parts.push(h("p", { class: "error", role: "alert", text: SOCIAL.error }));
  if (SOCIAL.challengeOpen) parts.push(challengeForm());
  parts.push(data.friends.length ? h("ul", { class: "friend-list" }, data.friends.map(friendRow))
    : h("p", { class: "hint", text: t("You follow nobody yet: type an account's name.") }));
  const outgoing = (data.challenges || []).filter((c) => !c.incoming);
  if (outgoing.length) {
    parts.push(h("h3", { text: t("Your challenges") }), h("ul", { class: "friend-list" }, outgoing.map((c) => h("li", { class: "friend", "data-challenge": c.id },
      h("span", { class: "friend-who" }, h("span", { text: t("Waiting for {name} to answer.", { name: c.to }) }), c.to_bot ? botMark() : null, h("span", { class: "hint", text: " " + challengeSummary(c) })),
      h("span", { class: "friend-actions" }, h("button", { type: "button", onclick: () => answer(c, "cancel") }, t("Cancel the challenge")))))));
  }
  if ((data.blocked || []).length) {
    parts.push(h("h3", { text: t("Accounts you block") }), h("ul", { class: "friend-list" }, data.blocked.map((name) => h("li", { class: "friend" },
      h("span", { class: "friend-who", text: name }),
      h("span", { class: "friend-actions" }, h("button", { type: "button", onclick: () => act("unblock", name) }, t("Unblock")))))));
  }
  return h("section", { class: "card friends-card", id: "friends", "aria-labelledby": "friends-title" }, parts);
}
