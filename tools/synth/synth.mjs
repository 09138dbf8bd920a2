#!/usr/bin/env node
// Synthesizes Warpforge RTL units with Yosys (@yowasp/yosys, WebAssembly) for a Xilinx UltraScale+
// part and writes a JSON report per unit: LUTs by size, flip-flops, carry and mux cells, DSP, BRAM,
// and the longest register-to-register (or port) path in LUT levels.
//
//   node tools/synth/synth.mjs --unit wf_alu [--unit wf_fma ...] [--all]
//        [--lanes N] [--param NAME=VALUE ...] [--family xcup] [--abc9]
//        [--out DIR] [--check] [--netlist] [--quiet]
//
// --unit NAME   a module of rtl/ ("alu" means "wf_alu"); --all: every file of rtl/units/;
//               --blocks: every module of rtl/units, rtl/core, rtl/soc and rtl/mem
// --config NAME sizes every unit for a named configuration of isa/config.toml (tiny, default,
//               large; values from the generated wf_config_pkg): each parameter the unit declares
//               that configPairs() below knows gets the configuration's value (execution units
//               keep Lanes = 1: per-lane figures)
// --lanes N     sets parameter Lanes (when the unit has it); default 1: the per-lane figures
// --default-param NAME=VALUE  sets a parameter only in the units that declare it (a named
//               configuration's values: NumBanks, LineBytes)
// --out DIR     writes DIR/<unit>.json, DIR/<unit>.log and DIR/summary.json (default: print only)
// --check       exit status 1 when a unit fails to synthesize (errors, or cells Yosys left
//               unmapped); without it the status is 0 unless arguments are wrong
// --netlist     also writes DIR/<unit>.netlist.json (the mapped netlist)
// --jobs N      synthesizes N units at a time (each Yosys instance is single-threaded)
// --check-sources  no synthesis: scans every source of rtl/ for constructs Yosys 0.55 reads
//               wrongly without an error (arrays of struct types, below); exit 1 if any
// --abc9        maps with abc9 (timing-driven; no wide-LUT MUXF7/8) instead of synth_xilinx's abc
// --nowidelut   no LUT7/LUT8 (MUXF7/MUXF8) in the mapping
// Exit 77 when @yowasp/yosys is not installed (run `npm ci` in tools/synth).
//
// Logic depth: the mapped, flattened netlist is a graph of cells; paths start at input ports and
// at outputs of sequential cells (FD*, SRL*, RAM*, DSP48E2, RAMB*, URAM) and end at their inputs
// and at output ports. `lut_levels` counts LUT cells along the worst path; `logic_levels` counts
// every combinational cell (LUT, CARRY8, MUXF7/8/9) as Vivado's "logic levels" does. DSP48E2 and
// block RAMs are treated as registered at both sides; `dsp` lists each DSP's pipeline registers
// so an unregistered one is visible.

import { readFileSync, readdirSync, statSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const rtlDir = join(repo, 'rtl');

function usage(msg) {
  if (msg) console.error(`synth: ${msg}`);
  console.error('usage: synth.mjs (--unit NAME)... | --all  [--lanes N] [--param K=V]... ' +
                '[--family xcup] [--abc9] [--out DIR] [--check] [--netlist] [--quiet]');
  process.exit(2);
}

function parseArgs(argv) {
  const o = { units: [], all: false, lanes: 1, params: {}, defaults: {}, family: 'xcup', abc9: false,
              out: null, check: false, netlist: false, quiet: false, jobs: 1 };
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    let v = null;
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq > 0) { v = a.slice(eq + 1); a = a.slice(0, eq); }
    const val = () => (v !== null ? v : (i + 1 < argv.length ? argv[++i] : usage(`${a} needs a value`)));
    switch (a) {
      case '--unit': o.units.push(val()); break;
      case '--all': o.all = true; break;
      case '--blocks': o.blocks = true; break;
      case '--config': o.config = val(); break;
      case '--lanes': o.lanes = Number(val()); break;
      case '--param': {
        const [k, pv] = val().split('=');
        if (pv === undefined) usage('--param takes NAME=VALUE');
        o.params[k] = pv;
        break;
      }
      case '--default-param': {
        const [k, pv] = val().split('=');
        if (pv === undefined) usage('--default-param takes NAME=VALUE');
        o.defaults[k] = pv;
        break;
      }
      case '--family': o.family = val(); break;
      case '--abc9': o.abc9 = true; break;
      case '--nowidelut': o.nowidelut = true; break;
      case '--jobs': o.jobs = Math.max(1, Number(val())); break;
      case '--out': o.out = val(); break;
      case '--check': o.check = true; break;
      case '--check-sources': o.checkSources = true; break;
      case '--netlist': o.netlist = true; break;
      case '--quiet': o.quiet = true; break;
      case '--help': case '-h': usage(); break;
      default: usage(`unknown argument ${a}`);
    }
  }
  if (!o.all && !o.blocks && !o.checkSources && o.units.length === 0) usage('name a unit or --all');
  return o;
}

