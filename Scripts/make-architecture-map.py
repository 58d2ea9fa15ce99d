#!/usr/bin/env python3
"""Prints the one-line-per-file map of TesseraHLS and TesseraLive for docs/ARCHITECTURE.md:
each file with the first sentence of its first doc comment (the type it holds). Rerun it when
files come or go: `python3 Scripts/make-architecture-map.py > /tmp/map.md` and paste between the
map markers; `--check` exits 1 when docs/ARCHITECTURE.md's map differs from the tree's."""
import os, sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODULES = ["TesseraHLS", "TesseraLive"]
BEGIN, END = "<!-- map:begin -->", "<!-- map:end -->"


def first_sentence(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    block = []
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("///"):
            block.append(stripped[3:].strip())
            continue
        if block:
            break
    text = " ".join(block)
    if not text:
        return "(no doc comment)"
    depth, end = 0, len(text)
    for i, c in enumerate(text):
        depth += c in "([" and 1 or c in ")]" and -1 or 0
        if depth == 0 and c in ".:;" and (i + 1 == len(text) or text[i + 1] == " "):
            end = i
            break
    sentence = text[:end].rstrip(":;.")
    if len(sentence) > 150:   # one line: the long ones cut at a word
        sentence = sentence[:147].rsplit(" ", 1)[0].rstrip(",;—-( ") + " …"
        return sentence
    return sentence + "."


def render():
    out = []
    for module in MODULES:
        root = os.path.join(HERE, "Sources", module)
        out.append(f"### {module}\n")
        for folder, _, files in sorted(os.walk(root)):
            swift = sorted(f for f in files if f.endswith(".swift"))
            if not swift:
                continue
            rel = os.path.relpath(folder, root)
            out.append(f"`{module}/{'' if rel == '.' else rel + '/'}`\n")
            for name in swift:
                out.append(f"- `{name}` — {first_sentence(os.path.join(folder, name))}")
            out.append("")
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":
    text = render()
    if "--check" in sys.argv:
        doc = open(os.path.join(HERE, "docs", "ARCHITECTURE.md"), encoding="utf-8").read()
        inside = doc.split(BEGIN, 1)[1].split(END, 1)[0].strip() + "\n" if BEGIN in doc and END in doc else ""
        if inside != text:
            print("architecture map: docs/ARCHITECTURE.md's file map differs from the tree (run Scripts/make-architecture-map.py)")
            sys.exit(1)
        print("architecture map: every file of TesseraHLS and TesseraLive listed, as documented")
        sys.exit(0)
    sys.stdout.write(text)
