// The table page: its top bar and tools, the phone's menu, the train, the
// boneyard, the last moves and the log, around the seats (seat.js), the hand
// (hand.js), the summary (summary.js) and the dialogs (dialogs.js).

import { accountButton } from "./account.js";
import { notifyWanted, toggleNotify } from "./announce.js";
import { askLeave, askResign, renderConfirm, renderSeatTools } from "./dialogs.js";
import { backTile, dialogBox, h, icon, toolButton } from "./dom.js";
import { doPass, endChoice, renderHand } from "./hand.js";
import { nt, t } from "./i18n.js";
import { commitmentLine } from "./fairness.js";
import { practiceNote } from "./practice.js";
import { autoMark, isPlay, moveWords, renderSeat, whoParts } from "./seat.js";
import { act, online, reconnectNow, refused } from "./socket.js";
import { Sound } from "./sound.js";
import { S, changed, render } from "./state.js";
import { renderPad, renderSummary } from "./summary.js";
import { copyLink, languageSwitch, pageTools, rulesButton } from "./tools.js";
import { openTracker, renderTracker } from "./tracker.js";
import { renderTrain } from "./train.js";

// The last few moves of the round, newest last, just above the hand: readable on a phone too.
function renderRecent(frame) {
  const history = frame.round.history;
  if (!history.length) return null;
  const recent = history.slice(-Math.min(3, frame.seats.length));
  return h("ol", { class: "recent", "aria-label": t("Last moves") },
    recent.map((turn, i) => h("li", { class: "recent-move m-" + (isPlay(turn.move) ? "play" : turn.move) + (i === recent.length - 1 ? " newest" : "") },
      whoParts(frame, turn.seat),
      h("span", { class: "what", text: moveWords(frame, turn) }),
      autoMark(turn))));
}

function renderBoneyard(frame) {
  const r = frame.round;
  const pile = h("div", { class: "pile", "aria-hidden": "true" });
  for (let i = 0; i < r.drawable; i++) pile.append(backTile({ small: true }));
  for (let i = 0; i < r.locked; i++) pile.append(backTile({ small: true, locked: true }));
  return h("div", { class: "boneyard", role: "group",
      "aria-label": nt("Boneyard: {n} tile, {d} can be drawn, {l} locked", r.boneyard, { d: r.drawable, l: r.locked }) },
    h("div", { class: "boneyard-title", text: t("Boneyard") }),
    pile,
    h("div", { class: "boneyard-note", text: t("{d} to draw · {l} locked", { d: r.drawable, l: r.locked }) }));
}

function renderLog(frame) {
  const list = h("ol", { class: "log", id: "log", "aria-label": t("Moves this round") });
  for (const line of frame.round.log) list.append(h("li", { text: line }));
  if (!frame.round.log.length) list.append(h("li", { class: "muted", text: t("No moves yet this round.") }));
  return list;
}


let stillThere = 0;

// The game waits for a person alone with bots (P41): adjourned until they are
// back; before that, once their move time is spent, "are you still there?".
function waitBanner(frame) {
  const me = frame.you;
  if (frame.over) return null;
  if (frame.adjourned !== null && frame.adjourned !== undefined) {
    if (frame.adjourned === me) {
      return h("div", { class: "wait-banner", id: "adjourned-banner", role: "status" },
        h("strong", { text: t("The game is adjourned.") }),
        h("span", { text: t("It waits for you: nothing is played until you are back.") }),
        h("button", { type: "button", class: "primary small", id: "resume-button", "data-key": "back", onclick: () => act({ type: "back" }) }, t("Resume the game")));
    }
    return h("div", { class: "wait-banner", id: "adjourned-banner", role: "status" },
      h("strong", { text: t("The game is adjourned until {name} is back.", { name: frame.seats[frame.adjourned].name }) }));
  }
  const clock = frame.clock;
  if (!frame.adjourns || !clock || clock.seat !== me || clock.move_ms === null || clock.move_ms === undefined) return null;
  const spent = (frame.at || performance.now()) + clock.move_ms;
  if (performance.now() < spent) {
    // Not yet: draw again when the move time is spent (one wake-up at a time).
    clearTimeout(stillThere);
    stillThere = setTimeout(changed, spent - performance.now() + 50);
    return null;
  }
  return h("div", { class: "wait-banner", id: "still-there", role: "alert" },
    h("strong", { text: t("Are you still there?") }),
    h("span", { text: t("Your move time is spent. When your bank runs out too, the game is adjourned until you are back.") }));
}

