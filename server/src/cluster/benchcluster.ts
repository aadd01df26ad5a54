/**
 * `npm run bench:cluster`: the real cluster measured from outside. Starts `fawnlab cluster`
 * (4 back-end processes, R = 3 by default) on free loopback ports in a temporary data
 * directory, waits until every back-end is up and no membership change runs, loads `keys`
 * values over the memcached port, then for each multiget width runs a SEPARATE load process
 * (`fawnlab bench-load`) that keeps `connections` memcached connections busy, each with one
 * request outstanding (closed loop), for `seconds` after a one-second warm-up. Prints a table:
 * requests/s, keys/s, p50 and p99 latency (ms) per width, and each run's JSON. The cluster is
 * stopped and its directory removed at the end, also on failure.
 *
 * The vector-I/O claim under test (thesis ch. 5–6): a multiget of 16 keys costs the client,
 * the front-end and each back-end one request instead of 16, so keys/s rise with the width
 * while requests/s fall less than 16-fold.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, UsageError } from '../args.js';
import { int } from './clusterargs.js';
import { startCluster, stopCluster, waitReady } from './clusterproc.js';
import { Rng } from './loadgen.js';
import { McConn } from './mcconn.js';
import { percentile } from './status.js';
import { ROOT } from '../core.js';

const USAGE = 'usage: fawnlab bench-cluster [--nodes 4] [--replicas 3] [--seconds 8] [--connections 8] [--keys 20000] '
  + '[--value-bytes 256] [--widths 1,16] [--seed 1]';
// The built CLI (also when this module runs from its TypeScript source under Vitest).
const CLI = resolve(ROOT, 'server/dist/cli.js');

export interface LoadResult {
  width: number;
  connections: number;
  seconds: number;
  requests: number;
  keys: number;
  found: number;
  errors: number;
  requestsPerS: number;
  keysPerS: number;
  p50Ms: number;
  p99Ms: number;
  seed: number;
}

/** `fawnlab bench-load --memcached HOST:PORT --width W …`: the load process; prints one JSON line. */
export async function benchLoadMain(argv: string[]): Promise<number> {
  const a = parseArgs(argv, { options: ['memcached', 'width', 'seconds', 'connections', 'keys', 'seed'] });
  const o = a.options as Map<string, string>;
  const addr = /^([^:]+):(\d+)$/.exec(o.get('memcached') ?? '');
  if (!addr) throw new UsageError('--memcached HOST:PORT is required');
  const width = int(o, 'width', 1, 1, 256);
  const seconds = int(o, 'seconds', 8, 1, 3600);
  const connections = int(o, 'connections', 8, 1, 200);
  const keys = int(o, 'keys', 20000, 1, 10_000_000);
  const seed = int(o, 'seed', 1, 0, 2 ** 31);
  const conns = await Promise.all(Array.from({ length: connections }, () => McConn.open(addr[1]!, Number(addr[2]))));
  const lat: number[] = [];
  let requests = 0, keysRead = 0, found = 0, errors = 0, measuring = false, stop = false;
  const loop = async (c: McConn, i: number) => {
    const rng = new Rng(seed * 1000 + i);
    while (!stop) {
      const picked = new Set<number>();  // distinct keys: a multiget answers each key once
      while (picked.size < Math.min(width, keys)) picked.add(Math.floor(rng.next() * keys));
      const ks = [...picked].map((k) => `k${k}`);
      const t0 = process.hrtime.bigint();
      try {
        const got = await c.get(ks);
        if (measuring) {
          lat.push(Number(process.hrtime.bigint() - t0) / 1e6);
          requests++;
          keysRead += ks.length;
          found += got.size;
        }
      } catch {
        if (measuring) errors++;
      }
    }
  };
  const loops = conns.map((c, i) => loop(c, i));
  await new Promise((r) => setTimeout(r, 1000));
  measuring = true;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  measuring = false;
  const elapsed = (performance.now() - t0) / 1000;
  stop = true;
  await Promise.all(loops);
  for (const c of conns) c.close();
  lat.sort((x, y) => x - y);
  const res: LoadResult = {
    width, connections, seconds: elapsed, requests, keys: keysRead, found, errors,
    requestsPerS: requests / elapsed, keysPerS: keysRead / elapsed, p50Ms: percentile(lat, 0.5), p99Ms: percentile(lat, 0.99), seed,
  };
  process.stdout.write(`${JSON.stringify(res)}\n`);
  return 0;
}

