/**
 * `fawnlab bench`: the benchmarks, printed as tables.
 *  - speed: natively (wasm-core/build/native/fawnlab_bench) and in WebAssembly under Node (the
 *    same C++ in fawnlab_node.cjs), best of `--runs`, with the WASM/native ratio;
 *  - soak: FAWN-DS reliability, natively, once: crash points and a long model run (counts,
 *    failures, wall time);
 *  - kv: FAWN-DS on a real file against LevelDB, natively, once;
 *  - stores: the Stores lab (benchstores.ts): the LSM against real LevelDB (write amplification,
 *    within 25% or the step fails), CONA on a file against LevelDB under YCSB A-D, F, and every
 *    lab store's emulation speed natively and in WASM, once;
 *  - experiments: every registered experiment at its defaults, seed 1, in WASM (Node) and
 *    natively (fawnlab_cli), once each (best of `--runs` only when it is given): wall seconds
 *    and whether the JSONs are byte-identical (benchexperiments.ts); `--match vector.` keeps
 *    the ids that start with it.
 * `--only speed,soak,kv,stores,experiments` picks suites (default all); `--scale` multiplies every
 * size (not the experiments', which run at their defaults).
 * Speeds are figures, not gates: nothing fails on a slow machine. A failed reliability or
 * correctness check (soak, or a value read back wrong) is printed and makes the exit status 1.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from './args.js';
import { Core, ROOT } from './core.js';
import { experimentFailures, experimentsTable, timeExperiments } from './benchexperiments.js';
import { storesTable } from './benchstores.js';
import type { Io } from './repro.js';
import { table } from './table.js';

export interface Figure {
  name: string;
  value: number;
  unit: string;
  seconds: number;
  checksum: number;
  failures?: number;
  note?: string;
}

const SUITES = ['speed', 'soak', 'kv', 'stores', 'experiments'] as const;
type Suite = (typeof SUITES)[number];

function parseLines(text: string): Figure[] {
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Figure);
}

function fmt(v: number): string {
  return v >= 1e6 ? `${(v / 1e6).toFixed(2)}M` : v >= 1e3 ? `${(v / 1e3).toFixed(1)}k` : v.toFixed(1);
}

/** Best of `runs` (benchmarks report the fastest run: the least disturbed by the machine). */
function best(runs: Figure[][]): Figure[] {
  const first = runs[0] ?? [];
  return first.map((f, i) => runs.map((r) => r[i]!).reduce((a, b) => (b.value > a.value ? b : a), f));
}

function speedTable(n: Figure[], w: Figure[], runs: number, scale: number): string {
  const rows = [['benchmark', 'native', 'wasm (node)', 'wasm/native', 'unit', 'checksums']];
  for (let i = 0; i < n.length; i++) {
    const a = n[i]!;
    const b = w[i]!;
    rows.push([a.name, fmt(a.value), fmt(b.value), (b.value / a.value).toFixed(2), a.unit,
      a.checksum === b.checksum ? 'equal' : 'DIFFER']);
  }
  return table(rows) +
    `best of ${runs} runs, scale ${scale}; targets: kernel >= 10M events/s native, WASM >= 0.8x native; ` +
    'FAWN-DS lookups WASM >= 0.6x native; index bytes per entry = 6\n';
}

export function soakTable(figs: Figure[]): string {
  const rows = [['soak (native)', 'count', 'failures', 'wall s']];
  for (const f of figs) rows.push([f.name, `${f.value.toLocaleString('en-US')} ${f.unit}`, String(f.failures ?? 0), f.seconds.toFixed(1)]);
  return table(rows) + figs.map((f) => `${f.name}: ${f.note ?? ''}\n`).join('');
}

export function kvTable(figs: Figure[], keys: number): string {
  const by = new Map(figs.map((f) => [f.name, f]));
  const missing = by.get('kv.leveldb.missing');
  const rows = [['FAWN-DS vs LevelDB (native)', 'FAWN-DS (file)', 'LevelDB', 'FAWN-DS / LevelDB']];
  const measures: [string, string][] = [
    ['puts', 'random 1 KB puts/s'],
    ['gets', 'random gets/s'],
    ['dram_bytes_per_key', 'DRAM B/key (index; LevelDB: memtables + block cache)'],
    ['rss_bytes_per_key', 'anonymous RSS growth B/key'],
  ];
  for (const [m, label] of measures) {
    const a = by.get(`kv.fawnds.${m}`);
    const b = by.get(`kv.leveldb.${m}`);
    const show = (f: Figure | undefined) => (f ? (f.unit.endsWith('/s') ? fmt(f.value) : f.value.toFixed(1)) : '-');
    rows.push([label, show(a), missing ? 'not installed' : show(b), a && b && b.value > 0 ? (a.value / b.value).toFixed(2) : '-']);
  }
  let out = table(rows) + `${keys.toLocaleString('en-US')} keys: random 1 KB puts, then as many random gets\n`;
  if (missing) out += `${missing.note ?? 'LevelDB not installed'}\n`;
  for (const f of figs) {
    if (f.name !== 'kv.leveldb.missing' && f.note) out += `${f.name}: ${f.note}\n`;
    if (f.failures) out += `${f.name}: ${f.failures} FAILED checks\n`;
  }
  return out;
}

