"""A deliberately bad outside bot, for tests/test_outside_bots.py.

``python3 outside_bad_bot.py MODE [FILE]``: on a game's first decision it
misbehaves as MODE says (``late``, ``nonsense``, ``illegal``, ``exit``,
``garbage-hello``; ``chatty`` writes a line for another decision before
every answer), otherwise it plays the first legal move. ``record`` plays
well and appends every line it is sent to FILE.
"""

import json
import sys
import time


def main() -> None:
    mode = sys.argv[1]
    record = open(sys.argv[2], "a") if mode == "record" else None  # noqa: SIM115
    if mode == "garbage-hello":
        print("hello?", flush=True)
        sys.exit(0)
    print(json.dumps({"type": "hello", "protocol": 1, "name": "bad-" + mode}), flush=True)
    for line in sys.stdin:
        if record is not None:
            record.write(line)
            record.flush()
        message = json.loads(line)
        if message["type"] == "quit":
            break
        if message["type"] != "decision":
            continue
        if message["id"] == 1 and mode == "late":
            time.sleep(5)
        elif message["id"] == 1 and mode == "nonsense":
            print("I think I shall play something", flush=True)
            continue
        elif message["id"] == 1 and mode == "illegal":
            tiles = (f"{a}-{b}" for a in range(7) for b in range(a, 7))
            wrong = next(t for t in tiles if t not in message["hand"])
            print(json.dumps({"move": "L" + wrong}), flush=True)
            continue
        elif message["id"] == 1 and mode == "exit":
            sys.exit(3)
        elif mode == "chatty":
            print(json.dumps({"id": message["id"] + 100, "note": "thinking"}), flush=True)
        print(json.dumps({"move": message["legal"][0]}), flush=True)


if __name__ == "__main__":
    main()
