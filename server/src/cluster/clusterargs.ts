/**
 * The command lines of the real cluster, parsed and checked (args.ts does the tokenising):
 *   fawnlab cluster --nodes N --replicas R [--vids V] [--port P] [--memcached-port M]
 *                   [--peer-port Q] [--data DIR] [--host H --token T] [--file-mb F]
 *                   [--recover-timeout S] [--fresh]
 *   fawnlab node (--join HOST:PORT | --frontend HOST:PORT [--id I]) --data DIR [--token T]
 *                [--listen HOST[:PORT]]
 * Each bad value gets an error naming the option and the accepted range. A token may also
 * come from the FAWNLAB_TOKEN environment variable (how the front-end hands it to the
 * back-ends it spawns, so it is not visible in `ps`).
 */
import { resolve } from 'node:path';
import { parseArgs, UsageError } from '../args.js';
import { isLoopback } from '../http.js';
import { MAX_BACKEND_ID, parseHostPort } from './hello.js';

export const CLUSTER_USAGE = 'usage: fawnlab cluster --nodes N --replicas R [--vids V] [--port P] [--memcached-port M] '
  + '[--peer-port Q] [--data DIR] [--host H --token T] [--file-mb F] [--recover-timeout S] [--fresh]';
export const NODE_USAGE = 'usage: fawnlab node --join HOST:PORT --data DIR [--token T] [--listen HOST[:PORT]]';

export interface ClusterArgs {
  nodes: number;
  replicas: number;
  vids: number;
  port: number;
  memcachedPort: number;
  peerPort: number;
  dataDir: string;
  host: string;
  token?: string;
  fileBytes: number;        // each FAWN-DS store's file; a back-end's card.img holds about 2·R·V + 4 of them
  recoverMs: number;        // a restored ring waits this long for its back-ends (--recover-timeout, seconds)
  fresh: boolean;           // discard DIR/frontend/ring.json and start with an empty ring
}

export interface NodeArgs {
  frontend: { host: string; port: number };
  id: number | null;        // null: ask the front-end (or reuse the id saved in the data dir)
  dataDir: string;
  token?: string;
  listenHost: string;
  listenPort: number;       // 0: any free port
}

/** The integer option `--name` in [lo, hi] (`dflt` when absent; required when dflt is undefined). */
export function int(args: Map<string, string>, name: string, dflt: number | undefined, lo: number, hi: number): number {
  const raw = args.get(name);
  if (raw === undefined) {
    if (dflt === undefined) throw new UsageError(`--${name} is required`);
    return dflt;
  }
  if (!/^\d+$/.test(raw) || Number(raw) < lo || Number(raw) > hi) throw new UsageError(`--${name} must be an integer in [${lo}, ${hi}], got '${raw}'`);
  return Number(raw);
}

function token(options: Map<string, string>, env: NodeJS.ProcessEnv): string | undefined {
  const t = options.get('token') ?? env.FAWNLAB_TOKEN;
  if (t !== undefined && (t.length < 8 || /\s/.test(t))) throw new UsageError('--token must be at least 8 characters with no spaces');
  return t;
}

export function parseClusterArgs(argv: string[], env: NodeJS.ProcessEnv = {}): ClusterArgs {
  const a = parseArgs(argv, { options: ['nodes', 'replicas', 'vids', 'port', 'memcached-port', 'peer-port', 'data', 'host', 'token', 'file-mb', 'recover-timeout'],
    flags: ['fresh'] });
  if (a.positionals.length) throw new UsageError(`unexpected argument '${a.positionals[0]}'`);
  const o = a.options;
  const nodes = int(o, 'nodes', 4, 1, 256);
  const replicas = int(o, 'replicas', 3, 1, 16);
  if (replicas > nodes) throw new UsageError(`--replicas ${replicas} needs at least ${replicas} --nodes (got ${nodes})`);
  const port = int(o, 'port', 8200, 0, 65535);
  const out: ClusterArgs = {
    nodes, replicas, port,
    vids: int(o, 'vids', 2, 1, 64),
    memcachedPort: int(o, 'memcached-port', 11311, 0, 65535),
    peerPort: int(o, 'peer-port', port === 0 ? 0 : Math.min(65535, port + 1), 0, 65535),
    dataDir: resolve(o.get('data') ?? 'fawnlab-data'),
    host: o.get('host') ?? '127.0.0.1',
    fileBytes: int(o, 'file-mb', 16, 1, 1024) * 1024 * 1024,
    recoverMs: int(o, 'recover-timeout', 10, 1, 3600) * 1000,
    fresh: a.flags.has('fresh'),
  };
  const t = token(o, env);
  if (t !== undefined) out.token = t;
  if (!isLoopback(out.host) && t === undefined) throw new UsageError(`listening on ${out.host} (beyond this machine) requires --token <secret>`);
  const ports = [out.port, out.memcachedPort, out.peerPort].filter((p) => p !== 0);
  if (new Set(ports).size !== ports.length) throw new UsageError(`--port, --memcached-port and --peer-port must differ (got ${out.port}, ${out.memcachedPort}, ${out.peerPort})`);
  return out;
}

export function parseNodeArgs(argv: string[], env: NodeJS.ProcessEnv = {}): NodeArgs {
  const a = parseArgs(argv, { options: ['join', 'frontend', 'id', 'data', 'token', 'listen'] });
  if (a.positionals.length) throw new UsageError(`unexpected argument '${a.positionals[0]}'`);
  const o = a.options;
  if (o.has('join') === o.has('frontend')) throw new UsageError('give the front-end\'s peer address with --join HOST:PORT');
  const fe = parseHostPort(o.get('join') ?? o.get('frontend')!);
  if (typeof fe === 'string') throw new UsageError(`--join: ${fe}`);
  const data = o.get('data');
  if (!data) throw new UsageError('--data DIR is required (the back-end keeps its stores there)');
  const id = o.has('id') ? int(o, 'id', undefined, 0, MAX_BACKEND_ID) : null;
  let listenHost = isLoopback(fe.host) ? '127.0.0.1' : '0.0.0.0';
  let listenPort = 0;
  const listen = o.get('listen');
  if (listen !== undefined) {
    const withPort = parseHostPort(listen);
    const hp = typeof withPort !== 'string' ? withPort : /^([A-Za-z0-9.-]+|[0-9a-fA-F:]+)$/.test(listen) ? { host: listen, port: 0 } : null;
    if (hp === null) throw new UsageError(`--listen must be HOST or HOST:PORT, got '${listen}'`);
    listenHost = hp.host;
    listenPort = hp.port;
  }
  const out: NodeArgs = { frontend: fe, id, dataDir: resolve(data), listenHost, listenPort };
  const t = token(o, env);
  if (t !== undefined) out.token = t;
  if (!isLoopback(listenHost) && t === undefined) throw new UsageError(`listening on ${listenHost} (beyond this machine) requires --token <secret>`);
  return out;
}
