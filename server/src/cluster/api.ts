/**
 * The front-end's HTTP API (docs/cluster.md): PUT/GET/DELETE /kv/{key},
 * POST /kv/_multiget {"keys":[...]}, GET /healthz, GET /cluster, POST /cluster/nodes,
 * POST /cluster/nodes/{id}/kill|restart, POST /cluster/load {settings} (start or change the
 * built-in load generator; each bad field named in a 400) and DELETE /cluster/load. Keys are the URL-decoded path (UTF-8 bytes); a GET
 * answers the raw value (its memcached flags, if any, in x-fawnlab-flags). A put or delete
 * answers after the chain's tail has it. GET /cluster asked for as text/html (a browser
 * opening the page) is left to the static server, which serves the lab's Cluster page. Errors are JSON {"ok":false,"error":...} with
 * 400 (bad input), 404, 405, 413 (over a limit), 503 (the cluster failed it), 504 (no answer
 * in time: a write may or may not have taken effect), 507 (the store had no room: the write
 * was definitely not applied). Cross-site requests are refused: a state-changing request whose Origin is not
 * this server gets 403, and without a token (loopback only) the Host must be a loopback name,
 * which defeats DNS rebinding. Tokens are checked before this handler runs (http.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from './body.js';
import type { KvClient, KvFailure, KvResult } from './kvcore.js';
import { HTTP_BODY_MAX_BYTES, MULTIGET_MAX_KEYS, VALUE_MAX_BYTES } from './limits.js';
import { keyError, packValue, unpackValue, valueError } from './values.js';
import type { ClusterViewWire } from '../wire/cluster.js';

export type Outcome = { ok: true; body: Record<string, unknown> } | { ok: false; status: number; error: string };

/** Membership and process control, as the supervisor and front-end provide it. */
export interface ClusterControl {
  view(): ClusterViewWire;                         // GET /cluster
  health(): Record<string, unknown>;               // GET /healthz (merged with ok/service)
  addNode(): Promise<Outcome>;
  killNode(id: number): Promise<Outcome>;
  restartNode(id: number): Promise<Outcome>;
  /** Starts or changes the load generator from a request body (validated there: loadgen.ts). */
  startLoad(body: unknown): Outcome;
  stopLoad(): Outcome;
}

/** A POST /cluster/load body holds six numbers and a seed: 4 KiB is plenty. */
const LOAD_BODY_MAX_BYTES = 4096;

export interface ApiOptions {
  kv: KvClient;
  control: ClusterControl;
  version: string;
  tokenRequired: boolean;
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body) + '\n';
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  res.end(text);
}

const fail = (res: ServerResponse, status: number, error: string) => sendJson(res, status, { ok: false, error });

/** HTTP status of each way a request fails (kvcore.ts KvFailure). */
const FAILURE_STATUS: Record<KvFailure, number> = { 'no-space': 507, 'too-large': 413, 'bad-request': 400, timeout: 504, failed: 503 };

function clusterFailure(res: ServerResponse, r: KvResult): void {
  fail(res, FAILURE_STATUS[r.failure ?? 'failed'], r.error || 'the cluster failed the request');
}

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?$/i;

/** Why this request looks cross-site, or null. */
export function crossSiteError(req: IncomingMessage, tokenRequired: boolean, stateChanging: boolean): string | null {
  const host = req.headers.host ?? '';
  if (!tokenRequired && !LOOPBACK_HOST.test(host)) return `Host '${host.slice(0, 100)}' is not this machine (a loopback-only server)`;
  const origin = req.headers.origin;
  if (stateChanging && origin !== undefined && origin !== 'null') {
    let o: URL;
    try {
      o = new URL(origin);
    } catch {
      return 'malformed Origin';
    }
    if (o.host.toLowerCase() !== host.toLowerCase()) return `cross-site request from ${o.origin} refused`;
  } else if (stateChanging && origin === 'null') return 'cross-site request from an opaque origin refused';
  return null;
}

