// The lab's HTTP server: static files confined to their folder, /healthz, methods, tokens.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLabServer, isLoopback } from './http.js';
import { resolveStaticPath } from './static.js';

const root = mkdtempSync(join(tmpdir(), 'fawnlab-http-'));
mkdirSync(join(root, 'site/assets'), { recursive: true });
writeFileSync(join(root, 'site/index.html'), '<!doctype html><title>lab</title>');
writeFileSync(join(root, 'site/assets/app-AbCd1234.js'), 'console.log(1)');
writeFileSync(join(root, 'site/core.wasm'), Buffer.from([0, 97, 115, 109]));
writeFileSync(join(root, 'secret.txt'), 'outside the site');
const site = join(root, 'site');

function get(server: Server, path: string, opts: { method?: string; headers?: Record<string, string> } = {}) {
  const port = (server.address() as AddressInfo).port;
  return new Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }>((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => done({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', fail);
    req.end();
  });
}

function listen(server: Server): Promise<void> {
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done()));
}

describe('static paths', () => {
  it('stay inside the root', () => {
    expect(resolveStaticPath(site, '/index.html')).toBe(join(site, 'index.html'));
    expect(resolveStaticPath(site, '/../secret.txt')).toBe(join(site, 'secret.txt'));
    expect(resolveStaticPath(site, '/%2e%2e/secret.txt')).toBe(join(site, 'secret.txt'));
    expect(resolveStaticPath(site, '/a/%2e%2e/%2e%2e/%2e%2e/secret.txt')).toBe(join(site, 'secret.txt'));
    expect(resolveStaticPath(site, '/..%5csecret.txt')).toBeNull();
    expect(resolveStaticPath(site, '/%00')).toBeNull();
    expect(resolveStaticPath(site, '/%E0%A4%A')).toBeNull();
  });
});

describe('lab server', () => {
  const server = createLabServer({ root: site, version: '9.9.9' });
  beforeAll(() => listen(server));
  afterAll(() => new Promise<void>((done) => { server.closeAllConnections(); server.close(() => done()); }));

  it('answers /healthz', async () => {
    const r = await get(server, '/healthz');
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ ok: true, service: 'fawnlab', version: '9.9.9' });
  });

  it('serves files with their types, and the app for its own routes', async () => {
    const wasm = await get(server, '/core.wasm');
    expect(wasm.headers['content-type']).toBe('application/wasm');
    const js = await get(server, '/assets/app-AbCd1234.js');
    expect(js.headers['cache-control']).toContain('immutable');
    const route = await get(server, '/labs/queues?exp=queues.mm1');
    expect(route.status).toBe(200);
    expect(route.body).toContain('<title>lab</title>');
    expect((await get(server, '/index.html', { method: 'HEAD' })).body).toBe('');
  });

  it('answers 200 for the app pages only, and 404 with the app (its Not found page) elsewhere', async () => {
    for (const p of ['/', '/cluster', '/cluster/', '/labs/queues', '/labs/fawnkv/', '/labs/devices?x=1']) {
      expect((await get(server, p)).status, p).toBe(200);
    }
    for (const p of ['/nope', '/labs/nope', '/labs', '/labs/queues/extra', '/clusters', '/labs/INDEX']) {
      const r = await get(server, p);
      expect(r.status, p).toBe(404);
      expect(r.body, p).toContain('<title>lab</title>');
    }
  });

  it('cannot be walked outside its folder', async () => {
    for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/../../secret.txt', '/..%2fsecret.txt']) {
      const r = await get(server, p);
      expect(r.body, p).not.toContain('outside the site');
    }
    expect((await get(server, '/nope.js')).status).toBe(404);
    expect((await get(server, '/%00x')).status).toBe(400);
  });

  it('refuses other methods', async () => {
    const r = await get(server, '/index.html', { method: 'POST' });
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('GET, HEAD');
  });
});

describe('lab server with a token', () => {
  const server = createLabServer({ root: site, version: '1', token: 's3cret' });
  beforeAll(() => listen(server));
  afterAll(() => new Promise<void>((done) => { server.closeAllConnections(); server.close(() => done()); }));

  it('requires the token on every request', async () => {
    expect((await get(server, '/healthz')).status).toBe(401);
    expect((await get(server, '/healthz', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await get(server, '/healthz', { headers: { authorization: 'Bearer s3cret' } })).status).toBe(200);
    const viaQuery = await get(server, '/?token=s3cret');
    expect(viaQuery.status).toBe(200);
    expect(String(viaQuery.headers['set-cookie'])).toContain('fawnlab_token=s3cret');
    expect((await get(server, '/index.html', { headers: { cookie: 'fawnlab_token=s3cret' } })).status).toBe(200);
  });

  it('knows which hosts are loopback', () => {
    expect(isLoopback('127.0.0.1')).toBe(true);
    expect(isLoopback('::1')).toBe(true);
    expect(isLoopback('0.0.0.0')).toBe(false);
    expect(isLoopback('192.168.1.5')).toBe(false);
  });
});
