// The page's movement: a played tile flies from its seat into the train
// (FLIP with the Web Animations API), and nothing moves at all when the
// person asks for reduced motion (prefers-reduced-motion; app.css has the
// same media query for its CSS transitions and animations).
// This file has no words of its own.

export const Motion = (() => {
  const query = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

  function reduced() {
    return !!(query && query.matches);
  }

  // FLIP: `el` is already where it ends; it starts over `from` (a DOMRect) and glides home.
  function flyFrom(el, from, { duration = 520 } = {}) {
    if (reduced() || !el || !from || typeof el.animate !== "function") return null;
    const to = el.getBoundingClientRect();
    if (!to.width || !to.height) return null;
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    if (Math.abs(dx) < 2 && Math.abs(dy) < 2) return null;
    const scale = Math.max(0.5, Math.min(1.6, from.height / to.height || 1));
    return el.animate(
      [
        { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: 0.6, offset: 0 },
        { transform: `translate(${dx * 0.15}px, ${dy * 0.15}px) scale(1.08)`, opacity: 1, offset: 0.8 },
        { transform: "none", opacity: 1, offset: 1 },
      ],
      { duration, easing: "cubic-bezier(0.2, 0.7, 0.2, 1)" },
    );
  }

  // A CSS animation that started `elapsed` ms ago goes on where it was after a re-render.
  function resume(el, elapsed) {
    if (el) el.style.animationDelay = `${-Math.max(0, elapsed)}ms`;
    return el;
  }

  return { reduced, flyFrom, resume };
})();