function methodNotAllowed(res: ServerResponse, allow: string): void {
  res.setHeader('allow', allow);
  fail(res, 405, `method not allowed; this path accepts ${allow}`);
}

/** Handles the API's paths; returns false for any other path (left to the static server). */
export function handleApi(o: ApiOptions, req: IncomingMessage, res: ServerResponse, url: URL): boolean {
  const p = url.pathname;
  if (p !== '/healthz' && p !== '/kv' && !p.startsWith('/kv/') && p !== '/cluster' && !p.startsWith('/cluster/')) return false;
  const method = req.method ?? 'GET';
  // A browser opening /cluster (Accept: text/html) gets the lab's Cluster page; API clients
  // (curl's */*, fetch, application/json) get the JSON view.
  if (p === '/cluster' && (method === 'GET' || method === 'HEAD') && /\btext\/html\b/.test(req.headers.accept ?? '')) return false;
  const cross = crossSiteError(req, o.tokenRequired, method !== 'GET' && method !== 'HEAD');
  if (cross) {
    fail(res, 403, cross);
    return true;
  }
  const done = (promise: Promise<void>) => promise.catch((e: unknown) => {
    if (!res.headersSent) fail(res, 500, `internal error: ${String(e).slice(0, 200)}`);
    else res.destroy();
  });
  if (p === '/healthz') {
    if (method !== 'GET' && method !== 'HEAD') methodNotAllowed(res, 'GET');
    else sendJson(res, 200, { ok: true, service: 'fawnlab', role: 'frontend', version: o.version, ...o.control.health() });
  } else if (p === '/kv/_multiget') {
    if (method !== 'POST') methodNotAllowed(res, 'POST');
    else done(multiget(o, req, res, url));
  } else if (p.startsWith('/kv/')) {
    done(kv(o, req, res, p.slice(4), method));
  } else if (p === '/cluster') {
    if (method !== 'GET' && method !== 'HEAD') methodNotAllowed(res, 'GET');
    else sendJson(res, 200, o.control.view());
  } else {
    done(p === '/cluster/load' ? load(o, req, res, method) : clusterAction(o, res, p, method));
  }
  return true;
}

function decodeKey(raw: string): Buffer | string {
  let s: string;
  try {
    s = decodeURIComponent(raw);
  } catch {
    return 'the key is not valid percent-encoding';
  }
  const key = Buffer.from(s, 'utf8');
  return keyError(key) ?? key;
}

async function kv(o: ApiOptions, req: IncomingMessage, res: ServerResponse, raw: string, method: string): Promise<void> {
  if (method !== 'GET' && method !== 'PUT' && method !== 'DELETE') return methodNotAllowed(res, 'GET, PUT, DELETE');
  const key = decodeKey(raw);
  if (typeof key === 'string') return fail(res, 400, key);
  if (method === 'GET') {
    const r = await o.kv.get(key);
    if (!r.ok) return clusterFailure(res, r);
    if (!r.found) return fail(res, 404, 'no such key');
    const { flags, data } = unpackValue(r.value);
    res.writeHead(200, {
      'content-type': 'application/octet-stream', 'content-length': data.length, 'cache-control': 'no-store',
      ...(flags !== 0 ? { 'x-fawnlab-flags': String(flags) } : {}),
    });
    res.end(data);
    return;
  }
  if (method === 'DELETE') {
    const r = await o.kv.del(key);
    return r.ok ? sendJson(res, 200, { ok: true, found: r.found }) : clusterFailure(res, r);
  }
  const body = await readBody(req, VALUE_MAX_BYTES);
  if (!body.ok) {
    if (body.why === 'too-large') {
      res.setHeader('connection', 'close');
      fail(res, 413, valueError(Number(req.headers['content-length'] ?? VALUE_MAX_BYTES + 1)) ?? `the value is over ${VALUE_MAX_BYTES} bytes`);
    }
    return;
  }
  const r = await o.kv.put(key, packValue(0, body.bytes));
  return r.ok ? sendJson(res, 200, { ok: true }) : clusterFailure(res, r);
}

