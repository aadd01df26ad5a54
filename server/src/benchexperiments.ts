/**
 * `fawnlab bench --only experiments`: every registered experiment at its default parameters,
 * seed 1, timed in WebAssembly under Node (the server's Core) and natively (`fawnlab_cli run
 * <id> --seed 1 --format json`, the process's wall time), and the two JSONs compared byte for byte.
 * Times are figures, not gates (the flag marks WASM runs over the lab contract's 2 s budget per
 * experiment in the browser at defaults); a JSON that differs is a correctness failure.
 */
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { Core } from './core.js';
import { table } from './table.js';

/** The lab contract: an experiment at its defaults finishes within this many seconds in WASM. */
export const BUDGET_S = 2;

export interface ExperimentTiming {
  id: string;
  lab: string;
  wasmSeconds: number;
  nativeSeconds: number;
  /** The WASM and native JSONs are byte-identical. */
  equal: boolean;
  /** Set when a build refused or failed the run (then the times are NaN). */
  error?: string;
}

const secs = (s: number) => (Number.isFinite(s) ? s.toFixed(3) : '-');

export function experimentsTable(rows: ExperimentTiming[], runs = 1): string {
  const out = [['experiment', 'lab', 'wasm s', 'native s', 'wasm/native', `> ${BUDGET_S} s`, 'json']];
  for (const r of rows) {
    const ratio = r.nativeSeconds > 0 && Number.isFinite(r.wasmSeconds) ? (r.wasmSeconds / r.nativeSeconds).toFixed(2) : '-';
    out.push([r.id, r.lab, secs(r.wasmSeconds), secs(r.nativeSeconds), ratio, r.wasmSeconds > BUDGET_S ? 'OVER' : '',
      r.error ? 'ERROR' : r.equal ? 'equal' : 'DIFFER']);
  }
  const over = rows.filter((r) => r.wasmSeconds > BUDGET_S).map((r) => r.id);
  const wasm = rows.reduce((a, r) => a + (Number.isFinite(r.wasmSeconds) ? r.wasmSeconds : 0), 0);
  const native = rows.reduce((a, r) => a + (Number.isFinite(r.nativeSeconds) ? r.nativeSeconds : 0), 0);
  let text = table(out) +
    `${rows.length} experiments at their defaults, seed 1, ${runs > 1 ? `best of ${runs} runs` : 'one run'} each; total ${wasm.toFixed(1)} s WASM (node), ` +
    `${native.toFixed(1)} s native; budget ${BUDGET_S} s per experiment in WASM: ` +
    (over.length ? `${over.length} over (${over.join(', ')})` : 'all within') + '\n';
  for (const r of rows) if (r.error) text += `${r.id}: ${r.error}\n`;
  return text;
}

/** Correctness failures among the rows: a JSON that differs, or a run that failed. */
export function experimentFailures(rows: ExperimentTiming[]): number {
  return rows.filter((r) => r.error || !r.equal).length;
}

/** Wall seconds of `fn`. */
function timed<T>(fn: () => T): [T, number] {
  const t0 = performance.now();
  const r = fn();
  return [r, (performance.now() - t0) / 1000];
}

/**
 * Runs every experiment whose id starts with `prefix` in both builds, `runs` times each, WASM
 * and native interleaved (so drift in the machine's speed hits both alike); keeps the fastest
 * run of each (the least disturbed by other work) and checks every run's JSONs are equal.
 */
export function timeExperiments(core: Core, cli: string, prefix: string, runs: number,
  progress: (s: string) => void): ExperimentTiming[] {
  const rows: ExperimentTiming[] = [];
  for (const e of core.experiments().filter((x) => x.id.startsWith(prefix))) {
    progress(`bench: ${e.id} (WASM, then native${runs > 1 ? `, ${runs} times` : ''})\n`);
    const row: ExperimentTiming = { id: e.id, lab: e.lab, wasmSeconds: Infinity, nativeSeconds: Infinity, equal: true };
    rows.push(row);
    const params = core.resolveParams(e.id, {});
    for (let i = 0; i < runs && !row.error; i++) {
      if (!params.ok) {
        row.error = `WASM refused the defaults: ${params.message}`;
        break;
      }
      const [w, ws] = timed(() => core.run(e.id, params.json, '1'));
      if (!w.ok) {
        row.error = `WASM run failed: ${w.message}`;
        break;
      }
      let n: string, ns: number;
      try {
        [n, ns] = timed(() => execFileSync(cli, ['run', e.id, '--seed', '1', '--format', 'json'],
          { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] }));
      } catch (err) {
        row.error = `native run failed: ${String((err as { stderr?: string }).stderr ?? err).trim()}`;
        break;
      }
      row.wasmSeconds = Math.min(row.wasmSeconds, ws);
      row.nativeSeconds = Math.min(row.nativeSeconds, ns);
      row.equal &&= w.json === n;
    }
    if (row.error) Object.assign(row, { wasmSeconds: NaN, nativeSeconds: NaN, equal: false });
  }
  return rows;
}
