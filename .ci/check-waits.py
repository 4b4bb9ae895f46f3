#!/usr/bin/env python3
"""Waits in tests only end hangs (Contributing/Development.md, "A suite that passes every time").

1. Every top-level type holding Swift Testing tests carries `.timeLimit(...)` among its attributes, so a hung test
   ends and names itself instead of holding the run, and `.takesTurns` (TestTurns), so its clock runs while it runs
   and not while hundreds of others share the core (Contributing/Development.md).
2. No wait on a state has a deadline under a minute (`within: 5`, `within: .seconds(10)`, `now + .seconds(15)`,
   a raw client's `timeout: 2`, a helper's `limit: Double = 10`),
   unless a comment on its line or the three lines above says `window`: the test is about that time window.
   A busy machine delays any task by seconds; a state reached late is not a bug.

Exits 1 naming each file and line that breaks a rule.
"""
import pathlib
import re
import sys

ROOTS = ["Tests", "Sources/TestSupport"]
DECLARATION = re.compile(
    r"^(?P<indent>(?:    )?)(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|final)\s+)*"
    r"(?:struct|class|enum|actor)\s+(?P<name>\w+)"
)
# A wait with a literal bound: `within: 5`, `within: 0.3`, `within: .seconds(10)`, `within: .milliseconds(20)`,
# and deadlines computed by hand, `now + .seconds(5)`.
SHORT_WAIT = re.compile(
    r"(?:within:\s*|now\s*\+\s*|(?:RawHTTPClient|RawWebSocket|connectedPair)\(.*timeout:\s*"
    r"|\b(?:within|limit|timeout)(?: \w+)?:\s*(?:Int|Double|Duration)\s*=\s*)"
    r"(?:\.(?P<unit>seconds|milliseconds)\()?(?P<amount>[0-9][0-9_.]*)\)?"
)


def seconds(match: re.Match) -> float:
    amount = float(match.group("amount").replace("_", ""))
    return amount / 1000 if match.group("unit") == "milliseconds" else amount


def attributes_above(lines: list[str], index: int, indent: str) -> str:
    """The declaration's line and the attribute lines right above it (a multi-line `@Suite(...)` included)."""
    block = [lines[index]]
    k = index - 1
    while k >= 0:
        line = lines[k]
        stripped = line.strip()
        if not stripped or stripped.startswith("///") or stripped.startswith("//") or stripped.endswith("}"):
            break
        if not (line.startswith(indent + "@") or line.startswith(indent + " ") or stripped.startswith(")")):
            break
        block.insert(0, line)
        k -= 1
    return "\n".join(block)


def main() -> int:
    problems = []
    for root in ROOTS:
        for path in sorted(pathlib.Path(root).rglob("*.swift")):
            lines = path.read_text().split("\n")
            index = 0
            while index < len(lines):
                match = DECLARATION.match(lines[index])
                if not match:
                    index += 1
                    continue
                indent = match.group("indent")
                end = index + 1
                while end < len(lines) and not lines[end].startswith(indent + "}"):
                    end += 1
                body = "\n".join(lines[index:end])
                attributes = attributes_above(lines, index, indent)
                for trait, example in (("timeLimit", ".timeLimit(.minutes(1))"), ("takesTurns", ".takesTurns")):
                    if "@Test" in body and trait not in attributes:
                        problems.append(f"{path}:{index + 1}: {match.group('name')} holds tests but no {example} trait")
                index = end + 1
            for number, line in enumerate(lines, start=1):
                for wait in SHORT_WAIT.finditer(line):
                    if seconds(wait) >= 60:
                        continue
                    context = "\n".join(lines[max(0, number - 4) : number])
                    if "window" in context.lower():
                        continue
                    problems.append(
                        f"{path}:{number}: a wait of {seconds(wait):g} s; a wait on a state is bounded by a minute "
                        "(it only ends a hang), or a comment says which window the test is about"
                    )
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} wait(s) that can fail a correct test on a busy machine", file=sys.stderr)
        return 1
    print("every test type has a time limit and takes turns; every short wait is a window that says so")
    return 0


if __name__ == "__main__":
    sys.exit(main())
