// Compressed static files: Accept-Encoding negotiation (br, gzip, identity, q-values, q=0, no
// header), Vary/Content-Length/Content-Encoding, HEAD, ETag → 304, caching by path, stale or
// larger siblings ignored, the build step that writes the siblings, and path confinement kept.
import { mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from '../scripts/precompress.mjs';
import { chooseCoding, matchesIfNoneMatch, parseAcceptEncoding } from './compress.js';
import { createLabServer } from './http.js';
import { cacheControlFor } from './static.js';

type Reply = { status: number; body: Buffer; headers: Record<string, string | string[] | undefined> };

function get(server: Server, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  const port = (server.address() as AddressInfo).port;
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('Accept-Encoding negotiation', () => {
  const both = ['identity', 'br', 'gzip'] as const;
  it('parses q-values, case and x-gzip', () => {
    expect([...parseAcceptEncoding('gzip, deflate, BR;q=0.5, *;Q=0')]).toEqual([['gzip', 1], ['deflate', 1], ['br', 0.5], ['*', 0]]);
    expect(parseAcceptEncoding('x-gzip').get('gzip')).toBe(1);
    expect(parseAcceptEncoding('br;q=2, gzip;q=abc').get('br')).toBe(0); // out of range or garbled: not acceptable
    expect(parseAcceptEncoding('gzip;q=abc').get('gzip')).toBe(0);
  });
  it('prefers br, honours q, falls back to identity', () => {
    expect(chooseCoding('gzip, deflate, br, zstd', both)).toBe('br');
    expect(chooseCoding('br;q=0.5, gzip', both)).toBe('gzip');
    expect(chooseCoding('gzip', both)).toBe('gzip');
    expect(chooseCoding('br', ['identity', 'gzip'])).toBe('identity'); // no .br on disk
    expect(chooseCoding('*', both)).toBe('br');
    expect(chooseCoding('*;q=0.3, br;q=0.2', both)).toBe('gzip');
    expect(chooseCoding('br;q=0, gzip;q=0', both)).toBe('identity');
    expect(chooseCoding('identity', both)).toBe('identity');
    expect(chooseCoding('identity;q=0', both)).toBe('identity'); // nothing else acceptable: identity, not 406
    expect(chooseCoding(undefined, both)).toBe('identity');
    expect(chooseCoding('', both)).toBe('identity');
  });
  it('matches If-None-Match lists, weak tags and *', () => {
    expect(matchesIfNoneMatch('"a", "b-br"', '"b-br"')).toBe(true);
    expect(matchesIfNoneMatch('W/"b-br"', '"b-br"')).toBe(true);
    expect(matchesIfNoneMatch('*', '"x"')).toBe(true);
    expect(matchesIfNoneMatch('"b"', '"b-br"')).toBe(false);
    expect(matchesIfNoneMatch(undefined, '"b"')).toBe(false);
  });
  it('caches hashed assets for a year and revalidates everything else', () => {
    expect(cacheControlFor('/assets/index-BugiXxqs.js')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('/assets/fawnlab_web-BQluiKeC.wasm')).toContain('immutable');
    expect(cacheControlFor('/assets/app.js')).toBe('no-cache');
    expect(cacheControlFor('/index.html')).toBe('no-cache');
    expect(cacheControlFor('/labs/queues')).toBe('no-cache');
  });
});

describe('the lab server sends precompressed files', () => {
  const root = mkdtempSync(join(tmpdir(), 'fawnlab-compress-'));
  const site = join(root, 'site');
  mkdirSync(join(site, 'assets'), { recursive: true });
  const js = 'export const lab = "' + 'fawn '.repeat(2000) + '";\n';
  writeFileSync(join(site, 'index.html'), '<!doctype html><title>lab</title>' + '<p>fawn</p>'.repeat(100));
  writeFileSync(join(site, 'assets/app-AbCd1234.js'), js);
  writeFileSync(join(site, 'assets/stale-AbCd1234.js'), js);
  writeFileSync(join(site, 'assets/tiny-AbCd1234.js'), 'x');
  writeFileSync(join(site, 'assets/pic-AbCd1234.png'), Buffer.alloc(5000, 7));
  writeFileSync(join(root, 'secret.txt'), 'outside the site');
  writeFileSync(join(root, 'secret.txt.br'), 'outside the site, compressed');
  const written = precompress(site);
  const again = precompress(site); // nothing stale: nothing rewritten
  // A sibling older than its file (the file rebuilt, the sibling left over) must not be served.
  const old = new Date(Date.now() - 60_000);
  utimesSync(join(site, 'assets/stale-AbCd1234.js.br'), old, old);
  utimesSync(join(site, 'assets/stale-AbCd1234.js.gz'), old, old);

  const server = createLabServer({ root: site, version: '1' });
  beforeAll(() => new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done())));
  afterAll(() => new Promise<void>((done) => { server.closeAllConnections(); server.close(() => done()); }));

  it('wrote .br/.gz only where smaller, and not for images', () => {
    const row = (f: string) => written.find((r) => r.file === f);
    expect(row('assets/app-AbCd1234.js')!.br).toBeLessThan(js.length / 10);
    expect(row('assets/tiny-AbCd1234.js')).toMatchObject({ br: null, gz: null });
    expect(row('assets/pic-AbCd1234.png')).toBeUndefined();
    expect(brotliDecompressSync(readFileSync(join(site, 'assets/app-AbCd1234.js.br'))).toString()).toBe(js);
    expect(gunzipSync(readFileSync(join(site, 'assets/app-AbCd1234.js.gz'))).toString()).toBe(js);
    expect(written.filter((r) => r.fresh).map((r) => r.file).sort()).toEqual(['assets/app-AbCd1234.js', 'assets/stale-AbCd1234.js', 'index.html']);
    expect(again.filter((r) => r.fresh)).toEqual([]);
  });

  it('sends br, gzip or identity as accepted, with Vary and the right length', async () => {
    const cases: Array<[Record<string, string>, string | undefined]> = [
      [{ 'accept-encoding': 'gzip, deflate, br' }, 'br'],
      [{ 'accept-encoding': 'gzip' }, 'gzip'],
      [{ 'accept-encoding': 'br;q=0.1, gzip;q=0.9' }, 'gzip'],
      [{ 'accept-encoding': 'br;q=0, gzip;q=0' }, undefined],
      [{ 'accept-encoding': 'identity' }, undefined],
      [{ 'accept-encoding': 'identity;q=0' }, undefined],
      [{}, undefined],
    ];
    for (const [headers, coding] of cases) {
      const r = await get(server, '/assets/app-AbCd1234.js', headers);
      const what = JSON.stringify(headers);
      expect(r.status, what).toBe(200);
      expect(r.headers['content-encoding'], what).toBe(coding);
      expect(r.headers.vary, what).toBe('Accept-Encoding');
      expect(r.headers['content-type'], what).toBe('text/javascript; charset=utf-8');
      expect(Number(r.headers['content-length']), what).toBe(r.body.length);
      const text = coding === 'br' ? brotliDecompressSync(r.body) : coding === 'gzip' ? gunzipSync(r.body) : r.body;
      expect(text.toString(), what).toBe(js);
      if (coding) expect(r.body.length, what).toBeLessThan(js.length);
      expect(r.headers['cache-control'], what).toBe('public, max-age=31536000, immutable');
    }
  });

  it('compresses the app page too, revalidated; files without siblings go plain without Vary', async () => {
    const page = await get(server, '/labs/queues', { 'accept-encoding': 'br' });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(page.body).toString()).toContain('<title>lab</title>');
    for (const p of ['/assets/tiny-AbCd1234.js', '/assets/pic-AbCd1234.png']) {
      const r = await get(server, p, { 'accept-encoding': 'br, gzip' });
      expect(r.headers['content-encoding'], p).toBeUndefined();
      expect(r.headers.vary, p).toBeUndefined();
      expect(Number(r.headers['content-length']), p).toBe(r.body.length);
    }
  });

  it('never serves a sibling older than its file', async () => {
    const r = await get(server, '/assets/stale-AbCd1234.js', { 'accept-encoding': 'br, gzip' });
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.body.toString()).toBe(js);
  });

  it('answers HEAD with the headers of the GET and no body', async () => {
    const g = await get(server, '/assets/app-AbCd1234.js', { 'accept-encoding': 'br' });
    const h = await get(server, '/assets/app-AbCd1234.js', { 'accept-encoding': 'br' }, 'HEAD');
    expect(h.status).toBe(200);
    expect(h.body.length).toBe(0);
    for (const k of ['content-encoding', 'content-length', 'content-type', 'etag', 'vary', 'cache-control']) {
      expect(h.headers[k], k).toBe(g.headers[k]);
    }
  });

  it('answers 304 to a matching If-None-Match, per encoding', async () => {
    const br = await get(server, '/assets/app-AbCd1234.js', { 'accept-encoding': 'br' });
    const gz = await get(server, '/assets/app-AbCd1234.js', { 'accept-encoding': 'gzip' });
    const etag = String(br.headers.etag);
    expect(etag).toMatch(/^".+-br"$/);
    expect(gz.headers.etag).not.toBe(etag);
    const again = await get(server, '/assets/app-AbCd1234.js', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers.vary).toBe('Accept-Encoding');
    // The br validator does not validate the gzip representation.
    const other = await get(server, '/assets/app-AbCd1234.js', { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(other.status).toBe(200);
    expect(other.headers['content-encoding']).toBe('gzip');
  });

  it('still refuses paths outside its folder, compressed or not', async () => {
    for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/../../secret.txt', '/..%2fsecret.txt']) {
      const r = await get(server, p, { 'accept-encoding': 'br' });
      expect(r.body.toString(), p).not.toContain('outside the site');
      expect(r.headers['content-encoding'], p).toBeUndefined();
    }
    expect((await get(server, '/%00x', { 'accept-encoding': 'br' })).status).toBe(400);
  });
});
