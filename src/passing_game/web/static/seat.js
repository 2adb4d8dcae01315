// A seat at the table: its card (name, tiles, clock, status, last move), the
// words that name a seat or a move, and the opening and closing of the
// creator's options for an absent person's seat (dialogs.js draws them).

import { Countdown } from "./clock.js";
import { backTile, h, icon, tileOf } from "./dom.js";
import { nt, t } from "./i18n.js";
import { Motion } from "./motion.js";
import { reputationMark } from "./reputation.js";
import { act } from "./socket.js";
import { S, changed, render } from "./state.js";

// Seats are 0-based in the protocol and 1-based for people.
export function seatNo(seat) {
  return t("Seat {n}", { n: seat + 1 });
}


function seatLabel(frame, seat) {
  return seat === frame.you ? t("You") : frame.seats[seat].name;
}

// The mark beside a bot account's name (issue 28, P62): wherever a name is shown
// (seats, the summary, leaderboards, friends, challenges, profiles, replays).
export function botMark() {
  return h("span", { class: "bot-mark", title: t("A program plays this account."), text: t("bot") });
}

// A seat named for people: the name and the seat number as two separate texts.
export function whoParts(frame, seat, cls = "who") {
  return h("span", { class: cls },
    h("span", { class: "name", text: seatLabel(frame, seat) }),
    frame.seats[seat] && frame.seats[seat].bot_account ? botMark() : null,
    h("span", { class: "seat-no", text: seatNo(seat) }));
}

// "L3-5" and "R3-5" play a tile; "draw" and "pass" do not.
export function isPlay(move) {
  return move[0] === "L" || move[0] === "R";
}

// A move as a short phrase for the seat's last-move line and the strip ("pass", "[3|5] on the left").
export function moveWords(frame, turn) {
  const move = turn.move;
  if (move === "pass") return t("last.pass");
  if (move === "draw") return turn.drawn ? t("last.drawn", { tile: tileOf(turn.drawn) }) : t("last.draw");
  const tile = tileOf(move.slice(1));
  const firstPlay = frame.round.history.find((x) => isPlay(x.move));
  if (firstPlay === turn) return t("last.lead", { tile });
  return move[0] === "L" ? t("last.left", { tile }) : t("last.right", { tile });
}

// "(auto-played)" when the clock moved for the seat, "(stand-in)" when a stand-in bot did.
export function autoMark(turn) {
  if (turn.auto === "timeout") return h("span", { class: "auto", text: t("(auto-played)") });
  if (turn.auto === "stand-in") return h("span", { class: "auto", text: t("(stand-in)") });
  return null;
}

function lastTurnOf(frame, seat) {
  const history = frame.round.history;
  for (let i = history.length - 1; i >= 0; i--) if (history[i].seat === seat) return history[i];
  return null;
}

// A seat's clock: a countdown ticking on the page (clock.js) while it runs, its bank otherwise.
function seatClock(frame, seat) {
  const clock = frame.clock;
  if (!clock) return null;
  if (clock.seat === seat && clock.remaining_ms !== null && clock.remaining_ms !== undefined) {
    const at = frame.at || performance.now();
    return h("span", { class: "clock running", role: "timer",
        dataset: { countdown: "clock", end: String(at + clock.remaining_ms), moveEnd: String(at + (clock.move_ms || 0)) } },
      icon("clock"), h("span", { class: "time" }),
      h("span", { class: "bank-left", "aria-hidden": "true" }), h("span", { class: "bank-word", text: t("bank") }));
  }
  const bank = (clock.banks || [])[seat];
  if (bank === undefined || bank === null) return null;
  // Not running: the time a move has first, then the bank (P41).
  return h("span", { class: "clock idle", title: t("Time bank"),
      "aria-label": t("{move} a move, {bank} in the bank", { move: Countdown.mmss(clock.move * 1000), bank: Countdown.mmss(bank * 1000) }) },
    icon("clock"), h("span", { class: "time", text: Countdown.mmss(clock.move * 1000) }),
    h("span", { class: "bank-left", "aria-hidden": "true", text: "+" + Countdown.mmss(bank * 1000) }));
}

export function seatStatus(s) {
  if (s.you && !S.wsOpen) return t("offline");
  if (s.standin) return t("Stand-in bot playing");
  if (s.away === "left") return t("left the table");
  if (s.away === "paused") return t("away: the game waits");
  if (s.away === "timeout") return t("ran out of time");
  if (s.away === "invited") return t("invited, not here yet");
  if (s.away === "offline") return t("offline");
  if (s.away === "suspended") return t("account suspended");
  if (s.kind === "bot") return t("bot");
  if (s.kind === "open") return t("waiting to join");
  return s.connected ? t("online") : t("offline");
}

