// The HTTP API over the fake cluster: round trips, every input check, the limits, cluster
// failures, cross-site and DNS-rebinding refusals, tokens, and the static files staying put.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLabServer } from '../http.js';
import { handleApi, type ClusterControl } from './api.js';
import { fakeCluster } from './kvhost.fake.js';
import { HTTP_BODY_MAX_BYTES, KEY_MAX_BYTES, VALUE_MAX_BYTES } from './limits.js';
import { httpReq, listenLocal } from './testnet.fake.js';
import { emptyClusterView } from '../wire/cluster.fake.js';

const root = mkdtempSync(join(tmpdir(), 'fawnlab-api-'));
mkdirSync(join(root, 'site'));
writeFileSync(join(root, 'site/index.html'), '<title>lab</title>');
writeFileSync(join(root, 'secret.txt'), 'outside the site');

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const f of cleanup.splice(0)) f();
});

const calls: string[] = [];
const control: ClusterControl = {
  view: () => ({ ...emptyClusterView(), nodes: [{ id: -1, role: 'frontend', state: 'up' }] }),
  health: () => ({ backends_up: 2 }),
  addNode: async () => { calls.push('add'); return { ok: true, body: { id: 7 } }; },
  killNode: async (id) => { calls.push(`kill ${id}`); return id === 9 ? { ok: false, status: 404, error: 'no node 9' } : { ok: true, body: { id } }; },
  restartNode: async (id) => { calls.push(`restart ${id}`); return { ok: true, body: { id } }; },
  startLoad: (body) => {
    calls.push(`load ${JSON.stringify(body)}`);
    return (body as { rate?: unknown }).rate === -1 ? { ok: false, status: 400, error: 'rate must be …' } : { ok: true, body: { load: { running: true } } };
  },
  stopLoad: () => { calls.push('stop load'); return { ok: true, body: { load: { running: false } } }; },
};

async function start(opts: { token?: string; backends?: number; requestTimeoutMs?: number } = {}) {
  const c = await fakeCluster(opts.backends ?? 2, opts.requestTimeoutMs ? { requestTimeoutMs: opts.requestTimeoutMs } : {});
  const api = { kv: c.front, control, version: '0.1.0', tokenRequired: opts.token !== undefined };
  const server: Server = createLabServer({ root: join(root, 'site'), version: '0.1.0', api: (req, res, url) => handleApi(api, req, res, url),
    ...(opts.token ? { token: opts.token } : {}) });
  const port = await listenLocal(server as never);
  cleanup.push(() => { server.closeAllConnections(); server.close(); c.stop(); });
  return { port, cluster: c };
}

