#!/usr/bin/env python3
"""Fails when a test blocks a thread of Swift's cooperative pool or the main actor: a blocking call (a socket or
pipe read, poll, a process wait, a sleep, a semaphore's wait) in Tests/ outside the closures made for blocking work.

Swift Testing starts every test at once as tasks on a pool of as many threads as cores (two here); one blocked
thread halves the whole suite's progress, and every timed wait of that moment runs out (the Development article).
Waits go through the helpers in Sources/TestSupport/StubTestSupport and Sources/TestSupport/SharedTestSupport (RawHTTPClient, RawWebSocket,
ChildProcess's async waits, waitUntil), which hold no thread. Allowed in Tests/:
  - inside a closure given to `blocking { ... }` (StubTestSupport: a thread of its own) or `Thread { ... }`;
  - on a line that says why it may: `// blocking-ok: REASON` (the data is already there; the code runs on a
    thread that is not the pool's, such as a URLProtocol client called on the load's own queue).

    .ci/check-blocking.py        (from the package root)
"""
import pathlib
import re
import sys

CALLS = [
    (re.compile(r"(?<![\w.])(?:read|recv)\(\s*[\w\[\].]+\s*,\s*&"), "read(2)/recv(2) on a descriptor"),
    (re.compile(r"(?<![\w.])poll\(\s*&"), "poll(2)"),
    (re.compile(r"(?<![\w.])(?:waitpid|waitid|wait)\("), "a process wait"),
    (re.compile(r"(?<![\w.])u?sleep\("), "sleep(3)/usleep(3)"),
    (re.compile(r"\bThread\.sleep\("), "Thread.sleep"),
    (re.compile(r"\bDispatchSemaphore\b|\.wait\(timeout:|\.wait\(\)"), "a semaphore or group wait"),
    (re.compile(r"\bwaitUntilExit\(\)|\breadDataToEndOfFile\(\)"), "Foundation's blocking process and pipe calls"),
]
OPENERS = re.compile(r"\b(?:blocking|Thread)\s*\{")
EXEMPT = "// blocking-ok:"


def code_of(line: str) -> str:
    """The line without string literals and comments (enough for brace counting and call matching)."""
    line = re.sub(r'#"(?:[^"]|"(?!#))*"#', '""', line)
    line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
    return line.split("//", 1)[0]


def check(path: pathlib.Path) -> list[str]:
    problems = []
    depth = 0
    allowed_from = []  # brace depths at which an allowed closure opened
    in_multiline_string = False
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if raw.count('"""') % 2 == 1:
            in_multiline_string = not in_multiline_string
            continue
        if in_multiline_string:
            continue
        code = code_of(raw)
        inside_allowed = bool(allowed_from)
        for match in OPENERS.finditer(code):
            before = code[: match.end()]
            allowed_from.append(depth + before.count("{") - before.count("}") - 1)
            inside_allowed = True
        if not inside_allowed and EXEMPT not in raw:
            for pattern, what in CALLS:
                if pattern.search(code):
                    problems.append(f"{path}:{number}: {what} outside blocking {{}}: {raw.strip()}")
        depth += code.count("{") - code.count("}")
        while allowed_from and depth <= allowed_from[-1]:
            allowed_from.pop()
    return problems


def main() -> int:
    problems = []
    for path in sorted(pathlib.Path("Tests").rglob("*.swift")):
        problems += check(path)
    for problem in problems:
        print(problem)
    if problems:
        print(f"check-blocking: {len(problems)} blocking call(s) in tests outside the helpers made for them", file=sys.stderr)
        return 1
    print("check-blocking: no blocking call in Tests/ outside blocking {} and Thread {}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
