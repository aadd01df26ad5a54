/**
 * The JSON control frames of the peer protocol (issue 6 design, "Wire"):
 *  - Hello, the first frame on every connection: {"fawnlab":1,"from":E,"listen":"host:port","token"?}
 *    E is the sender's endpoint (back-ends 0…, the front-end -1). On the front-end's port,
 *    from = -1 is a back-end that has no id yet (`fawnlab node --join`) asking for one.
 *    A back-end adds "boot": a random id of its process, so the front-end can tell a
 *    restarted process (new boot) from a reconnection (same boot).
 *  - Welcome, the front-end's answer to a back-end's hello on the same connection:
 *    {"fawnlab":1,"id":I,"peers":{"E":"host:port",...},"config":{...}}
 *  - Peers, a later update of the peer table from the front-end: {"fawnlab":1,"peers":{...}}.
 * The welcome's "config" (R, V, heartbeat period, …) is this implementation's addition, so a
 * joining back-end needs no flags beyond --join. Parsers return a value or a string naming
 * what is wrong; nothing here throws on bad input.
 */
export const PROTOCOL_VERSION = 1;
export const FRONT_END = -1;
/** Ids a front-end hands out: 0 … MAX_BACKEND_ID (the simulated cluster's kMaxNodes is 256). */
export const MAX_BACKEND_ID = 4095;

export type PeerTable = Map<number, string>;

export interface Hello {
  from: number;          // the sender's endpoint (see above for -1 on the front-end's port)
  listen: string;        // where this endpoint accepts connections ("host:port")
  token?: string;
  boot?: string;         // a back-end process's random id: a new one means the process restarted
}

export interface BackendConfig {
  replicas: number;
  vids: number;
  heartbeatMs: number;
  missed: number;
  fileBytes: number;
}

export interface Welcome {
  id: number;
  peers: PeerTable;
  config: BackendConfig;
}

function isEndpoint(v: unknown): v is number {
  return Number.isInteger(v) && (v as number) >= FRONT_END && (v as number) <= MAX_BACKEND_ID;
}

/** "host:port" with a port in 1..65535; IPv6 hosts in brackets ("[::1]:80"). */
export function parseHostPort(s: string): { host: string; port: number } | string {
  const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(s);
  if (!m) return `'${s.slice(0, 80)}' is not host:port`;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return `port ${port} is outside 1..65535`;
  const host = m[1]!.startsWith('[') ? m[1]!.slice(1, -1) : m[1]!;
  return { host, port };
}

export function formatHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

function parseObject(bytes: Uint8Array): Record<string, unknown> | string {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return 'control frame is not valid JSON';
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'control frame is not a JSON object';
  const o = v as Record<string, unknown>;
  if (o.fawnlab !== PROTOCOL_VERSION) return `unsupported protocol version ${JSON.stringify(o.fawnlab)} (this is ${PROTOCOL_VERSION})`;
  return o;
}

function parsePeers(v: unknown): PeerTable | string {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return '"peers" must be an object';
  const out: PeerTable = new Map();
  for (const [k, addr] of Object.entries(v as Record<string, unknown>)) {
    const e = Number(k);
    if (!/^-?\d+$/.test(k) || !isEndpoint(e)) return `peer '${k.slice(0, 20)}' is not an endpoint`;
    if (typeof addr !== 'string' || typeof parseHostPort(addr) === 'string') return `peer ${k} has a bad address`;
    out.set(e, addr);
  }
  return out;
}

export function encodeJson(o: unknown): Buffer {
  return Buffer.from(JSON.stringify(o), 'utf8');
}

export function encodeHello(h: Hello): Buffer {
  return encodeJson({ fawnlab: PROTOCOL_VERSION, from: h.from, listen: h.listen, ...(h.token ? { token: h.token } : {}),
    ...(h.boot ? { boot: h.boot } : {}) });
}

export function parseHello(bytes: Uint8Array): Hello | string {
  const o = parseObject(bytes);
  if (typeof o === 'string') return o;
  if (!isEndpoint(o.from)) return `hello: "from" must be an endpoint in -1..${MAX_BACKEND_ID}`;
  if (typeof o.listen !== 'string' || typeof parseHostPort(o.listen) === 'string') return 'hello: "listen" must be "host:port"';
  if (o.token !== undefined && typeof o.token !== 'string') return 'hello: "token" must be a string';
  if (o.boot !== undefined && (typeof o.boot !== 'string' || !/^[0-9a-f]{1,32}$/.test(o.boot))) return 'hello: "boot" must be up to 32 hex digits';
  return { from: o.from, listen: o.listen, ...(o.token !== undefined ? { token: o.token as string } : {}),
    ...(o.boot !== undefined ? { boot: o.boot as string } : {}) };
}

function peersObject(p: PeerTable): Record<string, string> {
  return Object.fromEntries([...p].map(([k, v]) => [String(k), v]));
}

export function encodeWelcome(w: Welcome): Buffer {
  return encodeJson({ fawnlab: PROTOCOL_VERSION, id: w.id, peers: peersObject(w.peers), config: w.config });
}

export function encodePeers(p: PeerTable): Buffer {
  return encodeJson({ fawnlab: PROTOCOL_VERSION, peers: peersObject(p) });
}

function parseConfig(v: unknown): BackendConfig | string {
  if (typeof v !== 'object' || v === null) return 'welcome: "config" must be an object';
  const c = v as Record<string, unknown>;
  for (const k of ['replicas', 'vids', 'heartbeatMs', 'missed', 'fileBytes']) {
    if (!Number.isInteger(c[k]) || (c[k] as number) < 1) return `welcome: config.${k} must be a positive integer`;
  }
  return c as unknown as BackendConfig;
}

/** A control frame a back-end receives from the front-end: a welcome or a peer update. */
export function parseControl(bytes: Uint8Array): { welcome: Welcome } | { peers: PeerTable } | string {
  const o = parseObject(bytes);
  if (typeof o === 'string') return o;
  const peers = parsePeers(o.peers);
  if (typeof peers === 'string') return peers;
  if (o.id === undefined) return { peers };
  if (!isEndpoint(o.id) || o.id < 0) return 'welcome: "id" must be a back-end id';
  const config = parseConfig(o.config);
  if (typeof config === 'string') return config;
  return { welcome: { id: o.id, peers, config } };
}
