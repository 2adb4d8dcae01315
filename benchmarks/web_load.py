"""Load benchmark for `passing-game serve` (not a test): many tables at once.

Starts the server as its own process on 127.0.0.1 (SQLite in a temporary
folder, or --db), then opens --tables tables, each with one scripted person
on a WebSocket and bots in the other seats. The person "thinks" --think
seconds (randomised +-50%) before each move, like a quick human; bots wait
--bot-delay as on a real server. Tables open at --ramp tables a second, then
a --duration second window is measured:

- tables held: tables whose person is still connected and playing;
- moves per second: every accepted move (people and bots), counted in the
  database over the window;
- move latency: from sending a move to receiving the frame that shows it
  (stored, applied and broadcast), p50 / p95 / p99 over the window;
- the server process's CPU use over the window.

Every connection goes to 127.0.0.1 and the run stops by itself.

    .venv/bin/python benchmarks/web_load.py --tables 500 --duration 60
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    measuring: bool = False
    connected: int = 0
    playing: int = 0
    errors: int = 0
    failures: int = 0
    human_moves: int = 0
    games_finished: int = 0
    frames: int = 0


def progress(frame: dict[str, Any]) -> tuple[int, ...]:
    seen = int(not (frame["paused"] and frame["you"] in frame["waiting"]))
    return (frame["game"], frame["round"]["number"], len(frame["round"]["history"]), seen)


def ready(frame: dict[str, Any]) -> bool:
    return bool(
        frame["over"]
        or frame["round"]["legal"]
        or (frame["paused"] and frame["you"] in frame["waiting"])
    )


async def person(
    index: int, url: str, args: argparse.Namespace, stats: Stats, stop: asyncio.Event
) -> None:
    rng = random.Random(index)
    seats = ["you"] + [rng.choice(args.bots) for _ in range(args.players - 1)]
    try:
        async with connect(url, max_size=2**20, open_timeout=30, ping_interval=None) as ws:
            stats.connected += 1
            await ws.send(
                json.dumps(
                    {
                        "type": "create",
                        "name": f"P{index}",
                        "seats": seats,
                        "rules": {"players": args.players},
                    }
                )
            )
            acted: tuple[int, ...] = (0,)
            sent_at = 0.0
            playing = False
            frame: dict[str, Any] | None = None
            while not stop.is_set():
                try:
                    text = await asyncio.wait_for(ws.recv(), timeout=1.0)
                except TimeoutError:
                    continue
                msg = json.loads(text)
                stats.frames += 1
                if msg["type"] == "error":
                    stats.errors += 1
                    continue
                if msg["type"] != "state":
                    continue
                frame = msg
                if not playing:
                    playing = True
                    stats.playing += 1
                if progress(frame) <= acted:
                    continue
                if sent_at:
                    if stats.measuring:
                        stats.latencies.append(time.perf_counter() - sent_at)
                    sent_at = 0.0
                if not ready(frame):
                    continue
                if frame["over"]:
                    stats.games_finished += 1
                    acted = progress(frame)
                    await ws.send('{"type":"rematch"}')
                    continue
                if frame["paused"] and frame["you"] in frame["waiting"]:
                    acted = progress(frame)
                    await ws.send('{"type":"continue"}')
                    continue
                await asyncio.sleep(args.think * rng.uniform(0.5, 1.5))
                if stop.is_set():
                    break
                move = rng.choice(frame["round"]["legal"])
                acted = progress(frame)
                sent_at = time.perf_counter()
                if move in ("draw", "pass"):
                    await ws.send(json.dumps({"type": move}))
                else:
                    await ws.send(json.dumps({"type": "play", "move": move}))
                stats.human_moves += 1
            if playing:
                stats.playing -= 1
            stats.connected -= 1
    except Exception as exc:  # a refused or dropped connection counts as a failure
        stats.failures += 1
        if stats.failures <= 3:
            print(f"table {index}: {type(exc).__name__}: {exc}", file=sys.stderr)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def count_moves(db: Path | str) -> int:
    if isinstance(db, str):  # a PostgreSQL URL
        import psycopg

        with psycopg.connect(db) as conn:
            row = conn.execute("SELECT COUNT(*) FROM web_moves").fetchone()
            return int(row[0]) if row else 0
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM web_moves").fetchone()[0])


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(args: argparse.Namespace, url: str, db: Path | str, pid: int) -> dict[str, Any]:
    stats = Stats()
    stop = asyncio.Event()
    tasks = []
    for index in range(args.tables):
        tasks.append(asyncio.create_task(person(index, url, args, stats, stop)))
        await asyncio.sleep(1.0 / args.ramp)
    await asyncio.sleep(args.settle)
    load0 = os.getloadavg()[0]
    moves0, cpu0, t0 = count_moves(db), cpu_seconds(pid), time.perf_counter()
    human0 = stats.human_moves
    client0 = time.process_time()
    stats.measuring = True
    await asyncio.sleep(args.duration)
    stats.measuring = False
    moves1, cpu1, t1 = count_moves(db), cpu_seconds(pid), time.perf_counter()
    held = stats.playing
    client_cpu = time.process_time() - client0
    stop.set()
    await asyncio.wait(tasks, timeout=30)
    window = t1 - t0
    lat = stats.latencies
    return {
        "database": "postgresql" if isinstance(db, str) else "sqlite",
        "tables": args.tables,
        "players": args.players,
        "bots": args.bots,
        "think_s": args.think,
        "bot_delay_s": args.bot_delay,
        "tables_held": held,
        "window_s": round(window, 1),
        "moves_per_s": round((moves1 - moves0) / window, 1),
        "person_moves_per_s": round((stats.human_moves - human0) / window, 1),
        "latency_ms_p50": round(1000 * statistics.median(lat), 1) if lat else None,
        "latency_ms_p95": round(1000 * percentile(lat, 0.95), 1),
        "latency_ms_p99": round(1000 * percentile(lat, 0.99), 1),
        "latency_samples": len(lat),
        "server_cpu_percent": round(100 * (cpu1 - cpu0) / window, 1),
        "client_cpu_percent": round(100 * client_cpu / window, 1),
        "games_finished": stats.games_finished,
        "errors": stats.errors,
        "failed_connections": stats.failures,
        # The machine is shared: what else ran shows in the load average.
        "load_avg_before": round(load0, 2),
        "load_avg_after": round(os.getloadavg()[0], 2),
        "cpus": os.cpu_count(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--players", type=int, default=3, choices=(2, 3, 4))
    parser.add_argument("--bots", nargs="+", default=["easy", "random"])
    parser.add_argument("--think", type=float, default=1.0, help="seconds a person thinks")
    parser.add_argument("--bot-delay", type=float, default=0.6)
    parser.add_argument("--ramp", type=float, default=50.0, help="tables opened a second")
    parser.add_argument("--settle", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds measured")
    parser.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    parser.add_argument(
        "--attach",
        nargs=3,
        metavar=("PORT", "PID", "SQLITE_FILE"),
        help="use a server already running on 127.0.0.1:PORT (e.g. under a profiler)",
    )
    args = parser.parse_args()
    if args.duration > 600 or args.tables > 5000:
        parser.error("keep runs bounded: --duration <= 600, --tables <= 5000")

    if args.attach:
        port_text, pid_text, file_text = args.attach
        url = f"ws://127.0.0.1:{int(port_text)}/ws"
        result = asyncio.run(run(args, url, Path(file_text), int(pid_text)))
        print(json.dumps(result, indent=1))
        return
    folder = Path(tempfile.mkdtemp(prefix="passing-game-load-"))
    db = folder / "load.sqlite3"
    port = free_port()
    server = subprocess.Popen(
        [
            *(sys.executable, "-m", "passing_game", "serve", "--host", "127.0.0.1"),
            *("--port", str(port), "--db", args.db or f"sqlite:///{db}"),
            *("--bot-delay", str(args.bot_delay), "--log-level", "warning"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=(folder / "server.log").open("w"),
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.2)
        counted: Path | str = args.db if args.db and args.db.startswith("postgres") else db
        result = asyncio.run(run(args, f"ws://127.0.0.1:{port}/ws", counted, server.pid))
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
    if args.json:
        print(json.dumps(result))
        return
    width = max(len(k) for k in result)
    for key, value in result.items():
        print(f"{key.ljust(width)}  {value}")


if __name__ == "__main__":
    main()
