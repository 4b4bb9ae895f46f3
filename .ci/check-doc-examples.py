#!/usr/bin/env python3
"""Type-checks every Swift example in the guides (Sources/*/*/*.docc/*.md) and the README against the package as
built, so an example cannot go stale: a renamed type, a changed label or a removed method fails CI.

Each ```swift block is checked in a file of its own, with `swiftc -typecheck` against the debug build's modules
(`swift build --build-tests` first). A block with imports or declarations at its top level (a test suite, an
`XCTestCase`) is checked as a file; a block of statements runs inside an async throwing method of an
`XCTestCase`, so both `withStubServer { }` and `startStubServer(...)` read as they do in a test. The prelude gives
the names the guides assume: `mockData`, the fixtures folder, and `Bundle.module`, as a test target with
resources has. `{ ... }` stands for code left out and is checked as
`{}`; `// ...` lines are comments already. A block for Apple platforms only (XCUIApplication, UI tests) is listed
and skipped: Linux has no XCUIApplication.

    .ci/check-doc-examples.py            exits 1 naming each block that does not compile, with its file and line
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
APPLE_ONLY = ("XCUIApplication",)
PRELUDE = """import AlbumsFeature
import Foundation
import Networking
import StubServer
import StubServerInProcess
import StubServerRecording
import StubServerTesting
import StubServerXCTest
import Testing
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The fixtures folder the guides' examples read.
let mockData = URL(fileURLWithPath: "MockData")

/// What SwiftPM generates for a target with resources, as the resources example's test target has.
extension Bundle {
    static var module: Bundle { .main }
}
"""


def blocks():
    files = sorted(glob.glob(os.path.join(ROOT, "Sources/*/*/*.docc/*.md"))) + [os.path.join(ROOT, "README.md")]
    for path in files:
        text = open(path, encoding="utf-8").read()
        for match in re.finditer(r"^```swift\n(.*?)^```", text, re.S | re.M):
            yield os.path.relpath(path, ROOT), text[: match.start()].count("\n") + 2, match.group(1)


def source(code):
    code = code.replace("{ ... }", "{}")
    top_level = re.search(r"^(import |@|struct |final class |class |func |enum |extension )", code, re.M)
    imports = "\n".join(line for line in code.splitlines() if line.startswith("import "))
    body = "\n".join(line for line in code.splitlines() if not line.startswith("import "))
    if top_level:
        return f"{PRELUDE}\n{imports}\n\n{body}\n"
    indented = "\n".join(("        " + line) if line else "" for line in body.splitlines())
    return f"{PRELUDE}\nfinal class Example: XCTestCase {{\n    func example() async throws {{\n{indented}\n    }}\n}}\n"


def main():
    bin_path = subprocess.run(
        ["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    modules = os.path.join(bin_path, "Modules")
    if not os.path.isdir(modules):
        sys.exit(f"check-doc-examples: no {modules}; run `swift build --build-tests` first")
    flags = ["-I", modules, "-I", os.path.join(ROOT, "Sources/Stubs/CLinux"), "-I", os.path.join(ROOT, "Sources/Apps/CSQLite")]
    failed, checked, skipped = [], 0, []
    with tempfile.TemporaryDirectory() as folder:
        for number, (path, line, code) in enumerate(blocks()):
            if any(name in code for name in APPLE_ONLY):
                skipped.append(f"{path}:{line}")
                continue
            file = os.path.join(folder, f"Example{number}.swift")
            with open(file, "w", encoding="utf-8") as out:
                out.write(source(code))
            result = subprocess.run(
                ["swiftc", "-typecheck", "-swift-version", "6", "-parse-as-library", *flags, file],
                cwd=ROOT, capture_output=True, text=True,
            )
            checked += 1
            if result.returncode != 0:
                errors = [l for l in result.stderr.splitlines() if ": error:" in l]
                failed.append(f"{path}:{line}: does not compile:\n    " + "\n    ".join(errors[:5]))
    for entry in skipped:
        print(f"check-doc-examples: {entry}: Apple platforms only (XCUIApplication), not checked here")
    for entry in failed:
        print(entry, file=sys.stderr)
    print(f"check-doc-examples: {checked} examples checked, {len(failed)} do not compile")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
