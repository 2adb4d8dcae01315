// The score pad and the round's (or the game's) summary.

import { dialogBox, domino, h, tileParts } from "./dom.js";
import { nt, t } from "./i18n.js";
import { practiceLinks } from "./practice.js";
import { ratingChanges } from "./ratings.js";
import { whoParts } from "./seat.js";
import { act, online } from "./socket.js";
import { S, changed } from "./state.js";

// Where this browser notes the last round summary it has seen of a game
// (messages.js opens an unseen one).
export function seenKey(frame) {
  return `passing-game:seen:${frame.table}:${frame.game}`;
}

// The score pad's column heads: a seat's name and number, or a team and its seats, as separate texts.
function padHead(frame, side) {
  if (frame.rules.partnerships) {
    const mine = frame.you !== null && frame.seats[frame.you].side === side;
    return h("th", { scope: "col" },
      h("span", { class: "name", text: mine ? t("Your team") : t("Team") }),
      h("span", { class: "seat-no", text: t("Seats {a}+{b}", { a: side + 1, b: side + 3 }) }));
  }
  return h("th", { scope: "col" }, whoParts(frame, side));
}

export function renderPad(frame) {
  const table = h("table", { class: "pad" },
    h("caption", { text: frame.practice ? t("Practice round") : frame.daily ? nt("Score pad · {n} round", frame.daily.rounds) : t("Score pad · first to {n}", { n: frame.target }) }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("Round") }), frame.scores.map((_, side) => padHead(frame, side)))),
    h("tbody", {}, frame.pad.map((row) => h("tr", {},
      h("th", { scope: "row", text: String(row.round), title: row.reason_word }),
      row.points.map((p, i) => h("td", { class: row.winner === i ? "won" : "", text: p ? String(p) : "·" }))))),
    h("tfoot", {}, h("tr", {}, h("th", { scope: "row", text: t("Total") }), frame.scores.map((s) => h("td", { text: String(s) })))));
  return table;
}

export function renderSummary(frame) {
  const sum = frame.summary;
  if (!S.summaryOpen || (!sum && !frame.over)) return null;
  const hands = sum ? sum.hands.map((hand, seat) => h("li", { class: "reveal" + (sum.pips[seat] === Math.min(...sum.pips) ? " low" : "") },
    whoParts(frame, seat),
    h("span", { class: "tiles" }, hand.length ? hand.map((tile) => { const [a, b] = tileParts(tile); return domino(a, b, { small: true }); }) : h("em", { text: t("empty") })),
    h("span", { class: "pips", text: nt("{n} pip", sum.pips[seat]) }))) : [];
  const close = () => {
    if (!act({ type: "continue" })) return;
    if (sum) localStorage.setItem(seenKey(frame), String(sum.round));
    S.summaryOpen = false;
    changed();
  };
  const live = online();
  const buttons = [];
  let rematchNote = null;
  if (frame.over) {
    const tournament = frame.tournament ? sessionStorage.getItem("passing-game:tournament:" + frame.table) : null;
    if (frame.practice) buttons.push(...practiceLinks(frame)); // back to the replay it came from
    else if (frame.tournament) { // the tournament pairs the next game (tournament.js keeps which one)
      if (tournament) buttons.push(h("a", { class: "button primary", id: "tournament-link", href: "/tournament/" + tournament }, t("Back to the tournament")));
    } else if (!frame.spectator && !frame.daily) {
      // A rematch is an offer each person accepts (issue 22): who offered, who is awaited.
      const mine = frame.seats[frame.you].rematch;
      const offered = frame.seats.some((s) => s.rematch);
      const waiting = frame.rematch_waiting || [];
      const label = mine ? t("Rematch offered") : offered ? t("Accept the rematch") : t("Rematch");
      buttons.push(h("button", { type: "button", class: "primary", id: "rematch-button", "data-key": "rematch",
        disabled: mine, "aria-disabled": live && !mine ? null : "true",
        onclick: () => { act({ type: "rematch" }); } }, label));
      if (offered && waiting.length) {
        rematchNote = h("p", { class: "rematch-note", id: "rematch-note", role: "status",
          text: t("A rematch starts when everyone accepts. Waiting for: {names}", { names: waiting.map((seat) => frame.seats[seat].name).join(", ") }) });
      }
    }
    buttons.push(h("a", { class: "button", href: `/api/tables/${frame.table}/record?game=${frame.game}`, download: "" }, t("Download the record")));
    buttons.push(h("a", { class: "button", id: "replay-link", href: `/replay/${frame.table}/${frame.game}` }, t("Replay and analysis")));
    buttons.push(h("a", { class: "button", href: "/" }, t("Back to the lobby")));
    buttons.push(h("button", { type: "button", "data-key": "close-summary", onclick: () => { S.summaryOpen = false; changed(); } }, t("Close")));
  } else {
    buttons.push(h("button", { type: "button", class: "primary", id: "continue-button", "data-key": "continue", "aria-disabled": live ? null : "true", onclick: close }, t("Next round")));
    if (frame.summary_ms !== null && frame.summary_ms !== undefined && frame.paused) {
      buttons.push(h("span", { class: "summary-countdown", role: "timer", dataset: { countdown: "summary", end: String((frame.at || performance.now()) + frame.summary_ms) } }));
    }
  }
  let resigned = null;
  if (frame.over && frame.resigned !== null && frame.resigned !== undefined && !(sum && sum.reason === "resigned")) {
    resigned = h("p", { class: "resigned", text: frame.resigned === frame.you ? t("You resigned.") : t("{name} resigned.", { name: frame.seats[frame.resigned].name }) });
  }
  return dialogBox({
    cls: "summary",
    labelledby: "summary-title",
    body: [
      h("h2", { id: "summary-title", text: frame.over ? frame.status : t("Round {n} is over", { n: sum.round }) }),
      resigned,
      // Who won and by how much first (on a phone it is all that shows at once), then why.
      sum && sum.lines.length ? h("div", { class: "scoring" }, sum.lines.map((line) => h("p", { text: line }))) : null,
      sum ? h("p", { class: "reason", text: sum.reason_text }) : null,
      sum && sum.train.length ? h("div", { class: "final-train", role: "img", "aria-label": t("The train") },
        sum.train.map(([a, b]) => domino(a, b, { across: a !== b, small: true }))) : null,
      sum ? h("h3", { text: t("Hands revealed") }) : null,
      sum ? h("ul", { class: "reveals" }, hands) : null,
      sum && sum.locked.length ? h("p", { class: "locked-line" }, h("span", { text: t("Locked in the boneyard, never drawn:") + " " }),
        sum.locked.map((tile) => { const [a, b] = tileParts(tile); return domino(a, b, { small: true, across: true }); })) : null,
      ratingChanges(frame),
      rematchNote,
      renderPad(frame),
    ],
    buttons,
  });
}
