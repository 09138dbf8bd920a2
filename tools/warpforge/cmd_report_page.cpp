// The page of `warpforge report`. The drawing script builds SVG with DOM calls from the embedded
// JSON; when every chart is drawn it sets data-rendered="ok" on <body> (the headless-browser test
// waits for it), and on any error it shows the error and sets data-rendered="error".
#include "cmd_report_page.h"

namespace wf::driver {
namespace {

constexpr const char *kStyle = R"css(
body { font: 14px/1.4 sans-serif; margin: 24px; color: #222; max-width: 1200px; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 28px; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 12px; }
td, th { border: 1px solid #ddd; padding: 2px 6px; text-align: left; vertical-align: top; }
td.num { text-align: right; font-family: monospace; }
svg text { font: 11px sans-serif; fill: #333; }
.bar-insts { fill: #3b6fb6; } .bar-cycles { fill: #d08a2c; } .gauge-fill { fill: #4a9a5b; }
.gauge-back { fill: #eee; } .hist-bar { fill: #7a5ab8; } .lane-block { fill: #dde6f3; }
.lane-run { fill: #3b6fb6; } .lane-event { fill: #c0392b; } .axis { stroke: #999; }
#render-error { color: #b00; white-space: pre-wrap; }
.note { color: #666; font-size: 12px; }
)css";

constexpr const char *kScript = R"js(
"use strict";
const SVG = "http://www.w3.org/2000/svg";
function el(name, attrs, text) {
  const e = document.createElementNS(SVG, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = String(text);
  return e;
}
function tip(e, text) { e.appendChild(el("title", {}, text)); return e; }
function fmt(v) {
  if (typeof v !== "number") return String(v);
  if (Number.isInteger(v)) return v.toLocaleString("en-US");
  return v.toPrecision(4);
}
function section(id, title, note) {
  const s = document.createElement("section");
  s.id = id;
  const h = document.createElement("h2");
  h.textContent = title;
  s.appendChild(h);
  if (note) { const p = document.createElement("p"); p.className = "note"; p.textContent = note; s.appendChild(p); }
  document.getElementById("charts").appendChild(s);
  return s;
}

// Grouped bars: one group per core, one bar per series, each series scaled to its own maximum.
function coreBars(stats) {
  const cores = [];
  for (const name in stats) {
    const m = /^gpu\.core(\d+)\.warp_insts$/.exec(name);
    if (m) cores.push(Number(m[1]));
  }
  cores.sort((a, b) => a - b);
  if (!cores.length) return 0;
  const series = [["warp_insts", "bar-insts", "warp instructions"], ["cycles", "bar-cycles", "cycles"]];
  const s = section("per-core", "Per core: warp instructions and cycles",
                    "Each series is scaled to its own maximum; hover a bar for its value.");
  const barW = 14, groupW = series.length * barW + 10, h = 160, top = 10, left = 40;
  const svg = el("svg", {id: "core-bars", width: Math.max(360, left + cores.length * groupW + 20), height: h + 50});
  series.forEach(([field, cls, label], k) => {
    const vals = cores.map(c => (stats[`gpu.core${c}.${field}`] || {}).value || 0);
    const max = Math.max(1, ...vals);
    vals.forEach((v, i) => {
      const bh = h * v / max;
      svg.appendChild(tip(el("rect", {class: cls, "data-core": cores[i], "data-value": v,
        x: left + i * groupW + k * barW, y: top + h - bh, width: barW - 2, height: bh}),
        `core ${cores[i]}: ${fmt(v)} ${label}`));
    });
    svg.appendChild(el("rect", {class: cls, x: left + k * 150, y: h + 32, width: 10, height: 10}));
    svg.appendChild(el("text", {x: left + k * 150 + 14, y: h + 41}, label));
  });
  cores.forEach((c, i) => svg.appendChild(el("text", {class: "core-label", x: left + i * groupW, y: top + h + 14}, `c${c}`)));
  svg.appendChild(el("line", {class: "axis", x1: left - 4, y1: top + h, x2: left + cores.length * groupW, y2: top + h}));
  s.appendChild(svg);
  return 1;
}

// Ratios as gauges: IPC against the issue width of one warp instruction per core and cycle times
// the cores, SIMD efficiency against 1.
function gauges(stats) {
  const items = [];
  const cores = Object.keys(stats).filter(n => /^gpu\.core\d+\.warp_insts$/.test(n)).length;
  if (stats["gpu.ipc"]) items.push(["gpu.ipc", Math.max(1, cores), "IPC (warp instructions per cycle)"]);
  if (stats["gpu.simd_efficiency"]) items.push(["gpu.simd_efficiency", 1, "SIMD efficiency (active lanes / 32)"]);
  if (!items.length) return 0;
  const s = section("ratios", "IPC and SIMD efficiency",
                    `IPC is drawn against ${Math.max(1, cores)} (one warp instruction per core and cycle).`);
  const svg = el("svg", {id: "gauges", width: 620, height: items.length * 34 + 10});
  items.forEach(([name, full, label], i) => {
    const v = stats[name].value, y = 8 + i * 34;
    svg.appendChild(el("text", {x: 0, y: y + 13}, label));
    svg.appendChild(el("rect", {class: "gauge-back", x: 260, y, width: 300, height: 18}));
    svg.appendChild(tip(el("rect", {class: "gauge-fill", "data-stat": name, "data-value": v, x: 260, y,
                                    width: 300 * Math.min(1, Math.max(0, v / full)), height: 18}), `${name} = ${fmt(v)}`));
    svg.appendChild(el("text", {class: "gauge-value", x: 566, y: y + 13}, fmt(v)));
  });
  s.appendChild(svg);
  return 1;
}

function histograms(stats) {
  const names = Object.keys(stats).filter(n => stats[n].kind === "distribution");
  if (!names.length) return 0;
  const s = section("distributions", "Distributions",
                    "Bucket counts; underflow and overflow are the outer bars when non-zero.");
  for (const name of names) {
    const d = stats[name];
    const bars = d.buckets.map((n, k) => [`[${fmt(d.bucket_min + k * d.bucket_size)}, ${fmt(d.bucket_min + (k + 1) * d.bucket_size)})`, n]);
    if (d.underflow) bars.unshift([`< ${fmt(d.bucket_min)}`, d.underflow]);
    if (d.overflow) bars.push([`>= ${fmt(d.bucket_min + d.buckets.length * d.bucket_size)}`, d.overflow]);
    const w = 22, h = 100, left = 40;
    const svg = el("svg", {class: "histogram", "data-stat": name, width: Math.max(640, left + bars.length * w + 20), height: h + 50});
    const max = Math.max(1, ...bars.map(b => b[1]));
    bars.forEach(([label, n], k) => {
      const bh = h * n / max;
      svg.appendChild(tip(el("rect", {class: "hist-bar", "data-count": n, x: left + k * w, y: 20 + h - bh, width: w - 3, height: bh}), `${label}: ${n}`));
    });
    svg.appendChild(el("text", {x: 0, y: 12}, `${name} (${d.unit}): ${fmt(d.samples)} samples, mean ${fmt(d.mean)}, min ${fmt(d.min)}, max ${fmt(d.max)}`));
    svg.appendChild(el("text", {x: left, y: h + 36}, `${fmt(d.bucket_min)} .. ${fmt(d.bucket_min + d.buckets.length * d.bucket_size)} in ${d.buckets.length} buckets`));
    svg.appendChild(el("line", {class: "axis", x1: left, y1: 20 + h, x2: left + bars.length * w, y2: 20 + h}));
    s.appendChild(svg);
  }
  return names.length;
}

// One lane per (core, warp slot): block residency underneath, runs of warp instructions on top,
// barrier waits and faults as marks.
function timelineChart(timeline) {
  if (!timeline) return 0;
  const events = timeline.traceEvents || [];
  const other = timeline.otherData || {};
  const s = section("timeline", "Warp timeline",
                    `Time: ${other.time_unit || "trace microseconds"}. One lane per core and warp slot.`);
  const lanes = new Map();
  let t0 = Infinity, t1 = -Infinity;
  for (const e of events) {
    if (e.ph !== "X" && e.ph !== "i") continue;
    const key = `${e.pid}/${e.tid}`;
    if (!lanes.has(key)) lanes.set(key, {pid: e.pid, tid: e.tid, events: []});
    lanes.get(key).events.push(e);
    t0 = Math.min(t0, e.ts);
    t1 = Math.max(t1, e.ts + (e.dur || 0));
  }
  const keys = [...lanes.keys()].sort((a, b) => {
    const x = lanes.get(a), y = lanes.get(b);
    return x.pid - y.pid || x.tid - y.tid;
  });
  if (!keys.length) { s.appendChild(document.createTextNode("The timeline has no events.")); return 1; }
  const laneH = 12, left = 90, width = 1000, span = Math.max(1, t1 - t0);
  const x = t => left + width * (t - t0) / span;
  const svg = el("svg", {id: "timeline-lanes", width: left + width + 10, height: keys.length * laneH + 30});
  keys.forEach((key, i) => {
    const lane = lanes.get(key), y = 4 + i * laneH;
    svg.appendChild(el("text", {class: "lane-label", x: 0, y: y + 9}, `core ${lane.pid} slot ${lane.tid}`));
    // Residency first, so that the runs of instructions are drawn over it.
    const ordered = lane.events.filter(e => e.cat === "block").concat(lane.events.filter(e => e.cat !== "block"));
    for (const e of ordered) {
      const args = e.args || {};
      if (e.ph === "X") {
        const cls = e.cat === "block" ? "lane-block" : "lane-run";
        const inset = e.cat === "block" ? 0 : 2;
        svg.appendChild(tip(el("rect", {class: cls, x: x(e.ts), y: y + inset, width: Math.max(0.5, x(e.ts + e.dur) - x(e.ts)), height: laneH - 1 - 2 * inset}),
                            `${e.name}: ${e.ts}..${e.ts + e.dur}` + (args.warp_insts !== undefined ? `, ${args.warp_insts} warp instructions, stop: ${args.stop}` : "")));
      } else {
        svg.appendChild(tip(el("circle", {class: "lane-event", cx: x(e.ts), cy: y + laneH / 2, r: 3}), `${e.name} at ${e.ts}: ${args.detail || ""}`));
      }
    }
  });
  const axisY = keys.length * laneH + 8;
  svg.appendChild(el("line", {class: "axis", x1: left, y1: axisY, x2: left + width, y2: axisY}));
  for (let k = 0; k <= 4; ++k)
    svg.appendChild(el("text", {x: left + width * k / 4 - (k === 4 ? 40 : 0), y: axisY + 14}, fmt(Math.round(t0 + span * k / 4))));
  s.appendChild(svg);
  return 1;
}

function table(stats) {
  const s = section("all-stats", "Every statistic");
  const t = document.createElement("table");
  t.id = "stats-table";
  const head = t.insertRow();
  for (const h of ["name", "kind", "unit", "value", "description"]) {
    const th = document.createElement("th"); th.textContent = h; head.appendChild(th);
  }
  for (const name of Object.keys(stats)) {
    const st = stats[name];
    let value;
    if (st.kind === "vector") value = (st.subnames && st.subnames.length ? st.value.map((v, i) => `${st.subnames[i]}=${fmt(v)}`) : st.value.map(fmt)).join(" ");
    else if (st.kind === "distribution") value = `${fmt(st.samples)} samples, mean ${fmt(st.mean)}`;
    else value = fmt(st.value);
    const row = t.insertRow();
    row.className = "stat-row";
    [name, st.kind, st.unit, value, st.description].forEach((text, i) => {
      const c = row.insertCell(); c.textContent = text; if (i === 3) c.className = "num";
    });
  }
  s.appendChild(t);
  return 1;
}

try {
  const doc = JSON.parse(document.getElementById("stats-json").textContent);
  const timeline = JSON.parse(document.getElementById("timeline-json").textContent);
  if (doc.format !== "warpforge-stats") throw new Error("not a warpforge-stats file");
  const stats = doc.stats;
  const drawn = coreBars(stats) + gauges(stats) + histograms(stats) + timelineChart(timeline) + table(stats);
  document.body.dataset.charts = String(drawn);
  document.body.dataset.rendered = "ok";
} catch (err) {
  document.getElementById("render-error").textContent = "The report could not be drawn: " + err;
  document.body.dataset.rendered = "error";
}
)js";

} // namespace

std::string reportPage(const std::string &title, const std::string &statsJson,
                       const std::string &timelineJson) {
  std::string page = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                     "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                     "script-src 'unsafe-inline'; style-src 'unsafe-inline'\">\n<title>";
  page += title;
  page += "</title>\n<style>";
  page += kStyle;
  page += "</style>\n</head>\n<body data-rendered=\"pending\">\n<h1>";
  page += title;
  page += "</h1>\n<noscript>The charts are drawn by the page's script; enable scripts.</noscript>\n"
          "<div id=\"render-error\"></div>\n<div id=\"charts\"></div>\n"
          "<script type=\"application/json\" id=\"stats-json\">";
  page += statsJson;
  page += "</script>\n<script type=\"application/json\" id=\"timeline-json\">";
  page += timelineJson;
  page += "</script>\n<script>";
  page += kScript;
  page += "</script>\n</body>\n</html>\n";
  return page;
}

} // namespace wf::driver
