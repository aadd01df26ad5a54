// The front-end and back-end processes' wiring, in one process over real loopback sockets,
// with the test-only fake node in place of the C++ KvHostNode: registration (given ids,
// a joiner given an id that it keeps across a restart), peer tables, requests from HTTP and
// memcached through the peer links, tokens on the peer port, and the cluster view.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startBackend, type BackendHandle } from './backend.js';
import { parseClusterArgs, parseNodeArgs } from './clusterargs.js';
import { startFrontend, type FrontendHandle } from './frontend.js';
import type { KvHostModule } from './kvcore.js';
import { FakeKvHostNode } from './kvhost.fake.js';
import { httpReq, RawClient, waitFor } from './testnet.fake.js';

const mod: KvHostModule = { KvHostNode: FakeKvHostNode };
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const s of stops.splice(0).reverse()) await s();
});

async function frontend(token?: string) {
  const dir = mkdtempSync(join(tmpdir(), 'fawnlab-wiring-'));
  const logs: string[] = [];
  const args = parseClusterArgs(['--nodes', '3', '--port', '0', '--memcached-port', '0', '--peer-port', '0', '--data', dir,
    ...(token ? ['--token', token] : [])]);
  const fe: FrontendHandle = await startFrontend(args, { mod, log: (l) => logs.push(l), spawnChildren: false, version: '0.1.0', webRoot: dir });
  stops.push(() => fe.stop());
  return { fe, dir, logs };
}

async function backend(fe: FrontendHandle, dir: string, id: number | null, token?: string) {
  const logs: string[] = [];
  const args = parseNodeArgs(['--frontend', fe.peer, '--data', join(dir, `b${id ?? 'x'}`), ...(id !== null ? ['--id', String(id)] : []),
    ...(token ? ['--token', token] : [])]);
  const b: BackendHandle = await startBackend(args, mod, (l) => logs.push(l));
  stops.push(() => b.stop());
  return { b, logs };
}

const port = (addr: string) => Number(addr.slice(addr.lastIndexOf(':') + 1));

