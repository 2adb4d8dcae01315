// Building the page's elements: h() for any element, svg() for SVG, the icons (inline
// SVG, no font needed), the dominoes, form fields, the dialog box and the
// tool bars' button, and tileText(), the one function that writes a tile for
// people ("[3|5]"). No words of its own: the callers give them.

// The one way the page writes a tile for people: "[3|5]", as the server's sentences do.
export function tileText(a, b) {
  return `[${a}|${b}]`;
}

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") el.className = value;
    else if (name === "text") el.textContent = value;
    else if (name.startsWith("on")) el.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

const SVG_NS = "http://www.w3.org/2000/svg";

// h() for SVG: the graphs' and scales' elements (attributes as h takes them,
// "text" for the content, "on..." for listeners).
export function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") el.textContent = value;
    else if (name.startsWith("on")) el.addEventListener(name.slice(2), value);
    else el.setAttribute(name, String(value));
  }
  for (const child of children.flat(Infinity)) if (child) el.append(child);
  return el;
}

// Icons as inline SVG paths (24x24, drawn with the text colour).
export const ICONS = {
  link: "M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1",
  sound: "M4 9h4l5-4v14l-5-4H4zM16 9a4 4 0 0 1 0 6M18.5 6.5a8 8 0 0 1 0 11",
  mute: "M4 9h4l5-4v14l-5-4H4zM16 9.5l5 5M21 9.5l-5 5",
  bell: "M6 16v-5a6 6 0 0 1 12 0v5l2 2H4zM10 20.5a2 2 0 0 0 4 0",
  flag: "M5 21V4M5 4h12l-2.5 4.5L17 13H5",
  leave: "M14 4h5v16h-5M10 8l-4 4 4 4M6 12h10",
  help: "M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20zM9.2 9.3a2.8 2.8 0 1 1 3.9 2.6c-.7.3-1.1.9-1.1 1.6v.8M12 17.3v.2",
  menu: "M4 6h16M4 12h16M4 18h16",
  clock: "M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 7v5l3 2",
  robot: "M7 8h10a2 2 0 0 1 2 2v7a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2v-7a2 2 0 0 1 2-2zM12 4v4M9.5 12.5v1M14.5 12.5v1M9 16.5h6",
  warning: "M12 3.5l9.5 17h-19zM12 10v4.5M12 17.5v.2",
  lock: "M7.5 11V8a4.5 4.5 0 0 1 9 0v3M5.5 11h13v10h-13z",
};

export function icon(name) {
  const NS = SVG_NS;
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "icon icon-" + name);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const path = document.createElementNS(NS, "path");
  path.setAttribute("d", ICONS[name] || "");
  svg.append(path);
  return svg;
}

// Pip positions in a 3x3 grid, cells 1..9 read left to right, top to bottom.
const PIPS = {
  0: [],
  1: [5],
  2: [3, 7],
  3: [3, 5, 7],
  4: [1, 3, 7, 9],
  5: [1, 3, 5, 7, 9],
  6: [1, 3, 4, 6, 7, 9],
};

const PIPS_ACROSS = { ...PIPS, 2: [1, 9], 3: [1, 5, 9], 6: [1, 2, 3, 7, 8, 9] };

function half(n, across) {
  const el = h("span", { class: "half", dataset: { n: String(n) } });
  for (const cell of (across ? PIPS_ACROSS : PIPS)[n]) {
    el.append(h("span", { class: "pip c" + cell }));
  }
  return el;
}

// One domino face up: `across` lays it on its side (a-b read left to right).
export function domino(a, b, opts = {}) {
  const across = !!opts.across;
  const cls = ["domino", across ? "across" : "upright"];
  if (a === b) cls.push("double");
  if (opts.small) cls.push("small");
  if (opts.extra) cls.push(opts.extra);
  const tag = opts.button ? "button" : "span";
  const attrs = {
    class: cls.join(" "),
    role: opts.button ? null : "img",
    "aria-label": opts.label || tileText(a, b),
    title: opts.title || tileText(a, b),
  };
  if (opts.button) {
    attrs.type = "button";
    Object.assign(attrs, opts.button);
  }
  return h(tag, attrs, half(a, across), h("span", { class: "bar", "aria-hidden": "true" }), half(b, across));
}

export function backTile(opts = {}) {
  const cls = ["domino", "back", opts.across ? "across" : "upright"];
  if (opts.small) cls.push("small");
  if (opts.locked) cls.push("locked");
  return h("span", { class: cls.join(" "), "aria-hidden": "true" },
    opts.locked ? h("span", { class: "lock" }, icon("lock")) : null);
}

export function tileParts(text) {
  const [a, b] = text.split("-").map(Number);
  return [a, b];
}

// "3-5" (the protocol's form) -> "[3|5]".
export function tileOf(text) {
  return tileText(...tileParts(text));
}

export function field(label, control, hint) {
  return h("label", { class: "field" }, h("span", { class: "label", text: label }), control,
    hint ? h("span", { class: "hint", text: hint }) : null);
}

export function select(name, options, value) {
  return h("select", { name, id: "f-" + name },
    options.map(([v, label]) => h("option", { value: v, selected: v === value }, label)));
}

// A dialog whose buttons stay in view: its body scrolls, its button row does not.
export function dialogBox({ cls, labelledby, label, body, buttons, onBackdrop }) {
  return h("div", { class: "overlay", onclick: onBackdrop ? (e) => { if (e.target === e.currentTarget) onBackdrop(); } : null },
    h("section", { class: "dialog card " + (cls || ""), role: "dialog", "aria-modal": "true", "aria-labelledby": labelledby || null, "aria-label": label || null },
      h("div", { class: "dialog-body" }, body),
      h("div", { class: "dialog-buttons" }, buttons)));
}

// A button of the tool bars: an icon and a word; on a phone the icon alone (the word stays its name).
export function toolButton({ id, key, icon: name, label, onclick, pressed, disabled, title, iconOnly }) {
  return h("button", { type: "button", class: "small tool" + (iconOnly ? " icon-only" : ""), id, "data-key": key, title: title || label,
      "aria-pressed": pressed === undefined ? null : String(!!pressed), disabled, onclick },
    icon(name), h("span", { class: "word", text: label }));
}