function runLoad(mc: string, width: number, o: { seconds: number; connections: number; keys: number; seed: number }): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [CLI, 'bench-load', '--memcached', mc, '--width', String(width), '--seconds', String(o.seconds),
      '--connections', String(o.connections), '--keys', String(o.keys), '--seed', String(o.seed)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
    p.on('exit', (code) => {
      try {
        if (code !== 0) throw new Error(`bench-load exited with ${code}`);
        resolve(JSON.parse(out.trim().split('\n').at(-1)!) as LoadResult);
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
  });
}

export async function benchClusterMain(argv: string[]): Promise<number> {
  let o: Map<string, string>;
  try {
    o = parseArgs(argv, { options: ['nodes', 'replicas', 'seconds', 'connections', 'keys', 'value-bytes', 'widths', 'seed'] }).options as Map<string, string>;
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`error: ${e.message}\n${USAGE}\n`);
    return 2;
  }
  const nodes = int(o, 'nodes', 4, 1, 32);
  const replicas = int(o, 'replicas', 3, 1, nodes);
  const load = { seconds: int(o, 'seconds', 8, 1, 600), connections: int(o, 'connections', 8, 1, 200),
    keys: int(o, 'keys', 20000, 1, 1_000_000), seed: int(o, 'seed', 1, 0, 2 ** 31) };
  const valueBytes = int(o, 'value-bytes', 256, 1, 1 << 20);
  const widths = (o.get('widths') ?? '1,16').split(',').map((w) => {
    const v = Number(w);
    if (!Number.isInteger(v) || v < 1 || v > 256) throw new UsageError(`--widths: '${w}' is not a width in 1…256`);
    return v;
  });
  const dir = mkdtempSync(join(tmpdir(), 'fawnlab-bench-'));
  let cluster: ChildProcess | null = null;
  try {
    process.stderr.write(`bench:cluster: starting ${nodes} back-ends, R=${replicas} (data in ${dir})…\n`);
    const c = await startCluster(['--nodes', String(nodes), '--replicas', String(replicas)], dir);
    cluster = c.proc;
    await waitReady(c.http, nodes);
    process.stderr.write(`bench:cluster: loading ${load.keys} values of ${valueBytes} B over memcached ${c.mc}…\n`);
    const [host, port] = [c.mc.slice(0, c.mc.lastIndexOf(':')), Number(c.mc.slice(c.mc.lastIndexOf(':') + 1))];
    const conn = await McConn.open(host, port);
    const value = Buffer.alloc(valueBytes, 0x61);
    for (let i = 0; i < load.keys; i += 200) {
      const batch = [];
      for (let k = i; k < Math.min(load.keys, i + 200); k++) batch.push(conn.set(`k${k}`, value));
      await Promise.all(batch);
    }
    conn.close();
    const results: LoadResult[] = [];
    for (const w of widths) {
      process.stderr.write(`bench:cluster: multiget width ${w}: ${load.connections} connections, ${load.seconds} s…\n`);
      results.push(await runLoad(c.mc, w, load));
    }
    const f = (v: number, d = 0) => v.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
    process.stdout.write(`\nreal cluster: ${nodes} back-ends, R=${replicas}, ${load.keys} keys of ${valueBytes} B, `
      + `${load.connections} closed-loop memcached connections from a separate process, ${load.seconds} s each\n\n`);
    process.stdout.write('| multiget width | requests/s | keys/s | p50 ms | p99 ms | keys found | errors |\n|---|---|---|---|---|---|---|\n');
    for (const r of results) {
      process.stdout.write(`| ${r.width} | ${f(r.requestsPerS)} | ${f(r.keysPerS)} | ${f(r.p50Ms, 2)} | ${f(r.p99Ms, 2)} | `
        + `${f(r.found)}/${f(r.keys)} | ${r.errors} |\n`);
    }
    if (results.length >= 2) {
      process.stdout.write(`\nkeys/s at width ${results.at(-1)!.width} over width ${results[0]!.width}: `
        + `${(results.at(-1)!.keysPerS / results[0]!.keysPerS).toFixed(2)}×\n`);
    }
    process.stdout.write(`\n${JSON.stringify(results)}\n`);
    const lost = results.some((r) => r.found !== r.keys || r.errors > 0);
    if (lost) process.stderr.write('bench:cluster: some keys were not found or requests failed (see the table)\n');
    return lost ? 1 : 0;
  } finally {
    if (cluster) await stopCluster(cluster);
    rmSync(dir, { recursive: true, force: true });
  }
}
