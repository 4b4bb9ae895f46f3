#!/usr/bin/env python3
"""Prints the longest test-case clocks in Swift Testing event streams (`swift test --event-stream-output-path F
--event-stream-version 0`): each case's start to its end, the time its `.timeLimit` counts, beside its limit.

    scripts/case-clocks.py [--top N] STREAM.jsonl...

A test's own "passed after" counts from when it was started, a turn it waited for (`.takesTurns`) included; a case
starts inside its turn, so its clock is what a time limit sees.
"""
import json
import sys


def clocks(path):
    started = {}
    for line in open(path, encoding="utf-8"):
        try:
            record = json.loads(line)
        except ValueError:
            continue  # a run cut short leaves its last line unfinished
        if record.get("kind") != "event":
            continue
        event = record["payload"]
        if event["kind"] not in ("testCaseStarted", "testCaseEnded"):
            continue
        key = (event.get("testID"), json.dumps(event.get("_testCase", event.get("testCase")), sort_keys=True))
        instant = event["instant"]["absolute"]
        if event["kind"] == "testCaseStarted":
            started[key] = instant
        elif key in started:
            yield instant - started.pop(key), key[0]


def main(arguments):
    top = 15
    if arguments[:1] == ["--top"]:
        top, arguments = int(arguments[1]), arguments[2:]
    longest = {}
    for path in arguments:
        for seconds, test in clocks(path):
            longest[test] = max(seconds, longest.get(test, 0))
    for test, seconds in sorted(longest.items(), key=lambda item: -item[1])[:top]:
        print(f"    {seconds:7.1f} s  {test.split('/')[0]}/{test.split('/')[1]}")


if __name__ == "__main__":
    main(sys.argv[1:])
