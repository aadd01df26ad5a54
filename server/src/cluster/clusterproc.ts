/**
 * A `fawnlab cluster` child process for the benchmark and the integration tests: start it on
 * free loopback ports (it prints them), read its view (GET /cluster, checked against the wire
 * contract), wait until every back-end is up and no membership change runs, stop it (SIGINT,
 * then SIGKILL after 5 s).
 */
import { resolve } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT } from '../core.js';
import { parseClusterView, type ClusterViewWire } from '../wire/cluster.js';

// The built CLI (also when this module runs from its TypeScript source under Vitest).
const CLI = resolve(ROOT, 'server/dist/cli.js');

export interface ClusterProc {
  proc: ChildProcess;
  /** host:port of the HTTP API and of the memcached port. */
  http: string;
  mc: string;
}

/** Starts `fawnlab cluster <args> --port 0 --memcached-port 0 --data dir`; resolves once it printed its ports. */
export function startCluster(args: string[], dir: string, onLog?: (line: string) => void): Promise<ClusterProc> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [CLI, 'cluster', ...args, '--port', '0', '--memcached-port', '0', '--data', dir],
      { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /http:\/\/([^/\s]+)\/\s+memcached\s+(\S+)/.exec(out);
      if (m) resolve({ proc, http: m[1]!, mc: m[2]! });
    });
    proc.stderr!.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-4000);
      onLog?.(d.toString());
    });
    proc.on('exit', (code) => reject(new Error(`fawnlab cluster exited (${code}) before it was ready:\n${err}`)));
  });
}

/** GET /cluster, parsed against the wire contract (a view that breaks it throws, naming the field). */
export async function clusterView(http: string): Promise<ClusterViewWire> {
  const v = parseClusterView(await (await fetch(`http://${http}/cluster`)).json());
  if (typeof v === 'string') throw new Error(`GET /cluster broke the wire contract: ${v}`);
  return v;
}

/** Whether no membership change runs (finished ones stay listed, phase "done"). */
export function settled(v: ClusterViewWire): boolean {
  return v.changes.every((c) => c.phase === 'done');
}

/** Waits until `nodes` back-ends are up and no membership change runs. */
export async function waitReady(http: string, nodes: number, timeoutMs = 120_000): Promise<ClusterViewWire> {
  const until = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < until) {
    try {
      const v = await clusterView(http);
      const up = v.nodes.filter((n) => n.role === 'backend' && n.state === 'up').length;
      const running = v.changes.filter((c) => c.phase !== 'done').length;
      last = `${up}/${nodes} back-ends up, ${running} membership changes running`;
      if (up === nodes && running === 0) return v;
    } catch (e) {
      last = String(e);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the cluster did not settle in ${timeoutMs / 1000} s (${last})`);
}

export async function stopCluster(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGINT');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
}
