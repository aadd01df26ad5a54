// The browser build of the core, exercised in Node: results, errors, sessions, and
// byte-identical output with the Node build and the native build.
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

    const cli = `${REPO}wasm-core/build/native/fawnlab_cli`;
    if (existsSync(cli)) {
      const args = ['run', id, '--seed', seed, ...Object.entries(params).flatMap(([k, v]) => ['--param', `${k}=${v}`])];
      expect(execFileSync(cli, args, { encoding: 'utf8' })).toBe(web.json);
    }
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

  it('runs a live queue session and reports configuration errors', async () => {
    const core = await testCore();
    const s = core.createQueueSession({ servers: 2, arrival_rate_per_s: 100000, service_us: 10 }, '4');
    expect(isCoreError(s)).toBe(false);
    if (isCoreError(s)) return;
    s.advance(5e6, 1e6);
    const snap = s.snapshot();
    expect(snap.now_ns).toBe(5e6);
    expect(snap.counters.completed).toBeGreaterThan(400);
    expect(s.reconfigure({ servers: 3 })).toMatch(/cannot change while the queue runs/);
    s.dispose();
    const bad = core.createQueueSession({ servers: 99 }, '1');
    expect(isCoreError(bad) && bad.message).toMatch(/out of range \[1, 16\]/);
  });
});