describe('HTTP API', () => {
  it('puts, gets, deletes and multigets', async () => {
    const { port } = await start();
    expect((await httpReq(port, 'PUT', '/kv/greeting', { body: 'hello' })).json()).toEqual({ ok: true });
    const g = await httpReq(port, 'GET', '/kv/greeting');
    expect([g.status, g.text, g.headers['content-type']]).toEqual([200, 'hello', 'application/octet-stream']);
    const bin = Buffer.from([0, 255, 13, 10]);
    await httpReq(port, 'PUT', '/kv/a%2Fb%20c%E2%9C%93', { body: bin });
    expect((await httpReq(port, 'GET', '/kv/a%2Fb%20c%E2%9C%93')).body).toEqual(bin);
    expect((await httpReq(port, 'PUT', '/kv/empty', { body: '' })).status).toBe(200);
    expect((await httpReq(port, 'GET', '/kv/empty')).body.length).toBe(0);
    const m = await httpReq(port, 'POST', '/kv/_multiget', { body: JSON.stringify({ keys: ['greeting', 'nope', 'a/b c✓'] }) });
    expect(m.json()).toEqual({ ok: true, values: { greeting: 'hello', nope: null, 'a/b c✓': bin.toString('utf8') } });
    const m64 = await httpReq(port, 'POST', '/kv/_multiget?encoding=base64', { body: '{"keys":["a/b c✓"]}' });
    expect(m64.json()).toEqual({ ok: true, values: { 'a/b c✓': bin.toString('base64') } });
    expect((await httpReq(port, 'DELETE', '/kv/greeting')).json()).toEqual({ ok: true, found: true });
    expect((await httpReq(port, 'DELETE', '/kv/greeting')).json()).toEqual({ ok: true, found: false });
    const gone = await httpReq(port, 'GET', '/kv/greeting');
    expect([gone.status, gone.json().error]).toEqual([404, 'no such key']);
  });

  it('refuses bad keys, bodies and methods with a clear error', async () => {
    const { port } = await start();
    const cases: Array<[string, string, string | undefined, number, RegExp]> = [
      ['GET', '/kv/', undefined, 400, /key is empty/],
      ['GET', '/kv/' + 'k'.repeat(KEY_MAX_BYTES + 1), undefined, 400, /251 bytes; the limit is 250/],
      ['GET', '/kv/%E0%A4%A', undefined, 400, /percent-encoding/],
      ['POST', '/kv/x', 'v', 405, /GET, PUT, DELETE/],
      ['GET', '/kv/_multiget', undefined, 405, /POST/],
      ['GET', '/kv', undefined, 404, /no such path/],
      ['POST', '/kv/_multiget', '{nope', 400, /not valid JSON/],
      ['POST', '/kv/_multiget', '[1,2]', 400, /must be \{"keys"/],
      ['POST', '/kv/_multiget', 'null', 400, /must be \{"keys"/],
      ['POST', '/kv/_multiget', '{"keys":"a"}', 400, /must be \{"keys"/],
      ['POST', '/kv/_multiget', '{"keys":[]}', 400, /1 to 256 keys, not 0/],
      ['POST', '/kv/_multiget', JSON.stringify({ keys: Array(257).fill('k') }), 400, /not 257/],
      ['POST', '/kv/_multiget', '{"keys":["a",2]}', 400, /keys\[1\] is not a string/],
      ['POST', '/kv/_multiget', '{"keys":[""]}', 400, /keys\[0\]: the key is empty/],
      ['POST', '/kv/_multiget?encoding=hex', '{"keys":["a"]}', 400, /utf8 or base64/],
      ['GET', '/cluster/nodes', undefined, 405, /POST/],
      ['POST', '/cluster/nodes/x/kill', undefined, 400, /not a node id/],
      ['POST', '/cluster/nodes/1/explode', undefined, 404, /no such path/],
      ['DELETE', '/healthz', undefined, 405, /GET/],
      ['GET', '/cluster/load', undefined, 405, /POST, DELETE/],
      ['POST', '/cluster/load', '{rate', 400, /not valid JSON/],
      ['POST', '/cluster/load', '{"rate":-1}', 400, /rate must be/],
      ['POST', '/cluster/load', ' '.repeat(5000), 413, /over 4096 bytes/],
    ];
    for (const [method, path, body, status, re] of cases) {
      const r = await httpReq(port, method, path, body === undefined ? {} : { body });
      expect(r.status, `${method} ${path}`).toBe(status);
      expect(r.json().error, `${method} ${path}`).toMatch(re);
    }
  });

  it('enforces the value and body limits', async () => {
    const { port } = await start();
    expect((await httpReq(port, 'PUT', '/kv/max', { body: Buffer.alloc(VALUE_MAX_BYTES, 1) })).status).toBe(200);
    expect((await httpReq(port, 'GET', '/kv/max')).body.length).toBe(VALUE_MAX_BYTES);
    const over = await httpReq(port, 'PUT', '/kv/big', { body: Buffer.alloc(VALUE_MAX_BYTES + 1) });
    expect([over.status, over.json().error]).toEqual([413, `the value is ${VALUE_MAX_BYTES + 1} bytes; the limit is ${VALUE_MAX_BYTES}`]);
    const chunked = await httpReq(port, 'PUT', '/kv/big', { body: Buffer.alloc(VALUE_MAX_BYTES + 10), headers: { 'transfer-encoding': 'chunked' } });
    expect(chunked.status).toBe(413);
    const bigJson = await httpReq(port, 'POST', '/kv/_multiget', { body: Buffer.alloc(HTTP_BODY_MAX_BYTES + 1, 32) });
    expect(bigJson.status).toBe(413);
    expect((await httpReq(port, 'GET', '/kv/big')).status).toBe(404);
  });

  it('reports cluster failures as 503 and silence as 504', async () => {
    const none = await start({ backends: 0 });
    const r = await httpReq(none.port, 'GET', '/kv/k');
    expect([r.status, r.json().error]).toEqual([503, 'no back-ends in the ring']);
    const slow = await start({ backends: 1, requestTimeoutMs: 50 });
    slow.cluster.drop(0);
    expect((await httpReq(slow.port, 'PUT', '/kv/k', { body: 'v' })).status).toBe(504);
  });

  it('serves the cluster view, health and node actions', async () => {
    const { port } = await start();
    expect((await httpReq(port, 'GET', '/cluster')).json()).toMatchObject({ nodes: [{ id: -1, role: 'frontend' }] });
    const page = await httpReq(port, 'GET', '/cluster', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect([page.status, page.text]).toEqual([200, '<title>lab</title>']); // the app's index.html: its /cluster route
    expect((await httpReq(port, 'GET', '/cluster', { headers: { accept: '*/*' } })).json()).toMatchObject({ nodes: [{ id: -1 }] });
    expect((await httpReq(port, 'GET', '/healthz')).json()).toMatchObject({ ok: true, role: 'frontend', backends_up: 2 });
    calls.length = 0;
    expect((await httpReq(port, 'POST', '/cluster/nodes')).json()).toEqual({ ok: true, id: 7 });
    expect((await httpReq(port, 'POST', '/cluster/nodes/3/kill')).json()).toEqual({ ok: true, id: 3 });
    expect((await httpReq(port, 'POST', '/cluster/nodes/3/restart')).json()).toEqual({ ok: true, id: 3 });
    const missing = await httpReq(port, 'POST', '/cluster/nodes/9/kill');
    expect([missing.status, missing.json().error]).toEqual([404, 'no node 9']);
    expect((await httpReq(port, 'POST', '/cluster/load', { body: '{"rate":50}' })).json()).toEqual({ ok: true, load: { running: true } });
    expect((await httpReq(port, 'DELETE', '/cluster/load')).json()).toEqual({ ok: true, load: { running: false } });
    expect(calls).toEqual(['add', 'kill 3', 'restart 3', 'kill 9', 'load {"rate":50}', 'stop load']);
  });

  it('refuses cross-site and DNS-rebinding requests', async () => {
    const { port } = await start();
    const rebound = await httpReq(port, 'GET', '/kv/k', { headers: { host: 'evil.example:80' } });
    expect([rebound.status, rebound.json().error]).toEqual([403, "Host 'evil.example:80' is not this machine (a loopback-only server)"]);
    const csrf = await httpReq(port, 'POST', '/cluster/nodes/1/kill', { headers: { origin: 'http://evil.example' } });
    expect([csrf.status, csrf.json().error]).toEqual([403, 'cross-site request from http://evil.example refused']);
    for (const method of ['POST', 'DELETE']) {
      const load = await httpReq(port, method, '/cluster/load', { headers: { origin: 'http://evil.example' }, ...(method === 'POST' ? { body: '{}' } : {}) });
      expect([load.status, load.json().error]).toEqual([403, 'cross-site request from http://evil.example refused']);
    }
    expect((await httpReq(port, 'PUT', '/kv/k', { headers: { origin: 'null' }, body: 'v' })).status).toBe(403);
    expect((await httpReq(port, 'PUT', '/kv/k', { headers: { origin: `http://127.0.0.1:${port}` }, body: 'v' })).status).toBe(200);
    expect((await httpReq(port, 'GET', '/kv/k', { headers: { host: `localhost:${port}` } })).status).toBe(200);
  });

  it('requires the token when it has one, and keeps static files in their folder', async () => {
    const { port } = await start({ token: 'tkn' });
    expect((await httpReq(port, 'GET', '/cluster')).status).toBe(401);
    expect((await httpReq(port, 'PUT', '/kv/k', { body: 'v' })).status).toBe(401);
    expect((await httpReq(port, 'POST', '/cluster/load', { body: '{}' })).status).toBe(401);
    const auth = { authorization: 'Bearer tkn', host: 'fawn.example:8200' };
    expect((await httpReq(port, 'PUT', '/kv/k', { body: 'v', headers: auth })).status).toBe(200);
    for (const p of ['/kv/../../secret.txt', '/../secret.txt', '/%2e%2e/secret.txt', '/cluster/..%2f..%2fsecret.txt']) {
      expect((await httpReq(port, 'GET', p, { headers: auth })).text, p).not.toContain('outside the site');
    }
    expect((await httpReq(port, 'GET', '/', { headers: auth })).text).toContain('<title>lab</title>');
  });
});
