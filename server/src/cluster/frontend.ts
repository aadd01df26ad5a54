/**
 * The front-end process (`fawnlab cluster`): one C++ KvHostNode in role "frontend" (ring,
 * routing, heartbeats, membership), served to clients over HTTP + WebSocket (the lab's
 * server with the cluster API, api.ts/events.ts) and memcached (memcached.ts), and to
 * back-ends over the peer port. A back-end's hello registers it: it gets an id if it has none,
 * the peer table and the cluster's settings; everyone else gets the new table; and, if it is
 * not a live ring member, the node is asked to add it (a restarted node rejoins this way; one
 * declared failed is reset first — it drops all it held — and joins afresh once it answers). A
 * live member whose process restarted (a new boot id in its hello) is failed and added again,
 * since it missed writes while it was down; a live member that only reconnected keeps its place.
 * Back-end processes on this machine are children (supervisor.ts). Failures are found by the
 * node's heartbeats, exactly as for a back-end on another machine: kill only kills.
 * The ring is persisted in DIR/frontend/ring.json (ringfile.ts) whenever the node's ring or
 * chains change, before the messages of that change leave; a front-end started on a data dir
 * with one restores it (its back-ends "recovering" until they say hello or --recover-timeout
 * passes) and spawns a child for every back-end it names. A ring.json the node refuses stops
 * the start with an error naming the file; --fresh deletes it first.
 */
import { existsSync, mkdirSync } from 'node:fs';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { join, resolve } from 'node:path';
import { UsageError } from '../args.js';
import { ROOT } from '../core.js';
import { createLabServer } from '../http.js';
import { packageVersion } from '../main.js';
import { handleApi, type ClusterControl } from './api.js';
import { CLUSTER_USAGE, parseClusterArgs, type ClusterArgs } from './clusterargs.js';
import { EventHub } from './events.js';
import { ConnectionGate } from './gate.js';
import {
  encodePeers, encodeWelcome, formatHostPort, FRONT_END, MAX_BACKEND_ID, parseHostPort, type BackendConfig, type Hello, type PeerTable,
} from './hello.js';
import { createKvHostNode, KvDriver, loadKvHost, type KvHostModule } from './kvcore.js';
import { EVENTS_KEPT, LatencyWindow, NodeRates, parseCoreStatus, type CoreStatus, type IntervalStats } from './status.js';
import { CLIENT_IDLE_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from './limits.js';
import { LoadGenerator, LOAD_DEFAULTS, parseLoadSettings, type LoadClient } from './loadgen.js';
import { createMemcachedServer } from './memcached.js';
import { createPeerServer, type PeerConn } from './peerserver.js';
import { PeerLinks } from './peers.js';
import { Supervisor } from './supervisor.js';
import { discardRingFile, readRingFile, writeRingFile } from './ringfile.js';
import { packValue } from './values.js';
import type { ClusterViewWire } from '../wire/cluster.js';

export const CLI_JS = resolve(ROOT, 'server/dist/cli.js');
/** States in the node's status that mean "a live ring member": a hello from one only updates its address. */
export const LIVE_STATES = new Set(['up', 'joining', 'leaving']);
const STATUS_MS = 500;

export interface FrontendDeps {
  mod: KvHostModule;
  log: (line: string) => void;
  version?: string;
  webRoot?: string;
  /** Spawn the --nodes back-ends as children (tests start them in-process instead). */
  spawnChildren?: boolean;
  heartbeatMs?: number;
  missed?: number;
}

export interface FrontendHandle {
  gate: ConnectionGate;
  http: string;        // host:port of each port actually bound
  memcached: string;
  peer: string;
  driver: KvDriver;
  supervisor: Supervisor;
  view(): ClusterViewWire;
  stop(): Promise<void>;
}

function listen(server: Server | HttpServer, port: number, host: string, what: string): Promise<string> {
  return new Promise((done, fail) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      fail(new Error(`cannot listen on ${formatHostPort(host, port)} for ${what}: ${err.code === 'EADDRINUSE' ? 'the port is in use (choose another)' : err.message}`));
    });
    server.listen(port, host, () => done(formatHostPort(host, (server.address() as AddressInfo).port)));
  });
}

