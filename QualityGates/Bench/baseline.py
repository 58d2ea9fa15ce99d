#!/usr/bin/env python3
"""Benchmark baselines: the figures a bench row printed checked against, or written to,
QualityGates/Bench/baselines/<machine-kind>.json. Two kinds of line count:
  `ratio <name> <value>`  ours against a peer measured side by side: higher is better;
  `bound <name> <value>`  an absolute figure of a row with no peer to stand beside (peak RSS in
                          MiB, requests per part, seconds to fail on a dead origin): lower is
                          better.

  baseline.py check  <row> <log>… [--tolerance 0.15]  fails when a ratio fell (a bound rose)
                                                       more than the tolerance past its baseline
                                                       (the best of the logs counts), when one is
                                                       missing from
                                                       the run, or when the row has no baseline
                                                       on this machine kind
  baseline.py update <row> <log>…                      writes the median of each figure over
                                                       the logs, the date and the commit
  baseline.py kind                                     prints this machine's kind
  baseline.py rows                                     prints the rows with a baseline on this
                                                       machine kind, one a line

The machine kind is TESSERA_MACHINE_KIND, else <arch>-<cores>cpu-<CPU model>: ratios move with
the hardware, so each kind keeps its own baselines.
"""
import datetime, json, os, platform, re, statistics, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_TOLERANCE = 0.15


def machine_kind():
    if os.environ.get("TESSERA_MACHINE_KIND"):
        return os.environ["TESSERA_MACHINE_KIND"]
    model = "unknown"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    slug = re.sub(r"[^a-z0-9]+", "-", model.lower()).strip("-")
    return f"{platform.machine()}-{os.cpu_count()}cpu-{slug}"


# The line kinds: the baseline's key for them, and whether higher values are better.
KINDS = {"ratio": ("ratios", True), "bound": ("bounds", False)}


def figures_in(logs, kind):
    """Every `kind` line the logs printed: name -> its values, one per log that printed it."""
    found = {}
    for log in logs:
        for line in open(log, encoding="utf-8", errors="replace"):
            parts = line.split()
            if not parts or parts[0] != kind:
                continue
            # A figure line that does not parse is a bench script's bug: say so, never drop it.
            try:
                if len(parts) != 3:
                    raise ValueError
                found.setdefault(parts[1], []).append(float(parts[2]))
            except ValueError:
                sys.exit(f"bench: {log}: a {kind} line is not `{kind} <name> <number>`: {line.strip()}")
    return found


def path_for(kind):
    return os.path.join(HERE, "baselines", f"{kind}.json")


def load(kind):
    try:
        with open(path_for(kind)) as f:
            return json.load(f)
    except FileNotFoundError:
        return {"machine_kind": kind, "tolerance": DEFAULT_TOLERANCE, "rows": {}}


def check(row, logs, tolerance):
    kind = machine_kind()
    baseline = load(kind)
    tolerance = tolerance if tolerance is not None else baseline.get("tolerance", DEFAULT_TOLERANCE)
    expected = baseline["rows"].get(row)
    if not expected:
        print(f"bench check {row}: FAILED — no baseline for {row} on {kind} (Scripts/bench.sh {row} --update writes one)")
        return 1
    failures, count = [], 0
    for line_kind, (key, higher) in KINDS.items():
        best = max if higher else min
        run = {name: best(values) for name, values in figures_in(logs, line_kind).items()}
        for name, base in sorted(expected.get(key, {}).items()):
            count += 1
            if name not in run:
                print(f"bench check {name}: MISSING from this run (baseline {base:.2f})")
                failures.append(name)
                continue
            change = run[name] / base - 1 if base else (0.0 if run[name] == 0 else float("inf"))
            worse = -change if higher else change
            verdict = "ok" if worse <= tolerance else "REGRESSION"
            print(f"bench check {name}: {run[name]:.2f} against the baseline {base:.2f} ({change:+.0%}{'' if higher else ', lower is better'}): {verdict}")
            if verdict != "ok":
                failures.append(name)
        for name in sorted(set(run) - set(expected.get(key, {}))):
            print(f"bench check {name}: {run[name]:.2f}, not in the baseline (--update adds it)")
    since = f"baseline of {expected.get('date', '?')} at {expected.get('commit', '?')}"
    if failures:
        print(f"bench check {row}: FAILED — {len(failures)} of {count} figures over {tolerance:.0%} worse than the {since}: {', '.join(failures)}")
        return 1
    print(f"bench check {row}: {count} figures within {tolerance:.0%} of the {since} on {kind}")
    return 0


def update(row, logs):
    kind = machine_kind()
    figures = {key: {name: round(statistics.median(values), 4) for name, values in sorted(figures_in(logs, line_kind).items())}
               for line_kind, (key, _) in KINDS.items()}
    count = sum(len(found) for found in figures.values())
    if not count:
        print(f"bench update {row}: FAILED — the run printed no ratio or bound lines; nothing written")
        return 1
    baseline = load(kind)
    try:
        commit = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    baseline["rows"][row] = {"date": datetime.date.today().isoformat(), "commit": commit, "runs": len(logs),
                             **{key: found for key, found in figures.items() if found}}
    os.makedirs(os.path.dirname(path_for(kind)), exist_ok=True)
    with open(path_for(kind), "w") as f:
        json.dump(baseline, f, indent=2, sort_keys=True)
        f.write("\n")
    print(f"bench update {row}: {count} figures (medians of {len(logs)} runs) written to {os.path.relpath(path_for(kind))}")
    return 0


def main(argv):
    if argv[1:2] == ["kind"]:
        print(machine_kind())
        return 0
    if argv[1:2] == ["rows"]:
        for row in sorted(load(machine_kind())["rows"]):
            print(row)
        return 0
    tolerance = None
    if "--tolerance" in argv:
        at = argv.index("--tolerance")
        tolerance = float(argv[at + 1])
        argv = argv[:at] + argv[at + 2:]
    if len(argv) < 4 or argv[1] not in ("check", "update"):
        print(__doc__, file=sys.stderr)
        return 2
    return check(argv[2], argv[3:], tolerance) if argv[1] == "check" else update(argv[2], argv[3:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
