// The computer players' ladder (issue 28, item 5): /ladder. The server
// (web/ladder/) answers GET /api/ladder from the store: the newest ladder a
// moderator published, played by `passing-game arena --ladder` on duplicate
// deals. This page draws it: every player against the field (its net points a
// round with the 95% interval, as numbers and as a line on one scale for all),
// the pairwise table (the row's net points against the column's), and how and
// when it was played. Labels and commands are text from a file: only ever put
// on the page as text. Numbers are written the reader's way (Intl).

import { h, svg } from "./dom.js";
import { I18N, nt, t } from "./i18n.js";
import { changed } from "./state.js";

// A figure with its sign (+2.1, −0.4, 0.0), one decimal, the page's language.
function signed(n, digits = 1) {
  const fmt = new Intl.NumberFormat(I18N.language, { minimumFractionDigits: digits, maximumFractionDigits: digits, signDisplay: "exceptZero" });
  return fmt.format(Math.abs(n) < 0.5 * 10 ** -digits ? 0 : n);
}

function decimal(n, digits = 1) {
  return new Intl.NumberFormat(I18N.language, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n);
}

function percent(n) {
  return new Intl.NumberFormat(I18N.language, { style: "percent", maximumFractionDigits: 0 }).format(n);
}

// The intervals' confidence (the arena's, docs/STRENGTH.md), as the language writes a percentage.
const LEVEL = () => percent(0.95);

function whole(n) {
  return new Intl.NumberFormat(I18N.language).format(n);
}

function when(seconds) {
  try {
    return new Intl.DateTimeFormat(I18N.language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(seconds * 1000));
  } catch (e) {
    return new Date(seconds * 1000).toLocaleString();
  }
}

function known(iv) {
  return iv && iv.low !== null && iv.high !== null;
}

// "+2.1 to +4.3": an interval's ends, in the reader's words; "" when unknown.
function range(iv, format) {
  return known(iv) ? t("{low} to {high}", { low: format(iv.low), high: format(iv.high) }) : "";
}

// Where an interval stands: clear of zero above (ahead), below (behind), or across it.
function side(iv) {
  if (!known(iv)) return "even";
  return iv.low > 0 ? "ahead" : iv.high < 0 ? "behind" : "even";
}

function kindLine(agent) {
  if (agent.kind === "level") return agent.title ? t("Level “{title}” on this site", { title: agent.title }) : t("Bot");
  if (agent.kind === "frozen") return t("Frozen expert");
  if (agent.kind === "outside") return t("Program from outside");
  return t("Bot");
}

function aboutLine(agent) {
  if (agent.kind === "level") return agent.about || null;
  if (agent.kind === "frozen") return t("An earlier expert, kept unchanged as a yardstick.");
  return null;
}