function listSv(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...listSv(p));
    else if (name.endsWith('.sv')) out.push(p);
  }
  return out;
}

const isPkg = (p) => basename(p).endsWith('_pkg.sv');
const pkgName = (p) => basename(p, '.sv');

// Packages in an order where each comes after the packages it names (`other_pkg::`).
function orderPackages(pkgs) {
  const text = new Map(pkgs.map((p) => [p, readFileSync(p, 'utf8')]));
  const done = [];
  const visit = (p, path) => {
    if (done.includes(p)) return;
    if (path.includes(p)) throw new Error(`packages name each other: ${[...path, p].map(pkgName).join(' -> ')}`);
    for (const q of pkgs) if (q !== p && text.get(p).includes(`${pkgName(q)}::`)) visit(q, [...path, p]);
    done.push(p);
  };
  for (const p of pkgs) visit(p, []);
  return done;
}

// Every source of rtl/, the packages first (later files import them): the generated ones of
// rtl/pkg/ and the hand-written ones beside the blocks that own them (rtl/core/wf_core_pkg.sv,
// rtl/soc/wf_soc_pkg.sv), each after the packages it names. wfgen.py writes the generated
// packages in the subset of SystemVerilog that Yosys 0.55 reads (no `return`, no enum labels
// inside package functions, no assignment patterns), so they are read unchanged.
function rtlSources() {
  const files = listSv(rtlDir).filter((p) => !p.includes(`${join(rtlDir, 'lint')}/`));
  return [...orderPackages(files.filter(isPkg)), ...files.filter((p) => !isPkg(p))];
}

// Arrays of struct types. Yosys 0.55 drops the dimension of an array whose element is a packed
// struct or union, packed (`issue_t [N-1:0] x`) or unpacked (`issue_t x [N]`), ports included: x
// becomes one element wide, and `x[k].f` a new unconnected wire. Only a field access leaves a
// warning ("implicitly declared"); a whole-element access (`y = x[k]`, `x_q <= x_d`) is dropped
// silently and the unit reports a netlist that is not the design. So the sources are checked
// before Yosys reads them: such arrays are written logic [N-1:0][W-1:0] (rtl/README.md).
const stripComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/.*$/gm, '');

function structTypeNames(texts) {
  const names = new Set();
  for (const t of texts) {
    const re = /typedef\s+(?:struct|union)\b[^{]*\{[^}]*\}\s*(\w+)\s*;/g;
    for (let m; (m = re.exec(t));) names.add(m[1]);
  }
  return names;
}

// One finding per declaration: `file:line: <text>`.
function structArrayDecls(files) {
  const texts = new Map(files.map((p) => [p, stripComments(readFileSync(p, 'utf8'))]));
  const names = structTypeNames([...texts.values()]);
  if (names.size === 0) return [];
  const alt = [...names].join('|');
  const packed = new RegExp(`(?:\\b\\w+::)?\\b(?:${alt})\\s*\\[`, 'g');
  const unpacked = new RegExp(`(?:\\b\\w+::)?\\b(?:${alt})\\s+\\w+\\s*\\[`, 'g');
  const found = [];
  for (const [p, text] of texts) {
    for (const re of [packed, unpacked]) {
      re.lastIndex = 0;
      for (let m; (m = re.exec(text));) {
        const line = text.slice(0, m.index).split('\n').length;
        const src = text.split('\n')[line - 1].trim();
        found.push(`${relative(repo, p)}:${line}: ${src}`);
      }
    }
  }
  return [...new Set(found)];
}

