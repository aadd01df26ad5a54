// The connection: probing GET /cluster (a cluster, a plain server, a failure), the WebSocket's
// messages, reconnecting with a doubling backoff after a close, and stopping.
import { describe, expect, it } from 'vitest';
import { clusterAction } from './clusterApi';
import { backoffMs, ClusterSocket, describeState, eventsUrl, probeCluster, type ConnectionState, type FetchLike, type SocketLike } from './clusterSocket';
import type { ClusterMessage } from '@wire/cluster';
import { emptyClusterView } from '@wire/cluster.fake';

const answer = (status: number, body: string, type = 'application/json') => ({ status, headers: { get: (n: string) => (n === 'content-type' ? type : null) }, text: async () => body });
const VIEW = JSON.stringify(emptyClusterView());

class FakeSocket implements SocketLike {
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  closed = false;
  close() { this.closed = true; }
}

function rig(fetch: FetchLike) {
  const sockets: FakeSocket[] = [];
  const timers: Array<{ f: () => void; ms: number }> = [];
  const states: ConnectionState[] = [];
  const messages: ClusterMessage[] = [];
  const cs = new ClusterSocket('ws://h/cluster/events', { onState: (s) => states.push(s), onMessage: (m) => messages.push(m) }, {
    open: () => { const s = new FakeSocket(); sockets.push(s); return s; },
    fetch, setTimeout: (f, ms) => { timers.push({ f, ms }); return timers.length; }, clearTimeout: () => {},
  });
  return { cs, sockets, timers, states, messages };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('probeCluster', () => {
  it('tells a cluster from a plain lab server and from a failure', async () => {
    expect(await probeCluster(async () => answer(200, VIEW))).toMatchObject({ view: { nodes: [{ id: -1 }] } });
    expect(await probeCluster(async () => answer(404, '{}'))).toEqual({ none: 'this server has no /cluster API (404)' });
    expect(await probeCluster(async () => answer(200, '<!doctype html>', 'text/html'))).toEqual({ none: 'this server answers /cluster with a page, not the cluster API' });
    expect(await probeCluster(async () => answer(503, ''))).toEqual({ retry: 'GET /cluster answered 503' });
    expect(await probeCluster(async () => { throw new Error('refused'); })).toEqual({ retry: 'the server did not answer (refused)' });
    // A view that breaks the wire contract is named, field and all.
    const bad = JSON.stringify({ ...emptyClusterView(), chains: [{ range: ['00', 'ff'], chain: [1], epoch: 1, reader: 1 }] });
    expect(await probeCluster(async () => answer(200, bad))).toEqual({ none: 'GET /cluster did not answer a cluster view (view.chains[0].range[0] is not a 40-digit hex id)' });
  });

  it('builds the stream URL from the page location', () => {
    expect(eventsUrl({ protocol: 'http:', host: '127.0.0.1:8200' })).toBe('ws://127.0.0.1:8200/cluster/events');
    expect(eventsUrl({ protocol: 'https:', host: 'lab.example' })).toBe('wss://lab.example/cluster/events');
  });
});

describe('ClusterSocket', () => {
  it('delivers the snapshot and messages, and reconnects with a doubling backoff', async () => {
    const { cs, sockets, timers, states, messages } = rig(async () => answer(200, VIEW));
    cs.start();
    await tick();
    expect(messages[0]).toMatchObject({ type: 'snapshot', nodes: [{ id: -1 }] });
    sockets[0]!.onopen!({});
    sockets[0]!.onmessage!({ data: '{"type":"event","event":{"text":"x"}}' });
    sockets[0]!.onmessage!({ data: 'not json' });
    sockets[0]!.onmessage!({ data: JSON.stringify({ type: 'status', ...emptyClusterView() }) }); // no "client": dropped
    expect(messages.map((m) => m.type)).toEqual(['snapshot', 'event']);
    expect(states.map((s) => s.kind)).toEqual(['connecting', 'open']);
    sockets[0]!.onclose!({ code: 1006 });
    expect(states.at(-1)).toEqual({ kind: 'retrying', attempt: 1, retryMs: 500, reason: 'the event stream closed (code 1006)' });
    expect(describeState(states.at(-1)!)).toBe('Disconnected — the event stream closed (code 1006). Trying again in 0.5 s.');
    // Refused twice more: 1 s, then 2 s.
    for (const want of [1000, 2000]) {
      timers.at(-1)!.f();
      await tick();
      sockets.at(-1)!.onclose!({});
      expect(states.at(-1)).toMatchObject({ kind: 'retrying', retryMs: want, reason: 'the event stream was refused' });
    }
    expect(describeState({ kind: 'connecting', attempt: 3 })).toBe('Reconnecting (attempt 3)…');
    // A good connection resets the backoff.
    timers.at(-1)!.f();
    await tick();
    sockets.at(-1)!.onopen!({});
    sockets.at(-1)!.onclose!({});
    expect(states.at(-1)).toMatchObject({ retryMs: 500 });
    cs.stop();
    const n = timers.length;
    timers.at(-1)!.f();
    await tick();
    expect(timers.length).toBe(n);
    expect(backoffMs(10)).toBe(8000);
  });

  it('stops trying on a server without a cluster', async () => {
    const { cs, sockets, timers, states } = rig(async () => answer(404, ''));
    cs.start();
    await tick();
    expect(states.at(-1)).toEqual({ kind: 'no-cluster', reason: 'this server has no /cluster API (404)' });
    expect([sockets.length, timers.length]).toEqual([0, 0]);
  });

  it('closes the socket on stop', async () => {
    const { cs, sockets } = rig(async () => answer(200, VIEW));
    cs.start();
    await tick();
    cs.stop();
    expect(sockets[0]!.closed).toBe(true);
  });
});

describe('clusterAction', () => {
  it('returns the body, or the server\'s error named with the request', async () => {
    const calls: string[] = [];
    const ok = await clusterAction(async (url, init) => { calls.push(`${init.method} ${url} ${init.body ?? ''}`); return answer(200, '{"ok":true,"id":4}'); }, 'POST', '/cluster/load', { rate: 5 });
    expect(ok).toEqual({ ok: true, body: { ok: true, id: 4 } });
    expect(calls).toEqual(['POST /cluster/load {"rate":5}']);
    expect(await clusterAction(async () => answer(409, '{"ok":false,"error":"node 2 is not running"}'), 'POST', '/cluster/nodes/2/kill'))
      .toEqual({ ok: false, error: 'POST /cluster/nodes/2/kill: node 2 is not running' });
    expect(await clusterAction(async () => answer(502, 'gateway'), 'DELETE', '/cluster/load')).toEqual({ ok: false, error: 'DELETE /cluster/load: the server answered 502' });
    expect(await clusterAction(async () => { throw new Error('down'); }, 'POST', '/cluster/nodes')).toEqual({ ok: false, error: 'POST /cluster/nodes: the server did not answer (down)' });
  });
});
