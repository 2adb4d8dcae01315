// Reputation others can see (issue 26, item 4; the server's side is web/reputation.py):
// beside an account's seat, the share of its games it finished, and in its title
// how many it played, finished and left and how often its time ran out. Asked once
// per name and game (GET /api/reputation/NAME): a game that ends changes it.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { changed } from "./state.js";

const known = new Map(); // name and game -> null (asked) or the answer

function ask(name, key) {
  known.set(key, null);
  fetch("/api/reputation/" + encodeURIComponent(name), { credentials: "same-origin" })
    .then((r) => (r.ok ? r.json() : null))
    .then((got) => {
      if (got) {
        known.set(key, got);
        changed();
      }
    }, () => {});
}

// ``game`` names the game the seat is shown at (a table's code and game number).
export function reputationMark(name, game) {
  const key = name + "\n" + game;
  if (!known.has(key)) ask(name, key);
  const found = known.get(key);
  if (!found || !found.games) return null;
  const share = Math.round(found.share * 100);
  return h("span", { class: "reputation" + (share < 80 ? " low" : ""), "data-name": name,
    title: t("Games: {games} · finished: {finished} · left: {left} · timeouts: {timeouts}", found),
    text: t("Games finished: {share}%", { share }) });
}
