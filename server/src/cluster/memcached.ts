/**
 * The front-end's memcached port (text protocol subset, mcparse.ts) over a KvClient.
 * Replies are memcached's: VALUE/END, STORED, DELETED, NOT_FOUND, ERROR, CLIENT_ERROR msg,
 * SERVER_ERROR msg (a cluster failure or timeout; memcached's own `SERVER_ERROR out of memory
 * storing object` when the store had no room, the write not applied). Commands on one connection run in order;
 * reading pauses while many are queued or replies are not being read. Values carry the
 * client's flags ([u32 flags][data], values.ts). Expiry is not supported: a set with an
 * exptime other than 0 gets SERVER_ERROR (FAWN-KV keeps a value until it is deleted).
 *
 * With a token (listening beyond loopback), the first command must be memcached's text-
 * protocol authentication: a `set` of any key whose data is "<username> <token>" (answered
 * STORED); anything else gets CLIENT_ERROR unauthenticated and the connection is closed.
 * A partial command that stalls for CLIENT_IDLE_TIMEOUT_MS (slow-loris), or a connection idle
 * for ten times that, is closed.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { sameToken } from '../http.js';
import type { ConnectionGate } from './gate.js';
import type { KvClient, KvResult } from './kvcore.js';
import { CLIENT_IDLE_TIMEOUT_MS } from './limits.js';
import { McParser, type McCommand } from './mcparse.js';
import { packValue, unpackValue } from './values.js';

export interface McServerOptions {
  kv: KvClient;
  version: string;
  gate: ConnectionGate;
  log: (line: string) => void;
  token?: string;
  idleTimeoutMs?: number;
}

const MAX_QUEUED = 64;
const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').slice(0, 500);

/**
 * The `version` answer: memcached's protocol version first, as libmemcached parses it (major,
 * minor and micro numbers, major ≥ 1; "fawnlab-0.1.0" fails its parse and the client reports
 * the server broken), then this server's own.
 */
export function versionLine(version: string): string {
  return `VERSION 1.4.0-fawnlab-${version}`;
}

/** memcached's words for a failed request: its own where it has them (out of memory, too large). */
function serverError(r: KvResult): string {
  if (r.failure === 'no-space') return 'SERVER_ERROR out of memory storing object';
  if (r.failure === 'too-large') return 'SERVER_ERROR object too large for cache';
  return `SERVER_ERROR ${oneLine(r.error)}`;
}

/** The memcached port's server; `destroyConnections()` drops every client (for shutdown). */
export function createMemcachedServer(o: McServerOptions): Server & { destroyConnections(): void } {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    if (!o.gate.admit(socket, 'memcached')) return;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    serveConnection(socket, o);
  });
  return Object.assign(server, {
    destroyConnections: () => {
      for (const s of sockets) s.destroy();
    },
  });
}

function serveConnection(socket: Socket, o: McServerOptions): void {
  const parser = new McParser();
  const idleMs = o.idleTimeoutMs ?? CLIENT_IDLE_TIMEOUT_MS;
  let authed = o.token === undefined;
  let chain: Promise<void> = Promise.resolve();
  let queued = 0;
  let partialSince: number | null = null;
  let closing = false;

  const write = (s: string | Buffer) => {
    if (!socket.destroyed && !closing) socket.write(s);
  };
  const close = () => {
    closing = true;
    socket.end();
    setTimeout(() => socket.destroy(), 1000).unref();
  };
  const stalled = () => partialSince !== null && Date.now() - partialSince > idleMs;

  const run = async (cmd: McCommand): Promise<void> => {
    if (closing) return;
    if (!authed) return authenticate(cmd);
    switch (cmd.type) {
      case 'error':
        write(cmd.reply + '\r\n');
        if (cmd.close) close();
        return;
      case 'quit':
        return close();
      case 'version':
        return write(`${versionLine(o.version)}\r\n`);
      case 'get': {
        const r = cmd.keys.length === 1 ? await o.kv.get(cmd.keys[0]!) : await o.kv.multiget(cmd.keys);
        if (!r.ok) return write(`${serverError(r)}\r\n`);
        const found = cmd.keys.length === 1 ? [{ found: r.found, value: r.value }] : r.values;
        const parts: Buffer[] = [];
        cmd.keys.forEach((key, i) => {
          const v = found[i];
          if (!v?.found) return;
          const { flags, data } = unpackValue(v.value);
          parts.push(Buffer.from(`VALUE ${key.toString('latin1')} ${flags} ${data.length}\r\n`, 'latin1'), data, Buffer.from('\r\n'));
        });
        parts.push(Buffer.from('END\r\n'));
        return write(Buffer.concat(parts));
      }
      case 'set': {
        let reply: string;
        if (cmd.exptime !== 0) reply = 'SERVER_ERROR expiration times are not supported (FAWN-KV keeps values until deleted); use 0';
        else {
          const r = await o.kv.put(cmd.key, packValue(cmd.flags, cmd.data));
          reply = r.ok ? 'STORED' : serverError(r);
        }
        if (!cmd.noreply) write(reply + '\r\n');
        return;
      }
      case 'delete': {
        const r = await o.kv.del(cmd.key);
        if (!cmd.noreply) write(`${!r.ok ? serverError(r) : r.found ? 'DELETED' : 'NOT_FOUND'}\r\n`);
        return;
      }
    }
  };

  const authenticate = (cmd: McCommand): void => {
    if (cmd.type === 'quit') return close();
    const m = cmd.type === 'set' ? /^\S+ (\S+)$/.exec(cmd.data.toString('latin1')) : null;
    if (cmd.type !== 'set') write('CLIENT_ERROR unauthenticated\r\n');
    else if (m && sameToken(m[1], o.token!)) {
      authed = true;
      write('STORED\r\n');
      return;
    } else write('CLIENT_ERROR authentication failure\r\n');
    o.log(`memcached: closed an unauthenticated connection from ${socket.remoteAddress}`);
    close();
  };

  socket.setNoDelay(true);
  let lastData = Date.now();
  const tick = setInterval(() => {
    const idle = partialSince === null && queued === 0 && Date.now() - lastData > 10 * idleMs;
    if (stalled() || idle) {
      o.log(`memcached: closed ${idle ? 'an idle connection' : 'a stalled partial command'} from ${socket.remoteAddress}`);
      socket.destroy();
    }
  }, Math.max(10, Math.floor(idleMs / 2)));
  tick.unref();
  socket.on('close', () => clearInterval(tick));
  socket.on('data', (chunk: Buffer) => {
    lastData = Date.now();
    const cmds = parser.push(chunk);
    partialSince = !parser.partial ? null : cmds.length > 0 || partialSince === null ? Date.now() : partialSince;
    if (stalled()) {
      o.log(`memcached: closed a partial command trickling in for over ${idleMs} ms from ${socket.remoteAddress}`);
      socket.destroy();
      return;
    }
    for (const cmd of cmds) {
      queued++;
      chain = chain.then(() => run(cmd)).catch((e: unknown) => {
        write(`SERVER_ERROR ${oneLine(String(e))}\r\n`);
      }).finally(() => {
        queued--;
        if (queued < MAX_QUEUED / 2 && socket.isPaused() && socket.writableLength < 4 << 20) socket.resume();
      });
    }
    if (queued >= MAX_QUEUED || socket.writableLength >= 4 << 20) socket.pause();
  });
  socket.on('drain', () => {
    if (queued < MAX_QUEUED / 2) socket.resume();
  });
  socket.on('error', () => {});
}
