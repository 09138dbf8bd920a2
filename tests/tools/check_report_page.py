#!/usr/bin/env python3
"""`warpforge emu --timeline=FILE` and `warpforge report`: the timeline is trace-event JSON whose
runs add up to the statistics' instruction count, and the report page, opened in headless Chromium,
draws every chart with the values of the statistics (counted in the DOM after its script ran).

usage: check_report_page.py WARPFORGE DATA_DIR EXAMPLES_DIR WORK_DIR
Exit 77 (skipped) when warpforge has no emulator, or when Chromium is missing outside CI; in CI
(environment variable CI set) a missing Chromium fails: scripts/setup.sh installs it.
"""

import html.parser
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile


def run(cmd, expect=0):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if p.returncode != expect:
        sys.exit(f"{' '.join(cmd)} exited {p.returncode}, expected {expect}:\n{p.stdout}{p.stderr}")
    return p


class Dom(html.parser.HTMLParser):
    """Start tags of the dumped DOM, with their attributes, and the text of table cells."""

    def __init__(self):
        super().__init__()
        self.tags = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def having(self, tag, cls=None, **attrs):
        return [a for t, a in self.tags if t == tag and (cls is None or cls in a.get("class", "").split())
                and all(a.get(k.replace("_", "-")) == v for k, v in attrs.items())]