// A named configuration's values, from the generated wf_config_pkg (ConfigTinyLanes = 8; ...).
function configValues(name) {
  const cap = name.charAt(0).toUpperCase() + name.slice(1);
  const text = readFileSync(join(rtlDir, 'pkg', 'wf_config_pkg.sv'), 'utf8');
  const vals = {};
  const re = new RegExp(`localparam int unsigned Config${cap}(\\w+) = (\\d+);`, 'g');
  for (let m; (m = re.exec(text));) vals[m[1]] = Number(m[2]);
  if (Object.keys(vals).length === 0) usage(`no configuration ${name} in wf_config_pkg`);
  const idx = new RegExp(`CFG_${name.toUpperCase()} = (\\d+)`).exec(text);
  vals.Index = idx ? Number(idx[1]) : 0;
  return vals;
}

// The parameters of `unit` (those it declares) set from configuration values c: what the GPU
// top would give the block (wf_gpu, wf_core and the blocks' own parameter defaults say the same).
function configParams(unit, file, c) {
  const text = readFileSync(file, 'utf8');
  const declared = new Set([...text.matchAll(/parameter\s+int\s+unsigned\s+(\w+)/g)].map((m) => m[1]));
  const isUnit = file.includes(`${join(rtlDir, 'units')}/`);
  const l2Banks = c.L2Banks, rfBanks = c.RfBanks;
  const pairs = {
    Lanes: isUnit ? 1 : c.Lanes,
    Warps: c.WarpsPerCore,
    Collectors: c.OperandCollectors,
    Depth: c.IbufferDepth,
    Entries: c.ScoreboardEntries,
    Policy: c.SchedulerPolicy,
    IssueWidth: c.IssueWidth,
    WarpRegs: c.RegsPerCore / 32,
    MaxBlocks: c.MaxBlocksPerCore,
    LineBytes: c.CacheLineBytes,
    IcBytes: c.IcacheBytes,
    IcLineBytes: c.IcacheLineBytes,
    IcWays: c.IcacheWays,
    Cores: c.Cores,
    DramChannels: c.DramChannels,
    Channels: c.DramChannels,
    ConfigIndex: c.Index,
    ClockMhz: c.ClockMhz,
    Requesters: c.Cores + 1,
    BankBytes: c.L2Bytes / l2Banks,
    NumBanks: c.SharedBanks,
    Rows: c.RegsPerCore / 32 / rfBanks * (32 / c.Lanes),
    SrcBits: Math.max(1, Math.ceil(Math.log2(c.Cores + 1))),
  };
  if (['wf_mem_xbar', 'wf_l2', 'wf_dram_axi', 'wf_l2_bank'].includes(unit)) pairs.Banks = l2Banks;
  else pairs.Banks = rfBanks;
  if (['wf_l2', 'wf_l2_bank'].includes(unit)) pairs.Ways = c.L2Ways;
  else pairs.Ways = c.IcacheWays;
  pairs.Sets = unit === 'wf_l2_bank' ? c.L2Bytes / l2Banks / c.CacheLineBytes / c.L2Ways
                                     : c.IcacheBytes / c.IcacheLineBytes / c.IcacheWays;
  const out = {};
  for (const [k, v] of Object.entries(pairs)) if (declared.has(k)) out[k] = String(v);
  return out;
}

