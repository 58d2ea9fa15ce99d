#!/usr/bin/env python3
"""The `pins` gate: every fixture's size and SHA-256 against Fixtures/manifest.json, and no file
in the folder that the manifest does not pin (nor a pinned one missing, nor a symlink).

  check-pins.py [<fixtures folder>]     exit 0 when every pin holds, 1 otherwise (each break named)
  check-pins.py --self-test             tampers a copy (one flipped byte, one truncated file, one
                                        unpinned file, one missing file) and proves each fails
Ends with one line: "pins: N files match" or "pins: M of N files break their pins".
"""
import hashlib
import json
import os
import shutil
import sys
import tempfile


def breaks(folder):
    """The pins `folder` breaks, one sentence each, and how many files the manifest pins."""
    manifest_path = os.path.join(folder, "manifest.json")
    try:
        with open(manifest_path, "rb") as handle:
            manifest = json.loads(handle.read(4 << 20))
        pins = {entry["path"]: (entry["sha256"], int(entry["bytes"])) for entry in manifest["files"]}
    except (OSError, ValueError, KeyError, TypeError) as error:
        return [f"{manifest_path} cannot be read as a fixture manifest: {error}"], 0
    found = []
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            relative = os.path.relpath(os.path.join(root, name), folder)
            if relative != "manifest.json":
                found.append(relative)
    problems = []
    for relative in found:
        if relative not in pins:
            problems.append(f"{relative} is not pinned by manifest.json")
    for relative, (sha256, size) in sorted(pins.items()):
        path = os.path.join(folder, relative)
        if os.path.islink(path):
            problems.append(f"{relative} is a symlink, not a pinned file")
            continue
        if not os.path.isfile(path):
            problems.append(f"{relative} is pinned but missing")
            continue
        actual_size = os.path.getsize(path)
        digest = hashlib.sha256()
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        if actual_size != size:
            problems.append(f"{relative} has {actual_size} bytes, pinned {size}")
        elif digest.hexdigest() != sha256.lower():
            problems.append(f"{relative} has SHA-256 {digest.hexdigest()}, pinned {sha256}")
    return problems, len(pins)


def check(folder):
    problems, count = breaks(folder)
    for problem in problems:
        print(f"  pin broken: {problem}")
    if problems:
        print(f"pins: {len(problems)} of {count} files break their pins")
        return 1
    print(f"pins: {count} files match")
    return 0


def self_test(folder):
    """Each tampering of a copy must break exactly the pin it touches."""
    problems, count = breaks(folder)
    if problems or count == 0:
        print("pins: the self-test needs intact fixtures first")
        return 1
    with open(os.path.join(folder, "manifest.json"), "rb") as handle:
        files = [entry["path"] for entry in json.load(handle)["files"]]
    victim = next(path for path in files if os.path.getsize(os.path.join(folder, path)) > 100)
    other = next(path for path in files if path != victim)

    def flip(root):
        path = os.path.join(root, victim)
        with open(path, "r+b") as handle:
            handle.seek(100)
            byte = handle.read(1)
            handle.seek(100)
            handle.write(bytes([byte[0] ^ 0x01]))

    def truncate(root):
        os.truncate(os.path.join(root, victim), 50)

    def plant(root):
        with open(os.path.join(root, os.path.dirname(victim), "planted.ts"), "wb") as handle:
            handle.write(b"\x47" * 188)

    def remove(root):
        os.remove(os.path.join(root, other))

    failures = 0
    for name, tamper, expected in [("a flipped byte", flip, victim), ("a truncated file", truncate, victim),
                                   ("an unpinned file", plant, "planted.ts"), ("a missing file", remove, other)]:
        with tempfile.TemporaryDirectory() as scratch:
            copy = os.path.join(scratch, "Fixtures")
            shutil.copytree(folder, copy)
            tamper(copy)
            found, _ = breaks(copy)
            if len(found) == 1 and expected in found[0]:
                print(f"  self-test: {name} fails the pins ({found[0]})")
            else:
                failures += 1
                print(f"  self-test FAILED: {name} gave {found}")
    print(f"pins self-test: {4 - failures} of 4 tamperings caught")
    return 1 if failures else 0


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    default = os.path.normpath(os.path.join(here, "..", "..", "Fixtures"))
    if sys.argv[1:2] == ["--self-test"]:
        sys.exit(self_test(sys.argv[2] if len(sys.argv) > 2 else default))
    sys.exit(check(sys.argv[1] if len(sys.argv) > 1 else default))
