/**
 * The lab's HTTP server: the built app, /healthz, and (in cluster mode) the cluster API.
 *
 * Safe by default: it binds 127.0.0.1; binding any other address requires a token, and then
 * every request must carry it (Authorization: Bearer <token>, or ?token=<token> once, which
 * sets a cookie for the browser). Only GET and HEAD reach the static files.
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { ROOT } from './core.js';
import { labsIn, serveStatic } from './static.js';

export interface ServerOptions {
  root: string;            // folder of the built app (web/dist)
  version: string;
  token?: string;          // required when listening beyond loopback
  /** Extra routes (the cluster API), tried after the token check; true = handled. */
  api?: (req: IncomingMessage, res: ServerResponse, url: URL) => boolean;
  /** The labs whose pages /labs/<id> are (default: the repository's lesson folders); other paths are 404. */
  labs?: ReadonlySet<string>;
}

export function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === '::1' || host === 'localhost' || /^127\./.test(host);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body) + '\n';
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

export function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function authorised(req: IncomingMessage, url: URL, token: string, res?: ServerResponse): boolean {
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  const cookie = /(?:^|;\s*)fawnlab_token=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
  const query = url.searchParams.get('token') ?? undefined;
  if (sameToken(query, token)) {
    res?.setHeader('set-cookie', `fawnlab_token=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`);
    return true;
  }
  return sameToken(bearer, token) || sameToken(cookie ? decodeURIComponent(cookie) : undefined, token);
}

export function createLabServer(opts: ServerOptions): Server {
  const started = Date.now();
  const labs = opts.labs ?? labsIn(resolve(ROOT, 'lessons'));
  return createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://lab.invalid');
    } catch {
      json(res, 400, { ok: false, error: 'malformed request URL' });
      return;
    }
    if (opts.token !== undefined && !authorised(req, url, opts.token, res)) {
      json(res, 401, { ok: false, error: 'this server requires its token (Authorization: Bearer <token> or ?token=)' });
      return;
    }
    if (opts.api?.(req, res, url)) return;
    if (url.pathname === '/healthz') {
      json(res, 200, { ok: true, service: 'fawnlab', version: opts.version, uptime_s: (Date.now() - started) / 1000 });
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      json(res, 405, { ok: false, error: `method ${req.method} is not allowed here` });
      return;
    }
    const r = serveStatic(opts.root, req, res, url.pathname, labs);
    if (r === 'bad-request') json(res, 400, { ok: false, error: 'bad path' });
    else if (r === 'not-found') json(res, 404, { ok: false, error: `no such file: ${url.pathname}` });
  });
}
