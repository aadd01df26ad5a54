/**
 * `fawnlab bench`: the benchmarks, natively (wasm-core/build/native/fawnlab_bench) and in
 * WebAssembly under Node (the same C++ in fawnlab_node.cjs), printed as one table with the
 * WASM/native ratio. Figures, not gates: nothing here fails on a slow machine.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from './args.js';
import { Core, ROOT } from './core.js';
import type { Io } from './repro.js';

interface Figure {
  name: string;
  value: number;
  unit: string;
  seconds: number;
  checksum: number;
}

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

export async function bench(argv: string[], io: Io): Promise<number> {
  const args = parseArgs(argv, { options: ['scale', 'runs'] });
  const scale = Number(args.options.get('scale') ?? '1');
  const runs = Number(args.options.get('runs') ?? '3');
  if (!(scale > 0 && scale <= 100) || !(Number.isInteger(runs) && runs >= 1 && runs <= 20)) {
    io.err('error: --scale must be in (0, 100] and --runs an integer in [1, 20]\n');
    return 2;
  }
  const nativeBin = resolve(ROOT, 'wasm-core/build/native/fawnlab_bench');
  if (!existsSync(nativeBin)) {
    io.err(`error: ${nativeBin} is missing; run 'npm run build'\n`);
    return 1;
  }
  const core = await Core.load();
  const native: Figure[][] = [];
  const wasm: Figure[][] = [];
  // Pairwise and interleaved, so drift in the machine's speed hits both sides alike.
  for (let i = 0; i < runs; i++) {
    io.err(`bench: run ${i + 1}/${runs} (native, then WASM)\n`);
    native.push(parseLines(execFileSync(nativeBin, ['--scale', String(scale)], { encoding: 'utf8' })));
    wasm.push(parseLines(core.benchmarks(scale)));
  }
  const n = best(native);
  const w = best(wasm);
  const rows = [['benchmark', 'native', 'wasm (node)', 'wasm/native', 'unit', 'checksums']];
  for (let i = 0; i < n.length; i++) {
    const a = n[i]!;
    const b = w[i]!;
    rows.push([a.name, fmt(a.value), fmt(b.value), (b.value / a.value).toFixed(2), a.unit,
      a.checksum === b.checksum ? 'equal' : 'DIFFER']);
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) => '| ' + r.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ') + ' |';
  io.out([line(rows[0]!), '|' + widths.map((wd) => '-'.repeat(wd + 2)).join('|') + '|', ...rows.slice(1).map(line)].join('\n') + '\n');
  io.out(`best of ${runs} runs, scale ${scale}; targets: kernel >= 10M events/s native, WASM >= 0.8x native\n`);
  return 0;
}
