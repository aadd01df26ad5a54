// McConn against a scripted server that answers in byte-sized pieces: pipelined gets and sets
// resolve in order, a value split across packets is reassembled, errors reject only their
// request, and a closed connection rejects what is outstanding.
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { McConn } from './mcconn.js';

let server: Server | null = null;

afterEach(() => {
  server?.close();
  server = null;
});

/** A server that answers each line with `reply(line)`, written one byte at a time. */
async function scripted(reply: (line: string, sock: Socket) => string | null): Promise<number> {
  server = createServer((sock) => {
    let buf = '';
    sock.on('data', (d) => {
      buf += d.toString('latin1');
      let i: number;
      while ((i = buf.indexOf('\r\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (line.startsWith('set ')) {
          const n = Number(line.split(' ')[4]);
          buf = buf.slice(n + 2);
        }
        const r = reply(line, sock);
        if (r === null) continue;
        for (const ch of Buffer.from(r, 'latin1')) sock.write(Buffer.from([ch]));
      }
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const a = server.address();
  return typeof a === 'object' && a ? a.port : 0;
}

describe('McConn', () => {
  it('pipelines gets and sets and reassembles values split across packets', async () => {
    const port = await scripted((line) => {
      if (line.startsWith('set ')) return 'STORED\r\n';
      if (line === 'get a b c') return 'VALUE a 0 5\r\nhe\r\no\r\nVALUE c 0 0\r\n\r\nEND\r\n';
      if (line === 'get x') return 'END\r\n';
      return 'ERROR\r\n';
    });
    const c = await McConn.open('127.0.0.1', port);
    const [s, g, none] = await Promise.all([c.set('a', Buffer.from('v')), c.get(['a', 'b', 'c']), c.get(['x'])]);
    expect(s).toBeUndefined();
    expect([...g.keys()]).toEqual(['a', 'c']);
    expect(g.get('a')!.toString()).toBe('he\r\no');
    expect(g.get('c')!.length).toBe(0);
    expect(none.size).toBe(0);
    c.close();
  });

  it('rejects a request the server refuses and keeps the next one in step', async () => {
    const port = await scripted((line) => (line === 'get bad' ? 'SERVER_ERROR no answer\r\n' : 'VALUE ok 0 1\r\n1\r\nEND\r\n'));
    const c = await McConn.open('127.0.0.1', port);
    const bad = c.get(['bad']);
    const ok = c.get(['ok']);
    await expect(bad).rejects.toThrow('SERVER_ERROR no answer');
    expect((await ok).get('ok')!.toString()).toBe('1');
    c.close();
  });

  it('rejects what is outstanding when the connection closes', async () => {
    const port = await scripted((_line, sock) => {
      sock.destroy();
      return null;
    });
    const c = await McConn.open('127.0.0.1', port);
    await expect(c.get(['a'])).rejects.toThrow(/closed|ECONNRESET/);
  });
});
