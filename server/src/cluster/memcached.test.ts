// The memcached port over the fake cluster: replies byte for byte, flags round trips,
// multiget, noreply, the token handshake, stalled and flooding clients, cluster failures.
import type { Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionGate } from './gate.js';
import { fakeCluster } from './kvhost.fake.js';
import { createMemcachedServer, type McServerOptions } from './memcached.js';
import { listenLocal, RawClient } from './testnet.fake.js';

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const f of cleanup.splice(0)) f();
});

async function start(opts: Partial<McServerOptions> = {}, cluster?: { backends?: number; requestTimeoutMs?: number }) {
  const c = await fakeCluster(cluster?.backends ?? 2, cluster?.requestTimeoutMs ? { requestTimeoutMs: cluster.requestTimeoutMs } : {});
  const logs: string[] = [];
  const server: Server = createMemcachedServer({ kv: c.front, version: '0.1.0', gate: new ConnectionGate(), log: (l) => logs.push(l), ...opts });
  const port = await listenLocal(server);
  const clients: RawClient[] = [];
  cleanup.push(() => {
    for (const cl of clients) cl.close();
    server.close();
    c.stop();
  });
  const client = () => {
    const cl = new RawClient(port);
    clients.push(cl);
    return cl;
  };
  return { client, logs, cluster: c };
}

describe('memcached port', () => {
  it('sets, gets, multigets and deletes with memcached replies', async () => {
    const { client } = await start();
    const c = client();
    expect(await c.send('set alpha 42 0 5\r\nhello\r\n').until('\r\n')).toBe('STORED\r\n');
    expect(await c.send('set beta 0 0 0\r\n\r\n').until('\r\n')).toBe('STORED\r\n');
    expect(await c.send('get alpha\r\n').until('END\r\n')).toBe('VALUE alpha 42 5\r\nhello\r\nEND\r\n');
    expect(await c.send('get nope alpha beta nope\r\n').until('END\r\n'))
      .toBe('VALUE alpha 42 5\r\nhello\r\nVALUE beta 0 0\r\n\r\nEND\r\n');
    expect(await c.send('delete alpha\r\n').until('\r\n')).toBe('DELETED\r\n');
    expect(await c.send('delete alpha\r\n').until('\r\n')).toBe('NOT_FOUND\r\n');
    expect(await c.send('get alpha\r\n').until('END\r\n')).toBe('END\r\n');
    expect(await c.send('version\r\n').until('\r\n')).toBe('VERSION 1.4.0-fawnlab-0.1.0\r\n');
    const bin = Buffer.from([0, 13, 10, 255, 1]);
    c.send(Buffer.concat([Buffer.from('set bin 7 0 5 noreply\r\n'), bin, Buffer.from('\r\nget bin\r\n')]));
    const got = await c.until('END\r\n');
    expect(Buffer.from(got, 'latin1')).toEqual(Buffer.concat([Buffer.from('VALUE bin 7 5\r\n'), bin, Buffer.from('\r\nEND\r\n')]));
    expect(await c.send('bogus\r\nset x 0 1 1\r\nv\r\n').until('use 0\r\n')).toBe(
      'ERROR\r\nSERVER_ERROR expiration times are not supported (FAWN-KV keeps values until deleted); use 0\r\n');
    c.send('quit\r\n');
    await c.whenClosed();
  });

  it('keeps replies in order under pipelining', async () => {
    const { client } = await start();
    const c = client();
    let batch = '';
    for (let i = 0; i < 300; i++) batch += `set k${i} ${i} 0 ${String(i).length}\r\n${i}\r\nget k${i}\r\n`;
    const got = await c.send(batch).until(`VALUE k299 299 3\r\n299\r\nEND\r\n`, 10_000);
    const want = [...Array(300).keys()].map((i) => `STORED\r\nVALUE k${i} ${i} ${String(i).length}\r\n${i}\r\nEND\r\n`).join('');
    expect(got).toBe(want);
  });

  it('answers SERVER_ERROR when the cluster fails a request', async () => {
    const { client, cluster } = await start({}, { backends: 1, requestTimeoutMs: 50 });
    cluster.drop(0);
    expect(await client().send('get k\r\n').until('\r\n')).toBe('SERVER_ERROR no answer from the cluster within 50 ms\r\n');
  });

  it('requires the token handshake when it has a token', async () => {
    const { client } = await start({ token: 'sekrit' });
    expect(await client().send('get a\r\n').whenClosed()).toBe('CLIENT_ERROR unauthenticated\r\n');
    expect(await client().send('set auth 0 0 11\r\nuser wrong!\r\n').whenClosed()).toBe('CLIENT_ERROR authentication failure\r\n');
    const ok = client();
    expect(await ok.send('set auth 0 0 11\r\nuser sekrit\r\n').until('\r\n')).toBe('STORED\r\n');
    expect(await ok.send('get a\r\n').until('\r\n')).toBe('END\r\n');
  });

  it('closes stalled partial commands, over-long lines and connections over the cap', async () => {
    const gate = new ConnectionGate(3);
    const { client, logs } = await start({ idleTimeoutMs: 100, gate });
    const loris = client().send('get k');
    const trickle = client().send('set k 0 0 10\r\nab');
    // A value announced far over the limit is refused at once; the client that then stops
    // sending the block being swallowed is closed like any partial command.
    const huge = client().send('set k 0 0 2147483648\r\nabc');
    expect(await huge.until('\r\n')).toBe('SERVER_ERROR object too large for cache\r\n');
    expect(await loris.whenClosed()).toBe('');
    await trickle.whenClosed();
    expect(await huge.whenClosed()).toBe(''); // closed: the swallow stalled
    expect(logs.join('\n')).toMatch(/stalled partial command/);
    expect(await client().send('x'.repeat(5000)).whenClosed()).toBe('CLIENT_ERROR line too long\r\n');
    const held = [client(), client(), client()];
    for (const h of held) await h.send('version\r\n').until('\r\n');
    expect(await client().send('version\r\n').whenClosed()).toBe('');
    expect(gate.refused).toBe(1);
    held[0]!.close();
    await new Promise((r) => setTimeout(r, 50));
    expect(await client().send('version\r\n').until('\r\n')).toBe('VERSION 1.4.0-fawnlab-0.1.0\r\n');
  });
});