export function openSeatTools(seat) {
  S.seatTools = { seat, link: null, level: (S.config.levels[1] || S.config.levels[0] || { name: "medium" }).name };
  render();
  document.getElementById("invite-button")?.focus();
}

export function closeSeatTools() {
  S.seatTools = null;
  changed();
}

// The creator may invite someone or hand the seat to a bot once its person has been
// away for the offline grace (the server says so: `absent`); an open seat nobody took
// may go to a bot as well.
function personAbsent(frame, seat) {
  const s = frame.seats[seat];
  if (seat === frame.you || frame.over) return false;
  return !!s.absent;
}

// At a table with other people, the hints each person took are shown to everyone.
function hintsTaken(frame, s) {
  if (!s.hints) return null;
  return h("span", { class: "hints", text: nt("{n} hint taken", s.hints) });
}

// `partner`: the seat across from you in a game of pairs, marked so.
export function renderSeat(frame, seat, partner = false) {
  const s = frame.seats[seat];
  const r = frame.round;
  const toMove = r.to_move === seat && frame.started && !frame.over;
  const cls = ["seat-card"];
  if (toMove) cls.push("to-move");
  if (s.you) cls.push("you");
  if (s.standin) cls.push("standin");
  if (s.away) cls.push("away");
  const backs = h("div", { class: "backs", "aria-hidden": "true" });
  for (let i = 0; i < s.tiles; i++) backs.append(backTile({ small: true }));
  const status = seatStatus(s);
  const score = frame.scores[s.side];
  const last = lastTurnOf(frame, seat);
  const flash = S.flashes[seat];
  // A pass or a draw flashes on the seat's last-move line for a moment, in its place:
  // a bubble drawn over the card would hide what is under it.
  let badge = null;
  if (flash && seat !== frame.you) {
    badge = Motion.resume(h("span", { class: "move-badge " + flash.kind, "aria-hidden": "true", dataset: { seat: String(seat) },
      text: flash.kind === "pass" ? t("Passes") : t("Draws a tile") }), performance.now() - flash.at);
  }
  const tools = frame.creator && personAbsent(frame, seat)
    ? h("button", { type: "button", class: "small seat-tools", "data-key": "seat-tools-" + seat, onclick: () => openSeatTools(seat) }, t("Seat options"))
    : null;
  return h("section", { class: cls.join(" "), "aria-label": seatLabel(frame, seat) + ", " + seatNo(seat), dataset: { seat: String(seat) } },
    h("div", { class: "seat-head" },
      h("span", { class: "dot " + (s.connected && !s.away && (!s.you || S.wsOpen) ? "on" : "off"), title: status, "aria-hidden": "true" }),
      s.account ? h("a", { class: "seat-name profile-link", dir: "auto", href: "/u/" + encodeURIComponent(s.name), target: "_blank", rel: "noopener",
        title: t("Profile of {name}", { name: s.name }), text: s.you ? t("{name} (you)", { name: s.name }) : s.name }) // profile.js
        : h("span", { class: "seat-name", dir: "auto", text: s.you ? t("{name} (you)", { name: s.name }) : s.name }),
      s.guest ? h("span", { class: "guest-mark", title: t("Playing without an account"), text: t("guest") }) : null,
      s.bot_account ? botMark() : null,
      partner ? h("span", { class: "partner-mark", text: t("your partner") }) : null,
      toMove ? h("span", { class: "turn-badge", text: t("to move") }) : null,
      seatClock(frame, seat)),
    h("div", { class: "seat-meta" },
      h("span", { class: "seat-no", text: seatNo(seat) }),
      h("span", { class: "count", text: nt("{n} tile", s.tiles) }),
      s.standin ? null : h("span", { class: "conn", text: status }),
      frame.rules.partnerships ? h("span", { class: "team", text: t("Team {a}+{b}", { a: s.side + 1, b: s.side + 3 }) }) : null,
      h("span", { class: "score", text: nt("{n} point", score) }),
      s.account ? reputationMark(s.name, frame.table + "/" + frame.game) : null,
      hintsTaken(frame, s)),
    s.standin ? h("div", { class: "standin-note" }, icon("robot"), h("span", { text: t("Stand-in bot playing") })) : null,
    s.you && frame.can_come_back && s.away !== "paused" ? h("button", { type: "button", class: "primary small", id: "back-button", "data-key": "back",
      onclick: () => act({ type: "back" }) }, t("Take my seat back")) : null,
    h("div", { class: "last-move" + (last ? "" : " none") + (badge ? " flashing" : "") },
      h("span", { class: "label", text: t("Last move:") }),
      h("span", { class: "what", text: last ? moveWords(frame, last) : "–" }),
      last ? autoMark(last) : null,
      badge),
    s.you ? null : backs,
    tools);
}
