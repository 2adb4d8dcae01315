// The page's tools: the page's tool bar, the language switch, the rules panel
// (the lobby's and the table's top bars, the phone's menu) and copying a link.
// The tool bars' button itself is dom.js's toolButton.

import { accountButton } from "./account.js";
import { h, toolButton } from "./dom.js";
import { I18N, t } from "./i18n.js";
import { reopen } from "./socket.js";
import { S, notify, render } from "./state.js";

// The language switch (lobby and table): remembered, and the socket reconnects
// so that the server words its frames in the new language too.
export function languageSwitch(prefix = "") {
  const sel = h("select", { id: prefix + "lang-switch", class: "lang-switch", "aria-label": t("Language"), title: t("Language") },
    I18N.languages.map((l) => h("option", { value: l.code, selected: l.code === I18N.language, lang: l.code }, l.name)));
  sel.addEventListener("change", () => switchLanguage(sel.value));
  return sel;
}

async function switchLanguage(code) {
  if (!I18N.known(code)) return;
  I18N.remember(code);
  const [, cfg] = await Promise.all([I18N.load(code), fetchConfig(code)]);
  S.config = cfg;
  S.rulesNodes = null;
  reopen();
  render();
  document.getElementById("lang-switch")?.focus();
}

export function fetchConfig(code) {
  return fetch("/api/config?lang=" + encodeURIComponent(code)).then((r) => r.json());
}

export function rulesButton(prefix = "") {
  return toolButton({ id: prefix + "rules-button", key: prefix + "rules", icon: "help", label: t("Rules of the game"), onclick: () => openRules() });
}

async function openRules() {
  if (!S.rulesNodes) S.rulesNodes = await I18N.rules();
  S.menuOpen = false;
  S.rulesPanel = true;
  render();
  document.getElementById("rules-close")?.focus();
}

export function closeRules() {
  S.rulesPanel = false;
  render();
  const button = document.getElementById("rules-button");
  (button && button.offsetParent ? button : document.getElementById("menu-button"))?.focus();
}

// The players' rules (texts/rules*.md, rendered by the server) in a dialog.
export function renderRulesPanel() {
  if (!S.rulesPanel || !S.rulesNodes) return null;
  return h("div", { class: "overlay rules-overlay", onclick: (e) => { if (e.target === e.currentTarget) closeRules(); } },
    h("section", { class: "dialog rules-panel card", role: "dialog", "aria-modal": "true", "aria-label": t("Rules of the game"), lang: I18N.language },
      h("div", { class: "dialog-body rules-text", id: "rules-text" },
        h("p", { class: "rules-learn" }, h("a", { href: "/learn", id: "rules-learn-link", text: t("Learn to play: the tutorial") })),
        S.rulesNodes.map((node) => node.cloneNode(true))),
      h("div", { class: "dialog-buttons" },
        h("button", { type: "button", id: "rules-close", "data-key": "rules-close", onclick: closeRules }, t("Close")))));
}

export function pageTools(extra) {
  return h("nav", { class: "page-tools" }, extra || null, accountButton(), rulesButton(), languageSwitch());
}

// "Copy link" (the table's top bar, an invitation, a replay's step).
export async function copyLink(link) {
  try {
    await navigator.clipboard.writeText(link);
    notify(t("Link copied."), "info");
  } catch (e) {
    notify(link, "info");
  }
}
