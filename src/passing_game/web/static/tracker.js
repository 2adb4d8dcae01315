// The tile tracker (issue 24, item 5): what your seat can know of the tiles,
// worked out by the server from your view only (web/table/tracker.py). It is
// asked for when opened and again after every new state while it stays open.

import { dialogBox, domino, h, tileParts } from "./dom.js";
import { nt, t } from "./i18n.js";
import { act, send } from "./socket.js";
import { S, changed } from "./state.js";

export function openTracker() {
  if (!act({ type: "tracker" })) return;
  S.trackerOpen = true;
  changed();
}

export function closeTracker() {
  S.trackerOpen = false;
  S.tracker = null;
  changed();
  document.getElementById("tracker-button")?.focus();
}

// A new state while the tracker is open: ask for it again (the server's answer redraws it).
export function refreshTracker() {
  if (S.trackerOpen) send({ type: "tracker" });
}

function tiles(list) {
  if (!list.length) return h("p", { class: "muted", text: t("None") });
  return h("div", { class: "tracker-tiles" }, list.map((text) => domino(...tileParts(text), { small: true })));
}

function numbersTable(found) {
  return h("table", { class: "tracker-numbers" },
    h("caption", { text: t("Each number is on seven tiles") }),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", text: t("Number") }),
      h("th", { scope: "col", text: t("On the train") }),
      h("th", { scope: "col", text: t("In your hand") }),
      h("th", { scope: "col", text: t("Unseen") }))),
    h("tbody", {}, found.numbers.map((row) => h("tr", {},
      h("th", { scope: "row", text: String(row.number) }),
      h("td", { text: String(row.played) }),
      h("td", { text: String(row.yours) }),
      h("td", { class: row.unseen ? "" : "none", text: String(row.unseen) })))));
}

function shortLines(frame, found) {
  const lines = found.short.filter((row) => row.numbers.length).map((row) =>
    h("li", { text: t("{name}: {numbers}", { name: frame.seats[row.seat].name, numbers: row.numbers.join(", ") }) }));
  return h("div", { class: "tracker-short" },
    h("h3", { text: t("Numbers the others may lack") }),
    h("p", { text: t("A player who passed or drew with a number open, and has not laid that number since, may lack it.") }),
    lines.length ? h("ul", {}, lines) : h("p", { class: "muted", text: t("Nobody has passed or drawn on an open number yet.") }),
    h("p", { class: "hint", text: t("Passing and drawing are allowed even with a tile that fits, so this is a clue, not a certainty.") }));
}

export function renderTracker(frame) {
  if (!S.trackerOpen) return null;
  const found = S.tracker;
  const body = found
    ? [
        h("h2", { id: "tracker-title", text: t("Tile tracker") }),
        numbersTable(found),
        h("h3", { text: nt("{n} tile unseen (in other hands or the boneyard)", found.unseen.length) }),
        tiles(found.unseen),
        h("h3", { text: nt("{n} tile on the train", found.played.length) }),
        tiles(found.played),
        shortLines(frame, found),
      ]
    : [h("h2", { id: "tracker-title", text: t("Tile tracker") }), h("p", { class: "muted", text: t("Counting the tiles…") })];
  return dialogBox({
    cls: "tracker",
    labelledby: "tracker-title",
    body,
    buttons: [h("button", { type: "button", id: "tracker-close", "data-key": "close-tracker", onclick: closeTracker }, t("Close"))],
    onBackdrop: closeTracker,
  });
}
