// Deals anyone can check (issue 26, item 3; the scheme is passing_game.fairness).
//
// At a table, commitmentLine(frame) shows the commitment to the game's deals
// from the start (the server's secret seed and salt, hashed; both are revealed
// in the record) and, once the game is over, the digest of its moves. On the
// replay page, replayFairness(data) says what the server found when it
// checked the record (the commitment, the seed, every deal and move, the
// digest) and checks the commitment once more in this browser when it can.
//
// At a rated table and a tournament's the deal waits for each person's
// browser to add a random part of its own (web/game/dealing.py, P51):
// contribute(frame) sends this browser's, drawn once a game and kept for the
// tab, and commitmentLine shows it; the record reveals every part.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { send } from "./socket.js";
import { S, changed } from "./state.js";

function partKey(frame) {
  return `passing-game:contribution:${frame.table}:${frame.game}`;
}

// The connection this browser last sent its part on, by table and game.
const sentOn = new Map();

export function contribute(frame) {
  const d = frame.dealing;
  if (!d || !d.give || !(globalThis.crypto && crypto.getRandomValues)) return;
  const key = partKey(frame);
  let part = sessionStorage.getItem(key);
  if (!part) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    part = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    sessionStorage.setItem(key, part);
  }
  if (sentOn.get(key) === S.ws) return; // sent already; a new connection sends again
  if (send({ type: "contribute", value: part })) sentOn.set(key, S.ws);
}

function short(hex) {
  return hex.slice(0, 12) + "…";
}

export function commitmentLine(frame) {
  if (!frame.commitment) return null;
  const part = frame.you === null ? null : sessionStorage.getItem(partKey(frame));
  return h("p", { class: "fairness muted small", id: "commitment", title: t("The server committed to this game's deals before they were dealt; the record reveals its seed, so anyone can check them (passing-game verify).") },
    h("span", { class: "label", text: t("Deal commitment") }), " ",
    h("code", { id: "commitment-hash", "data-full": frame.commitment, text: short(frame.commitment) }),
    frame.moves_digest ? [" · ", h("span", { class: "label", text: t("Moves digest") }), " ", h("code", { id: "moves-digest", "data-full": frame.moves_digest, text: short(frame.moves_digest) })] : null,
    part ? [" · ", h("span", { class: "label", title: t("This browser's random part of the deal: the record shows it after the game."), text: t("Your browser's part") }), " ", h("code", { id: "my-contribution", "data-full": part, text: short(part) })] : null);
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

// Each seat's part of the deal (none: its browser gave none in time), and
// whether this tab's own part, kept when it gave it, is among them.
function parts(f, data, where) {
  const given = f.contributions || [];
  if (!given.some((c) => c)) return null;
  const mine = where && where.code ? sessionStorage.getItem(`passing-game:contribution:${where.code}:${where.game}`) : null;
  return [
    h("h3", { text: t("Parts of the deal") }),
    h("ul", { class: "fairness-parts", id: "fairness-parts" },
      given.map((c, seat) => h("li", {},
        h("span", { text: (data.names && data.names[seat]) || String(seat + 1) }), " ",
        c ? h("code", { "data-full": c, text: short(c) }) : h("span", { class: "muted", text: t("not given") })))),
    mine && given.includes(mine) ? h("p", { class: "fairness-ok small", id: "fairness-mine", text: t("This browser's own part is in the seed.") }) : null,
  ];
}

export function replayFairness(data, where) {
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
    here === false ? h("p", { class: "fairness-bad", id: "fairness-here", role: "alert", text: t("This browser finds another commitment: the record was changed.") }) : null,
    parts(f, data, where));
}
