/**
 * TEST ONLY (excluded from the build): small socket helpers for the cluster's tests.
 */
import { connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export async function listenLocal(server: Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return (server.address() as AddressInfo).port;
}

export async function waitFor(cond: () => boolean, what: string, ms = 3000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A raw TCP client that collects everything it receives. */
export class RawClient {
  readonly socket: Socket;
  received = '';
  closed = false;

  constructor(port: number) {
    this.socket = connect({ host: '127.0.0.1', port });
    this.socket.on('data', (c: Buffer) => (this.received += c.toString('latin1')));
    this.socket.on('error', () => {});
    this.socket.on('close', () => (this.closed = true));
  }

  send(s: string | Buffer): this {
    this.socket.write(s);
    return this;
  }

  /** Waits until the received text ends with `suffix` (or contains it) and returns it all, then clears. */
  async until(suffix: string, ms = 3000): Promise<string> {
    await waitFor(() => this.received.includes(suffix), JSON.stringify(suffix) + ' after ' + JSON.stringify(this.received.slice(-200)), ms);
    const r = this.received;
    this.received = '';
    return r;
  }

  async whenClosed(ms = 3000): Promise<string> {
    await waitFor(() => this.closed, 'the server to close the connection', ms);
    return this.received;
  }

  close(): void {
    this.socket.destroy();
  }
}

export interface HttpReply { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer; text: string; json: () => Record<string, unknown> }

/** One HTTP request to 127.0.0.1:port (headers as given; Host defaults to 127.0.0.1:port). */
export async function httpReq(port: number, method: string, path: string, opts: { headers?: Record<string, string>; body?: Buffer | string } = {}): Promise<HttpReply> {
  const { request } = await import('node:http');
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: opts.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        done({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString(), json: () => JSON.parse(body.toString()) as Record<string, unknown> });
      });
    });
    req.on('error', fail);
    req.end(opts.body);
  });
}
