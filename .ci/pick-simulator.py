#!/usr/bin/env python3
"""Reads JSON on stdin and prints one name for the iOS-simulator job (.github/workflows/ci.yml).

`pick-simulator.py iPhone [--max-version 18.5]` reads `xcrun simctl list devices available --json` and prints the UDID
of a device whose name starts with "iPhone", on the newest iOS runtime no newer than --max-version (the selected
Xcode's simulator SDK: a newer runtime on the image is one that Xcode cannot run).

`pick-simulator.py --package-scheme PACKAGE [PRODUCT]` reads `xcodebuild -list -json` in a package's folder and
prints the scheme that builds and tests the package's own targets: `PACKAGE-Package`, which Xcode makes when the
package has more than one product, else the scheme of its one product PRODUCT. The list also holds the schemes of
packages it depends on (their `-Package` among them), so it never takes a scheme it was not told the name of.
"""
import json
import re
import sys


def version(text):
    """"18.5" or "18-5" -> (18, 5)."""
    return tuple(int(part) for part in re.split(r"[.-]", text) if part)


def runtime_version(identifier):
    """com.apple.CoreSimulator.SimRuntime.iOS-18-5 -> (18, 5); other platforms -> None."""
    match = re.search(r"SimRuntime\.iOS-([0-9-]+)$", identifier)
    return version(match.group(1)) if match else None


def pick_device(listing, prefix, max_version=None):
    runtimes = [(runtime_version(key), devices) for key, devices in listing["devices"].items()]
    usable = [r for r in runtimes if r[0] and (max_version is None or r[0] <= max_version)]
    for _, devices in sorted(usable, reverse=True):
        for device in devices:
            if device.get("isAvailable", True) and device["name"].startswith(prefix):
                return device["udid"]
    limit = f" up to iOS {'.'.join(map(str, max_version))}" if max_version else ""
    raise SystemExit(f"pick-simulator: no available {prefix} simulator on an iOS runtime{limit}")


def pick_scheme(listing, package, product=None):
    schemes = (listing.get("workspace") or listing.get("project") or {}).get("schemes", [])
    for wanted in [f"{package}-Package", product]:
        if wanted and wanted in schemes:
            return wanted
    raise SystemExit(f"pick-simulator: no scheme {package}-Package or {product} among {schemes}")


def main():
    arguments = sys.argv[1:]
    listing = json.load(sys.stdin)
    if arguments[:1] == ["--package-scheme"] and len(arguments) in (2, 3):
        print(pick_scheme(listing, *arguments[1:]))
    elif len(arguments) == 1:
        print(pick_device(listing, arguments[0]))
    elif len(arguments) == 3 and arguments[1] == "--max-version":
        print(pick_device(listing, arguments[0], version(arguments[2])))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
