// Whole-cluster restart (issue 6): a real cluster — 3 back-end processes, R = 3, on loopback —
// takes puts and deletes, is stopped with SIGINT and started again on the same data directory:
// the front-end restores DIR/frontend/ring.json, every back-end serves its ranges from the
// stores it recovered, and every acknowledged put reads back while deleted keys stay deleted.
// Then more writes, SIGKILL of every process (front-end and back-ends at once), and the same
// check. A corrupt ring.json stops the start with an error naming the file; --fresh discards it.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clusterView, startCluster, stopCluster, waitReady, type ClusterProc } from './clusterproc.js';

const ARGS = ['--nodes', '3', '--replicas', '3', '--recover-timeout', '20'];

/** Expected state: key → value, or null for a deleted key. */
type Model = Map<string, string | null>;

async function write(http: string, model: Model, keys: number, tag: string, deleteEvery: number): Promise<void> {
  const base = `http://${http}`;
  for (let i = 0; i < keys; i++) {
    const k = `key-${i}`;
    const v = `${tag}-${i}-${'x'.repeat(i % 50)}`;
    const r = await fetch(`${base}/kv/${k}`, { method: 'PUT', body: v });
    expect(r.status, `PUT ${k}: ${await r.clone().text()}`).toBe(200);
    model.set(k, v);
  }
  for (let i = 0; i < keys; i += deleteEvery) {
    const k = `key-${i}`;
    const r = await fetch(`${base}/kv/${k}`, { method: 'DELETE' });
    expect(r.status, `DELETE ${k}`).toBe(200);
    model.set(k, null);
  }
}

async function expectModel(http: string, model: Model): Promise<void> {
  const bad: string[] = [];
  for (const [k, v] of model) {
    const r = await fetch(`http://${http}/kv/${k}`);
    const body = await r.text();
    if (v === null ? r.status !== 404 : r.status !== 200 || body !== v) bad.push(`${k}: ${r.status} ${body.slice(0, 40)} (expected ${v === null ? 'deleted' : v.slice(0, 40)})`);
  }
  expect(bad, `${bad.length} of ${model.size} keys wrong`).toEqual([]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('a whole-cluster restart', () => {
  it('keeps every acknowledged put and delete across SIGINT and across SIGKILL of every process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fawnlab-restart-'));
    const logs: string[] = [];
    let c: ClusterProc | null = null;
    try {
      const model: Model = new Map();
      c = await startCluster(ARGS, dir, (l) => logs.push(l));
      await waitReady(c.http, 3);
      await write(c.http, model, 60, 'a', 7);
      await stopCluster(c.proc);
      expect(c.proc.signalCode ?? c.proc.exitCode, 'stopped by SIGINT, not killed').toBe(0);
      const ringPath = join(dir, 'frontend', 'ring.json');
      expect(existsSync(ringPath)).toBe(true);
      expect(JSON.parse(readFileSync(ringPath, 'utf8')).nodes.map((n: { id: number }) => n.id)).toEqual([0, 1, 2]);

      // 1. After Ctrl-C.
      c = await startCluster(ARGS, dir, (l) => logs.push(l));
      let v = await waitReady(c.http, 3, 60_000);
      await expectModel(c.http, model);
      const events = JSON.stringify((v as unknown as { events: unknown[] }).events);
      for (const id of [0, 1, 2]) expect(events, 'served from its stores, not copied').toContain(`node ${id} recovered: serving its ranges from its stores`);

      // 2. More writes (overwrites, new keys, deletes), then SIGKILL of every process at once.
      await write(c.http, model, 90, 'b', 5);
      v = await clusterView(c.http);
      const pids = [c.proc.pid!, ...v.nodes.filter((n) => n.role === 'backend').map((n) => n.pid!)];
      expect(pids.length).toBe(4);
      for (const pid of pids) process.kill(pid, 'SIGKILL');
      const until = Date.now() + 10_000;
      while (pids.some(alive) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(pids.filter(alive)).toEqual([]);
      c = await startCluster(ARGS, dir, (l) => logs.push(l));
      await waitReady(c.http, 3, 60_000);
      await expectModel(c.http, model);
      console.log(`whole-cluster restart: ${model.size} keys (${[...model.values()].filter((x) => x === null).length} deleted) intact after SIGINT and after SIGKILL of all 4 processes`);
      await stopCluster(c.proc);
      c = null;

      // 3. A corrupt ring.json: a clear refusal naming the file; --fresh discards it.
      writeFileSync(ringPath, '{"fawnlab":"ring","version":1,"replicas":3,');
      await expect(startCluster(ARGS, dir)).rejects.toThrow(/ring\.json: not valid JSON.*--fresh/s);
      writeFileSync(ringPath, '{"fawnlab":"ring","version":9}');
      await expect(startCluster(ARGS, dir)).rejects.toThrow(/ring\.json: version 9 is not supported \(this fawnlab reads version 1\)/);
      c = await startCluster([...ARGS, '--fresh'], dir, (l) => logs.push(l));
      await waitReady(c.http, 3, 60_000);
      expect(logs.join('')).toContain('--fresh: discarded');
    } catch (e) {
      console.log(logs.join('').split('\n').slice(-60).join('\n'));
      throw e;
    } finally {
      if (c) await stopCluster(c.proc);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
