// The page's state: one object that every module reads and changes, and
// render() (page.js) draws.

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
  hint: null,
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