export async function startFrontend(a: ClusterArgs, deps: FrontendDeps): Promise<FrontendHandle> {
  const { log } = deps;
  const version = deps.version ?? packageVersion();
  const config: BackendConfig = { replicas: a.replicas, vids: a.vids, heartbeatMs: deps.heartbeatMs ?? 500, missed: deps.missed ?? 3, fileBytes: a.fileBytes };
  mkdirSync(join(a.dataDir, 'frontend'), { recursive: true });
  const node = createKvHostNode(deps.mod, { role: 'frontend', dataDir: join(a.dataDir, 'frontend'), ...config, cacheEntries: 0, recoverMs: a.recoverMs,
    timeoutMs: REQUEST_TIMEOUT_MS });
  if (typeof node === 'string') throw new Error(`the front-end node refused its configuration: ${node}`);
  const ringPath = join(a.dataDir, 'frontend', 'ring.json');
  if (a.fresh && discardRingFile(ringPath)) log(`--fresh: discarded ${ringPath}; the back-ends rejoin an empty ring and are copied afresh`);
  const saved = readRingFile(ringPath);
  const restoredIds: number[] = [];
  if (saved !== null) {
    const why = node.restoreRing(saved);
    if (why !== '') {
      node.delete();
      throw new Error(`${ringPath}: ${why}. Fix or move the file, or start with --fresh to discard it (the back-ends then rejoin an empty ring and are copied afresh)`);
    }
    for (const n of (JSON.parse(saved) as { nodes: Array<{ id: number }> }).nodes) restoredIds.push(n.id);
    log(`restored the ring from ${ringPath}: back-ends ${restoredIds.join(', ') || 'none'}; waiting up to ${a.recoverMs / 1000} s for them`);
  }
  let ringWritten = node.ringVersion();
  let stopping = false; // a clean stop must not record the failures of the back-ends it stops
  const persistRing = (): void => {
    const v = node.ringVersion();
    if (v === ringWritten || stopping) return;
    try {
      writeRingFile(ringPath, node.ringJson());
      ringWritten = v;
    } catch (e) {
      log(`cannot write ${ringPath}: ${(e as Error).message}`);
    }
  };

  const peers: PeerTable = new Map();
  const control = new Map<number, PeerConn>();  // each back-end's connection to us (its link to -1)
  const window = new LatencyWindow();
  const rates = new NodeRates();
  let lastRates = new Map<number, number>(); // requests served per second by each back-end (the ticker updates it)
  let lastPerNode: IntervalStats['perNode'] = {}; // each back-end's client latency over the last interval
  const gate = new ConnectionGate(undefined, log);
  const events: unknown[] = [];
  let status: CoreStatus = { nodes: [], ring: [], chains: [], changes: [], events: [] };
  let peerAddr = '';
  let httpAddr = '';
  let mcAddr = '';

  const links = new PeerLinks({ self: FRONT_END, listen: '', log, ...(a.token ? { token: a.token } : {}) });
  const driver = new KvDriver(node, {
    send: (to, b) => links.send(to, b), log, onDone: (op, r) => window.record(op, r.ok, r.latencyNs, r.node), beforeSend: persistRing,
  });

  // The built-in load generator (the Cluster page's): it drives this process's node directly,
  // storing values with memcached flags 0 as the HTTP API does.
  const loadClient: LoadClient = { get: (k) => driver.get(k), put: (k, v) => driver.put(k, packValue(0, v)), multiget: (ks) => driver.multiget(ks) };
  const loadgen = new LoadGenerator(loadClient, { log });

  const supervisor = new Supervisor({
    dataRoot: a.dataDir, log,
    command: (id, dir) => ({
      cmd: process.execPath,
      args: [CLI_JS, 'node', '--id', String(id), '--data', dir, '--frontend', peerAddr],
      env: { ...process.env, ...(a.token ? { FAWNLAB_TOKEN: a.token } : {}) },
    }),
    usedIds: () => [...peers.keys(), ...status.nodes.map((n) => n.id)],
  });

  const hub = new EventHub({ ...(a.token ? { token: a.token } : {}), log, snapshot: () => view() });

  /** Reads the node's status (handing its new events to the WebSocket clients). */
  const poll = (): void => {
    const s = parseCoreStatus(node.statusJson());
    if (typeof s === 'string') return log(`front-end node: ${s}`);
    status = s;
    for (const e of s.events) {
      events.push(e);
      hub.broadcast({ type: 'event', event: e });
    }
    events.splice(0, Math.max(0, events.length - EVENTS_KEPT));
  };

  const view = (): ClusterViewWire => {
    const children = new Map(supervisor.list().map((c) => [c.id, c]));
    const r = lastRates;
    const ids = new Set([...status.nodes.map((n) => n.id), ...peers.keys(), ...children.keys()].filter((i) => i >= 0));
    const backends = [...ids].sort((x, y) => x - y).map((id) => {
      const core = status.nodes.find((n) => n.id === id);
      const child = children.get(id);
      return {
        ...(core ?? {}), id, role: 'backend' as const, state: core?.state ?? 'unknown', addr: peers.get(id) ?? null,
        process: child ? child.state : 'remote', pid: child?.pid ?? null, servedPerS: r.get(id) ?? 0,
        latencyMs: lastPerNode[String(id)] ?? null,
      };
    });
    return {
      nodes: [{ id: FRONT_END, role: 'frontend', state: 'up', addr: httpAddr, memcached: mcAddr, peer: peerAddr, pid: process.pid }, ...backends],
      ring: status.ring, chains: status.chains, changes: status.changes, events: events.slice(-50),
      settings: { replicas: a.replicas, vids: a.vids, heartbeatMs: config.heartbeatMs, missed: config.missed },
      load: loadgen.status(), timeMs: Date.now(),
    };
  };

  const boots = new Map<number, string>(); // each back-end's process, as its hellos name it
  const onHello = (hello: Hello, conn: PeerConn): { from: number } | { error: string } => {
    poll();
    let id = hello.from;
    if (id === FRONT_END) {
      const used = [...peers.keys(), ...status.nodes.map((n) => n.id), ...supervisor.list().map((c) => c.id)];
      id = used.length ? Math.max(...used) + 1 : 0;
      if (id > MAX_BACKEND_ID) return { error: `no back-end ids left (the limit is ${MAX_BACKEND_ID})` };
    }
    const hp = parseHostPort(hello.listen);
    if (typeof hp === 'string') return { error: hp };
    const wildcard = hp.host === '0.0.0.0' || hp.host === '::';
    const addr = wildcard ? formatHostPort(conn.remote.replace(/^::ffff:/, ''), hp.port) : hello.listen;
    const old = control.get(id);
    if (old && old !== conn) {
      log(`back-end ${id} registered again from ${addr}; closing its previous connection`);
      old.close();
    }
    control.set(id, conn);
    peers.set(id, addr);
    links.setPeers(peers);
    conn.reply(encodeWelcome({ id, peers: withSelf(), config }));
    for (const [other, c] of control) if (other !== id) c.reply(encodePeers(withSelf()));
    const state = status.nodes.find((n) => n.id === id)?.state;
    const prevBoot = boots.get(id);
    if (hello.boot) boots.set(id, hello.boot);
    const restarted = prevBoot !== undefined && hello.boot !== undefined && prevBoot !== hello.boot;
    const add = (what: string) => {
      const why = driver.membership('addBackend', id);
      log(why ? `back-end ${id} at ${addr}: not added: ${why}` : `back-end ${id} at ${addr}: ${what}`);
    };
    if (state === 'recovering') add('back after a restart of the cluster: restoring its ranges from its stores');
    else if (!state || !LIVE_STATES.has(state)) add('joining the ring');
    else if (restarted) {
      // Its process restarted before the heartbeats noticed: it missed writes, so it is
      // failed and added again, and its ranges are copied afresh (the host node's contract).
      const why = driver.membership('failBackend', id);
      if (why) log(`back-end ${id} restarted; failing it: ${why}`);
      add('restarted while still in the ring: failed and joining again');
    } else log(`back-end ${id} is back at ${addr} (${state})`);
    return { from: id };
  };
  const withSelf = (): PeerTable => new Map([[FRONT_END, peerAddr], ...peers]);

  const peerServer = createPeerServer({
    ...(a.token ? { token: a.token } : {}), log, onHello,
    onFrame: (from, payload) => driver.deliver(from, payload),
    onClose: (conn) => {
      if (control.get(conn.from) === conn) control.delete(conn.from);
    },
  });

  const controlApi: ClusterControl = {
    view: () => {
      poll();
      return view();
    },
    health: () => ({ backends: status.nodes.length, backends_up: status.nodes.filter((n) => n.state === 'up').length }),
    addNode: async () => supervisor.add(),
    killNode: async (id) => supervisor.kill(id),
    restartNode: async (id) => supervisor.restart(id),
    startLoad: (body) => {
      const p = parseLoadSettings(body, loadgen.current ?? LOAD_DEFAULTS);
      if ('errors' in p) return { ok: false, status: 400, error: p.errors.join('; ') };
      const seed = loadgen.begin(p.settings, p.seed);
      return { ok: true, body: { load: { ...loadgen.status(), seed } } };
    },
    stopLoad: () => {
      loadgen.stop();
      return { ok: true, body: { load: loadgen.status() } };
    },
  };
  const webRoot = deps.webRoot ?? resolve(ROOT, 'web/dist');
  if (!existsSync(join(webRoot, 'index.html'))) log(`note: the lab is not built (${webRoot}/index.html is missing): the API works, the pages will not`);
  const apiOptions = { kv: driver, control: controlApi, version, tokenRequired: a.token !== undefined };
  const http = createLabServer({
    root: webRoot, version, ...(a.token ? { token: a.token } : {}),
    api: (req, res, url) => handleApi(apiOptions, req, res, url),
  });
  http.on('connection', (s) => gate.admit(s, 'http'));
  http.headersTimeout = 10_000;
  http.requestTimeout = CLIENT_IDLE_TIMEOUT_MS;
  hub.attach(http);
  const mc = createMemcachedServer({ kv: driver, version, gate, log, ...(a.token ? { token: a.token } : {}) });

  peerAddr = await listen(peerServer, a.peerPort, a.host, 'the peer port');
  httpAddr = await listen(http, a.port, a.host, 'HTTP');
  mcAddr = await listen(mc, a.memcachedPort, a.host, 'memcached');
  // Children reach the peer port over loopback even when it listens on all interfaces.
  const wild = /^(0\.0\.0\.0|\[::\])/.test(peerAddr);
  if (wild) peerAddr = formatHostPort('127.0.0.1', Number(peerAddr.slice(peerAddr.lastIndexOf(':') + 1)));
  links.setListen(peerAddr);

  const ticker = setInterval(() => {
    poll();
    lastRates = rates.update(status.nodes);
    if (loadgen.running) loadgen.roll();
    const client = window.roll();
    lastPerNode = client.perNode;
    hub.broadcast({ type: 'status', ...view(), client });
  }, STATUS_MS);
  if (deps.spawnChildren ?? true) {
    const ids = new Set([...Array.from({ length: a.nodes }, (_, i) => i), ...restoredIds]);
    for (const i of [...ids].sort((x, y) => x - y)) supervisor.start(i);
  }

  return {
    http: httpAddr, memcached: mcAddr, peer: peerAddr, driver, supervisor, view, gate,
    stop: async () => {
      stopping = true;
      clearInterval(ticker);
      loadgen.stop();
      await supervisor.stopAll();
      hub.close();
      links.close();
      driver.stop();
      for (const s of [peerServer, mc, http] as Server[]) s.close();
      peerServer.destroyConnections();
      mc.destroyConnections();
      http.closeAllConnections();
      node.delete();
    },
  };
}

/** `fawnlab cluster ...`: runs until Ctrl-C. */
export async function clusterMain(argv: string[]): Promise<number> {
  let args: ClusterArgs;
  try {
    args = parseClusterArgs(argv, process.env);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`error: ${e.message}\n${CLUSTER_USAGE}\n`);
    return 2;
  }
  const log = (l: string) => process.stderr.write(`${l}\n`);
  const fe = await startFrontend(args, { mod: await loadKvHost(), log });
  process.stdout.write(`fawnlab cluster: http://${fe.http}/  memcached ${fe.memcached}  peers ${fe.peer}  `
    + `(${args.nodes} back-ends, R=${args.replicas}, data in ${args.dataDir}; Ctrl-C to stop)\n`);
  return await new Promise<number>((done) => {
    const stop = () => void fe.stop().then(() => done(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
