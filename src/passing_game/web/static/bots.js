// "My bots" (issue 28, item 4; web/botapi/api.py): the signed-in person's bot
// accounts, in the account's dialog. A bot account is played by a program its
// owner runs (passing-game bot connect); it has no password, only a token, which
// the server shows once, when it is made, and keeps only as a hash. Each bot can
// have a new token (the old one stops working) or its token revoked. Names are
// user text and the token a secret: both only ever put on the page as text.

import { accountPanel, accountPost, accountRefresh, accountUser } from "./account.js";
import { field, h } from "./dom.js";
import { t } from "./i18n.js";
import { notify } from "./state.js";

const BOTS = {
  list: null, // GET /api/bots
  most: 5,
  name: "", // the name typed for a new bot
  shown: null, // {name, token}: a token just made, shown this once
  copied: false,
  error: null,
  busy: false,
};

async function load() {
  BOTS.error = null;
  try {
    const response = await fetch("/api/bots", { headers: { Accept: "application/json" }, cache: "no-store" });
    const data = await response.json().catch(() => ({}));
    BOTS.list = response.ok ? data.bots : [];
    BOTS.most = data.most || BOTS.most;
    if (!response.ok) BOTS.error = data.error || null;
  } catch (e) {
    BOTS.list = [];
  }
  accountRefresh();
}

async function post(path, body) {
  BOTS.busy = true;
  BOTS.error = null;
  accountRefresh();
  const { ok, data } = await accountPost(path, body);
  BOTS.busy = false;
  if (!ok) BOTS.error = data.error || t("Something went wrong; try again.");
  return ok ? data : null;
}

async function make() {
  const name = BOTS.name.trim();
  if (!name) {
    document.getElementById("bot-name")?.focus();
    return;
  }
  const done = await post("/api/bots", { name });
  if (done) {
    BOTS.name = "";
    BOTS.shown = { name: done.bot.name, token: done.token };
    BOTS.copied = false;
  }
  await load();
}

async function newToken(bot) {
  const done = await post("/api/bots/" + encodeURIComponent(bot.name) + "/token", {});
  if (done) {
    BOTS.shown = { name: done.bot.name, token: done.token };
    BOTS.copied = false;
    notify(t("The old token stops working at once."), "info");
  }
  await load();
}

async function revoke(bot) {
  const done = await post("/api/bots/" + encodeURIComponent(bot.name) + "/revoke", {});
  if (done) notify(t("The token of {name} is revoked: the bot stops playing.", { name: bot.name }), "info");
  await load();
}

async function copy() {
  try {
    await navigator.clipboard.writeText(BOTS.shown.token);
    BOTS.copied = true;
  } catch (e) {
    document.getElementById("bot-token")?.focus(); // the person selects it instead
  }
  accountRefresh();
}

function stateText(bot) {
  if (bot.held) return t("Suspended with your account");
  if (bot.suspended) return t("Suspended");
  if (!bot.token) return t("No token: make a new one to play again.");
  return bot.connected ? t("Connected") : t("Not connected");
}

function botRow(bot) {
  return h("li", { class: "bot-row" + (bot.connected ? " online" : ""), dataset: { bot: bot.name } },
    h("span", { class: "bot-who" },
      h("a", { class: "profile-link", dir: "auto", href: "/u/" + encodeURIComponent(bot.name), text: bot.name }),
      h("span", { class: "bot-state", text: stateText(bot) })),
    h("span", { class: "bot-actions" },
      h("button", { type: "button", class: "small", "data-key": "bot-token-" + bot.name, disabled: BOTS.busy, onclick: () => newToken(bot) }, t("New token")),
      bot.token ? h("button", { type: "button", class: "small danger", "data-key": "bot-revoke-" + bot.name, disabled: BOTS.busy, onclick: () => revoke(bot) },
        t("Revoke the token")) : null));
}

// The token just made: shown this once, with how to run a program with it.
function tokenBox() {
  const shown = BOTS.shown;
  const site = location.origin;
  return h("div", { class: "bot-token-box", id: "bot-token-box", role: "status" },
    h("p", { text: t("The token of {name}, shown only now: keep it secret. Anyone who has it plays as the bot.", { name: shown.name }) }),
    h("input", { type: "text", id: "bot-token", class: "bot-token", readonly: true, value: shown.token, "aria-label": t("Copy the token"),
      onfocus: (e) => e.target.select() }),
    h("div", { class: "row" },
      h("button", { type: "button", id: "bot-token-copy", onclick: copy }, t("Copy the token")),
      BOTS.copied ? h("span", { class: "hint", role: "status", text: t("Copied.") }) : null),
    h("p", { class: "hint", text: t("Save it in a file only you can read, then run your program with it, for example:") }),
    h("pre", { class: "bot-command" }, h("code", { text: `passing-game bot connect ${site} "cmd:python3 my_bot.py" --token-file bot.token` })),
    h("button", { type: "button", class: "primary", id: "bot-token-kept", onclick: () => { BOTS.shown = null; accountRefresh(); } }, t("I have kept it")));
}

function panel() {
  const list = BOTS.list;
  const full = list && list.length >= BOTS.most;
  const form = h("form", { class: "account-form bot-form", id: "bot-form", onsubmit: (e) => { e.preventDefault(); make(); } },
    field(t("Bot name"), h("input", { type: "text", id: "bot-name", "data-key": "bot-name", maxlength: 24, autocomplete: "off", value: BOTS.name,
      oninput: (e) => { BOTS.name = e.target.value; } })),
    h("button", { type: "submit", class: "primary", id: "bot-make", disabled: BOTS.busy || full }, t("Make the bot account")));
  let content;
  if (list === null) content = h("p", { class: "muted", text: t("Loading…") });
  else if (!list.length) content = h("p", { class: "muted", id: "no-bots", text: t("You have no bot account yet.") });
  else content = h("ul", { class: "bot-list", id: "bot-list" }, list.map(botRow));
  return {
    title: t("My bots"),
    body: [
      h("p", { class: "muted", text: t("A bot account is played by a program you run, on your computer, through the site's bot socket. It has no password: it connects with a token, shown once.") }),
      BOTS.shown ? tokenBox() : null,
      content,
      full ? null : form,
      BOTS.error ? h("p", { class: "account-error", role: "alert", text: BOTS.error }) : null,
    ],
    buttons: [],
    wide: true,
  };
}

accountPanel("bots", () => t("My bots"), panel, () => {
  if (accountUser()) load();
});
