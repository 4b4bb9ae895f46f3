#!/usr/bin/env python3
"""Fails when a target imports a module of this package that its Package.swift entry does not name, or names a
module of this package that nothing in the target imports.

SwiftPM's own check (`swift build --explicit-target-dependency-import-check=error`, which `.ci/run` also runs)
accepts a module reached through another dependency; a build that starts from another product may then compile
the importer before that module exists ("no such module"). This check asks for every import to be declared
directly. A declared dependency nothing imports is a false arrow on the module map: it is reported too (an
executable target is exempt: a test target names one to have it built, and runs it). Prints one line per missing or
unused dependency, naming the file or the target and the module.

    .ci/check-imports.py        (from the package root; uses `swift package dump-package`)
"""
import json
import os
import re
import subprocess
import sys

IMPORT = re.compile(r"^\s*(?:@[\w(): ]+\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?import\s+"
                    r"(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_]\w*)")


def main() -> int:
    package = json.loads(subprocess.run(["swift", "package", "dump-package"], check=True, capture_output=True,
                                        text=True).stdout)
    targets = {target["name"]: target for target in package["targets"]}
    missing = []
    unused = []
    for name, target in sorted(targets.items()):
        if target["type"] == "system":
            continue
        declared = set()
        for dependency in target["dependencies"]:
            for kind in ("byName", "target", "product"):
                if kind in dependency:
                    declared.add(dependency[kind][0])
        folder = target.get("path") or os.path.join("Tests" if target["type"] == "test" else "Sources", name)
        imported = set()
        for root, _, files in os.walk(folder):
            for file in sorted(files):
                if not file.endswith(".swift"):
                    continue
                path = os.path.join(root, file)
                with open(path, encoding="utf-8") as source:
                    for number, line in enumerate(source, 1):
                        match = IMPORT.match(line)
                        if not match:
                            continue
                        module = match.group(1)
                        imported.add(module)
                        if module in targets and module != name and module not in declared:
                            missing.append(f"{path}:{number}: target {name} imports {module} but does not "
                                           f"declare it in Package.swift")
        for module in sorted(declared - imported):
            if module in targets and targets[module]["type"] != "executable":
                unused.append(f"{folder}: target {name} declares {module} in Package.swift but nothing in it "
                              f"imports it")
    for line in missing + unused:
        print(line, file=sys.stderr)
    if missing:
        print(f"check-imports: {len(missing)} undeclared import(s); add each module to the target's dependencies",
              file=sys.stderr)
    if unused:
        print(f"check-imports: {len(unused)} unused dependenc(ies); remove each from the target's dependencies",
              file=sys.stderr)
    if missing or unused:
        return 1
    print(f"check-imports: every import of {len(targets)} targets is declared, and every declared dependency "
          f"imported")
    return 0


if __name__ == "__main__":
    sys.exit(main())
