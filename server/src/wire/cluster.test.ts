// The cluster wire contract: its parser names the first field that breaks it, and a REAL
// cluster (`fawnlab cluster`, 3 back-end processes, R = 2, on loopback) answers GET /cluster
// and sends a snapshot, a status and an event over /cluster/events that all parse against it,
// with chains whose ranges end at the ring's VIDs (what the Cluster page draws).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { clusterView, startCluster, stopCluster, waitReady, type ClusterProc } from '../cluster/clusterproc.js';
import { parseClusterMessage, parseClusterView, type ClusterMessage } from './cluster.js';
import { emptyClusterView } from './cluster.fake.js';

describe('the parser', () => {
  it('accepts a view and names the first field that breaks the contract', () => {
    expect(parseClusterView(emptyClusterView())).toEqual(emptyClusterView());
    expect(parseClusterView(null)).toBe('view is not an object');
    expect(parseClusterView({ ...emptyClusterView(), timeMs: 'now' })).toBe('view.timeMs is not a number');
    expect(parseClusterView({ ...emptyClusterView(), nodes: [{ id: 1.5, role: 'backend', state: 'up' }] })).toBe('view.nodes[0].id is not an integer');
    expect(parseClusterView({ ...emptyClusterView(), nodes: [{ id: 1, role: 'client', state: 'up' }] })).toBe('view.nodes[0].role is not one of frontend, backend');
    expect(parseClusterView({ ...emptyClusterView(), ring: [{ vid: 'ab', node: 0, index: 0 }] })).toBe('view.ring[0].vid is not a 40-digit hex id');
    expect(parseClusterView({ ...emptyClusterView(), load: undefined })).toBe('view.load is not an object');
  });

  it('parses each message type and refuses others', () => {
    expect(parseClusterMessage('{"type":"event","event":{"text":"x"}}')).toEqual({ type: 'event', event: { text: 'x' } });
    expect(parseClusterMessage('nope')).toBe('the message is not JSON');
    expect(parseClusterMessage({ type: 'hello' })).toBe('unknown message type "hello"');
    expect(parseClusterMessage({ type: 'status', ...emptyClusterView() })).toBe('status.client is not an object');
    expect(typeof parseClusterMessage({ type: 'snapshot', ...emptyClusterView() })).toBe('object');
  });
});

/** The first messages of each type the front-end sends on /cluster/events, up to `ms`. */
function firstMessages(http: string, want: Array<ClusterMessage['type']>, ms: number): Promise<Map<string, unknown>> {
  return new Promise((resolve, reject) => {
    const got = new Map<string, unknown>();
    const ws = new WebSocket(`ws://${http}/cluster/events`, { headers: { origin: `http://${http}` } });
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error(`no ${want.filter((t) => !got.has(t)).join(', ')} message in ${ms / 1000} s`));
    }, ms);
    ws.on('message', (data) => {
      const v = JSON.parse(String(data)) as { type: string };
      if (!got.has(v.type)) got.set(v.type, v);
      if (want.every((t) => got.has(t))) {
        clearTimeout(timer);
        ws.close();
        resolve(got);
      }
    });
    ws.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

describe('a real cluster', () => {
  it('sends a view and messages that parse against the contract', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fawnlab-wire-'));
    let c: ClusterProc | null = null;
    try {
      c = await startCluster(['--nodes', '3', '--replicas', '2', '--vids', '2'], dir);
      await waitReady(c.http, 3, 60_000);
      // GET /cluster: clusterView parses it and throws, naming the field, if it breaks the contract.
      const v = await clusterView(c.http);
      expect(v.nodes.filter((n) => n.role === 'backend').map((n) => n.state)).toEqual(['up', 'up', 'up']);
      expect(v.ring).toHaveLength(6);
      expect(v.settings).toMatchObject({ replicas: 2, vids: 2 });
      // A chain per VID, its range ending at the VID and headed by the VID's node; the range
      // that wraps through 0 comes in two pieces (the first ends at id 0), with one chain.
      const owner = new Map(v.ring.map((r) => [r.vid, r.node]));
      const zero = '0'.repeat(40);
      const ends = v.chains.map((ch) => ch.range[1]).filter((e) => e !== zero);
      expect(ends.sort()).toEqual(v.ring.map((r) => r.vid).sort());
      for (const ch of v.chains) {
        expect(ch.chain).toHaveLength(2);
        if (ch.range[1] !== zero) expect(owner.get(ch.range[1])).toBe(ch.chain[0]);
        else expect(v.chains.find((x) => x.range[0] === zero)?.chain).toEqual(ch.chain);
      }
      // The WebSocket: a snapshot at once, then a status (client statistics included); a node
      // added by the API makes events.
      const streaming = firstMessages(c.http, ['snapshot', 'status', 'event'], 60_000);
      await new Promise((r) => setTimeout(r, 300));
      const add = await fetch(`http://${c.http}/cluster/nodes`, { method: 'POST', headers: { origin: `http://${c.http}` } });
      expect(add.status).toBe(200);
      const got = await streaming;
      for (const [type, m] of got) {
        const parsed = parseClusterMessage(m);
        expect(parsed, `${type}: ${String(parsed)}`).toMatchObject({ type });
      }
    } finally {
      if (c) await stopCluster(c.proc);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