export const Ladder = (() => {
  const L = { on: false, data: null, error: null };

  function active() {
    return L.on && /^\/ladder\/?$/.test(location.pathname);
  }

  // True when the address is the ladder's: it is read again each time it is opened.
  function route() {
    L.on = /^\/ladder\/?$/.test(location.pathname);
    if (!L.on) return false;
    L.data = null;
    L.error = null;
    load();
    return true;
  }

  async function load() {
    try {
      // In the page's language (the levels' names), whatever the browser asks for.
      const got = await fetch("/api/ladder?lang=" + encodeURIComponent(I18N.language), { cache: "no-store" });
      const data = await got.json();
      if (!got.ok) L.error = data.error || t("Something went wrong; try again.");
      else if (data.ladder === null) L.error = data.message; // none published yet
      else L.data = data;
    } catch (e) {
      L.error = t("The server could not be reached; trying again.");
      setTimeout(() => { if (active() && !L.data) load(); }, 5000);
    } finally {
      changed();
    }
  }

  // The scale all the rows' lines share: every interval and zero, with a margin.
  function scale(agents) {
    const ends = [0];
    for (const a of agents) ends.push(a.net.estimate, ...(known(a.net) ? [a.net.low, a.net.high] : []));
    let low = Math.min(...ends), high = Math.max(...ends);
    const pad = Math.max(1, (high - low) * 0.04);
    low -= pad;
    high += pad;
    return (v) => (100 * (v - low)) / (high - low);
  }

  // One row's drawing: the scale's track, the zero line, the interval as a bar, the
  // estimate as a dot.
  function bar(iv, x) {
    const at = (v) => `${x(v).toFixed(2)}%`;
    return svg("svg", { class: "ci-bar " + side(iv), "aria-hidden": "true", focusable: "false" },
      svg("line", { class: "track", x1: "0%", x2: "100%", y1: "50%", y2: "50%" }),
      svg("line", { class: "zero", x1: at(0), x2: at(0), y1: "0", y2: "100%" }),
      known(iv) ? svg("line", { class: "interval", x1: at(iv.low), x2: at(iv.high), y1: "50%", y2: "50%" }) : null,
      svg("circle", { class: "dot", cx: at(iv.estimate), cy: "50%", r: "5" }));
  }

  function standings(d) {
    const x = scale(d.agents);
    const rows = d.agents.map((a, i) => {
      const about = aboutLine(a);
      const said = t("{value}, {level} interval {low} to {high}", known(a.net)
        ? { value: signed(a.net.estimate, 2), level: LEVEL(), low: signed(a.net.low, 2), high: signed(a.net.high, 2) }
        : { value: signed(a.net.estimate, 2), level: LEVEL(), low: "–", high: "–" });
      return h("tr", { class: "agent " + side(a.net), dataset: { label: a.label, kind: a.kind } },
        h("td", { class: "num rank", text: whole(i + 1) }),
        h("th", { scope: "row", class: "who" },
          h("span", { class: "label", dir: "auto", text: a.label }),
          h("span", { class: "kind", text: kindLine(a) }),
          a.program ? h("code", { class: "program", dir: "ltr", text: a.program }) : null,
          about ? h("span", { class: "about", text: about }) : null),
        h("td", { class: "net", "aria-label": said },
          h("span", { class: "figure" },
            h("span", { class: "estimate", text: signed(a.net.estimate, 2) }),
            h("span", { class: "range", text: range(a.net, (v) => signed(v, 2)) })),
          bar(a.net, x)),
        h("td", { class: "num extra", text: whole(a.rounds) }),
        h("td", { class: "num extra", title: range(a.points, decimal), text: decimal(a.points.estimate, 2) }),
        h("td", { class: "num extra", title: range(a.round_wins, percent), text: percent(a.round_wins.estimate) }));
    });
    return h("section", { class: "card", id: "ladder-standings", "aria-labelledby": "ladder-standings-title" },
      h("h2", { id: "ladder-standings-title", text: t("Net points a round") }),
      h("p", { class: "muted", text: t("Net points a round: the points a player's side scored minus its opponent's, over every round against all the others. The line is the {level} confidence interval: a line clear of zero is a lead, or a deficit, that luck does not explain.", { level: LEVEL() }) }),
      h("table", { class: "ladder-table" },
        h("thead", {}, h("tr", {},
          h("th", { scope: "col", class: "num", text: t("Rank") }),
          h("th", { scope: "col", text: t("Player") }),
          h("th", { scope: "col", text: t("Net points a round") }),
          h("th", { scope: "col", class: "num extra", text: t("Rounds") }),
          h("th", { scope: "col", class: "num extra", text: t("Points per round") }),
          h("th", { scope: "col", class: "num extra", text: t("Rounds won") }))),
        h("tbody", {}, rows)));
  }

  // The row's net points a round against the column's, from the pair in either order.
  function against(pairs, a, b) {
    for (const p of pairs) {
      if (p.a === a && p.b === b) return p.net;
      if (p.a === b && p.b === a) {
        const n = p.net;
        return { estimate: -n.estimate, low: n.high === null ? null : -n.high, high: n.low === null ? null : -n.low };
      }
    }
    return null;
  }

  function matrix(d) {
    const labels = d.agents.map((a) => a.label);
    const head = h("tr", {}, h("th", { scope: "col", class: "corner" }),
      labels.map((label, i) => h("th", { scope: "col", class: "num", title: label },
        h("abbr", { title: label, text: whole(i + 1) }))));
    const rows = labels.map((a, i) => h("tr", {},
      h("th", { scope: "row", class: "who" }, h("span", { class: "rank", text: whole(i + 1) }), " ", h("span", { dir: "auto", text: a })),
      labels.map((b) => {
        if (a === b) return h("td", { class: "self", "aria-hidden": "true", text: "—" });
        const iv = against(d.pairs, a, b);
        if (!iv) return h("td", { class: "none", text: "–" });
        const half = known(iv) ? (iv.high - iv.low) / 2 : null;
        const said = t("{a} against {b}", { a, b }) + ": " + t("{value}, {level} interval {low} to {high}", known(iv)
          ? { value: signed(iv.estimate), level: LEVEL(), low: signed(iv.low), high: signed(iv.high) }
          : { value: signed(iv.estimate), level: LEVEL(), low: "–", high: "–" });
        return h("td", { class: "cell " + side(iv), "aria-label": said, title: said, dataset: { row: a, col: b } },
          h("span", { class: "estimate", text: signed(iv.estimate) }),
          half === null ? null : h("span", { class: "half", text: "±" + decimal(half) }));
      })));
    return h("section", { class: "card", id: "ladder-matrix", "aria-labelledby": "ladder-matrix-title" },
      h("h2", { id: "ladder-matrix-title", text: t("Who beats whom") }),
      h("p", { class: "muted", text: t("Each cell is the row's net points a round against the column's player, with its {level} interval. The columns are numbered by rank.", { level: LEVEL() }) }),
      h("ul", { class: "legend" },
        h("li", { class: "ahead", text: t("Ahead, beyond luck") }),
        h("li", { class: "behind", text: t("Behind, beyond luck") }),
        h("li", { class: "even", text: t("Not told apart yet") })),
      h("div", { class: "wide-table", tabindex: "0", role: "region", "aria-labelledby": "ladder-matrix-title" },
        h("table", { class: "ladder-matrix" }, h("thead", {}, head), h("tbody", {}, rows))));
  }

  function details(d) {
    const run = d.run;
    const took = run.seconds < 120 ? nt("{n} second", Math.max(1, Math.round(run.seconds))) : nt("{n} minute", Math.round(run.seconds / 60));
    const items = [
      [t("Played on"), when(run.finished)],
      [t("Players"), run.partnerships ? t("Four players in teams") : t("Two players")],
      [t("Deals"), whole(run.deals)],
      [t("Rounds per pair"), whole(run.rounds_per_pair)],
      [t("Time taken"), took],
      [t("Version"), run.version],
      // the package's own ladder, until a moderator publishes the site's
      [t("Published"), d.shipped ? t("Measured by the project for this version") : when(d.published)],
    ];
    return h("section", { class: "card", id: "ladder-run", "aria-labelledby": "ladder-run-title" },
      h("h2", { id: "ladder-run-title", text: t("How it was played") }),
      h("dl", { class: "run-facts" }, items.map(([label, value]) => [h("dt", { text: label }), h("dd", { text: value })]),
        h("dt", { text: t("Command") }), h("dd", {}, h("code", { id: "ladder-command", dir: "ltr", text: run.command }))));
  }

  function render() {
    const d = L.data;
    const back = h("a", { href: "/", class: "back", text: t("Back to the lobby") });
    const title = h("h1", { text: t("The computer players' ladder") });
    if (!d) {
      return h("main", { class: "lobby ladder" }, back, title,
        L.error ? h("p", { class: "muted", id: "ladder-error", role: "status", text: L.error }) : h("p", { class: "loading", text: t("Loading…") }));
    }
    return h("main", { class: "lobby ladder" }, back, title,
      h("p", { class: "intro", text: t("Every computer player meets every other on the same deals, each deal played once from each seat, so the luck of the deal cancels out. Programs from outside play by the same rules and see only their own seat.") }),
      standings(d), matrix(d), details(d));
  }

  return { route, active, render };
})();