function offlineBanner() {
  if (online()) return null;
  const nudged = performance.now() - S.nudgeAt < 1000;
  return h("div", { class: "offline-banner" + (nudged ? " nudge" : ""), id: "offline-banner", role: "status" },
    h("strong", { text: t("Connection lost: reconnecting…") }),
    h("span", { text: t("Nothing you click is sent until the connection is back.") }),
    h("button", { type: "button", class: "small", "data-key": "reconnect", onclick: reconnectNow }, t("Try again now")));
}

// The table's own tools (the top bar on a wide screen, the menu on a phone: `prefix` keeps ids apart).
function tableTools(frame, prefix = "") {
  const soundOn = Sound.enabled();
  const tools = [
    toolButton({ id: prefix + "sound-button", key: prefix + "sound", icon: soundOn ? "sound" : "mute", label: t("Sounds"), pressed: soundOn, iconOnly: !prefix,
      onclick: () => { Sound.setEnabled(!Sound.enabled()); changed(); } }),
  ];
  if ("Notification" in window && frame.you !== null) {
    const blocked = Notification.permission === "denied";
    tools.push(toolButton({ id: prefix + "notify-button", key: prefix + "notify", icon: "bell", label: t("Tell me when it is my turn"), pressed: notifyWanted(), iconOnly: !prefix,
      disabled: blocked, title: blocked ? t("Notifications are blocked in this browser.") : null, onclick: toggleNotify }));
  }
  // The page's top bar keeps to the page's tools; the seat's own actions
  // (resign, leave) sit with the player's hand, and all of them in the phone's menu.
  if (prefix) tools.push(...seatActions(frame, prefix));
  return tools;
}

function seatActions(frame, prefix = "") {
  const live = online();
  const actions = [];
  if (frame.can_resign) {
    actions.push(toolButton({ id: prefix + "resign-button", key: prefix + "resign", icon: "flag", label: t("Resign"), onclick: () => (live ? askResign() : refused()) }));
  }
  if (frame.you !== null) {
    actions.push(toolButton({ id: prefix + "leave-button", key: prefix + "leave", icon: "leave", label: t("Leave the table"),
      onclick: () => (live || frame.over ? askLeave() : refused()) }));
  }
  return actions;
}

// Where each other seat sits, seen from your chair as at a real table: play
// goes round to your left, so the next seat is on your left, the one after it
// across (your partner in a game of pairs), the last on your right. Two players
// face each other; three sit you and one on each side. A watcher sees the
// table from seat 1's chair.
const PLACES = { 2: ["across"], 3: ["left", "right"], 4: ["left", "across", "right"] };

function placedSeats(frame) {
  const n = frame.seats.length;
  const from = frame.you === null ? 0 : frame.you;
  return PLACES[n].map((place, i) => [(from + 1 + i) % n, place]);
}

