#!/usr/bin/env python3
"""Reads JSON on stdin and prints one name for the iOS-simulator job (.github/workflows/ci.yml).

`pick-simulator.py iPhone` reads `xcrun simctl list devices available --json` and prints the UDID of a device whose
name starts with "iPhone" on the newest iOS runtime. `pick-simulator.py --package-scheme` reads
`xcodebuild -list -json` in a package's folder and prints the scheme that builds and tests every target: Xcode names
it `<package>-Package` when the package has more than one product, and after the package otherwise.
"""
import json
import re
import sys


def runtime_version(identifier):
    """com.apple.CoreSimulator.SimRuntime.iOS-18-5 -> (18, 5); other platforms -> None."""
    match = re.search(r"SimRuntime\.iOS-([0-9-]+)$", identifier)
    return tuple(int(part) for part in match.group(1).split("-")) if match else None


def pick_device(listing, prefix):
    runtimes = [(runtime_version(key), devices) for key, devices in listing["devices"].items()]
    for _, devices in sorted((r for r in runtimes if r[0]), reverse=True):
        for device in devices:
            if device.get("isAvailable", True) and device["name"].startswith(prefix):
                return device["udid"]
    raise SystemExit(f"pick-simulator: no available {prefix} simulator on an iOS runtime")


def pick_scheme(listing):
    schemes = (listing.get("workspace") or listing.get("project") or {}).get("schemes", [])
    if not schemes:
        raise SystemExit("pick-simulator: xcodebuild -list names no scheme")
    return next((s for s in schemes if s.endswith("-Package")), schemes[0])


def main():
    listing = json.load(sys.stdin)
    if sys.argv[1:] == ["--package-scheme"]:
        print(pick_scheme(listing))
    elif len(sys.argv) == 2:
        print(pick_device(listing, sys.argv[1]))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
