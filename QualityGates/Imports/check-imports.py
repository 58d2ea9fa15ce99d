#!/usr/bin/env python3
"""The `imports` gate: every target's Package.swift dependencies are exactly the package
modules its sources import (no undeclared import that builds only because a sibling pulled the
module in, no declared dependency nothing imports; a test may depend on an executable it
runs without importing it). Reads `swift package dump-package`; prints
one line per problem and `imports: N targets checked, M problems`; exits 1 on any problem."""
import json, os, re, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
manifest = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=root, check=True,
                                     capture_output=True, text=True).stdout)
targets = {t["name"]: t for t in manifest["targets"]}
importable = set(targets)
problems = 0
checked = 0
pattern = re.compile(r"^\s*(?:@testable\s+|@_spi\([^)]*\)\s+)?import\s+([A-Za-z_][A-Za-z0-9_]*)", re.M)
for name, target in targets.items():
    if target["type"] == "system":
        continue
    path = target.get("path") or os.path.join("Tests" if target["type"] == "test" else "Sources", name)
    imported = set()
    for folder, _, files in os.walk(os.path.join(root, path)):
        for file in files:
            if file.endswith(".swift"):
                with open(os.path.join(folder, file), encoding="utf-8") as handle:
                    imported |= {m for m in pattern.findall(handle.read()) if m in importable}
    declared = {next(iter(d.values()))[0] for d in target["dependencies"]}
    checked += 1
    for module in sorted(imported - declared - {name}):
        print(f"imports: {name} imports {module} but Package.swift does not declare it")
        problems += 1
    # A test may depend on an executable only to have it built (it runs the binary).
    executables = {d for d in declared if targets.get(d, {}).get("type") == "executable"}
    for module in sorted(declared - imported - executables):
        print(f"imports: {name} declares {module} but none of its sources imports it")
        problems += 1
print(f"imports: {checked} targets checked, {problems} problems")
sys.exit(1 if problems else 0)
