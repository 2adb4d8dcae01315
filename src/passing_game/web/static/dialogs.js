// The table's dialogs: a question before an action (a pass that ends the
// round, leaving, resigning), going back to the lobby, and the creator's
// options for a seat whose person is away (an invitation link, a bot for the
// rest of the game; seat.js opens and closes them). The phone's menu is
// table.js's. Every dialog is dom.js's dialogBox, which keeps its buttons in
// view: its body scrolls, its button row does not (app.css).

import { dialogBox, field, h, select } from "./dom.js";
import { t } from "./i18n.js";
import { closeSeatTools, seatStatus, whoParts } from "./seat.js";
import { act } from "./socket.js";
import { S, changed, render } from "./state.js";
import { copyLink } from "./tools.js";

export function openConfirm(spec) {
  S.menuOpen = false;
  S.confirm = spec;
  render();
  // A step that cannot be undone starts on Cancel; Enter then changes nothing.
  document.getElementById(spec.danger ? "confirm-no" : "confirm-yes")?.focus();
}

export function closeConfirm() {
  S.confirm = null;
  changed();
}

export function renderConfirm() {
  const c = S.confirm;
  if (!c) return null;
  return dialogBox({
    cls: "confirm",
    labelledby: "confirm-title",
    onBackdrop: closeConfirm,
    body: [h("h2", { id: "confirm-title", text: c.title }), c.text ? h("p", { text: c.text }) : null],
    buttons: [
      h("button", { type: "button", class: "primary" + (c.danger ? " danger" : ""), id: "confirm-yes", "data-key": "confirm-yes",
        onclick: () => { if (c.action() !== false) closeConfirm(); } }, c.yes),
      h("button", { type: "button", id: "confirm-no", "data-key": "confirm-no", onclick: closeConfirm }, t("Cancel")),
    ],
  });
}

export function askLeave() {
  const frame = S.frame;
  if (frame.over || frame.you === null) return goToLobby();
  openConfirm({
    kind: "leave",
    danger: true,
    title: t("Leave the table?"),
    text: !frame.started && !frame.dealing
      ? t("Your seat opens for someone else.")
      : frame.alone
        ? t("The game is adjourned and waits for you: the table's link brings you back to it.")
        : t("A stand-in bot plays for you, and the others are told. The table's link brings you back."),
    yes: t("Leave the table"),
    action: () => {
      if (!act({ type: "leave" })) return false;
      goToLobby();
      return true;
    },
  });
}

export function goToLobby() {
  S.code = null;
  S.last = -1;
  S.frame = null;
  S.confirm = null;
  S.seatTools = null;
  S.menuOpen = false;
  S.summaryOpen = false;
  S.choosing = null;
  S.hint = null;
  history.pushState(null, "", "/");
  changed();
}

export function askResign() {
  openConfirm({
    kind: "resign",
    danger: true,
    title: t("Resign the game?"),
    text: t("Your opponent wins the game now."),
    yes: t("Resign"),
    action: () => act({ type: "resign" }),
  });
}

// The creator's dialog for a seat whose person is away: invite someone, or let a bot play it.
export function renderSeatTools(frame) {
  const tools = S.seatTools;
  if (!tools || !frame.creator) return null;
  const seat = tools.seat;
  const s = frame.seats[seat];
  if (!s) return null;
  let link = null;
  if (tools.link) {
    let full = location.origin + tools.link;
    if (!/[?&]seat=/.test(full)) full += (full.includes("?") ? "&" : "?") + "seat=" + (seat + 1);
    link = h("div", { class: "invite-link" },
      h("code", { id: "invite-link", text: full }),
      h("button", { type: "button", id: "invite-copy", "data-key": "invite-copy", onclick: () => copyLink(full) }, t("Copy link")));
  }
  const level = select("handover-level", S.config.levels.map((l) => [l.name, t("Bot: {level}", { level: l.label })]), tools.level);
  level.addEventListener("change", () => { S.seatTools = { ...S.seatTools, level: level.value }; });
  return dialogBox({
    cls: "seat-dialog",
    labelledby: "seat-tools-title",
    onBackdrop: closeSeatTools,
    body: [
      h("h2", { id: "seat-tools-title" }, whoParts(frame, seat)),
      h("p", { class: "muted", text: seatStatus(s) }),
      // An open seat is taken with the table's own link; a person's seat needs an invitation.
      s.kind === "open" ? null : [
        h("h3", { text: t("Invite someone to this seat") }),
        h("p", { text: t("Whoever opens the link takes this seat.") }),
        h("button", { type: "button", id: "invite-button", "data-key": "invite", onclick: () => act({ type: "invite", seat }) }, t("Make an invitation link")),
        link,
      ],
      h("h3", { text: t("Let a bot play this seat") }),
      h("p", { text: t("The bot plays this seat for the rest of the game.") }),
      field(t("Level"), level),
      h("button", { type: "button", id: "handover-button", "data-key": "handover",
        onclick: () => { if (act({ type: "hand_over", seat, level: S.seatTools.level })) closeSeatTools(); } }, t("Hand the seat to the bot")),
    ],
    buttons: [h("button", { type: "button", id: "seat-tools-close", "data-key": "seat-tools-close", onclick: closeSeatTools }, t("Close"))],
  });
}

// Tab and Shift+Tab stay inside the topmost open dialog (they are modal).
export function trapFocus(event) {
  if (event.key !== "Tab") return;
  const dialogs = document.querySelectorAll('[role="dialog"][aria-modal="true"]');
  const dialog = dialogs[dialogs.length - 1];
  if (!dialog) return;
  const items = [...dialog.querySelectorAll("button, a[href], select, input")].filter((el) => !el.disabled && el.offsetParent !== null);
  if (!items.length) return;
  const first = items[0];
  const last = items[items.length - 1];
  const at = document.activeElement;
  if (!dialog.contains(at) || (event.shiftKey && at === first) || (!event.shiftKey && at === last)) {
    (event.shiftKey ? last : first).focus();
    event.preventDefault();
  }
}
