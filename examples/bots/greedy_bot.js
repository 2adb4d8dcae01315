#!/usr/bin/env node
// An outside bot for Node (no packages), for docs/BOTS.md: the heaviest
// legal tile, else draw, else pass. Run it in the arena with
//
//     passing-game arena "cmd:node examples/bots/greedy_bot.js" greedy
"use strict";

const readline = require("readline");

function weight(move, ends) {
  // A play L3-5 by its pips, then a double first, then the number it
  // leaves open: the project's greedy's order, so the two play alike.
  const [low, high] = move.slice(1).split("-").map(Number);
  let open = high;
  if (ends !== null) {
    const end = move[0] === "L" ? ends[0] : ends[1];
    open = end === low ? high : low;
  }
  return [low + high, low === high ? 1 : 0, open];
}

function heavier(a, b) {
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return a[i] > b[i];
  }
  return false;
}

function choose(decision) {
  const plays = decision.legal.filter((m) => m[0] === "L" || m[0] === "R");
  if (plays.length > 0) {
    return plays.reduce((best, m) =>
      heavier(weight(m, decision.ends), weight(best, decision.ends)) ? m : best,
    );
  }
  return decision.legal.includes("draw") ? "draw" : "pass";
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

send({ type: "hello", protocol: 1, name: "greedy.js" });
const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "decision") {
    send({ id: message.id, move: choose(message) });
  } else if (message.type === "quit") {
    lines.close();
  }
});
lines.on("close", () => process.exit(0));
