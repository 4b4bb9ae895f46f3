#!/usr/bin/env python3
"""Builds every Swift example of the README and the guides (Sources/*/*/*.docc/*.md) as a user's code: in a package
of its own (Examples/DocExamples), which depends on CatalogKit by path, builds in Swift 6 language mode and imports
products only; then runs the README's examples, which are tests.

Each ```swift block becomes a file of the package's test targets (README.md's in ReadmeExamples, the guides' in
GuideExamples), named after its source and line:
- a block with declarations at its top level (a suite, an `XCTestCase`) is written as it is; one without imports
  gets the products' imports above it (every library product the guides name, Foundation, Testing, XCTest), as
  the guides' prose gives them;
- a fragment of statements is written inside a method of a `@MainActor` `XCTestCase` (built, not run), where
  `startStubServer(...)`, `withStubServer { }` and `try await` read as they do in a test; `mockData`, the fixtures
  folder the guides' prose names, comes from GuideExamples/Context.swift;
- `{ ... }` stands for code left out and is written `{}`;
- a block for Apple platforms only (UI tests: XCUIApplication) is built on Linux against the stand-in module
  XCUIStandIn, which declares those types main-actor isolated, so an isolation mistake shows here too.

    .ci/check-doc-examples.py     prints how many blocks it placed, built and ran; exits 1 naming each block that
                                  does not compile or uses a deprecated spelling (its file and line), a README example that fails, or a block it
                                  cannot place
"""
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(ROOT, "Examples", "DocExamples")
APPLE_ONLY = ("XCUIApplication",)
IMPORTS = """import AlbumsFeature
import Foundation
import Networking
import StubServer
import StubServerInProcess
import StubServerRecording
import StubServerRemote
import StubServerTesting
import StubServerXCTest
import Testing
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
"""
STAND_IN = """#if os(Linux)
    import XCUIStandIn
#endif
"""
TOP_LEVEL = re.compile(r"^(import |@|struct |final class |class |func |enum |extension |#if )", re.M)


def blocks():
    files = [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "Sources/*/*/*.docc/*.md")))
    for path in files:
        text = open(path, encoding="utf-8").read()
        for match in re.finditer(r"^```swift\n(.*?)^```", text, re.S | re.M):
            yield os.path.relpath(path, ROOT), text[: match.start()].count("\n") + 2, match.group(1)


def file_name(path, line):
    stem = re.sub(r"[^A-Za-z0-9]", "", os.path.splitext(os.path.basename(path))[0])
    return f"Example{stem}{line}"


def source(path, line, code, name):
    """The Swift file for one block, and whether it is placed as it is."""
    code = code.replace("{ ... }", "{}")
    # The guides' layout, not the formatter's: the format lint skips these files.
    header = f"// swift-format-ignore-file\n// {path}:{line}, written by .ci/check-doc-examples.py: edit the block there.\n"
    if any(word in code for word in APPLE_ONLY):
        header += STAND_IN
    if TOP_LEVEL.search(code):
        has_imports = any(l.startswith("import ") for l in code.splitlines())
        return header + ("" if has_imports else IMPORTS) + "\n" + code
    indented = "\n".join(("        " + l) if l else "" for l in code.splitlines())
    return (
        header + IMPORTS + f"\n@MainActor\nfinal class {name}: XCTestCase {{\n"
        f"    func example() async throws {{\n{indented}\n    }}\n}}\n"
    )


def main():
    placed = {}
    problems = []
    for target in ("ReadmeExamples", "GuideExamples"):
        for old in glob.glob(os.path.join(PACKAGE, "Tests", target, "Example*.swift")):
            os.remove(old)
    for path, line, code in blocks():
        target = "ReadmeExamples" if path == "README.md" else "GuideExamples"
        name = file_name(path, line)
        if name in placed:
            problems.append(f"{path}:{line}: cannot place the block: {name} is taken by {placed[name]}")
            continue
        placed[name] = f"{path}:{line}"
        with open(os.path.join(PACKAGE, "Tests", target, f"{name}.swift"), "w", encoding="utf-8") as out:
            out.write(source(path, line, code, name))
    readme = sum(1 for where in placed.values() if where.startswith("README.md:"))
    print(f"check-doc-examples: {len(placed)} blocks placed in Examples/DocExamples ({readme} from the README)")
    build = subprocess.run(
        ["swift", "build", "--build-tests", "--package-path", PACKAGE], capture_output=True, text=True
    )
    failed = set()
    for line in (build.stdout + build.stderr).splitlines():
        match = re.search(r"Tests/\w+/(Example\w+)\.swift:(\d+):\d+: (error|warning): (.*)", line)
        # A deprecated spelling compiles, but the docs teach the current one.
        if match and match.group(1) in placed and (match.group(3) == "error" or "deprecated" in match.group(4)):
            failed.add(match.group(1))
            verdict = "does not compile" if match.group(3) == "error" else "uses a deprecated spelling"
            problem = f"{placed[match.group(1)]}: {verdict} (its file's line {match.group(2)}): {match.group(4)}"
            if problem not in problems:
                problems.append(problem)
    if build.returncode != 0 and not failed:
        problems.append("the package did not build:\n" + "\n".join((build.stdout + build.stderr).splitlines()[-30:]))
    if build.returncode == 0:
        run = subprocess.run(
            ["swift", "test", "--skip-build", "--package-path", PACKAGE, "--filter", "ReadmeExamples"],
            capture_output=True, text=True,
        )
        output = run.stdout + run.stderr
        ran = len(re.findall(r"^✔ Test (?!run with).* passed", output, re.M))
        ran += len(re.findall(r"^Test Case '.*' passed", output, re.M))
        print(f"check-doc-examples: built every block; the README's examples ran: {ran} tests passed")
        if run.returncode != 0:
            problems.append("the README's examples failed:\n" + "\n".join(output.splitlines()[-40:]))
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
