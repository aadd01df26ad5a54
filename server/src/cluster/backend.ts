/**
 * A back-end process (`fawnlab node`): one C++ KvHostNode in role "backend" with its stores in
 * the data dir, a peer port for frames from other nodes, and outgoing links (peers.ts). It
 * registers with the front-end over its link to endpoint -1, whose hello carries its id (or
 * -1 to be given one, which it then saves in DIR/node.json so a restart keeps it); the
 * welcome brings its id, the peer table and the cluster's settings, and only then is the node
 * created (recovering whatever stores the data dir holds). Frames that arrive before that
 * wait (up to EARLY_FRAMES_MAX). If the front-end goes away the link is retried and the hello
 * sent again. A back-end spawned by the front-end exits when its parent does.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { UsageError } from '../args.js';
import { type NodeArgs, NODE_USAGE, parseNodeArgs } from './clusterargs.js';
import { formatHostPort, FRONT_END, parseControl, type PeerTable, type Welcome } from './hello.js';
import { createKvHostNode, describeRecovered, KvDriver, loadKvHost, type KvHostModule, type RawKvHostNode } from './kvcore.js';
import { createPeerServer } from './peerserver.js';
import { PeerLinks } from './peers.js';

const EARLY_FRAMES_MAX = 10_000;

export interface BackendHandle {
  readonly listen: string;
  id(): number;
  peers(): PeerTable;
  ready: Promise<{ id: number; recovered: string }>;
  stop(): Promise<void>;
}

function savedId(dataDir: string): number | null {
  try {
    const v = (JSON.parse(readFileSync(join(dataDir, 'node.json'), 'utf8')) as { id?: unknown }).id;
    return Number.isInteger(v) && (v as number) >= 0 ? (v as number) : null;
  } catch {
    return null;
  }
}

export async function startBackend(args: NodeArgs, mod: KvHostModule, log: (line: string) => void): Promise<BackendHandle> {
  mkdirSync(args.dataDir, { recursive: true });
  const frontAddr = formatHostPort(args.frontend.host, args.frontend.port);
  let id = args.id ?? savedId(args.dataDir) ?? -1;
  let node: RawKvHostNode | null = null;
  let driver: KvDriver | null = null;
  const early: Array<[number, Buffer]> = [];
  let readyResolve!: (v: { id: number; recovered: string }) => void;
  let readyReject!: (e: Error) => void;
  const ready = new Promise<{ id: number; recovered: string }>((res, rej) => {
    readyResolve = res;
    readyReject = rej;
  });
  ready.catch(() => {});

  const server = createPeerServer({
    ...(args.token ? { token: args.token } : {}),
    log,
    onHello: (hello) => ({ from: hello.from }),
    onFrame: (from, payload) => {
      if (driver) driver.deliver(from, payload);
      else if (early.length < EARLY_FRAMES_MAX) early.push([from, payload]);
    },
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(args.listenPort, args.listenHost, () => done());
  });
  const listen = formatHostPort(args.listenHost, (server.address() as AddressInfo).port);

  const withFront = (t: PeerTable): PeerTable => new Map([...t, [FRONT_END, frontAddr]]); // we reach it where we joined
  const links = new PeerLinks({
    self: id, listen, log, ...(args.token ? { token: args.token } : {}), boot: randomBytes(8).toString('hex'),
    backoffMaxMs: 500, // re-register soon after a front-end restart, before its heartbeats give up on us
    onControl: (_from, payload) => {
      const c = parseControl(payload);
      if (typeof c === 'string') return log(`front-end sent a bad control frame: ${c}`);
      if ('peers' in c) return links.setPeers(withFront(c.peers));
      welcome(c.welcome);
    },
  });

  const welcome = (w: Welcome) => {
    links.setPeers(withFront(w.peers));
    if (node) {
      if (w.id !== id) log(`the front-end now calls this node ${w.id}, but it is ${id}; ignoring`);
      return;
    }
    if (id < 0) writeFileSync(join(args.dataDir, 'node.json'), JSON.stringify({ id: w.id }) + '\n');
    id = w.id;
    links.setSelf(id);
    const made = createKvHostNode(mod, { role: 'backend', id, dataDir: args.dataDir, ...w.config, cacheEntries: 0 });
    if (typeof made === 'string') {
      log(`cannot start back-end ${id}: ${made}`);
      readyReject(new Error(made));
      return;
    }
    node = made;
    driver = new KvDriver(made, { send: (to, bytes) => links.send(to, bytes), log });
    for (const [from, payload] of early.splice(0)) driver.deliver(from, payload);
    const recovered = describeRecovered(made.recovered());
    log(`back-end ${id}: listening on ${listen}, data in ${args.dataDir}; ${recovered}`);
    readyResolve({ id, recovered });
  };

  links.setPeers(withFront(new Map()));
  links.ensure(FRONT_END);
  const keepalive = setInterval(() => links.ensure(FRONT_END), 250);
  // Storage events worth a line: background compactions and writes refused for want of room.
  let seen = { compactions: 0, refused: 0 };
  const storage = setInterval(() => {
    if (!node) return;
    const now = storageCounters(node.statusJson());
    if (now.compactions > seen.compactions) {
      log(`back-end ${id}: ${now.compactions} store compaction${now.compactions === 1 ? '' : 's'} so far, ${now.reclaimedBytes} log bytes reclaimed`);
    }
    if (now.refused > seen.refused) log(`back-end ${id}: a store had no room: ${now.refused} write${now.refused === 1 ? '' : 's'} refused so far (507)`);
    seen = now;
  }, 1000);
  storage.unref();

  return {
    listen,
    id: () => id,
    peers: () => links.peers(),
    ready,
    stop: async () => {
      clearInterval(keepalive);
      clearInterval(storage);
      links.close();
      driver?.stop();
      node?.delete();
      node = null;
      const closed = new Promise<void>((done) => server.close(() => done()));
      server.destroyConnections();
      await closed;
    },
  };
}

/** The storage counters of a back-end's statusJson (fawnkvhost/back_host.cc). */
function storageCounters(json: string): { compactions: number; reclaimedBytes: number; refused: number } {
  try {
    const o = JSON.parse(json) as { compactions?: number; reclaimedBytes?: number; refused?: number };
    return { compactions: o.compactions ?? 0, reclaimedBytes: o.reclaimedBytes ?? 0, refused: o.refused ?? 0 };
  } catch {
    return { compactions: 0, reclaimedBytes: 0, refused: 0 };
  }
}

/** `fawnlab node ...`: runs until a signal (or, as a child, until its parent goes). */
export async function nodeMain(argv: string[]): Promise<number> {
  let args: NodeArgs;
  try {
    args = parseNodeArgs(argv, process.env);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`error: ${e.message}\n${NODE_USAGE}\n`);
    return 2;
  }
  const log = (l: string) => process.stderr.write(`${l}\n`);
  const handle = await startBackend(args, await loadKvHost(), log);
  return await new Promise<number>((done) => {
    const stop = (code: number) => () => void handle.stop().then(() => done(code));
    process.once('SIGINT', stop(0));
    process.once('SIGTERM', stop(0));
    if (process.send) process.once('disconnect', stop(0));
    handle.ready.catch(stop(1));
  });
}
