// Ratings a person can read (issue 24, item 9): each rating change at the end of a
// rated game with its reason in words, what a rating is (the help), and the
// leaderboard's table with the games each rating rests on.
//
// frame.ratings (web/ratings/shown.py): per seat {before, after, delta, settling};
// a rating still "settling" rests on its first games, which move it more (its
// margin of doubt shrinks fast). The leaderboard's rows: {rank, name, rating,
// games, settling, bot}. Names are user text: always put on the page as text.

import { h } from "./dom.js";
import { I18N, nt, t } from "./i18n.js";
import { botMark, whoParts } from "./seat.js";

// A change as people write one: +69, -37, 0.
export function signed(n) {
  return new Intl.NumberFormat(I18N.language, { signDisplay: "exceptZero" }).format(n);
}

// A rating as people read ratings: digits only (1069, not 1,069).
export function ratingNum(n) {
  return new Intl.NumberFormat(I18N.language, { useGrouping: false }).format(n);
}

// The sentence that says why a rating moved as it did, for this viewer, with
// `delta` where the number goes (null: no change).
export function changeSentence(change, mine, delta) {
  if (change.settling) {
    return mine ? t("{delta}: your first games move your rating more", { delta }) : t("{delta}: first games move a rating more", { delta });
  }
  if (change.delta > 0) return t("{delta}: a better result than the ratings expected", { delta });
  if (change.delta < 0) return t("{delta}: a worse result than the ratings expected", { delta });
  return null;
}

// The change's sentence, its number in a span of its own (coloured up or down)
// where the language's sentence puts it.
function changeWords(change, mine) {
  const number = h("span", { class: "delta " + (change.delta > 0 ? "up" : change.delta < 0 ? "down" : ""), text: signed(change.delta) });
  const mark = "\u0000";
  const sentence = changeSentence(change, mine, mark);
  if (sentence === null) return h("span", { class: "why" }, h("span", { class: "delta", text: t("No change") }));
  const [head, ...rest] = sentence.split(mark);
  return h("span", { class: "why" }, head, number, rest.join(""));
}

// What a rating is, why first games move it more, what the number shown is.
export function ratingHelp() {
  return [
    h("p", { text: t("A rating says how well you play, from the results of your rated games: one rating for each kind of game (two, three or four players, or teams). Everyone starts at 1000.") }),
    h("p", { text: t("The number shown is a careful guess: your skill as your games show it so far, less a margin for what they cannot show yet. Each game makes that margin smaller, so your first games move your rating more, and a first win gains more than a first loss costs.") }),
    h("p", { text: t("Once your rating has settled, a game moves it less: up when your result is better than the ratings expected, down when it is worse. Beating a higher rating gains more.") }),
  ];
}

// At the end of a rated match: each player's rating before and after, the change in
// words, and the help folded beneath (the summary's rating lines).
export function ratingChanges(frame) {
  if (frame.over && frame.unrated === "aborted") {
    return h("p", { class: "ratings unrated", id: "rating-changes", text: t("This game is not rated: a player never made a move.") });
  }
  const changes = frame.over ? frame.ratings : null;
  if (!changes || !changes.length) return null;
  return h("section", { class: "ratings", id: "rating-changes" },
    h("h3", { text: t("Rating changes") }),
    h("ul", {}, changes.map((c) => h("li", { class: "rating-change" + (c.seat === frame.you ? " mine" : "") + (c.settling ? " settling" : ""), dataset: { seat: String(c.seat) } },
      whoParts(frame, c.seat),
      h("span", { class: "values", text: t("{before} → {after}", { before: ratingNum(c.before), after: ratingNum(c.after) }) }),
      changeWords(c, c.seat === frame.you)))),
    h("details", { class: "rating-help", id: "rating-help" },
      h("summary", { text: t("How ratings work") }),
      ratingHelp()));
}

// The people's pools, and the bots' apart (P62: a game with a bot account at the table).
export const PEOPLE_POOLS = ["2", "3", "4", "4-teams"];
export const BOT_POOLS = PEOPLE_POOLS.map((pool) => "bots-" + pool);

// A pool in words: the leaderboard's choices, a profile's ratings.
export function poolWord(pool) {
  return {
    "2": t("Two players"), "3": t("Three players"), "4": t("Four players"), "4-teams": t("Four players in teams"),
    "bots-2": t("Two players, with bots"), "bots-3": t("Three players, with bots"),
    "bots-4": t("Four players, with bots"), "bots-4-teams": t("Four players in teams, with bots"),
  }[pool] || pool;
}

function num(n) {
  return new Intl.NumberFormat(I18N.language).format(n);
}

// The leaderboard of one pool: the table (place, player, rating, the games it rests
// on), what its last column is, the signed-in player's own count in a sentence, the help.
export function leaderboardBody(players, myName) {
  const mine = players.find((row) => myName && row.name === myName);
  return [
    h("table", { class: "account-table", id: "leaderboard" },
      h("thead", {}, h("tr", {}, [t("Place"), t("Player"), t("Rating"), t("Games")].map((text) => h("th", { scope: "col", text })))),
      h("tbody", {}, players.map((row) => h("tr", { class: (row === mine ? "me" : "") + (row.settling ? " settling" : "") },
        h("td", { text: String(row.rank) }),
        h("td", {}, h("a", { class: "profile-link", dir: "auto", href: "/u/" + encodeURIComponent(row.name), text: row.name }), // profile.js
          row.bot ? botMark() : null),
        h("td", { class: "num rating-cell" }, ratingNum(row.rating), row.settling ? h("span", { class: "settling-mark", text: t("still settling") }) : null),
        h("td", { class: "num games", text: num(row.games) }))))),
    h("p", { class: "muted", id: "games-note", text: t("Games: how many rated games each rating rests on. A rating marked “still settling” rests on few games and still moves more.") }),
    mine ? h("p", { id: "my-games-count", text: nt("Your rating here rests on {n} game.", mine.games) }) : null,
    h("div", { class: "rating-help", id: "leaders-help" }, ratingHelp()),
  ];
}
