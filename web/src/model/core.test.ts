// The browser build of the core, exercised in Node: results, errors, and byte-identical output
// with the Node build and the native build (live sessions: session/sessionClient.test.ts).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { isCoreError } from './core';
import { REPO, testCore } from './testCore';

const CASES: Array<[string, Record<string, string>, string]> = [
  ['queues.mm1', { points: '3', requests: '40000', servers: '2' }, '11'],
  ['queues.closed-loop', { clients_max: '12', requests: '20000' }, '12'],
  ['queues.batching', { requests: '20000', width_max: '16' }, '13'],
  // The CONA store on the emulated M500 and page cache, under YCSB (merges, flips, tries).
  ['cona.ycsb', { scale: '0.0004' }, '14'],
  ['cona.timeseries', { scale: '0.0004', samples: '40' }, '15'],
  // Every store of the Stores lab (SILT's merges sort: their CPU must not depend on the
  // standard library's sort; the LSM's compactions; energy on three hosts).
  ['stores.energy', {}, '16'],
  ['stores.ycsb', { more_stores: 'true' }, '17'],
  // SRCMap's day driver: the disks' mechanics, Algorithm 1, the replica manager, sync I/O.
  ['srcmap.timeline', { hours: '2' }, '18'],
  ['srcmap.day', { rate_scale: '0.02' }, '19'],
  // SRCMap's generator: idle spells (Pareto lengths), per-minute Poisson counts over three weeks.
  ['srcmap.workload', { rate_scale: '0.02' }, '20'],
];

describe('core (browser build, in Node)', () => {
  it('lists the experiments with their schemas', async () => {
    const core = await testCore();
    const ids = core.experiments().map((e) => e.id);
    expect(ids).toEqual(expect.arrayContaining(['queues.mm1', 'queues.closed-loop', 'queues.batching']));
    expect(core.experiments()[0]!.params.length).toBeGreaterThan(3);
  });

  it.each(CASES)('runs %s byte-identically to the Node and native builds', async (id, params, seed) => {
    const core = await testCore();
    const resolved = core.resolveParamStrings(id, Object.entries(params));
    expect(resolved.ok).toBe(true);
    if (!resolved.ok) return;
    const web = core.run(id, resolved.params, seed);
    expect(isCoreError(web)).toBe(false);
    if (isCoreError(web)) return;
    expect(web.result.seed).toBe(Number(seed));
    expect(Object.keys(web.result.anchors).length).toBeGreaterThan(0);

    const require = createRequire(import.meta.url);
    const node = await (require(`${REPO}wasm-core/dist/fawnlab_node.cjs`) as () => Promise<{
      runExperiment: (i: string, p: string, s: string, cb: null) => { ok: boolean; json: string };
    }>)();
    const fromNode = node.runExperiment(id, JSON.stringify(resolved.params), seed, null);
    expect(fromNode.json).toBe(web.json);

    // npm test builds the native CLI before Vitest; run alone, build it first.
    const cli = `${REPO}wasm-core/build/native/fawnlab_cli`;
    expect(existsSync(cli), `${cli} is missing: build it (npm run build, or ninja -C wasm-core/build/native fawnlab_cli)`).toBe(true);
    const args = ['run', id, '--seed', seed, ...Object.entries(params).flatMap(([k, v]) => ['--param', `${k}=${v}`])];
    expect(execFileSync(cli, args, { encoding: 'utf8' })).toBe(web.json);
  });

  it('reports bad input as values with a message', async () => {
    const core = await testCore();
    const bad = core.resolveParamStrings('queues.mm1', [['servers', '0']]);
    expect(bad).toEqual({ ok: false, code: 'invalid_argument', message: "parameter 'servers' = 0 is out of range [1, 64] servers for queues.mm1" });
    const seed = core.run('queues.mm1', {}, '-3');
    expect(isCoreError(seed) && seed.message).toBe("seed '-3' is not an integer in [0, 9007199254740991]");
    const unknown = core.run('nope', {}, '1');
    expect(isCoreError(unknown) && unknown.code).toBe('not_found');
  });
});
