// The page's sounds: short tones made with the Web Audio API (no sound files).
//
// Sound.play(kind) for "move", "pass", "draw", "turn" and "end"; the switch
// (Sound.enabled / Sound.setEnabled) is remembered in localStorage. Browsers
// start audio only after the person has clicked or pressed a key, so the
// context is made (or resumed) on the first such gesture: Sound.unlock().
// This file has no words of its own: the switch's label is table.js's.

export const Sound = (() => {
  const KEY = "passing-game:sound";
  let ctx = null;

  function enabled() {
    try {
      return localStorage.getItem(KEY) !== "off";
    } catch (e) {
      return true;
    }
  }

  function setEnabled(on) {
    try {
      localStorage.setItem(KEY, on ? "on" : "off");
    } catch (e) {
      /* storage off: the switch holds for this page only */
    }
    if (on) unlock();
  }

  function unlock() {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx || !enabled()) return;
    try {
      if (!ctx) ctx = new Ctx();
      if (ctx.state === "suspended") ctx.resume().catch(() => {});
    } catch (e) {
      ctx = null;
    }
  }

  // One note: a frequency (Hz) from `at` seconds from now, for `length` seconds.
  function note(freq, at, length, { type = "sine", gain = 0.18, slide = 0 } = {}) {
    const start = ctx.currentTime + at;
    const osc = ctx.createOscillator();
    const amp = ctx.createGain();
    osc.type = type;
    osc.frequency.setValueAtTime(freq, start);
    if (slide) osc.frequency.exponentialRampToValueAtTime(freq * slide, start + length);
    amp.gain.setValueAtTime(0.0001, start);
    amp.gain.exponentialRampToValueAtTime(gain, start + 0.01);
    amp.gain.exponentialRampToValueAtTime(0.0001, start + length);
    osc.connect(amp).connect(ctx.destination);
    osc.start(start);
    osc.stop(start + length + 0.02);
  }

  const SOUNDS = {
    // A tile laid on the felt: a low knock.
    move: () => { note(180, 0, 0.09, { type: "triangle", gain: 0.3, slide: 0.6 }); note(900, 0, 0.03, { type: "square", gain: 0.03 }); },
    // A pass: one soft falling note.
    pass: () => note(520, 0, 0.22, { gain: 0.12, slide: 0.75 }),
    // A draw: a short rising scrape.
    draw: () => { note(300, 0, 0.07, { type: "triangle", gain: 0.12, slide: 1.6 }); note(420, 0.07, 0.07, { type: "triangle", gain: 0.1, slide: 1.4 }); },
    // Your turn: two rising notes.
    turn: () => { note(660, 0, 0.14, { gain: 0.16 }); note(880, 0.13, 0.22, { gain: 0.16 }); },
    // The round's end: a short arpeggio.
    end: () => { note(523, 0, 0.18); note(659, 0.12, 0.18); note(784, 0.24, 0.34); },
  };

  function play(kind) {
    if (!enabled() || !SOUNDS[kind]) return false;
    unlock();
    if (!ctx || ctx.state !== "running") return false;
    try {
      SOUNDS[kind]();
      return true;
    } catch (e) {
      return false;
    }
  }

  return { enabled, setEnabled, unlock, play };
})();
