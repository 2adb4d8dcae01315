// The tutorial's progress in this browser and the lobby's offers of it (issue 25).
//
// learn.js (the tutorial's page) keeps which lessons this browser has done, by id,
// under DONE_KEY; the lobby offers the tutorial on a first visit and, once the basics
// are done (they end in a real game, P47), the rest of the lessons: the target and
// teams, then playing well. Each offer's answer is remembered. The lessons and their
// parts come from the server's config (S.config.lessons).

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { S, changed } from "./state.js";

export const DONE_KEY = "passing-game:learn-done";
const OFFER_KEY = "passing-game:learn-offer";
const MORE_KEY = "passing-game:learn-more-offer";

// The ids of the lessons this browser has done.
export function lessonsDone() {
  try {
    const got = JSON.parse(localStorage.getItem(DONE_KEY) || "[]");
    return new Set(Array.isArray(got) ? got : []);
  } catch (e) {
    return new Set();
  }
}

// True when this browser has done every basic lesson and not yet every other one.
export function moreLessons() {
  const all = (S.config && S.config.lessons) || [];
  const finished = lessonsDone();
  const basics = all.filter((l) => l.part === "basics");
  return basics.length > 0 && basics.every((l) => finished.has(l.id)) && all.some((l) => !finished.has(l.id));
}

// The lobby's card: the tutorial on a first visit, later the rest of it, else nothing.
export function learnOffer() {
  if (localStorage.getItem(OFFER_KEY)) return moreOffer();
  const answer = (value) => () => localStorage.setItem(OFFER_KEY, value);
  return h("section", { class: "card learn-offer", id: "learn-offer", "aria-labelledby": "learn-offer-text" },
    h("p", { id: "learn-offer-text", text: t("New to The Passing Game? Learn it in 3 minutes.") }),
    h("div", { class: "row" },
      h("a", { href: "/learn", class: "button primary", id: "learn-start", onclick: answer("accepted") }, t("Start the tutorial")),
      h("button", { type: "button", id: "learn-no", onclick: () => { answer("declined")(); changed(); } }, t("No thanks"))));
}

function moreOffer() {
  if (localStorage.getItem(MORE_KEY) || !moreLessons()) return null;
  const answer = (value) => () => localStorage.setItem(MORE_KEY, value);
  return h("section", { class: "card learn-offer", id: "learn-more-offer", "aria-labelledby": "learn-more-text" },
    h("p", { id: "learn-more-text", text: t("You know the basics. Go on with the target, partnerships and playing well.") }),
    h("div", { class: "row" },
      h("a", { href: "/learn", class: "button primary", id: "learn-more" }, t("More lessons")),
      h("button", { type: "button", id: "learn-more-no", onclick: () => { answer("declined")(); changed(); } }, t("No thanks"))));
}