export async function bench(argv: string[], io: Io): Promise<number> {
  const args = parseArgs(argv, { options: ['scale', 'runs', 'only', 'match'] });
  const scale = Number(args.options.get('scale') ?? '1');
  const runs = Number(args.options.get('runs') ?? '3');
  const only = (args.options.get('only') ?? SUITES.join(',')).split(',').filter(Boolean);
  const unknown = only.filter((s) => !(SUITES as readonly string[]).includes(s));
  if (!(scale > 0 && scale <= 100) || !(Number.isInteger(runs) && runs >= 1 && runs <= 20) || unknown.length || !only.length) {
    io.err(`error: --scale must be in (0, 100], --runs an integer in [1, 20] and --only a list of ${SUITES.join(', ')}` +
      (unknown.length ? ` (not ${unknown.join(', ')})` : '') + '\n');
    return 2;
  }
  const want = (s: Suite) => only.includes(s);
  const nativeBin = resolve(ROOT, 'wasm-core/build/native/fawnlab_bench');
  if (!existsSync(nativeBin)) {
    io.err(`error: ${nativeBin} is missing; run 'npm run build'\n`);
    return 1;
  }
  const native = (suite: Suite) =>
    parseLines(execFileSync(nativeBin, ['--suite', suite, '--scale', String(scale)], { encoding: 'utf8', maxBuffer: 1 << 24 }));
  let failures = 0;
  if (want('speed')) {
    const core = await Core.load();
    const n: Figure[][] = [];
    const w: Figure[][] = [];
    // Pairwise and interleaved, so drift in the machine's speed hits both sides alike.
    for (let i = 0; i < runs; i++) {
      io.err(`bench: speed run ${i + 1}/${runs} (native, then WASM)\n`);
      n.push(native('speed'));
      w.push(parseLines(core.benchmarks(scale)));
    }
    io.out(speedTable(best(n), best(w), runs, scale));
  }
  if (want('soak')) {
    io.err('bench: soak (FAWN-DS crash points and model run, native)\n');
    const figs = native('soak');
    failures += figs.reduce((a, f) => a + (f.failures ?? 0), 0);
    io.out('\n' + soakTable(figs));
  }
  if (want('kv')) {
    io.err('bench: FAWN-DS on a file vs LevelDB (native)\n');
    const figs = native('kv');
    failures += figs.reduce((a, f) => a + (f.failures ?? 0), 0);
    io.out('\n' + kvTable(figs, Math.max(1, Math.floor(1e6 * scale))));
  }
  if (want('stores')) {
    io.err('bench: the Stores lab: the LSM vs real LevelDB, CONA on a file vs LevelDB, the stores emulated (native, then WASM)\n');
    const figs = native('stores');
    const wasm = parseLines((await Core.load()).storesBenchmarks(scale));
    failures += [...figs, ...wasm].reduce((a, f) => a + (f.failures ?? 0), 0);
    io.out('\n' + storesTable(figs, wasm));
  }
  if (want('experiments')) {
    const cli = resolve(ROOT, 'wasm-core/build/native/fawnlab_cli');
    if (!existsSync(cli)) {
      io.err(`error: ${cli} is missing; run 'npm run build'\n`);
      return 1;
    }
    const match = args.options.get('match') ?? '';
    // One run each unless --runs is given (the suite takes minutes; speed's default is 3).
    const expRuns = args.options.has('runs') ? runs : 1;
    const rows = timeExperiments(await Core.load(), cli, match, expRuns, io.err);
    if (!rows.length) {
      io.err(`error: no experiment id starts with '${match}' (npm run repro -- --list shows them)\n`);
      return 2;
    }
    failures += experimentFailures(rows);
    io.out('\n' + experimentsTable(rows, expRuns));
  }
  if (failures) io.out(`\n${failures} reliability or correctness check(s) FAILED (see the notes above)\n`);
  return failures ? 1 : 0;
}