def check_timeline(timeline, stats, warps_per_block):
    events = timeline["traceEvents"]
    cores = {e["pid"] for e in events}
    assert cores <= set(range(sum(1 for n in stats if n.endswith(".warp_insts") and ".core" in n))), cores
    runs = [e for e in events if e["ph"] == "X" and e["cat"] == "warp"]
    blocks = [e for e in events if e["ph"] == "X" and e["cat"] == "block"]
    waits = [e for e in events if e["ph"] == "i" and e["name"] == "barrier wait"]
    assert sum(e["args"]["warp_insts"] for e in runs) == stats["gpu.warp_insts"]["value"]
    assert len(blocks) == stats["gpu.blocks"]["value"] * warps_per_block, len(blocks)
    assert waits, "block_sum waits at BAR: expected barrier-wait instants"
    names = {(e["pid"], e["tid"]) for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    for e in runs + blocks + waits:
        assert (e["pid"], e["tid"]) in names, e
    # Every run lies inside a residency of its block on the same slot.
    for r in runs:
        assert any(b["pid"] == r["pid"] and b["tid"] == r["tid"] and b["args"]["block"] == r["args"]["block"]
                   and b["ts"] <= r["ts"] and r["ts"] + r["dur"] <= b["ts"] + b["dur"] for b in blocks), r
    # A core's clock only moves forward: its last event ends at its cycle count.
    for c in cores:
        end = max(e["ts"] + e.get("dur", 0) for e in events if e["pid"] == c and e["ph"] != "M")
        assert end == stats[f"gpu.core{c}.cycles"]["value"], (c, end)
    return runs, waits


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if path := shutil.which(name):
            return path
    return None


def main():
    warpforge, data, examples, work = (os.path.abspath(a) for a in sys.argv[1:5])
    os.makedirs(work, exist_ok=True)
    os.chdir(work)
    if "  emu " not in run([warpforge, "--help"]).stdout:
        print("warpforge was built without the emulator")
        return 77

    # A shared-memory reduction with BAR in a loop: 6 blocks of 8 warps on `default`'s 4 cores.
    run([warpforge, "asm", os.path.join(examples, "saxpy_sum.s"), "-o", "saxpy_sum.wfx"])
    run([warpforge, "emu", "saxpy_sum.wfx", "-k", "block_sum", "-g", "6", "-b", "256", "-c", "default",
         "--buffer", "y=6144", "--buffer", "sums=24", "-a", "ptr:y", "-a", "ptr:sums",
         "--stats=stats.json", "--timeline=timeline.json"])
    stats = json.load(open("stats.json"))["stats"]
    timeline = json.load(open("timeline.json"))
    runs, waits = check_timeline(timeline, stats, 8)

    # Wrong inputs are refused with a message and exit status 2.
    with open("truncated.json", "w") as f:
        f.write(open("stats.json").read()[:200])
    p = run([warpforge, "report", "truncated.json", "-o", "bad.html"], expect=2)
    assert "not valid JSON" in p.stderr, p.stderr
    p = run([warpforge, "report", "timeline.json", "-o", "bad.html"], expect=2)
    assert "not a Warpforge statistics file" in p.stderr, p.stderr
    p = run([warpforge, "report", "stats.json", "--timeline", "stats.json", "-o", "bad.html"], expect=2)
    assert "traceEvents" in p.stderr, p.stderr

    run([warpforge, "report", "stats.json", "--timeline", "timeline.json", "-o", "report.html"])
    page = open("report.html", encoding="utf-8").read()
    for outside in ("http://", "https://", "src=", "@import", "url("):
        hits = [line for line in page.splitlines() if outside in line and "http://www.w3.org/2000/svg" not in line]
        assert not hits, f"the page refers outside itself ({outside!r}): {hits[:2]}"

    chromium = find_chromium()
    if not chromium:
        message = "chromium is not installed (scripts/setup.sh installs Debian's 'chromium')"
        if os.environ.get("CI"):
            sys.exit(message)
        print(message + "; skipped")
        return 77
    with tempfile.TemporaryDirectory(prefix="wf-chromium-") as profile:
        p = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                            "--disable-background-networking", "--disable-component-update",
                            "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
                            "--dump-dom", "file://" + os.path.abspath("report.html")],
                           capture_output=True, text=True, timeout=120)
    if p.returncode != 0 or "<body" not in p.stdout:
        sys.exit(f"chromium failed ({p.returncode}):\n{p.stderr[-3000:]}")
    dom = Dom()
    dom.feed(p.stdout)

    body = dom.having("body")[0]
    assert body.get("data-rendered") == "ok", f"the page's script did not finish: {body}"
    assert body.get("data-charts") == "5", body

    cores = sorted(int(n.split(".")[1][4:]) for n in stats if n.startswith("gpu.core") and n.endswith(".warp_insts"))
    bars = dom.having("rect", "bar-insts")
    per_core = {int(a["data-core"]): float(a["data-value"]) for a in bars if "data-core" in a}
    assert per_core == {c: stats[f"gpu.core{c}.warp_insts"]["value"] for c in cores}, per_core
    cycle_bars = {int(a["data-core"]): float(a["data-value"]) for a in dom.having("rect", "bar-cycles") if "data-core" in a}
    assert cycle_bars == {c: stats[f"gpu.core{c}.cycles"]["value"] for c in cores}, cycle_bars

    for name in ("gpu.ipc", "gpu.simd_efficiency"):
        gauge = dom.having("rect", "gauge-fill", data_stat=name)
        assert len(gauge) == 1 and math.isclose(float(gauge[0]["data-value"]), stats[name]["value"]), (name, gauge)

    dists = [n for n, s in stats.items() if s["kind"] == "distribution"]
    assert len(dom.having("svg", "histogram")) == len(dists) > 0
    hist_total = sum(int(a["data-count"]) for a in dom.having("rect", "hist-bar"))
    assert hist_total == sum(stats[n]["samples"] for n in dists), hist_total

    assert len(dom.having("svg", id="timeline-lanes")) == 1
    lanes = {(e["pid"], e["tid"]) for e in timeline["traceEvents"] if e["ph"] in "Xi"}
    assert len(dom.having("text", "lane-label")) == len(lanes)
    assert len(dom.having("rect", "lane-run")) == len(runs)
    assert len(dom.having("circle", "lane-event")) == len(waits)

    assert len(dom.having("tr", "stat-row")) == len(stats)
    print(f"report page drawn: {len(cores)} cores, {len(runs)} warp runs, {len(waits)} barrier waits, "
          f"{len(stats)} statistics")
    return 0


if __name__ == "__main__":
    sys.exit(main())