describe('front-end and back-ends over loopback', () => {
  it('register, share peer tables, and serve requests', async () => {
    const { fe, dir, logs } = await frontend();
    const bs = await Promise.all([0, 1, 2].map((i) => backend(fe, dir, i)));
    for (const { b } of bs) expect((await b.ready).id).toBe(b.id());
    const joiner = await backend(fe, dir, null);
    expect((await joiner.b.ready).id).toBe(3);
    expect(JSON.parse(readFileSync(join(dir, 'bx', 'node.json'), 'utf8'))).toEqual({ id: 3 });
    await waitFor(() => bs[0]!.b.peers().size === 5, 'back-end 0 to learn every peer');
    expect(bs[0]!.b.peers().get(3)).toBe(joiner.b.listen);
    expect(logs.filter((l) => /joining the ring/.test(l))).toHaveLength(4);

    const hp = port(fe.http);
    expect((await httpReq(hp, 'PUT', '/kv/answer', { body: '42' })).status).toBe(200);
    expect((await httpReq(hp, 'GET', '/kv/answer')).text).toBe('42');
    const mc = new RawClient(port(fe.memcached));
    expect(await mc.send('set m 9 0 2\r\nhi\r\nget m answer\r\n').until('END\r\n')).toBe('STORED\r\nVALUE m 9 2\r\nhi\r\nVALUE answer 0 2\r\n42\r\nEND\r\n');
    mc.close();

    const view = (await httpReq(hp, 'GET', '/cluster')).json() as { nodes: Array<Record<string, unknown>> };
    expect(view.nodes.map((n) => [n.id, n.role, n.state, n.process])).toEqual([
      [-1, 'frontend', 'up', undefined], [0, 'backend', 'up', 'remote'], [1, 'backend', 'up', 'remote'],
      [2, 'backend', 'up', 'remote'], [3, 'backend', 'up', 'remote']]);
    expect(view.nodes[4]!.addr).toBe(joiner.b.listen);
    expect((await httpReq(hp, 'POST', '/cluster/nodes/2/kill')).status).toBe(404); // not a child here

    await joiner.b.stop();
    const again = await backend(fe, dir, null); // same dir: keeps id 3; a new process, still "up" in the ring
    expect((await again.b.ready).id).toBe(3);
    await waitFor(() => logs.some((l) => /back-end 3 at .*: restarted while still in the ring: failed and joining again/.test(l)), 'the rejoin');
    expect((await httpReq(hp, 'GET', '/cluster')).json().events).toEqual(expect.arrayContaining([{ kind: 'fail', node: 3 }]));
  });

  it('runs the built-in load generator from POST /cluster/load and reports it', async () => {
    const { fe, dir, logs } = await frontend();
    const bs = await Promise.all([0, 1].map((i) => backend(fe, dir, i)));
    for (const { b } of bs) await b.ready;
    const hp = port(fe.http);
    const bad = await httpReq(hp, 'POST', '/cluster/load', { body: '{"rate":0,"zipf":"high"}' });
    expect([bad.status, bad.json().error]).toEqual([400,
      'rate must be a number from 0.1 to 100000 (arrivals per second), not 0; zipf must be a number from 0 to 2 (the Zipf exponent (0 = uniform)), not "high"']);
    const ok = (await httpReq(hp, 'POST', '/cluster/load', { body: '{"rate":300,"putFraction":0.5,"multigetWidth":2,"seed":11}' })).json();
    expect(ok).toMatchObject({ ok: true, load: { running: true, seed: 11, settings: { rate: 300, putFraction: 0.5, keys: 1000, multigetWidth: 2 } } });
    expect(logs).toContain('load: started, 300 ops/s, 50% puts, 1000 keys (uniform), 100-byte values, multiget width 2, seed 11');
    type View = { load: { running: boolean; interval: { opsPerS: number; errorsPerS: number } | null }; timeMs: number };
    await waitFor(() => ((fe.view() as View).load.interval?.opsPerS ?? 0) > 0, 'an interval with operations');
    const v = (await httpReq(hp, 'GET', '/cluster')).json() as View;
    expect(v.load.interval!.errorsPerS).toBe(0);
    expect(Math.abs(v.timeMs - Date.now())).toBeLessThan(5000);
    // A put of the generator's reads back over HTTP without its flags.
    const keys = Array.from({ length: 1000 }, (_, i) => `k${i}`);
    const got = (await httpReq(hp, 'POST', '/kv/_multiget', { body: JSON.stringify({ keys: keys.slice(0, 256) }) })).json() as { values: Record<string, string | null> };
    const stored = Object.values(got.values).filter((x): x is string => x !== null);
    expect(stored.length).toBeGreaterThan(0);
    for (const x of stored) expect(x).toMatch(/^(v\d+\.)+v?\d*\.?$/);
    expect(stored[0]!.length).toBe(100);
    expect((await httpReq(hp, 'POST', '/cluster/load', { body: '{"rate":50}' })).json()).toMatchObject({ load: { seed: 11, settings: { rate: 50, putFraction: 0.5 } } });
    expect((await httpReq(hp, 'DELETE', '/cluster/load')).json()).toMatchObject({ ok: true, load: { running: false } });
  });

  it('shares one connection cap between HTTP and memcached', async () => {
    const { fe } = await frontend();
    const held = Array.from({ length: fe.gate.max }, () => new RawClient(port(fe.http)));
    await waitFor(() => fe.gate.count === fe.gate.max, 'every connection to be admitted');
    const mc = new RawClient(port(fe.memcached)).send('version\r\n');
    await mc.whenClosed();
    expect(fe.gate.refused).toBe(1);
    for (const h of held) h.close();
    await waitFor(() => fe.gate.count === 0, 'the connections to close');
    expect(await new RawClient(port(fe.memcached)).send('version\r\nquit\r\n').whenClosed()).toBe('VERSION 1.4.0-fawnlab-0.1.0\r\n');
  });

  it('refuses back-ends without the token', async () => {
    const { fe, dir, logs } = await frontend('peer-token');
    const bad = await backend(fe, dir, 0, 'wrong-token');
    await waitFor(() => logs.some((l) => /without the cluster token/.test(l)), 'the refusal');
    const good = await backend(fe, dir, 1, 'peer-token');
    expect((await good.b.ready).id).toBe(1);
    expect(bad.b.id()).toBe(0);
    expect((await httpReq(port(fe.http), 'GET', '/cluster')).status).toBe(401);
  });
});