const NO_BODY = Symbol('no body');

/** A JSON request body of at most `max` bytes, or NO_BODY once the error is answered (413, 400 with `example`). */
async function readJson(req: IncomingMessage, res: ServerResponse, max: number, example: string): Promise<unknown> {
  const body = await readBody(req, max);
  if (!body.ok) {
    if (body.why === 'too-large') {
      res.setHeader('connection', 'close');
      fail(res, 413, `the request body is over ${max} bytes`);
    }
    return NO_BODY;
  }
  try {
    return JSON.parse(body.bytes.toString('utf8')) as unknown;
  } catch {
    fail(res, 400, `the body is not valid JSON; send ${example}`);
    return NO_BODY;
  }
}

async function multiget(o: ApiOptions, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const encoding = url.searchParams.get('encoding') ?? 'utf8';
  if (encoding !== 'utf8' && encoding !== 'base64') return fail(res, 400, 'encoding must be utf8 or base64');
  const parsed = await readJson(req, res, HTTP_BODY_MAX_BYTES, '{"keys": ["k1", "k2", ...]}');
  if (parsed === NO_BODY) return;
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (typeof parsed !== 'object' || parsed === null || !Array.isArray(keys)) return fail(res, 400, 'the body must be {"keys": [strings]}');
  if (keys.length === 0 || keys.length > MULTIGET_MAX_KEYS) return fail(res, 400, `"keys" must hold 1 to ${MULTIGET_MAX_KEYS} keys, not ${keys.length}`);
  const bufs: Buffer[] = [];
  for (const [i, k] of keys.entries()) {
    if (typeof k !== 'string') return fail(res, 400, `keys[${i}] is not a string`);
    const b = Buffer.from(k, 'utf8');
    const why = keyError(b);
    if (why) return fail(res, 400, `keys[${i}]: ${why}`);
    bufs.push(b);
  }
  const r = await o.kv.multiget(bufs);
  if (!r.ok) return clusterFailure(res, r);
  const values: Record<string, string | null> = {};
  (keys as string[]).forEach((k, i) => {
    const v = r.values[i];
    values[k] = v?.found ? unpackValue(v.value).data.toString(encoding) : null;
  });
  sendJson(res, 200, { ok: true, values });
}

async function load(o: ApiOptions, req: IncomingMessage, res: ServerResponse, method: string): Promise<void> {
  if (method === 'DELETE') return reply(res, o.control.stopLoad());
  if (method !== 'POST') return methodNotAllowed(res, 'POST, DELETE');
  const parsed = await readJson(req, res, LOAD_BODY_MAX_BYTES, '{"rate":500,"putFraction":0.1,"keys":1000,"zipf":0,"valueBytes":100,"multigetWidth":1}');
  if (parsed === NO_BODY) return;
  reply(res, o.control.startLoad(parsed));
}

function reply(res: ServerResponse, out: Outcome): void {
  if (out.ok) sendJson(res, 200, { ok: true, ...out.body });
  else fail(res, out.status, out.error);
}

async function clusterAction(o: ApiOptions, res: ServerResponse, p: string, method: string): Promise<void> {
  const m = /^\/cluster\/nodes(?:\/([^/]+)\/(kill|restart))?$/.exec(p);
  if (!m) return fail(res, 404, `no such path: ${p.slice(0, 200)}`);
  if (method !== 'POST') return methodNotAllowed(res, 'POST');
  let out: Outcome;
  if (m[1] === undefined) out = await o.control.addNode();
  else {
    if (!/^\d{1,6}$/.test(m[1])) return fail(res, 400, `'${m[1].slice(0, 20)}' is not a node id`);
    const id = Number(m[1]);
    out = m[2] === 'kill' ? await o.control.killNode(id) : await o.control.restartNode(id);
  }
  if (out.ok) sendJson(res, 200, { ok: true, ...out.body });
  else fail(res, out.status, out.error);
}
