// Puzzles from your own games (issue 25; the server's side is web/puzzles/mine.py and
// mine_api.py): /puzzles/mine lists the moves the analysis of your finished games
// marked as blunders, newest game first; /puzzles/mine/ID is one of them, solved as
// any puzzle (puzzles.js) but never rated. What you played there is said only with
// the answer, with a link to the replay at that position.

import { h } from "./dom.js";
import { I18N, sentenceStart, t } from "./i18n.js";

function day(seconds) {
  return new Intl.DateTimeFormat(I18N.language, { dateStyle: "medium" }).format(new Date(seconds * 1000));
}

function valuedText(valued) {
  return valued === "estimate" ? t("Estimated by the analysis") : t("Proved over every deal");
}

function triedText(tried) {
  if (!tried) return t("Not tried yet");
  return tried.correct ? t("Found again") : t("Missed again");
}

// The list: data = GET /api/puzzles/mine's body; go(path) opens a page of the puzzles.
export function mineList(data, go) {
  const rows = data.puzzles || [];
  return h("section", { class: "puzzle card mine-list", "aria-labelledby": "puzzle-prompt" },
    h("h2", { id: "puzzle-prompt", tabindex: "-1", text: t("Puzzles from your games") }),
    h("p", { class: "puzzle-about", text: t("The moves the analysis of your games marked as blunders: find the better move.") }),
    rows.length ? h("ol", { class: "mine-puzzles", id: "mine-puzzles" }, rows.map((row) => {
      const path = "/puzzles/mine/" + encodeURIComponent(row.id);
      return h("li", { class: "mine-puzzle" + (row.tried ? (row.tried.correct ? " found" : " missed") : ""), "data-puzzle": row.id },
        h("span", { class: "mine-where", text: t("Game of {date}: round {round}, move {move}", { date: day(row.date), round: row.round, move: row.index }) }),
        h("span", { class: "chip", text: valuedText(row.valued) }),
        h("span", { class: "mine-tried", text: triedText(row.tried) }),
        h("a", { href: path, class: "button small" + (row.tried ? "" : " primary"), "data-key": "mine-" + row.id,
          onclick: (e) => { e.preventDefault(); go(path); } }, t("Solve")));
    })) : h("p", { class: "hint", id: "mine-none", text: data.none || "" }));
}

// Above a puzzle of your games: what it is and how its values were found.
export function mineAbout(p) {
  return [
    h("p", { class: "puzzle-about", id: "mine-about", text: t("A position from one of your games: the analysis marked the move you made here as a blunder.") }),
    h("p", { class: "puzzle-about hint", text: p.mine.valued === "estimate" ? t("These values are the analysis's estimates from your view, not a proof.")
      : p.mine.valued === "every-deal" ? t("The best move is the best in every possible deal of the tiles you cannot see.")
        : t("The best move is the best on average over every possible deal of the tiles you cannot see.") }),
  ];
}

// With the answer: the move of the game, and the way back to it and to the list.
export function mineTold(result, go) {
  const told = result.mine;
  const played = result.values.find((row) => row.move === told.played);
  return [
    h("p", { id: "mine-played" }, h("span", { class: "label", text: t("In your game you played") }),
      h("span", { text: played ? sentenceStart(played.words) : told.played }), played ? h("span", { text: played.text }) : null),
    h("div", { class: "row" },
      h("a", { href: "/puzzles/mine", class: "button primary big", id: "puzzle-next", onclick: (e) => { e.preventDefault(); go("/puzzles/mine"); } }, t("Back to your puzzles")),
      h("a", { href: told.link, class: "button big", id: "mine-replay" }, t("See it in the replay"))),
  ];
}
