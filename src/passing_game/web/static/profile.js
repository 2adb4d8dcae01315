// A player's public profile (issue 27, item 3): /u/NAME. The server
// (web/profiles/) reads everything from the store, finished games only, and this
// page draws GET /api/profiles/NAME: the ratings per pool, each with its graph over
// time (an inline SVG, its points also as a table for screen readers), the recent
// games with their replays, the statistics of the newest finished games (how many
// it counted is said) and how the analysed decisions fared, and the partnerships.
// Names are user text: only ever put on the page as text. Numbers are written the
// reader's way (Intl, in the page's language).

import { h, svg } from "./dom.js";
import { I18N, nt, t } from "./i18n.js";
import { poolWord, ratingNum } from "./ratings.js";
import { botMark } from "./seat.js";
import { profileActions } from "./social.js";
import { changed } from "./state.js";

// The graph's own units (its viewBox); it is drawn as wide as its card.
const W = 320, H = 140, LEFT = 38, RIGHT = 8, TOP = 10, BOTTOM = 14;

// Where a name's profile is (the other modules that link to one write it as here).
function profileHref(name) {
  return "/u/" + encodeURIComponent(name);
}

function num(n) {
  return new Intl.NumberFormat(I18N.language).format(n);
}

function decimal(n) {
  return n === null || n === undefined ? "–" : new Intl.NumberFormat(I18N.language, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(n);
}

function percent(n) {
  return n === null || n === undefined ? "–" : new Intl.NumberFormat(I18N.language, { style: "percent", maximumFractionDigits: 0 }).format(n);
}

function share(part, whole) {
  if (!whole) return "–";
  return t("{share} ({part} of {whole})", { share: percent(part / whole), part, whole });
}

function date(seconds) {
  try {
    return new Intl.DateTimeFormat(I18N.language, { dateStyle: "medium" }).format(new Date(seconds * 1000));
  } catch (e) {
    return new Date(seconds * 1000).toLocaleDateString();
  }
}

export const Profile = (() => {
  const P = { name: null, data: null, error: null, loading: false };

  function nameOf() {
    const found = location.pathname.match(/^\/u\/(.+?)\/?$/);
    if (!found) return null;
    try {
      return decodeURIComponent(found[1]);
    } catch (e) {
      return found[1];
    }
  }

  function active() {
    return P.name !== null && nameOf() === P.name;
  }

  // True when the address is a profile's: it is read once each time it is opened.
  function route() {
    const name = nameOf();
    if (name === null) {
      P.name = null;
      return false;
    }
    P.name = name;
    P.data = null;
    P.error = null;
    load(name);
    return true;
  }

  async function load(name) {
    P.loading = true;
    try {
      const got = await fetch("/api/profiles/" + encodeURIComponent(name), { cache: "no-store" });
      const data = await got.json();
      if (P.name !== name) return;
      if (!got.ok) P.error = data.error || t("Something went wrong; try again.");
      else P.data = data;
    } catch (e) {
      if (P.name === name) P.error = t("The server could not be reached; trying again.");
    } finally {
      P.loading = false;
      changed();
    }
  }

  // One pool's graph: the rating after each rated game, the first point before the first.
  function graph(points, pool) {
    const ratings = points.map((p) => p.rating);
    let low = Math.min(...ratings), high = Math.max(...ratings);
    if (high - low < 20) { low -= 10; high += 10; }
    const x = (i) => LEFT + (points.length < 2 ? (W - LEFT - RIGHT) / 2 : (i * (W - LEFT - RIGHT)) / (points.length - 1));
    const y = (r) => TOP + ((high - r) * (H - TOP - BOTTOM)) / (high - low);
    const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
    const label = t("Rating over time: from {first} to {last}", { first: ratingNum(ratings[0]), last: ratingNum(ratings[ratings.length - 1]) });
    return svg("svg", { class: "rating-graph", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label, "data-pool": pool, preserveAspectRatio: "xMidYMid meet" },
      svg("line", { class: "axis", x1: LEFT, y1: TOP, x2: LEFT, y2: H - BOTTOM }),
      svg("line", { class: "axis", x1: LEFT, y1: H - BOTTOM, x2: W - RIGHT, y2: H - BOTTOM }),
      svg("text", { class: "tick", x: LEFT - 4, y: y(high) + 4, "text-anchor": "end", text: ratingNum(Math.round(high)) }),
      svg("text", { class: "tick", x: LEFT - 4, y: y(low), "text-anchor": "end", text: ratingNum(Math.round(low)) }),
      svg("polyline", { class: "rating-line", points: line }),
      points.map((p, i) => svg("circle", { class: "rating-point", cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: 3, "data-rating": p.rating },
        svg("title", { text: ratingNum(p.rating) }))));
  }

  function historyTable(points) {
    return h("details", { class: "rating-history" },
      h("summary", { text: t("The rating's history as a table") }),
      h("table", { class: "account-table" },
        h("thead", {}, h("tr", {}, [t("Rated game"), t("Date"), t("Rating")].map((text, i) => h("th", { scope: "col", class: i === 2 ? "num" : null, text })))),
        h("tbody", {}, points.map((p, i) => h("tr", {},
          h("td", { text: i ? num(p.game) : t("Start") }), h("td", { text: date(p.at) }), h("td", { class: "num", text: ratingNum(p.rating) }))))));
  }

  function ratings(d) {
    const body = !d.ratings.length ? h("p", { class: "muted", text: t("No rated games yet.") })
      : d.ratings.map((r) => h("figure", { class: "pool", "data-pool": r.pool },
        h("figcaption", {},
          h("h3", { text: poolWord(r.pool) }),
          h("p", { class: "rating-now" }, h("span", { class: "rating", text: ratingNum(r.rating) }),
            r.settling ? h("span", { class: "settling-mark", text: t("still settling") }) : null,
            h("span", { class: "muted", text: nt("{n} rated game", r.games) }))),
        r.points.length ? graph(r.points, r.pool) : null,
        r.points.length ? historyTable(r.points) : null));
    return h("section", { class: "card", id: "profile-ratings" }, h("h2", { text: t("Ratings") }), body);
  }

  function who(players) {
    return players.map((p, i) => [i ? ", " : "", p.account && p.name !== P.data.name
      ? h("a", { href: profileHref(p.name), dir: "auto", text: p.name }) : h("span", { dir: "auto", text: p.name }),
      p.bot ? botMark() : null]);
  }

  function resultText(r) {
    if (r.won) return t("Won");
    if (r.of === 2) return t("Lost");
    return t("Place {n} of {m}", { n: r.place, m: r.of });
  }

  function recent(d) {
    const body = !d.recent.length ? h("p", { class: "muted", text: t("No finished games yet.") })
      : h("ul", { class: "recent-games" }, d.recent.map((g) => h("li", { dataset: { code: g.code, game: String(g.game) } },
        h("span", { class: "when", text: date(g.date) }),
        h("span", { class: "who" }, who(g.players)),
        h("span", { class: "result", text: resultText(g.result) + " · " + g.result.scores.map(num).join("–") + (g.rated ? " · " + t("rated") : "") }),
        h("a", { class: "button small", href: g.link, "data-key": `replay-${g.code}-${g.game}` }, t("Replay")))));
    return h("section", { class: "card", id: "profile-games" },
      h("h2", { text: t("Recent games") }),
      d.recent.length ? h("p", { id: "profile-finished", text: nt("{n} finished game", d.finished_games) }) : null,
      body);
  }

  function rows(list) {
    return h("table", { class: "account-table stats" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("Statistic") }), h("th", { scope: "col", class: "num", text: t("Value") }))),
      h("tbody", {}, list.map(([key, label, value]) => h("tr", { dataset: { stat: key } }, h("th", { scope: "row", text: label }), h("td", { class: "num", text: value })))));
  }

  function stats(d) {
    const s = d.stats;
    const counted = d.finished_games > d.counted
      ? nt("Counted from the newest {n} finished game; older games are left out.", d.counted)
      : nt("Counted from {n} finished game.", d.counted);
    const a = s.analysis;
    const analysis = a.games ? [
      h("h3", { text: t("How the analysed decisions fared") }),
      h("p", { class: "muted", text: nt("From {n} analysed game.", a.games) }),
      rows([
        ["analysed", t("Decisions analysed"), num(a.decisions)],
        ["mistakes", t("Mistakes"), num(a.mistakes)],
        ["blunders", t("Blunders"), num(a.blunders)],
        ["pass-errors", t("Passes marked a mistake or a blunder"), share(a.pass_errors, a.passes)],
        ["draw-errors", t("Draws marked a mistake or a blunder"), share(a.draw_errors, a.draws)],
      ])] : h("p", { class: "muted", text: t("None of these games has been analysed yet: a game's replay can ask for its analysis.") });
    const partners = s.partners.length ? [
      h("h3", { text: t("With a partner") }),
      h("div", { class: "wide-table" }, h("table", { class: "account-table", id: "profile-partners" },
        h("thead", {}, h("tr", {}, [t("Partner"), t("Games"), t("Games won"), t("Rounds"), t("Rounds won")].map((text, i) => h("th", { scope: "col", class: i ? "num" : null, text })))),
        h("tbody", {}, s.partners.map((p) => h("tr", {}, h("td", { dir: "auto", text: p.name }),
          [p.games, p.games_won, p.rounds, p.rounds_won].map((n) => h("td", { class: "num", text: num(n) })))))))] : null;
    return h("section", { class: "card", id: "profile-stats" },
      h("h2", { text: t("Statistics") }),
      h("p", { class: "muted", id: "profile-counted", text: d.counted ? counted : t("No finished games yet.") }),
      s.games ? rows([
        ["games-won", t("Games won"), share(s.games_won, s.games)],
        ["finished", t("Games played to the end"), num(s.finished)],
        ["rounds", t("Rounds played"), num(s.rounds)],
        ["rounds-won", t("Rounds won"), share(s.rounds_won, s.rounds)],
        ["points", t("Points per round"), decimal(s.points_per_round)],
        ["dominoes", t("Dominoes (went out)"), num(s.dominoes)],
        ["blocks", t("Blocked rounds"), num(s.blocks)],
        ["blocks-won", t("Blocked rounds won"), num(s.blocks_won)],
        ["pips", t("Pips left in hand at a round's end, on average"), decimal(s.pips_left_per_round)],
        ["decisions", t("Turns with a choice"), num(s.decisions)],
        ["passes", t("Passes, of those turns"), share(s.passes, s.decisions)],
        ["draws", t("Draws, of those turns"), share(s.draws, s.decisions)],
      ]) : null,
      s.games ? analysis : null,
      partners);
  }

  function render() {
    const d = P.data;
    const back = h("a", { href: "/", class: "back", text: t("Back to the lobby") });
    if (!d) {
      return h("main", { class: "lobby profile" }, back,
        P.error ? h("p", { class: "error", id: "profile-error", role: "alert", text: P.error }) : h("p", { class: "loading", text: t("Loading…") }));
    }
    return h("main", { class: "lobby profile" }, back,
      h("h1", { dir: "auto" }, h("span", { text: d.name }), d.bot ? botMark() : null),
      d.bot ? h("p", { id: "profile-bot" }, t("Bot account run by {owner}", { owner: "\u0000" }).split("\u0000").map((part, i) =>
        i ? [h("a", { href: profileHref(d.bot.owner), dir: "auto", text: d.bot.owner }), part] : part)) : null,
      h("p", { class: "muted", text: t("Playing since {date}", { date: date(d.since) }) }),
      profileActions(d.name),
      ratings(d), recent(d), stats(d));
  }

  return { route, active, render };
})();
