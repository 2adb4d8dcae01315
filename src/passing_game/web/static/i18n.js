// The page's language: its texts, plurals and the rules panel, all from the
// server's gettext catalogs (GET /api/i18n, GET /api/rules; web/i18n.py).
//
// The page keeps no wording of its own: t(key) and nt(key, n) look texts up
// in the catalog the server sent. Plurals use the catalog's own Plural-Forms
// rule (a C expression such as Croatian's three-form rule), evaluated by the
// small parser below, because the page's Content-Security-Policy forbids
// eval and new Function. The choice of language is kept in localStorage and
// in the pg_lang cookie, which the server reads on every request and socket.

export const I18N = (() => {
  const STORE_KEY = "passing-game:lang";
  const COOKIE = "pg_lang";
  let catalog = { language: "en", texts: {}, plurals: {}, languages: [] };
  let plural = (n) => (n !== 1 ? 1 : 0);

  // -- the Plural-Forms rule: a C expression over n -------------------------

  function tokenize(text) {
    const tokens = [];
    const re = /\s*(\d+|n|&&|\|\||==|!=|<=|>=|[-+*/%<>!?:()])/gy;
    let at = 0;
    while (at < text.length) {
      re.lastIndex = at;
      const m = re.exec(text);
      if (!m) {
        if (/^\s*$/.test(text.slice(at))) break;
        throw new Error("bad plural rule near " + text.slice(at));
      }
      tokens.push(m[1]);
      at = re.lastIndex;
    }
    return tokens;
  }

  // Precedence climbing over C's operators; returns a function of n.
  function compile(expression) {
    const tokens = tokenize(expression);
    let pos = 0;
    const peek = () => tokens[pos];
    const take = (want) => {
      const tok = tokens[pos++];
      if (want !== undefined && tok !== want) throw new Error("bad plural rule: expected " + want);
      return tok;
    };
    const BINARY = [
      ["||"], ["&&"], ["==", "!="], ["<", ">", "<=", ">="], ["+", "-"], ["*", "/", "%"],
    ];
    const apply = {
      "||": (a, b) => (a || b ? 1 : 0), "&&": (a, b) => (a && b ? 1 : 0),
      "==": (a, b) => (a === b ? 1 : 0), "!=": (a, b) => (a !== b ? 1 : 0),
      "<": (a, b) => (a < b ? 1 : 0), ">": (a, b) => (a > b ? 1 : 0),
      "<=": (a, b) => (a <= b ? 1 : 0), ">=": (a, b) => (a >= b ? 1 : 0),
      "+": (a, b) => a + b, "-": (a, b) => a - b, "*": (a, b) => a * b,
      "/": (a, b) => Math.trunc(a / b), "%": (a, b) => a % b,
    };
    function unary() {
      const tok = take();
      if (tok === "n") return (n) => n;
      if (tok === "!") { const f = unary(); return (n) => (f(n) ? 0 : 1); }
      if (tok === "-") { const f = unary(); return (n) => -f(n); }
      if (tok === "(") { const f = ternary(); take(")"); return f; }
      if (/^\d+$/.test(tok || "")) { const v = Number(tok); return () => v; }
      throw new Error("bad plural rule at " + tok);
    }
    function binary(level) {
      if (level === BINARY.length) return unary();
      let left = binary(level + 1);
      while (BINARY[level].includes(peek())) {
        const op = take();
        const right = binary(level + 1);
        const l = left;
        left = (n) => apply[op](l(n), right(n));
      }
      return left;
    }
    function ternary() {
      const cond = binary(0);
      if (peek() !== "?") return cond;
      take("?");
      const yes = ternary();
      take(":");
      const no = ternary();
      return (n) => (cond(n) ? yes(n) : no(n));
    }
    const rule = ternary();
    if (pos !== tokens.length) throw new Error("bad plural rule: trailing " + tokens[pos]);
    return rule;
  }

  // "nplurals=3; plural=(...);" -> a function giving the form's index for n.
  function pluralRule(header) {
    const m = /plural\s*=\s*([^;]+)/.exec(header || "");
    const rule = compile(m ? m[1] : "n != 1");
    return (n) => Number(rule(Math.abs(Math.trunc(n))));
  }

  // -- looking texts up -------------------------------------------------------

  // Placeholders filled in; numbers written the language's way (CLDR, as Babel does on the server).
  function fill(text, params) {
    if (params) {
      for (const [name, value] of Object.entries(params)) {
        const shown = typeof value === "number" ? numberFormat().format(value) : String(value);
        text = text.split("{" + name + "}").join(shown);
      }
    }
    return text;
  }

  let formatter = null;
  function numberFormat() {
    if (!formatter || formatter.lang !== catalog.language) {
      formatter = { lang: catalog.language, format: new Intl.NumberFormat(catalog.language).format };
    }
    return formatter;
  }

  function t(key, params) {
    const texts = catalog.texts;
    return fill(Object.prototype.hasOwnProperty.call(texts, key) ? texts[key] : key, params);
  }

  // A counted text: the form the language's rule picks for n; {n} is filled in.
  function nt(key, n, params) {
    const forms = Object.prototype.hasOwnProperty.call(catalog.plurals, key) ? catalog.plurals[key] : null;
    let text = key;
    if (forms && forms.length) text = forms[Math.min(plural(n), forms.length - 1)];
    return fill(text, { n, ...(params || {}) });
  }

  // -- choosing and remembering ---------------------------------------------------

  function known(code) {
    return ["en", "gl", "hr"].includes(code) || catalog.languages.some((l) => l.code === code);
  }

  // The language asked for: ?lang= in the address, else the one remembered,
  // else none (the server then follows the browser's Accept-Language).
  function wanted() {
    const asked = new URLSearchParams(location.search).get("lang");
    if (asked) return asked.toLowerCase();
    try {
      const kept = localStorage.getItem(STORE_KEY);
      if (kept) return kept;
    } catch (e) {
      /* storage may be off: the cookie still works */
    }
    return null;
  }

  function remember(code) {
    try {
      localStorage.setItem(STORE_KEY, code);
    } catch (e) {
      /* the cookie is enough */
    }
    document.cookie = `${COOKIE}=${encodeURIComponent(code)}; path=/; max-age=31536000; samesite=lax`;
  }

  async function load(code) {
    const query = code ? "?lang=" + encodeURIComponent(code) : "";
    const got = await fetch("/api/i18n" + query).then((r) => r.json());
    catalog = got;
    plural = pluralRule(got.plural_forms);
    document.documentElement.lang = got.language;
    return got;
  }

  // -- the rules panel ----------------------------------------------------------------

  const RULE_TAGS = new Set(["h1", "h2", "h3", "h4", "p", "ul", "ol", "li", "strong", "em", "code", "pre", "blockquote"]);

  // The server's tree of allowed elements as DOM nodes; texts only ever as text.
  function rulesNodes(nodes) {
    return nodes.map((node) => {
      if (typeof node === "string") return document.createTextNode(node);
      const el = document.createElement(RULE_TAGS.has(node.tag) ? node.tag : "span");
      el.append(...rulesNodes(node.children || []));
      return el;
    });
  }

  async function rules() {
    const got = await fetch("/api/rules?lang=" + encodeURIComponent(catalog.language)).then((r) => r.json());
    return rulesNodes(got.nodes);
  }

  return {
    t, nt, load, wanted, remember, known, rules, pluralRule,
    get language() { return catalog.language; },
    get languages() { return catalog.languages; },
  };
})();

// The page's two ways to word a text, for every other module.
export function t(key, params) {
  return I18N.t(key, params);
}

export function nt(key, n, params) {
  return I18N.nt(key, n, params);
}

// A server's reason as a sentence of its own: its first letter in upper case, as
// the page's language writes it (the reasons are fragments written to follow
// "Not allowed: …"; every error the page shows goes through here).
export function sentenceStart(text) {
  const s = String(text || "");
  return s.charAt(0).toLocaleUpperCase(I18N.language) + s.slice(1);
}

// Where a browser has no date format for the page's language (some Chromium builds
// lack Galician), the nearest it may have, rather than its own default (English).
const NEAREST = { gl: ["es"] };

// A moment (seconds since the epoch) as the page's language writes a date and a time:
// "My games" and when a tournament starts.
export function dateTime(seconds) {
  try {
    const locales = [I18N.language, ...(NEAREST[I18N.language] || [])];
    return new Intl.DateTimeFormat(locales, { dateStyle: "medium", timeStyle: "short" }).format(new Date(seconds * 1000));
  } catch (e) {
    return new Date(seconds * 1000).toLocaleString();
  }
}