export function renderTable() {
  const frame = S.frame;
  const r = frame.round;
  const me = frame.you;
  const n = frame.seats.length;
  const live = online();
  const link = location.origin + "/t/" + frame.table;
  const top = h("header", { class: "topbar" },
    h("div", { class: "topbar-main" },
      h("a", { href: "/", class: "brand", text: t("The Passing Game") }),
      h("span", { class: "code" }, h("span", { text: t("Table") + " " }), h("strong", { id: "table-code", text: frame.table })),
      toolButton({ key: "copy", icon: "link", label: t("Copy link"), onclick: () => copyLink(link) }),
      h("span", { class: "net " + (S.wsOpen ? "on" : "off"), text: S.wsOpen ? t("connected") : t("reconnecting…") }),
      h("span", { class: "round-no", text: t("Round {n}", { n: r.number }) }),
      toolButton({ id: "menu-button", key: "menu", icon: "menu", label: t("Menu"), onclick: openMenu })),
    pageTools(tableTools(frame)));
  const status = h("p", { class: "status" + (r.legal.length ? " mine" : ""), id: "status", role: "status", "aria-live": "polite", text: frame.status });
  const board = h("div", { class: "board" }, renderBoneyard(frame), renderTrain(frame));
  const felt = h("div", { class: "felt seats-" + n },
    placedSeats(frame).map(([seat, place]) => h("div", { class: "place " + place }, renderSeat(frame, seat, place === "across" && frame.rules.partnerships))),
    h("div", { class: "place centre" }, status,
      S.notice ? h("p", { class: "notice table-notice " + S.notice.kind, id: "table-notice", role: "alert", text: S.notice.text }) : null,
      board));
  let mine = null;
  if (me !== null) {
    const hintText = S.hint ? h("p", { class: "hint-text", role: "status" }, h("strong", { text: S.hint.text + " " }), S.hint.reason || "") : null;
    const off = live ? null : "true";
    const passWarning = r.pass_ends_round && r.can_pass
      ? h("span", { class: "pass-warning", id: "pass-warning", role: "note" }, icon("warning"), h("span", { text: t("Passing now ends the round") }))
      : null;
    mine = h("section", { class: "my-area", "aria-label": t("Your hand") },
      renderSeat(frame, me),
      endChoice(frame),
      renderHand(frame),
      h("div", { class: "actions" },
        h("button", { type: "button", id: "draw-button", "data-key": "draw", disabled: !r.can_draw, "aria-disabled": off, onclick: () => act({ type: "draw" }), title: t("Shortcut: D") }, t("Draw")),
        h("button", { type: "button", id: "pass-button", "data-key": "pass", disabled: !r.can_pass, "aria-disabled": off, "aria-describedby": passWarning ? "pass-warning" : null, onclick: doPass, title: t("Shortcut: P") }, t("Pass")),
        frame.tournament ? null : // no hints in tournaments (P54)
          h("button", { type: "button", id: "hint-button", "data-key": "hint", disabled: !r.legal.length, "aria-disabled": off, onclick: () => act({ type: "hint" }), title: t("Shortcut: H") }, t("Hint")),
        h("button", { type: "button", id: "tracker-button", "data-key": "tracker", "aria-disabled": off, "aria-haspopup": "dialog", onclick: openTracker, title: t("Shortcut: T") }, t("Tiles")),
        passWarning,
        h("span", { class: "pips-mine", text: t("Your pips: {n}", { n: r.pips }) }),
        h("span", { class: "seat-actions" }, seatActions(frame))),
      hintText);
  } else {
    mine = h("section", { class: "my-area watcher" }, renderSeat(frame, 0),
      h("p", { class: "watching", text: t("You are watching this table. Hands stay hidden.") }));
  }
  let invite = null;
  if (!frame.started && !frame.dealing) {
    invite = h("div", { class: "invite card" },
      h("p", { text: t("Share this code or link with your friends:") }),
      h("p", { class: "big-code", text: frame.table }),
      h("p", {}, h("code", { text: link })),
      h("button", { type: "button", class: "primary", onclick: () => copyLink(link) }, t("Copy link")));
  }
  const side = h("aside", { class: "side" },
    renderPad(frame),
    commitmentLine(frame),
    frame.summary && !S.summaryOpen ? h("button", { type: "button", class: "small", "data-key": "show-summary", onclick: () => { S.summaryOpen = true; changed(); } }, t("Last round's result")) : null,
    h("h2", { text: t("Moves") }),
    renderLog(frame));
  return h("div", { class: "table-page" },
    top,
    offlineBanner(),
    waitBanner(frame),
    h("main", { class: "table-grid" },
      h("div", { class: "play" }, practiceNote(frame), felt, invite, renderRecent(frame), mine),
      side),
    renderSummary(frame),
    renderTracker(frame),
    renderSeatTools(frame),
    renderMenu(frame),
    renderConfirm());
}

// On a phone the top bar keeps the table's code, the connection and the round;
// its tools (sounds, turn alerts, resign, leave, rules, language) are here.
export function openMenu() {
  S.menuOpen = true;
  render();
  document.getElementById("menu-close")?.focus();
}

export function closeMenu() {
  S.menuOpen = false;
  render();
  document.getElementById("menu-button")?.focus();
}

function renderMenu(frame) {
  if (!S.menuOpen) return null;
  return dialogBox({
    cls: "menu-dialog",
    label: t("Menu"),
    onBackdrop: closeMenu,
    body: h("div", { class: "menu-tools" }, tableTools(frame, "menu-"), accountButton("menu-"), rulesButton("menu-"), languageSwitch("menu-")),
    buttons: [h("button", { type: "button", id: "menu-close", "data-key": "menu-close", onclick: closeMenu }, t("Close"))],
  });
}
