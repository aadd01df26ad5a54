/**
 * The inbound peer port: accepts TCP connections from other nodes, at most
 * PEER_CONNECTIONS_MAX at once. The first frame must be a hello (hello.ts) within
 * HELLO_TIMEOUT_MS and HELLO_MAX_BYTES (so a stranger cannot make it hold a 16 MiB frame),
 * carrying the cluster's token when there is one; `onHello` then admits the
 * connection (and may answer on it with `reply`) or refuses it. After that, codec frames go
 * to `onFrame` with the endpoint the hello named. Anything else (a bad length, a frame that is
 * neither JSON nor codec, a bad hello) closes that connection with a log line naming the
 * peer; it never affects other connections.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { sameToken } from '../http.js';
import { encodeFrame, frameKind, FrameReader } from './frames.js';
import { parseHello, type Hello } from './hello.js';
import { FRAME_MAX_BYTES, HELLO_MAX_BYTES, HELLO_TIMEOUT_MS, PEER_CONNECTIONS_MAX } from './limits.js';

export interface PeerConn {
  readonly remote: string;   // the socket's remote address (host only)
  from: number;              // the endpoint the hello named (the admitted one after onHello)
  /** Sends a control frame back on this connection. */
  reply(payload: Uint8Array): void;
  close(): void;
}

export interface PeerServerOptions {
  token?: string;
  log: (line: string) => void;
  /** Admits a connection (returning the endpoint it speaks for) or refuses it (an error). */
  onHello: (hello: Hello, conn: PeerConn) => { from: number } | { error: string };
  onFrame: (from: number, payload: Buffer, conn: PeerConn) => void;
  onClose?: (conn: PeerConn) => void;
  maxConnections?: number;
  helloTimeoutMs?: number;
}

export type PeerServer = Server & { destroyConnections(): void };

/** The peer port's server; `destroyConnections()` drops every open connection (for shutdown). */
export function createPeerServer(o: PeerServerOptions): PeerServer {
  let open = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket: Socket) => {
    const remote = socket.remoteAddress ?? '?';
    if (open >= (o.maxConnections ?? PEER_CONNECTIONS_MAX)) {
      o.log(`peer port: refusing a connection from ${remote}: ${open} connections already open`);
      socket.destroy();
      return;
    }
    open++;
    sockets.add(socket);
    socket.setNoDelay(true);
    let admitted = false;
    const conn: PeerConn = {
      remote,
      from: NaN,
      reply: (payload) => {
        if (!socket.destroyed) socket.write(encodeFrame(payload));
      },
      close: () => socket.destroy(),
    };
    const who = () => (admitted ? `peer ${conn.from} (${remote})` : `a peer at ${remote}`);
    const fail = (why: string) => {
      o.log(`${who()}: ${why}; closing the connection`);
      socket.destroy();
    };
    const helloTimer = setTimeout(() => fail(`no hello within ${o.helloTimeoutMs ?? HELLO_TIMEOUT_MS} ms`), o.helloTimeoutMs ?? HELLO_TIMEOUT_MS);
    const reader = new FrameReader(HELLO_MAX_BYTES); // no more until the hello is admitted
    socket.on('data', (chunk: Buffer) => {
      reader.append(chunk);
      // One frame at a time: the hello raises the size limit for the frames behind it,
      // which may have arrived in the same chunk.
      for (;;) {
        let f: Buffer | null;
        try {
          f = reader.next();
        } catch (e) {
          fail((e as Error).message);
          return;
        }
        if (f === null || socket.destroyed) return;
        const kind = frameKind(f);
        if (!admitted) {
          if (kind !== 'json') return fail('the first frame is not a hello');
          const hello = parseHello(f);
          if (typeof hello === 'string') return fail(hello);
          if (o.token !== undefined && !sameToken(hello.token, o.token)) return fail('hello without the cluster token');
          conn.from = hello.from;
          const r = o.onHello(hello, conn);
          if ('error' in r) return fail(r.error);
          conn.from = r.from;
          admitted = true;
          reader.maxBytes = FRAME_MAX_BYTES;
          clearTimeout(helloTimer);
        } else if (kind === 'codec') {
          o.onFrame(conn.from, f, conn);
        } else {
          return fail(kind === 'json' ? 'a second hello' : `a frame that starts with byte ${f[0]}`);
        }
      }
    });
    socket.on('error', () => {}); // 'close' follows; resets are normal when a node dies
    socket.on('close', () => {
      open--;
      sockets.delete(socket);
      clearTimeout(helloTimer);
      if (admitted) o.onClose?.(conn);
    });
  });
  return Object.assign(server, {
    destroyConnections: () => {
      for (const s of sockets) s.destroy();
    },
  });
}
