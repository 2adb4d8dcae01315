// Countdowns that tick on the page between frames: a seat's clock, the
// round summary's "next round in" time, and a tournament's start and an
// arena's end (tournaments.js). The server sends how many milliseconds were
// left when it sent the frame (or its own time with the moment); the page
// notes when it arrived (performance.now()) and counts down from there, four
// times a second, changing only the countdowns' own text and classes, never
// re-rendering the page. An element takes part by carrying
// data-countdown="clock" (with data-end and data-move-end, both in
// performance.now() time), or data-countdown="summary" or another kind the
// words name (with data-end): its text is then words[kind](seconds left).
// The words (labels) come from app.js's start() through Countdown.configure.

export const Countdown = (() => {
  let timer = null;
  let words = { clock: () => "", summary: () => "" };

  function configure(labels) {
    words = { ...words, ...labels };
  }

  // 37_400 ms -> "0:38"; never below 0:00.
  function mmss(ms) {
    const secs = Math.max(0, Math.ceil(ms / 1000));
    return `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
  }

  function seconds(ms) {
    return Math.max(0, Math.ceil(ms / 1000));
  }

  function update(el, now) {
    const left = Number(el.dataset.end) - now;
    if (el.dataset.countdown === "clock") {
      const moveLeft = Number(el.dataset.moveEnd || 0) - now;
      const inBank = moveLeft <= 0;
      const shown = inBank ? left : moveLeft;
      const secs = seconds(shown);
      const key = `${secs}:${inBank}`;
      if (el.dataset.shown === key) return;
      el.dataset.shown = key;
      const time = el.querySelector(".time");
      if (time) time.textContent = mmss(shown);
      const bank = el.querySelector(".bank-left");
      if (bank) bank.textContent = inBank ? "" : "+" + mmss(left - moveLeft);
      el.classList.toggle("in-bank", inBank);
      el.classList.toggle("low", left < 10_000);
      el.classList.toggle("out", left <= 0);
      el.setAttribute("aria-label", words.clock(seconds(left), inBank, secs));
      return;
    }
    const secs = seconds(left);
    if (el.dataset.shown === String(secs)) return;
    el.dataset.shown = String(secs);
    el.textContent = (words[el.dataset.countdown] || words.summary)(secs);
  }

  function tick() {
    const found = document.querySelectorAll("[data-countdown]");
    if (!found.length) {
      stop();
      return;
    }
    const now = performance.now();
    found.forEach((el) => update(el, now));
  }

  function start() {
    if (!timer) timer = setInterval(tick, 250);
    tick();
  }

  function stop() {
    clearInterval(timer);
    timer = null;
  }

  return { configure, start, stop, mmss, tick };
})();
