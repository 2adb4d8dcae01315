// Deals anyone can check (issue 26, item 3; the scheme is passing_game.fairness).
//
// At a table, commitmentLine(frame) shows the commitment to the game's deals
// from the start (the server's secret seed and salt, hashed; both are revealed
// in the record) and, once the game is over, the digest of its moves. On the
// replay page, replayFairness(data) says what the server found when it
// checked the record (the commitment, the seed, every deal and move, the
// digest) and checks the commitment once more in this browser when it can.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { changed } from "./state.js";

function short(hex) {
  return hex.slice(0, 12) + "…";
}

export function commitmentLine(frame) {
  if (!frame.commitment) return null;
  return h("p", { class: "fairness muted small", id: "commitment", title: t("The server committed to this game's deals before they were dealt; the record reveals its seed, so anyone can check them (passing-game verify).") },
    h("span", { class: "label", text: t("Deal commitment") }), " ",
    h("code", { id: "commitment-hash", "data-full": frame.commitment, text: short(frame.commitment) }),
    frame.moves_digest ? [" · ", h("span", { class: "label", text: t("Moves digest") }), " ", h("code", { id: "moves-digest", "data-full": frame.moves_digest, text: short(frame.moves_digest) })] : null);
}

// What this browser found: null (not yet, or it cannot), true or false; by commitment.
const local = new Map();

async function sha256(text) {
  const bytes = new TextEncoder().encode(text);
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function checkHere(f) {
  if (local.has(f.commitment) || !(globalThis.crypto && crypto.subtle)) return;
  local.set(f.commitment, null);
  sha256(`passing-game/commit/${f.server_seed}/${f.salt}`).then((found) => {
    local.set(f.commitment, found === f.commitment);
    changed();
  }, () => {});
}

export function replayFairness(data) {
  const f = data.fairness;
  if (!f) return h("p", { class: "fairness muted small", id: "replay-fairness", text: t("This record carries no commitment: it was written before games had one.") });
  checkHere(f);
  const here = local.get(f.commitment);
  return h("section", { class: "fairness card", id: "replay-fairness", "aria-labelledby": "fairness-title" },
    h("h2", { id: "fairness-title", text: t("Deal commitment") }),
    h("p", {}, h("code", { id: "replay-commitment", "data-full": f.commitment, text: short(f.commitment) })),
    f.verified
      ? h("p", { class: "fairness-ok", id: "fairness-verdict", text: t("Verified: the commitment shown before the deal matches the seed revealed, the seed deals every round, and every move is the table's.") })
      : h("p", { class: "fairness-bad", id: "fairness-verdict", role: "alert", text: t("Not verified: {reason}", { reason: f.problem }) }),
    here === true ? h("p", { class: "muted small", id: "fairness-here", text: t("This browser checked the commitment too.") }) : null,
    here === false ? h("p", { class: "fairness-bad", id: "fairness-here", role: "alert", text: t("This browser finds another commitment: the record was changed.") }) : null);
}
