// The WebSocket event stream: snapshot then broadcasts, wrong paths, tokens and cross-site
// upgrades refused, oversize client frames closing only that client.
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { EventHub } from './events.js';
import { listenLocal, waitFor } from './testnet.fake.js';
import { emptyClusterView } from '../wire/cluster.fake.js';

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const f of cleanup.splice(0)) f();
});

async function start(token?: string) {
  const server: Server = createServer((_req, res) => res.end());
  const hub = new EventHub({ snapshot: () => ({ ...emptyClusterView(), nodes: [] }), log: () => {}, ...(token ? { token } : {}) });
  hub.attach(server);
  const port = await listenLocal(server as never);
  cleanup.push(() => { hub.close(); server.closeAllConnections(); server.close(); });
  return { port, hub };
}

function open(url: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(url, { headers });
  const got: string[] = [];
  const state = { status: 0, closed: false, opened: false };
  ws.on('message', (m) => got.push(String(m)));
  ws.on('open', () => (state.opened = true));
  ws.on('unexpected-response', (_req, res) => { state.status = res.statusCode ?? 0; state.closed = true; });
  ws.on('error', () => (state.closed = true));
  ws.on('close', () => (state.closed = true));
  cleanup.push(() => ws.terminate());
  return { ws, got, state };
}

describe('EventHub', () => {
  it('sends a snapshot, then broadcasts', async () => {
    const { port, hub } = await start();
    const c = open(`ws://127.0.0.1:${port}/cluster/events`);
    await waitFor(() => c.got.length === 1, 'the snapshot');
    expect(JSON.parse(c.got[0]!)).toEqual({ type: 'snapshot', ...emptyClusterView(), nodes: [] });
    hub.broadcast({ type: 'event', event: { n: 1 } });
    await waitFor(() => c.got.length === 2, 'a broadcast');
    expect(JSON.parse(c.got[1]!)).toEqual({ type: 'event', event: { n: 1 } });
    c.ws.send(Buffer.alloc(5000)); // over maxPayload: this client is closed, the hub lives on
    await waitFor(() => c.state.closed, 'the oversize client to be closed');
    await waitFor(() => hub.size === 0, 'the hub to forget it');
  });

  it('refuses other paths, missing tokens and other sites', async () => {
    const { port } = await start();
    const wrong = open(`ws://127.0.0.1:${port}/elsewhere`);
    await waitFor(() => wrong.state.closed, 'refusal');
    expect(wrong.state.status).toBe(404);
    const csrf = open(`ws://127.0.0.1:${port}/cluster/events`, { origin: 'http://evil.example' });
    await waitFor(() => csrf.state.closed, 'refusal');
    expect(csrf.state.status).toBe(403);
    const rebind = open(`ws://127.0.0.1:${port}/cluster/events`, { host: 'evil.example' });
    await waitFor(() => rebind.state.closed, 'refusal');
    expect(rebind.state.status).toBe(403);
    const t = await start('tok-tok-tok');
    const none = open(`ws://127.0.0.1:${t.port}/cluster/events`);
    await waitFor(() => none.state.closed, 'refusal');
    expect(none.state.status).toBe(401);
    const ok = open(`ws://127.0.0.1:${t.port}/cluster/events`, { authorization: 'Bearer tok-tok-tok' });
    await waitFor(() => ok.got.length === 1, 'the snapshot with a token');
  });
});