// Yosys 0.55 does not resolve another package's constant inside a package (`localparam int
// unsigned LineBytesMax = wf_config_pkg::ParamMaxCacheLineBytes;` in wf_soc_pkg is "implicitly
// declared outside of a module", an error). So the flow writes the value in its place, in the
// text Yosys reads (the sources keep the reference: one source of truth): every `pkg::NAME` in a
// package whose NAME is a literal-valued localparam of that other package.
function literalConstants(pkgText) {
  const vals = new Map();
  const re = /localparam\s+(?:int\s+unsigned|int|integer|logic(?:\s*\[[^\]]*\])?)\s+(\w+)\s*=\s*((?:\d+'[sS]?[hHdDbBoO][0-9a-fA-F_xXzZ]+)|\d+)\s*;/g;
  for (let m; (m = re.exec(pkgText));) vals.set(m[1], m[2]);
  return vals;
}

function inlineForeignConstants(text, pkgTexts) {
  return text.replace(/\b(\w+_pkg)::(\w+)\b/g, (all, pkg, name) => {
    const other = pkgTexts.get(pkg);
    const v = other ? literalConstants(other).get(name) : undefined;
    return v === undefined ? all : `(${v})`;
  });
}

const SEQ = /^(FD[A-Z]*|LD[A-Z]*|SRL.*|RAM.*|RAMB.*|URAM.*|DSP48.*|FIFO.*|BUFG.*)$/;
const COMB_WEIGHT_LUT = /^LUT[1-6]$/;
const COMB_OTHER = /^(CARRY4|CARRY8|MUXF7|MUXF8|MUXF9|INV)$/;

// Longest path through combinational cells, in LUT levels and in logic levels.
function logicDepth(mod) {
  const cells = mod.cells || {};
  const driver = new Map();   // net bit -> cell name (combinational drivers only)
  const names = Object.keys(cells);
  for (const name of names) {
    const c = cells[name];
    if (SEQ.test(c.type) || IGNORED.has(c.type)) continue;
    for (const [port, dir] of Object.entries(c.port_directions || {})) {
      if (dir !== 'output') continue;
      for (const b of c.connections[port] || []) if (typeof b === 'number') driver.set(b, name);
    }
  }
  const memo = new Map();     // cell -> {lut, logic, prev}
  const onStack = new Set();
  const unknown = new Set();
  function depthOf(name) {
    if (memo.has(name)) return memo.get(name);
    if (onStack.has(name)) throw new Error(`combinational loop through ${name}`);
    onStack.add(name);
    const c = cells[name];
    const isLut = COMB_WEIGHT_LUT.test(c.type);
    if (!isLut && !COMB_OTHER.test(c.type)) unknown.add(c.type);
    let best = { lut: 0, logic: 0, prev: null };
    for (const [port, dir] of Object.entries(c.port_directions || {})) {
      if (dir !== 'input') continue;
      for (const b of c.connections[port] || []) {
        if (typeof b !== 'number') continue;
        const d = driver.get(b);
        if (d === undefined) continue;
        const r = depthOf(d);
        if (r.lut > best.lut || (r.lut === best.lut && r.logic > best.logic)) {
          best = { lut: r.lut, logic: r.logic, prev: d };
        }
      }
    }
    const res = { lut: best.lut + (isLut ? 1 : 0), logic: best.logic + 1, prev: best.prev };
    onStack.delete(name);
    memo.set(name, res);
    return res;
  }
  let worst = { lut: 0, logic: 0, end: null };
  let worstLogic = 0;
  for (const name of names) {
    if (SEQ.test(cells[name].type) || IGNORED.has(cells[name].type)) continue;
    const r = depthOf(name);
    if (r.lut > worst.lut || (r.lut === worst.lut && r.logic > worst.logic)) {
      worst = { lut: r.lut, logic: r.logic, end: name };
    }
    worstLogic = Math.max(worstLogic, r.logic);
  }
  const path = [];
  for (let n = worst.end; n; n = memo.get(n).prev) path.unshift({ cell: n, type: cells[n].type });
  // Where the worst path starts and ends: the register (its source line) or port on each side.
  const portOf = new Map();
  for (const [pname, p] of Object.entries(mod.ports || {})) {
    for (const b of p.bits) if (typeof b === 'number') portOf.set(b, pname);
  }
  const seqDriver = new Map();
  const seqSinks = new Map();
  for (const name of names) {
    const c = cells[name];
    if (!SEQ.test(c.type)) continue;
    for (const [port, dir] of Object.entries(c.port_directions || {})) {
      for (const b of c.connections[port] || []) {
        if (typeof b !== 'number') continue;
        if (dir === 'output') seqDriver.set(b, name);
        else if (!seqSinks.has(b)) seqSinks.set(b, name);
      }
    }
  }
  const describe = (name) => (name ? `${cells[name].type} ${(cells[name].attributes || {}).src || name}` : null);
  const endpoint = (cellName, wantDir) => {
    if (!cellName) return null;
    const c = cells[cellName];
    for (const [port, dir] of Object.entries(c.port_directions || {})) {
      if (dir !== wantDir) continue;
      for (const b of c.connections[port] || []) {
        if (typeof b !== 'number') continue;
        if (wantDir === 'input' && seqDriver.has(b)) return describe(seqDriver.get(b));
        if (wantDir === 'input' && portOf.has(b) && !driver.has(b)) return `port ${portOf.get(b)}`;
        if (wantDir === 'output' && seqSinks.has(b)) return describe(seqSinks.get(b));
        if (wantDir === 'output' && portOf.has(b)) return `port ${portOf.get(b)}`;
      }
    }
    return null;
  };
  const from = path.length ? endpoint(path[0].cell, 'input') : null;
  const to = path.length ? endpoint(path[path.length - 1].cell, 'output') : null;
  return { lut_levels: worst.lut, logic_levels: worstLogic, worst_lut_path: path,
           worst_from: from, worst_to: to, unknown_cell_types: [...unknown] };
}

// Cells that carry no logic (debug scope records).
const IGNORED = new Set(['$scopeinfo']);

function resources(mod) {
  const count = {};
  for (const c of Object.values(mod.cells || {})) {
    if (!IGNORED.has(c.type)) count[c.type] = (count[c.type] || 0) + 1;
  }
  const n = (re) => Object.entries(count).filter(([t]) => re.test(t)).reduce((s, [, k]) => s + k, 0);
  const luts = {};
  for (let k = 1; k <= 6; k++) luts[`LUT${k}`] = count[`LUT${k}`] || 0;
  const dsp = Object.entries(mod.cells || {})
    .filter(([, c]) => /^DSP48/.test(c.type))
    .map(([name, c]) => {
      const p = c.parameters || {};
      const reg = (k) => (p[k] === undefined ? 0 : parseInt(p[k], 2) || Number(p[k]) || 0);
      return { cell: name, AREG: reg('AREG'), BREG: reg('BREG'), CREG: reg('CREG'),
               MREG: reg('MREG'), PREG: reg('PREG') };
    });
  return {
    lut: n(/^LUT[1-6]$/),
    lut_by_size: luts,
    lutram: n(/^RAM(16|32|64|128|256).*/),
    srl: n(/^SRL/),
    ff: n(/^(FD|LD)/),
    carry: n(/^CARRY[48]$/),  // Yosys maps carry chains to CARRY4 even for UltraScale+
    muxf7: count.MUXF7 || 0,
    muxf8: count.MUXF8 || 0,
    dsp: n(/^DSP48/),
    bram36: n(/^RAMB36/),
    bram18: n(/^RAMB18/),
    uram: n(/^URAM/),
    cells_by_type: count,
    dsp_registers: dsp,
  };
}

async function synthUnit(runYosys, version, unit, sources, opts) {
  const files = {};
  const names = [];
  const pkgTexts = new Map(sources.filter(isPkg).map((p) => [pkgName(p), readFileSync(p, 'utf8')]));
  for (const p of sources) {
    const rel = relative(repo, p);
    const vname = rel.replace(/[\/]/g, '__');
    const raw = readFileSync(p, 'utf8');
    const text = isPkg(p) ? inlineForeignConstants(raw, pkgTexts) : raw;
    files[vname] = text;
    names.push(vname);
  }
  const params = { ...opts.params };
  const topSrc = sources.find((p) => basename(p, '.sv') === unit);
  const topText = topSrc ? readFileSync(topSrc, 'utf8') : '';
  const defaults = { Lanes: String(opts.lanes), ...opts.defaults };
  for (const [k, v] of Object.entries(defaults)) {
    if (params[k] === undefined && new RegExp(`parameter\\s+int\\s+unsigned\\s+${k}\\b`).test(topText)) {
      params[k] = v;
    }
  }
  const chparams = Object.entries(params).map(([k, v]) => `chparam -set ${k} ${v} ${unit}`);
  const script = [
    `read_verilog -sv -DSYNTHESIS ${names.join(' ')}`,
    ...chparams,
    `synth_xilinx -family ${opts.family} -top ${unit} -flatten -noclkbuf -noiopad${opts.abc9 ? ' -abc9' : ''}${opts.nowidelut ? ' -nowidelut' : ''}`,
    'tee -o stat.txt stat',
    'write_json netlist.json',
  ].join('\n');
  files['synth.ys'] = script;
  let log = '';
  const dec = new TextDecoder();
  const sink = (bytes) => { if (bytes) log += dec.decode(bytes); };
  const t0 = Date.now();
  let outFiles;
  let error = null;
  try {
    outFiles = await runYosys(['-q', '-l', 'yosys.log', '-s', 'synth.ys'], files,
                              { stdout: sink, stderr: sink });
  } catch (e) {
    error = e.message || String(e);
    outFiles = e.files || {};
  }
  const seconds = (Date.now() - t0) / 1000;
  const ylog = outFiles && outFiles['yosys.log'] ? String(outFiles['yosys.log']) : log;
  const report = {
    unit, top: unit, params, family: opts.family, yosys: `@yowasp/yosys ${version}`,
    abc9: opts.abc9, nowidelut: !!opts.nowidelut, date: new Date().toISOString().slice(0, 10), seconds, ok: false,
  };
  if (error || !outFiles['netlist.json']) {
    const errs = ylog.split('\n').filter((l) => /ERROR|Error/.test(l));
    report.error = errs.length ? errs.join('\n') : (error || 'no netlist produced');
    return { report, log: ylog, netlist: null };
  }
  const netlist = JSON.parse(typeof outFiles['netlist.json'] === 'string'
    ? outFiles['netlist.json'] : dec.decode(outFiles['netlist.json']));
  // chparam sometimes leaves the top under its derived name ($paramod\<unit>\<params>).
  const mod = netlist.modules[unit] ??
    Object.entries(netlist.modules).find(([n]) => n.startsWith(`$paramod\\${unit}\\`))?.[1];
  if (!mod) {
    report.error = `top module ${unit} not in the netlist`;
    return { report, log: ylog, netlist: null };
  }
  report.resources = resources(mod);
  const depth = logicDepth(mod);
  report.depth = { lut_levels: depth.lut_levels, logic_levels: depth.logic_levels,
                   worst_from: depth.worst_from, worst_to: depth.worst_to,
                   worst_lut_path: depth.worst_lut_path };
  const unmapped = Object.keys(report.resources.cells_by_type).filter((t) => t.startsWith('$'));
  const structArrays = structArrayDecls(sources);
  // An identifier Yosys declared implicitly is one it did not resolve: an enum label inside a
  // package function, or a field of an element of a packed array of structs (`x[k].f`: Yosys
  // 0.55 drops the array dimension of `struct_t [N-1:0] x` and makes `x[k].f` a new, unconnected
  // wire). Either way the netlist is not the design, so the unit fails instead of reporting it.
  const implicit = [...new Set(ylog.split('\n')
    .map((l) => /Identifier `\\?([^']+)' is implicitly declared/.exec(l)?.[1]).filter(Boolean))];
  report.ok = unmapped.length === 0 && implicit.length === 0 && structArrays.length === 0;
  if (unmapped.length) report.error = `unmapped cells: ${unmapped.join(', ')}`;
  if (structArrays.length) {
    report.error = `${report.error ? `${report.error}; ` : ''}arrays of structs (Yosys drops their ` +
      `dimension; netlist not the design): ${structArrays.join('; ')}`;
  }
  if (implicit.length) {
    report.error = `${report.error ? `${report.error}; ` : ''}identifiers Yosys did not resolve ` +
      `(netlist not the design): ${implicit.slice(0, 8).join(', ')}${implicit.length > 8 ? ', ...' : ''}`;
  }
  report.warnings = ylog.split('\n').filter((l) => /^Warning/.test(l)).slice(0, 50);
  return { report, log: ylog, netlist };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.checkSources) {
    const found = structArrayDecls(rtlSources());
    for (const f of found) console.log(`${f}: array of a struct type (Yosys 0.55 drops its dimension)`);
    console.log(`synth: ${rtlSources().length} sources of rtl/ checked, ${found.length} arrays of structs`);
    process.exit(found.length ? 1 : 0);
  }
  let runYosys;
  let version;
  try {
    ({ runYosys, version } = await import('@yowasp/yosys'));
  } catch {
    console.error('synth: @yowasp/yosys is not installed (cd tools/synth && npm ci)');
    process.exit(77);
  }
  const all = rtlSources();
  // A unit is read with rtl/common/, its own file and the files of the modules it instantiates,
  // transitively (so that one unit's error does not stop the others).
  const common = `${join(rtlDir, 'common')}/`;
  const moduleFiles = all.filter((p) => !isPkg(p));
  const instantiates = (text, p) => new RegExp(`^\\s*${basename(p, '.sv')}\\s*(#|[A-Za-z_]\\w*\\s*\\()`, 'm').test(text);
  // Packages: those the unit's sources name (one package's work in progress stops no one else).
  const sourcesFor = (unit) => {
    let own = moduleFiles.filter((p) => p.startsWith(common) || basename(p, '.sv') === unit);
    for (let more = true; more;) {
      const text = own.map((p) => readFileSync(p, 'utf8')).join('\n');
      const used = moduleFiles.filter((p) => own.includes(p) || instantiates(text, p));
      more = used.length > own.length;
      own = used;
    }
    let text = own.map((p) => readFileSync(p, 'utf8')).join('\n');
    let pkgs = [];
    for (let more = true; more;) {   // and the packages those packages name
      const named = all.filter((p) => isPkg(p) && text.includes(`${pkgName(p)}::`));
      more = named.length > pkgs.length;
      pkgs = named;
      text += pkgs.map((p) => readFileSync(p, 'utf8')).join('\n');
    }
    return [...pkgs, ...own];
  };
  const sources = all;
  let units = opts.units.map((u) => (u.startsWith('wf_') ? u : `wf_${u}`));
  if (opts.all) units = listSv(join(rtlDir, 'units')).map((p) => basename(p, '.sv'));
  if (opts.blocks) {
    units = ['units', 'core', 'mem', 'soc'].flatMap((d) => listSv(join(rtlDir, d)))
      .filter((p) => !isPkg(p)).map((p) => basename(p, '.sv'));
  }
  const cfg = opts.config ? configValues(opts.config) : null;
  const known = new Set(sources.map((p) => basename(p, '.sv')));
  for (const u of units) if (!known.has(u)) usage(`no module ${u} in rtl/`);
  if (opts.out) mkdirSync(opts.out, { recursive: true });

  const summary = new Array(units.length);
  let failed = false;
  let next = 0;
  const worker = async () => {
    while (next < units.length) {
      const i = next++;
      const unit = units[i];
      const unitOpts = cfg ? { ...opts, params: { ...configParams(unit, sources.find((p) => basename(p, '.sv') === unit), cfg), ...opts.params } } : opts;
      const { report, log, netlist } = await synthUnit(runYosys, version, unit, sourcesFor(unit), unitOpts);
      if (opts.config) report.config = opts.config;
      summary[i] = report;
      failed = failed || !report.ok;
      if (opts.out) {
        writeFileSync(join(opts.out, `${unit}.json`), JSON.stringify(report, null, 2) + '\n');
        writeFileSync(join(opts.out, `${unit}.log`), log);
        if (opts.netlist && netlist) {
          writeFileSync(join(opts.out, `${unit}.netlist.json`), JSON.stringify(netlist));
        }
      }
      if (!opts.quiet) {
        if (report.ok) {
          const r = report.resources;
          const params = Object.entries(report.params).map(([k, v]) => `${k}=${v}`).join(' ');
          console.log(`${unit} (${params || 'defaults'}): ` +
                      `LUT ${r.lut} FF ${r.ff} CARRY ${r.carry} MUXF7/8 ${r.muxf7}/${r.muxf8} ` +
                      `DSP ${r.dsp} BRAM36/18 ${r.bram36}/${r.bram18} LUTRAM ${r.lutram} SRL ${r.srl} | ` +
                      `depth ${report.depth.lut_levels} LUT levels (${report.depth.logic_levels} logic levels) ` +
                      `[${report.seconds.toFixed(1)} s]`);
        } else {
          console.log(`${unit}: FAILED: ${report.error}`);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.jobs, units.length) }, worker));
  if (opts.out) {
    writeFileSync(join(opts.out, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
  } else if (opts.quiet) {
    console.log(JSON.stringify(summary, null, 2));
  }
  process.exit(opts.check && failed ? 1 : 0);
}

main().catch((e) => {
  console.error(`synth: ${e.stack || e}`);
  process.exit(1);
});
