// A back-end that dies during a membership change (issue 13): a real cluster — 4 back-end
// processes, R = 3, on loopback — under load from 8 HTTP clients. A new back-end is added and
// SIGKILLed while its join runs (once in the pre-copy, once as late in the join as the test
// can see: insert or final); each join must be abandoned and every chain repaired. Then node 3
// is killed: its failure must be repaired at once (no change left waiting), and puts must
// succeed again within a bounded time of its detection. A hand-made peer hello from loopback
// (a "node" that joins and never answers) must be failed by the heartbeats and its join
// abandoned. Node 3 restarts and rejoins. The whole client history goes through the
// per-key linearizability checker (checkHistory). The clients' choices print their seed.
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HistoryLoad, waitFor } from './clusterhist.js';
import { clusterView, settled, startCluster, stopCluster, waitReady, type ClusterProc } from './clusterproc.js';
import type { ClusterViewWire } from '../wire/cluster.js';
import { encodeFrame } from './frames.js';
import { encodeHello } from './hello.js';
import { loadKvHost } from './kvcore.js';

const KEYS = 40;
const CLIENTS = 8;
/** How soon after a failure is declared every chain must be repaired and no change run. */
const REPAIR_MS = 5_000;

/** Whether `id` is failed, no change runs, and no chain holds it. */
function gone(v: ClusterViewWire, id: number): boolean {
  return v.nodes.find((x) => x.id === id)?.state === 'failed' && settled(v) && v.chains.every((ch) => !ch.chain.includes(id));
}

/** Polls /cluster fast until a running change copies to `id` in one of `phases`; the phase seen, or null if the join ended first. */
async function joinPhase(http: string, id: number, phases: string[], ms: number): Promise<string | null> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const v = await clusterView(http);
    const t = v.changes.find((c) => c.joiner === id && phases.includes(c.phase));
    if (t) return t.phase;
    if (v.nodes.find((x) => x.id === id)?.state === 'up') return null;
    await new Promise((r) => setTimeout(r, 5));
  }
  return null;
}

describe('the real cluster when a back-end dies during a membership change', () => {
  it('abandons the join, repairs a later failure at once, fails a silent joiner, and passes the checker', async () => {
    const seed = Number(process.env.FAWNLAB_TEST_SEED ?? Date.now() % 1_000_000);
    console.log(`join-kill test seed=${seed} (FAWNLAB_TEST_SEED to replay the clients' choices)`);
    const core = await loadKvHost();
    const dir = mkdtempSync(join(tmpdir(), 'fawnlab-joinkill-'));
    let c: ClusterProc | null = null;
    const silent = createServer(() => { /* accepts, never answers */ });
    try {
      c = await startCluster(['--nodes', '4', '--replicas', '3'], dir);
      const http = c.http;
      const base = `http://${http}`;
      const post = (path: string) => fetch(`${base}${path}`, { method: 'POST', headers: { origin: base } });
      await waitReady(http, 4, 40_000);
      console.log('join-kill: cluster ready');
      const load = new HistoryLoad(http, seed, KEYS, CLIENTS);
      load.start();
      await new Promise((r) => setTimeout(r, 1500));
      // 1. Add a node and kill it while it joins, twice.
      const seen: string[] = [];
      for (const phases of [['precopy'], ['insert', 'final']]) {
        const add = await post('/cluster/nodes');
        expect(add.status).toBe(200);
        const id = (await add.json() as { id: number }).id;
        console.log(`join-kill: node ${id} added`);
        const phase = await joinPhase(http, id, phases, 20_000);
        const kill = await post(`/cluster/nodes/${id}/kill`);
        expect(kill.status).toBe(200);
        seen.push(`node ${id}: ${phase ?? `joined before ${phases.join('/')} was seen`}`);
        await waitFor(`node ${id} failed, its join abandoned, every chain repaired`, 20_000, async () => gone(await clusterView(http), id));
      }
      console.log(`join-kill: killed while joining — ${seen.join('; ')}`);
      expect(seen[0]).toMatch(/precopy/);
      // 2. Kill node 3: detected, repaired at once, puts flow again.
      expect(await post('/cluster/nodes/3/kill').then((r) => r.status)).toBe(200);
      await waitFor('node 3 declared failed', 20_000, async () => (await clusterView(http)).nodes.find((x) => x.id === 3)?.state === 'failed');
      const detected = load.now();
      await waitFor('node 3 repaired out of every chain', REPAIR_MS, async () => gone(await clusterView(http), 3));
      const repaired = load.now();
      await new Promise((r) => setTimeout(r, 4000));
      const after = load.puts(repaired + 500e6, load.now() - 2100e6);  // puts that had their 2 s to answer
      console.log(`join-kill: node 3 repaired ${((repaired - detected) / 1e6).toFixed(0)} ms after its failure was declared; ` +
        `then ${after.acked}/${after.issued} puts acknowledged`);
      expect(after.issued).toBeGreaterThan(0);
      expect(after.acked).toBe(after.issued);
      // 3. A peer that says hello from loopback, is given an id, joins, and never answers.
      await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
      const front = (await clusterView(http)).nodes.find((x) => x.role === 'frontend')!;
      const [host, port] = [front.peer!.slice(0, front.peer!.lastIndexOf(':')), Number(front.peer!.slice(front.peer!.lastIndexOf(':') + 1))];
      const sock = createConnection({ host, port });
      sock.on('error', () => { /* the front-end may close it */ });
      const before = new Set((await clusterView(http)).nodes.map((x) => x.id));
      sock.write(encodeFrame(encodeHello({ from: -1, listen: `127.0.0.1:${(silent.address() as AddressInfo).port}` })));
      let fake = -1;
      await waitFor('the silent peer added to the ring', 10_000, async () => {
        fake = (await clusterView(http)).nodes.find((x) => x.role === 'backend' && !before.has(x.id))?.id ?? -1;
        return fake >= 0;
      });
      await waitFor(`the silent peer ${fake} failed and its join abandoned`, 20_000, async () => gone(await clusterView(http), fake));
      sock.destroy();
      // 4. Node 3 comes back and rejoins.
      expect(await post('/cluster/nodes/3/restart').then((r) => r.status)).toBe(200);
      await waitFor('node 3 up again and every chain of length 3', 30_000, async () => {
        const v = await clusterView(http);
        return v.nodes.find((x) => x.id === 3)?.state === 'up' && settled(v) && v.chains.every((ch) => ch.chain.length === 3);
      });
      await load.stop();
      expect(await load.finalReads()).toEqual([]);
      const report = load.check(core.checkHistory!);
      expect(report.error).toBeUndefined();
      console.log(`join-kill: ${report.operations} operations checked (${load.acknowledgedWrites()} acknowledged writes), 2 joins killed, ` +
        `1 failure, 1 silent joiner, 1 restart; checker: ${report.violations} violations`);
      expect(report.details).toEqual([]);
      expect(report.violations).toBe(0);
      expect(report.undetermined_keys).toBe(0);
    } finally {
      silent.close();
      if (c) await stopCluster(c.proc);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
