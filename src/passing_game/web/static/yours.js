// Your games first (issue 24, item 2): the lobby's list of the tables this
// page (its seat tokens) or this account (account.js) holds a seat at, with how
// each stands (web/yours.py). Games that go on come first; the finished ones follow.

import { accountSeats } from "./account.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { botMark } from "./seat.js";
import { S, changed } from "./state.js";

const PREFIX = "passing-game:seat:";
const MOST = 20; // the server answers for at most this many tables at once
const FRESH_MS = 3_000;

export const Yours = { tables: null, loading: false, fetchedAt: 0 };

// The seats this page keeps: table code -> seat.
function keptSeats() {
  const found = {};
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith(PREFIX)) continue;
    try {
      const data = JSON.parse(localStorage.getItem(key) || "null");
      if (data && Number.isInteger(data.seat)) found[key.slice(PREFIX.length)] = data.seat;
    } catch (e) {
      /* a damaged entry is ignored */
    }
  }
  return found;
}

async function getJson(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" });
  return response.ok ? response.json() : null;
}

// Ask again when the lobby shows and what it knows is older than FRESH_MS.
Yours.refresh = async function () {
  if (Yours.loading || (Yours.fetchedAt && performance.now() - Yours.fetchedAt < FRESH_MS)) return;
  Yours.loading = true;
  Yours.fetchedAt = performance.now();
  try {
    const seats = { ...accountSeats(), ...keptSeats() };
    const codes = Object.keys(seats).slice(0, MOST);
    const found = codes.length ? await getJson("/api/tables/status?codes=" + encodeURIComponent(codes.join(","))) : { tables: [] };
    Yours.tables = ((found && found.tables) || []).map((table) => ({ ...table, seat: seats[table.code] }));
  } catch (e) {
    Yours.tables = Yours.tables || [];
  } finally {
    Yours.loading = false;
    changed();
  }
};

function standing(table) {
  if (table.over) return t("The game is over.");
  if (!table.started) return t("Waiting for the other players.");
  if (table.adjourned === table.seat) return t("Adjourned: it waits for you.");
  if (table.to_move === table.seat) return t("Your turn.");
  return t("{player} to move.", { player: table.names[table.to_move] });
}

function row(table) {
  const going = !table.over;
  return h("li", { class: "your-table" + (going ? "" : " over") },
    h("a", { href: table.link, class: "button" + (going && (table.to_move === table.seat || table.adjourned === table.seat) ? " primary" : "") },
      going ? (table.adjourned === table.seat ? t("Resume") : t("Continue")) : t("Look")),
    h("span", { class: "your-table-code", text: table.code }),
    table.practice ? h("span", { class: "your-table-practice", text: t("Practice round") }) : null,
    h("span", { class: "your-table-who" }, table.names.map((name, i) => (i === table.seat ? null
      : [name, table.bots && table.bots[i] ? botMark() : null])).filter(Boolean).map((who, n) => [n ? ", " : "", who])),
    h("span", { class: "your-table-state", text: standing(table) }));
}

export function yoursCard() {
  Yours.refresh();
  const tables = Yours.tables || [];
  if (!tables.length) return null;
  const ordered = [...tables.filter((x) => !x.over), ...tables.filter((x) => x.over).slice(0, 5)];
  return h("section", { class: "card yours", id: "yours-card", "aria-labelledby": "yours-title" },
    h("h2", { id: "yours-title", text: t("Your games") }),
    h("ul", { class: "your-tables" }, ordered.map(row)));
}
