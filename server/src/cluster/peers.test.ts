// Peer connections over loopback: hello first, frames in order, token checks, hostile
// input (bad lengths, no hello, garbage frames, too many connections) closing only the
// offending connection, control replies, and moving a peer.
import { connect, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CODEC_MAGIC, encodeFrame } from './frames.js';
import { encodeHello, encodePeers } from './hello.js';
import { createPeerServer, type PeerServerOptions } from './peerserver.js';
import { PeerLinks } from './peers.js';

async function waitFor(cond: () => boolean, what: string, ms = 3000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const servers: Server[] = [];
const links: PeerLinks[] = [];
afterEach(() => {
  for (const l of links.splice(0)) l.close();
  for (const s of servers.splice(0)) s.close();
});

interface Harness { addr: string; logs: string[]; frames: Array<[number, number[]]>; closes: number }

async function start(opts: Partial<PeerServerOptions> = {}): Promise<Harness> {
  const h: Harness = { addr: '', logs: [], frames: [], closes: 0 };
  const server = createPeerServer({
    log: (l) => h.logs.push(l),
    onHello: (hello) => ({ from: hello.from }),
    onFrame: (from, payload) => h.frames.push([from, [...payload]]),
    onClose: () => h.closes++,
    ...opts,
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  h.addr = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return h;
}

function makeLinks(self: number, table: Array<[number, string]>, token?: string, onControl?: (f: number, p: Buffer) => void, backoffMinMs = 20) {
  const logs: string[] = [];
  const l = new PeerLinks({ self, listen: '127.0.0.1:1', log: (s) => logs.push(s), ...(token ? { token } : {}), ...(onControl ? { onControl } : {}), backoffMinMs });
  l.setPeers(new Map(table));
  links.push(l);
  return { l, logs };
}

/** A raw socket that writes `bytes` and resolves when the server closes it. */
function raw(addr: string, bytes: Buffer[]): Promise<void> {
  const [host, port] = addr.split(':');
  return new Promise((done) => {
    const s = connect({ host: host!, port: Number(port) }, () => {
      for (const b of bytes) s.write(b);
    });
    s.on('error', () => {});
    s.on('close', () => done());
  });
}

describe('peer links and the peer port', () => {
  it('delivers frames in order with the sender endpoint', async () => {
    const h = await start({ token: 'tok' });
    const { l } = makeLinks(3, [[0, h.addr]], 'tok');
    for (let i = 0; i < 100; i++) expect(l.send(0, Buffer.from([CODEC_MAGIC, i]))).toBe(true);
    await waitFor(() => h.frames.length === 100, '100 frames');
    expect(h.frames.map(([from, b]) => [from, b[1]])).toEqual([...Array(100).keys()].map((i) => [3, i]));
    expect(l.isOpen(0)).toBe(true);
  });

  it('refuses a hello without the token, and drops sends during the backoff', async () => {
    const h = await start({ token: 'tok' });
    // A long backoff, so the send below falls inside it however slowly the machine runs.
    const { l } = makeLinks(1, [[0, h.addr]], 'wrong', undefined, 60_000);
    l.send(0, Buffer.from([CODEC_MAGIC]));
    await waitFor(() => !l.isOpen(0), 'the connection to close');
    expect(h.logs.join('\n')).toMatch(/without the cluster token/);
    expect(h.frames).toEqual([]);
    expect(l.send(0, Buffer.from([CODEC_MAGIC]))).toBe(false);
    expect(l.dropped).toBe(1);
  });

  it('closes connections that send garbage, and keeps serving others', async () => {
    const h = await start({ helloTimeoutMs: 200 });
    const hello = encodeFrame(encodeHello({ from: 2, listen: 'x:1' }));
    await raw(h.addr, [Buffer.from([0, 0, 0, 0])]);
    await raw(h.addr, [Buffer.from([0x7f, 0xff, 0xff, 0xff, 1, 2, 3])]);
    await raw(h.addr, [encodeFrame(Buffer.from([CODEC_MAGIC, 1]))]);
    await raw(h.addr, [encodeFrame(Buffer.from('{"fawnlab":1,"from":"x"}'))]);
    await raw(h.addr, [hello, encodeFrame(Buffer.from([0x42]))]);
    await raw(h.addr, [hello, hello]);
    await raw(h.addr, [Buffer.from([0, 0])]); // a partial length, then silence: the hello timer
    await raw(h.addr, [Buffer.from([0, 0, 0x10, 0x01])]); // 4097 bytes: too big for a hello
    const log = h.logs.join('\n');
    for (const re of [/bad frame length 0/, /bad frame length 2147483647/, /first frame is not a hello/, /"from"/,
      /starts with byte 66/, /a second hello/, /no hello within 200 ms/, /bad frame length 4097 \(must be 1..4096\)/]) expect(log).toMatch(re);
    const { l } = makeLinks(5, [[0, h.addr]]);
    l.send(0, Buffer.from([CODEC_MAGIC, 9]));
    await waitFor(() => h.frames.length === 1, 'a frame after the garbage');
  });

  it('admits a frame above the hello cap that arrives in the same chunk as the hello', async () => {
    // A peer reconnecting with a backlog writes its hello and a pre-copy batch at once.
    const h = await start();
    const hello = encodeFrame(encodeHello({ from: 4, listen: 'x:1' }));
    const big = Buffer.alloc(20_000, 7);
    big[0] = CODEC_MAGIC;
    const [host, port] = h.addr.split(':');
    const s = connect({ host: host!, port: Number(port) }, () => s.write(Buffer.concat([hello, encodeFrame(big)])));
    s.on('error', () => {});
    await waitFor(() => h.frames.length === 1, 'the big frame');
    expect(h.frames[0]![0]).toBe(4);
    expect(h.frames[0]![1].length).toBe(20_000);
    expect(h.logs.join('\n')).not.toMatch(/bad frame length/);
    s.destroy();
  });

  it('refuses connections over the cap', async () => {
    const h = await start({ maxConnections: 2 });
    const a = makeLinks(1, [[0, h.addr]]).l;
    const b = makeLinks(2, [[0, h.addr]]).l;
    a.send(0, Buffer.from([CODEC_MAGIC]));
    b.send(0, Buffer.from([CODEC_MAGIC]));
    await waitFor(() => h.frames.length === 2, 'two frames');
    await raw(h.addr, [encodeFrame(encodeHello({ from: 3, listen: 'x:1' }))]);
    expect(h.logs.join('\n')).toMatch(/2 connections already open/);
  });

  it('carries control replies back, and reconnects when a peer moves', async () => {
    const h1 = await start({ onHello: (hello, conn) => { conn.reply(encodePeers(new Map([[-1, 'h:1']]))); return { from: hello.from }; } });
    const got: string[] = [];
    const { l } = makeLinks(4, [[-1, h1.addr]], undefined, (from, p) => got.push(`${from}:${p.toString()}`));
    l.ensure(-1);
    await waitFor(() => got.length === 1, 'a control reply');
    expect(got[0]).toBe('-1:{"fawnlab":1,"peers":{"-1":"h:1"}}');
    const h2 = await start();
    l.setPeers(new Map([[-1, h2.addr]]));
    await waitFor(() => h1.closes === 1, 'the old connection to close');
    l.send(-1, Buffer.from([CODEC_MAGIC, 1]));
    await waitFor(() => h2.frames.length === 1, 'a frame at the new address');
    expect(l.send(7, Buffer.from([CODEC_MAGIC]))).toBe(false); // no address for 7
  });
});
