// `npm run repro` as a function: stdout carries only the result; errors name the problem.
import { describe, expect, it } from 'vitest';
import { Core } from './core.js';
import { repro, type Io } from './repro.js';

async function call(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (s) => out.push(s), err: (s) => err.push(s), errIsTty: false };
  const code = await repro(argv, io, await core);
  return { code, out: out.join(''), err: err.join('') };
}
const core = Core.load();

describe('repro', () => {
  it('prints the result JSON on stdout and nothing else', async () => {
    const r = await call(['queues.batching', '--param', 'requests=10000', '--param', 'width_max=4', '--seed', '3']);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    const result = JSON.parse(r.out) as { id: string; seed: number; params: Record<string, number>; anchors: object };
    expect(result.id).toBe('queues.batching');
    expect(result.seed).toBe(3);
    expect(result.params.width_max).toBe(4);
    expect(Object.keys(result.anchors)).toContain('capacity_kreq_s_w_1');
  });

  it('prints CSV when asked', async () => {
    const r = await call(['queues.closed-loop', '--param', 'clients_max=3', '--param', 'requests=10000', '--format', 'csv']);
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[0]).toBe('kind,name,x_label,y_label,x,y');
    expect(r.out).toContain('param,clients_max,,,,3\n');
  });

  it('is deterministic: same seed, same bytes', async () => {
    const a = await call(['queues.mm1', '--param', 'points=2', '--param', 'requests=30000', '--seed', '9']);
    const b = await call(['queues.mm1', '--param', 'points=2', '--param', 'requests=30000', '--seed', '9']);
    expect(a.out).toBe(b.out);
  });

  it('lists experiments as text or JSON', async () => {
    const text = await call(['--list']);
    expect(text.out).toContain('queues.mm1  M/M/k: response time against utilisation');
    expect(text.out).toContain('--param servers=1');
    const json = await call(['--list', '--format', 'json']);
    expect((JSON.parse(json.out) as Array<{ id: string }>).map((e) => e.id)).toContain('queues.batching');
  });

  it('rejects an unknown experiment naming every known one, in registry order, with exit status 2', async () => {
    const ids = (JSON.parse((await call(['--list', '--format', 'json'])).out) as Array<{ id: string }>).map((e) => e.id);
    expect(ids.slice(0, 3)).toEqual(['queues.mm1', 'queues.closed-loop', 'queues.batching']);
    const r = await call(['queues.nope']);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toBe(`error: unknown experiment 'queues.nope'; known experiments: ${ids.join(', ')}\n`);
  });

  it.each([
    [['queues.mm1', '--param', 'servers=0'], "error: parameter 'servers' = 0 is out of range [1, 64] servers for queues.mm1\n"],
    [['queues.mm1', '--param', 'servers=two'], "error: parameter 'servers' of queues.mm1 must be a number in [1, 64] servers, got 'two'\n"],
    [['queues.mm1', '--param', 'nosuch=1'], "error: unknown parameter 'nosuch' for queues.mm1; known parameters: servers, service_us, rho_min, rho_max, points, requests, server_idle_w, server_busy_w\n"],
    [['queues.mm1', '--param', 'servers'], "error: --param expects name=value, got 'servers'\n"],
    [['queues.mm1', '--seed', 'x'], "error: seed 'x' is not an integer in [0, 9007199254740991]\n"],
    [['queues.mm1', '--format', 'xml'], "error: --format must be json or csv, got 'xml'\n"],
  ])('rejects %j with a clear error and exit status 2', async (argv, message) => {
    const r = await call(argv);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toBe(message);
  });

  it('needs exactly one experiment id', async () => {
    const r = await call([]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('name exactly one experiment');
  });
});
