// The page's tools: tool buttons, the language switch and the rules panel
// (the lobby's and the table's top bars, the phone's menu).

import { accountButton } from "./account.js";
import { h, icon } from "./dom.js";
import { I18N, t } from "./i18n.js";
import { render } from "./page.js";
import { reopen } from "./socket.js";
import { S } from "./state.js";

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
      h("div", { class: "dialog-body rules-text", id: "rules-text" }, S.rulesNodes.map((node) => node.cloneNode(true))),
      h("div", { class: "dialog-buttons" },
        h("button", { type: "button", id: "rules-close", "data-key": "rules-close", onclick: closeRules }, t("Close")))));
}

// A button of the tool bars: an icon and a word; on a phone the icon alone (the word stays its name).
export function toolButton({ id, key, icon: name, label, onclick, pressed, disabled, title, iconOnly }) {
  return h("button", { type: "button", class: "small tool" + (iconOnly ? " icon-only" : ""), id, "data-key": key, title: title || label,
      "aria-pressed": pressed === undefined ? null : String(!!pressed), disabled, onclick },
    icon(name), h("span", { class: "word", text: label }));
}

export function pageTools(extra) {
  return h("nav", { class: "page-tools" }, extra || null, accountButton(), rulesButton(), languageSwitch());
}
