// The page's state: one object that every module reads and changes; the one
// render scheduler, changed(), that puts it on the screen (page.js draws); and
// notify(), a notice for a while.

export const S = {
  config: null,
  ws: null,
  wsOpen: false,
  live: false, // a state frame came since the socket (re)opened: the page may act
  retry: 0,
  retryTimer: null,
  frame: null,
  last: -1, // the state counter of the last frame applied
  code: null,
  seat: null,
  watching: false,
  invite: null, // ?invite=TOKEN: the join panel takes that seat
  inviteSeat: null, // ?seat=N (1-based) beside an invitation, for the join panel's words
  choosing: null, // a tile waiting for the player to pick an end
  dragging: null, // a tile being dragged to an end of the train (hand.js)
  hint: null,
  tracker: null, // the tile tracker the server last sent (tracker.js)
  trackerOpen: false,
  notice: null,
  noticeTimer: null,
  queue: [], // only create/join/resume/watch wait for the socket; moves never do
  summaryOpen: false,
  confirm: null, // a question before an action: {title, text, yes, action}
  seatTools: null, // the creator's dialog for an absent person's seat: {seat, link}
  flashes: {}, // seat -> {kind, at}: a pass or a draw shown on the seat for a moment
  fly: null, // the tile to fly into the train after the next render: {seat, tile}
  playedFrom: null, // where our own tile was when it was clicked: {tile, rect}
  nudgeAt: 0, // when a click was refused offline (the banner says so again)
  menuOpen: false, // the phone's menu of the top bar's tools
  rulesPanel: false,
  rulesNodes: null, // the rules panel's content, once fetched
};

// -- drawing ---------------------------------------------------------------------
// page.js draws the page for S; app.js hands its drawing over (drawWith), so that
// no module imports page.js to draw. changed() asks for one render once the code
// now running is done (a microtask, before the browser paints or handles the next
// event), however many changes ask for it. render() draws at once, for a caller
// whose next line needs the new nodes (to focus one, or to measure one).

let draw = () => {};
let asked = false;

export function drawWith(fn) {
  draw = fn;
}

export function changed() {
  if (asked) return;
  asked = true;
  queueMicrotask(() => {
    if (!asked) return; // drawn at once in the meantime
    asked = false;
    draw();
  });
}

export function render() {
  asked = false;
  draw();
}

// A notice (an error, or news) on the page for six seconds.
export function notify(text, kind) {
  S.notice = { text, kind };
  clearTimeout(S.noticeTimer);
  S.noticeTimer = setTimeout(() => {
    S.notice = null;
    changed();
  }, 6000);
  changed();
}
