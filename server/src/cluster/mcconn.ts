/**
 * A small memcached text-protocol client for the cluster benchmark's load process: one TCP
 * connection, requests pipelined and answered in order (memcached answers in order), each a
 * promise. `get` of several keys is one multiget line. Replies are parsed incrementally from
 * the byte stream (VALUE <key> <flags> <bytes>\r\n<data>\r\n … END\r\n; STORED; DELETED;
 * NOT_FOUND; ERROR / CLIENT_ERROR / SERVER_ERROR lines reject the request). A closed or broken
 * connection rejects everything outstanding.
 */
import { connect, type Socket } from 'node:net';

type Pending =
  | { kind: 'get'; values: Map<string, Buffer>; resolve: (v: Map<string, Buffer>) => void; reject: (e: Error) => void }
  | { kind: 'line'; resolve: (line: string) => void; reject: (e: Error) => void };

export class McConn {
  private buf: Buffer = Buffer.alloc(0);
  private readonly queue: Pending[] = [];
  private closed: Error | null = null;

  private constructor(private readonly sock: Socket) {
    sock.setNoDelay(true);
    sock.on('data', (d: Buffer) => {
      this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
      this.parse();
    });
    const fail = (e: Error) => {
      this.closed ??= e;
      for (const p of this.queue.splice(0)) p.reject(this.closed);
    };
    sock.on('error', fail);
    sock.on('close', () => fail(new Error('memcached connection closed')));
  }

  static open(host: string, port: number): Promise<McConn> {
    return new Promise((resolve, reject) => {
      const s = connect({ host, port }, () => {
        s.off('error', reject);
        resolve(new McConn(s));
      });
      s.once('error', reject);
    });
  }

  /** The values of the keys found (one line: a multiget when there are several). */
  get(keys: string[]): Promise<Map<string, Buffer>> {
    return this.send(`get ${keys.join(' ')}\r\n`, (resolve, reject) => ({ kind: 'get', values: new Map(), resolve, reject }));
  }

  /** Stores `value` under `key` (flags 0, no expiry); resolves when the server says STORED. */
  async set(key: string, value: Buffer): Promise<void> {
    const line = await this.send(Buffer.concat([Buffer.from(`set ${key} 0 0 ${value.length}\r\n`), value, Buffer.from('\r\n')]),
      (resolve, reject) => ({ kind: 'line', resolve, reject }));
    if (line !== 'STORED') throw new Error(`set ${key}: ${line}`);
  }

  close(): void {
    this.sock.end();
  }

  private send<T>(data: string | Buffer, make: (resolve: (v: T) => void, reject: (e: Error) => void) => Pending): Promise<T> {
    if (this.closed) return Promise.reject(this.closed);
    return new Promise<T>((resolve, reject) => {
      this.queue.push(make(resolve as never, reject));
      this.sock.write(data);
    });
  }

  private parse(): void {
    for (;;) {
      const p = this.queue[0];
      if (!p) return;
      const eol = this.buf.indexOf('\r\n');
      if (eol < 0) return;
      const line = this.buf.subarray(0, eol).toString('latin1');
      if (p.kind === 'get' && line.startsWith('VALUE ')) {
        const [, key, , bytes] = line.split(' ');
        const n = Number(bytes);
        if (this.buf.length < eol + 2 + n + 2) return;  // the data block is not all here yet
        p.values.set(key!, Buffer.from(this.buf.subarray(eol + 2, eol + 2 + n)));
        this.buf = this.buf.subarray(eol + 2 + n + 2);
        continue;
      }
      this.buf = this.buf.subarray(eol + 2);
      this.queue.shift();
      if (/^(ERROR|CLIENT_ERROR|SERVER_ERROR)/.test(line)) p.reject(new Error(line));
      else if (p.kind === 'get') {
        if (line === 'END') p.resolve(p.values);
        else p.reject(new Error(`unexpected reply: ${line}`));
      } else p.resolve(line);
    }
  }
}
