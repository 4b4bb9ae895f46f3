#!/usr/bin/env python3
"""Counts the lines of Sources/ that Linux never compiles: those in `#if` branches a Linux build does not take
and an Apple build may. Prints them per file, then the total; exits 1 above the limit (LIMIT), or when a file with
Apple-only code beyond imports cites no Apple header or documentation page (`xnu `, `.h:`, `developer.apple.com`).

    .ci/apple-only-lines.py [--list]     (from the package root; --list prints every counted line)
"""
import os
import re
import sys

# 120 until the XCTest helpers attached their evidence (9 lines: swift-corelibs-xctest has no attachments); 131
# since the coverage sink appends with write(2) (its `import Darwin`); 140 since HTTPS: the TLS seam's files and
# `stub-server trust` import Darwin, the local authority's folder on macOS is in Application Support, and where there
# is no OpenSSL (Apple platforms, until Security's TLS is written behind the same seam) the TLS context and the
# local authority throw saying so (4 lines); 205 since an app's pinning reads the platform's trust:
# `ServerTrustFacts(trust:host:)` and `PinningSessionDelegate` over Security and CryptoKit (65 lines with their
# citations; the key's SubjectPublicKeyInfo head, `PublicKeyKind`, is portable and tested against OpenSSL); 229 since
# the local authority is made on Apple platforms too: its certificates and PEM files are portable (`CertificateDER`,
# `PEMText`), and only the P-256 key is the platform's, CryptoKit's there (`SigningKey+CryptoKit.swift`, 21 lines);
# 245 with its AES-256-CBC (CommonCrypto's CCCrypt), for the PKCS #12 file an Apple identity is imported from;
# 449 since the server's TLS on iOS: Secure Transport's calls (`SecureTransportSession`, its socket side portable
# and tested as `CiphertextBuffers`) and the identity imported in memory (`SecureTransportContext`).
LIMIT = 449
# What a Linux build here has, and what an Apple build has, for the conditions Sources/ uses (the Apple table is
# macOS's; `os(iOS)` is None, "some Apple build", so that iOS-only lines count too).
LINUX = {"canImport(Glibc)": True, "canImport(Musl)": False, "canImport(Darwin)": False, "os(Linux)": True,
         "os(macOS)": False, "os(iOS)": False,
         "canImport(FoundationEssentials)": True, "canImport(FoundationNetworking)": True,
         "canImport(FoundationXML)": True, "canImport(Network)": False, "TSAN_LOCKS": None, "compiler(>=6.2)": None,
         "canImport(COpenSSL)": True, "canImport(Security)": False, "canImport(CryptoKit)": False}
APPLE = {"canImport(Glibc)": False, "canImport(Musl)": False, "canImport(Darwin)": True, "os(Linux)": False,
         "os(macOS)": True, "os(iOS)": None,
         "canImport(FoundationEssentials)": True, "canImport(FoundationNetworking)": False,
         "canImport(FoundationXML)": False, "canImport(Network)": True, "TSAN_LOCKS": None, "compiler(>=6.2)": None,
         "canImport(COpenSSL)": False, "canImport(Security)": True, "canImport(CryptoKit)": True}
CITATION = re.compile(r"xnu |\.h:\d+|developer\.apple\.com")


def value(condition: str, platform: dict):
    """True, False, or None when the condition does not depend on the platform (a build flag)."""
    results = []
    for part in re.split(r"\|\||&&", condition):
        term = part.strip()
        while term.startswith("(") and term.count("(") > term.count(")"):
            term = term[1:].strip()
        while term.endswith(")") and term.count(")") > term.count("("):
            term = term[:-1].strip()
        negated = term.startswith("!")
        term = term.lstrip("!").strip()
        if term not in platform:
            raise SystemExit(f"apple-only-lines: unknown #if condition {term!r}; add it to the tables")
        result = platform[term]
        results.append(None if result is None else (not result if negated else result))
    if any(result is None for result in results):
        return None
    if "||" in condition:
        return any(results)
    return all(results)


def apple_only(path: str):
    """Lines (number, text) in branches Linux does not take and Apple may."""
    counted = []
    # Each open #if: [taken by Linux so far, taken by Apple so far, this branch Linux, this branch Apple].
    stack = []
    with open(path, encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            stripped = line.strip()
            directive = re.match(r"#(if|elseif|else|endif)\b(.*)", stripped)
            if directive:
                kind, condition = directive.group(1), directive.group(2).strip()
                if kind == "if":
                    linux, apple = value(condition, LINUX), value(condition, APPLE)
                    stack.append([linux, apple, linux, apple])
                elif kind == "elseif":
                    frame = stack[-1]
                    linux, apple = value(condition, LINUX), value(condition, APPLE)
                    frame[2] = None if frame[0] is None else (not frame[0] and linux)
                    frame[3] = None if frame[1] is None else (not frame[1] and apple)
                    frame[0] = frame[0] or linux
                    frame[1] = frame[1] or apple
                elif kind == "else":
                    frame = stack[-1]
                    frame[2] = None if frame[0] is None else not frame[0]
                    frame[3] = None if frame[1] is None else not frame[1]
                else:
                    stack.pop()
                continue
            linux_compiles = all(frame[2] is not False for frame in stack)
            apple_compiles = all(frame[3] is not False for frame in stack)
            if not linux_compiles and apple_compiles and stripped:
                counted.append((number, stripped))
    return counted


def main() -> int:
    listing = "--list" in sys.argv
    total = 0
    uncited = []
    for root, _, files in sorted(os.walk("Sources")):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(root, name)
            lines = apple_only(path)
            if not lines:
                continue
            total += len(lines)
            beyond_imports = [text for _, text in lines if not text.startswith("import ")]
            with open(path, encoding="utf-8") as file:
                cited = CITATION.search(file.read()) is not None
            if beyond_imports and not cited:
                uncited.append(path)
            print(f"{len(lines):4d}  {path}{'' if not beyond_imports or cited else '  (cites no Apple header)'}")
            if listing:
                for number, text in lines:
                    print(f"        {number:4d}: {text}")
    print(f"{total:4d}  lines compiled only on Apple platforms (limit {LIMIT})")
    failed = False
    if total > LIMIT:
        print(f"apple-only-lines: {total} lines is over {LIMIT}: move the difference into portable code",
              file=sys.stderr)
        failed = True
    for path in uncited:
        print(f"apple-only-lines: {path} has Apple-only code but cites no header or documentation page",
              file=sys.stderr)
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
