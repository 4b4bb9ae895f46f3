#!/usr/bin/env python3
"""Validates every fixture the README and the guides show (README.md, CONTRIBUTING.md, MockData/README.md,
Contributing/*.md, Sources/**/*.docc/*.md) with the built `stub-server validate`, as a user's fixtures folder.

A fixture block is a ```json block whose text is JSON and is
- a whole `stubs.json`: an object with a "stubs" key, written as it is; or
- one stub: an object with a "variants" key, written as `{"stubs": [STUB]}`.
Each is written as `docs/stubs.json` in a temporary folder of its own, which `stub-server validate` then checks.
A ```json block that is not JSON but mentions "stubs", "request" or "variants" fails: make it whole, or mark it.

Markers are an HTML comment on the line just before the fence (DocC and GitHub show neither):
- `<!-- fixture: invalid -->`: the block shows a mistake on purpose; skipped.
- `<!-- fixture: excerpt -->`: part of a file, with `...` for what is left out; skipped.
- `<!-- fixture: file NAME -->`: the block (any language) is the file NAME, written beside the nearest fixture
  block above it on the same page: a body file, an `eventsFile`, a resource's seed. A block that refers to a
  file the docs do not give this way does not validate.

    .ci/check-doc-fixtures.py [STUB_SERVER]   STUB_SERVER defaults to .build/debug/stub-server (CI passes the
                                              binary it built); prints how many blocks validated; exits 1
                                              naming each block that does not (its file and line) with the
                                              validator's messages
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)
MARKER = re.compile(r"^<!-- fixture: (invalid|excerpt|file ([^\s]+)) -->$")


def pages():
    names = [os.path.join(ROOT, name) for name in ("README.md", "CONTRIBUTING.md", "MockData/README.md")]
    names += sorted(glob.glob(os.path.join(ROOT, "Contributing", "*.md")))
    names += sorted(glob.glob(os.path.join(ROOT, "Sources", "**", "*.docc", "*.md"), recursive=True))
    return [os.path.relpath(name, ROOT) for name in names if os.path.isfile(name)]


def blocks(path):
    """Each fenced block of a page: its line, language, text and marker (None, "invalid", "excerpt" or
    ("file", NAME))."""
    text = open(os.path.join(ROOT, path), encoding="utf-8").read()
    for match in FENCE.finditer(text):
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1] if match.start() else ""
        marker = MARKER.match(before)
        kind = None
        if marker:
            kind = ("file", marker.group(2)) if marker.group(2) else marker.group(1)
        line = text[: match.start()].count("\n") + 1
        yield line, match.group(1).strip(), match.group(2), kind


def fixtures(path, problems):
    """The fixture blocks of a page as (line, stubs.json text, {name: text}), and how many it skipped."""
    found = []
    skipped = 0
    for line, language, code, kind in blocks(path):
        where = f"{path}:{line}"
        if isinstance(kind, tuple):
            if os.path.isabs(kind[1]) or ".." in kind[1].split("/"):
                problems.append(f"{where}: the file {kind[1]} must stay inside the fixture's folder")
            elif not found:
                problems.append(f"{where}: the file {kind[1]} has no fixture block above it on this page")
            elif kind[1] == "stubs.json" or kind[1] in found[-1][2]:
                problems.append(f"{where}: the fixture block at line {found[-1][0]} already has a file {kind[1]}")
            else:
                found[-1][2][kind[1]] = code
            continue
        if language != "json":
            continue
        if kind in ("invalid", "excerpt"):
            skipped += 1
            continue
        try:
            value = json.loads(code)
        except ValueError as error:
            if any(key in code for key in ('"stubs"', '"request"', '"variants"')):
                problems.append(
                    f"{where}: looks like a fixture but is not JSON ({error}): make it whole, or mark it "
                    "<!-- fixture: excerpt --> or <!-- fixture: invalid -->"
                )
            continue
        if isinstance(value, dict) and "stubs" in value:
            found.append((line, code, {}))
        elif isinstance(value, dict) and "variants" in value:
            found.append((line, json.dumps({"stubs": [value]}, indent=2) + "\n", {}))
    return found, skipped


def validate(binary, stubs, files):
    """The validator's messages for one fixture, or None when it is clean."""
    with tempfile.TemporaryDirectory(prefix="doc-fixture-") as folder:
        api = os.path.join(folder, "docs")
        os.mkdir(api)
        for name, text in [("stubs.json", stubs)] + sorted(files.items()):
            target = os.path.join(api, name)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w", encoding="utf-8") as out:
                out.write(text)
        run = subprocess.run([binary, "validate", folder], capture_output=True, text=True)
    if run.returncode == 0:
        return None
    output = (run.stdout + run.stderr).replace(folder + os.sep, "").replace(folder, "FOLDER")
    return [line for line in output.splitlines() if line.strip()] or [f"exit status {run.returncode}"]


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug", "stub-server")
    if not os.access(binary, os.X_OK):
        print(f"check-doc-fixtures: no stub-server at {binary}: build it, or pass its path", file=sys.stderr)
        return 1
    problems = []
    validated = 0
    skipped = 0
    for path in pages():
        found, page_skipped = fixtures(path, problems)
        skipped += page_skipped
        for line, stubs, files in found:
            messages = validate(binary, stubs, files)
            if messages is None:
                validated += 1
            else:
                problems.append(f"{path}:{line}: does not validate:\n" + "\n".join("  " + m for m in messages))
    print(f"check-doc-fixtures: {validated} fixture blocks validated ({skipped} marked invalid or excerpt, skipped)")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
