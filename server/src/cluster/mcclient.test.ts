// A stock memcached client from the registry (the `memcached` package, text protocol)
// against the memcached port (over the test-only fake node): set/get/getMulti/del with
// flags-bearing values, and a missing key.
import Memcached from 'memcached';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionGate } from './gate.js';
import { fakeCluster } from './kvhost.fake.js';
import { createMemcachedServer } from './memcached.js';
import { listenLocal } from './testnet.fake.js';

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const f of cleanup.splice(0)) f();
});

const call = <T>(f: (cb: (err: unknown, v: T) => void) => void) =>
  new Promise<T>((done, fail) => f((err, v) => (err ? fail(err instanceof Error ? err : new Error(String(err))) : done(v))));

describe('a stock memcached client', () => {
  it('stores and reads back strings, numbers, objects and binary, one key or many', async () => {
    const c = await fakeCluster(2);
    const server = createMemcachedServer({ kv: c.front, version: '0.1.0', gate: new ConnectionGate(), log: () => {} });
    const port = await listenLocal(server);
    const mc = new Memcached(`127.0.0.1:${port}`, { retries: 0, timeout: 2000 });
    cleanup.push(() => { mc.end(); server.destroyConnections(); server.close(); c.stop(); });

    const values: Record<string, unknown> = { s: 'hello world', n: 42, o: { a: [1, 2], b: 'x' }, bin: Buffer.from([0, 1, 2, 255, 13, 10]) };
    for (const [k, v] of Object.entries(values)) expect(await call<boolean>((cb) => mc.set(k, v, 0, cb))).toBe(true);
    for (const [k, v] of Object.entries(values)) expect(await call((cb) => mc.get(k, cb))).toEqual(v);
    const many = await call<Record<string, unknown>>((cb) => mc.getMulti(['s', 'n', 'missing', 'o'], cb));
    expect(many).toEqual({ s: values.s, n: values.n, o: values.o });
    expect(await call((cb) => mc.get('missing', cb))).toBeUndefined();
    expect(await call<boolean>((cb) => mc.del('s', cb))).toBe(true);
    expect(await call((cb) => mc.get('s', cb))).toBeUndefined();
    const version = await call<Array<{ version: string }>>((cb) => mc.version(cb));
    expect(version[0]!.version).toBe('0.1.0'); // it parses the last version number out of 'VERSION 1.4.0-fawnlab-0.1.0'
  });
});
