/**
 * The Cluster page (/cluster): a real FAWN-KV cluster of processes, live. It connects to the
 * serving front-end's event stream (model/clusterSocket), converts each status into the view
 * (model/clusterView) and draws the ring with the chains the front-end reports in the ring
 * host the FAWN-KV lab uses (RingCanvas), per-node throughput and client latency over
 * wall-clock seconds (viz/clusterCharts), the back-ends with kill and restart buttons, an
 * add-node button, the load generator's form, the membership changes and the event log. On a plain lab server (no cluster) it says how to start one.
 * Keyboard: the ring takes arrows (move the focused VID), Enter (pin) and Escape, as in the
 * FAWN-KV lab; everything else is buttons and form fields.
 */
import { useEffect, useRef, useState } from 'react';
import { addNode, killNode, restartNode, startLoad, stopLoad, type ActionResult } from '../model/clusterApi';
import { ClusterSocket, describeState, eventsUrl, type ConnectionState, type SocketLike } from '../model/clusterSocket';
import type { ClusterMessage, LoadSettings } from '@wire/cluster';
import { ClusterHistory, eventText, joinsOf, ringNodes, ringToVids, viewOf, type ClusterView } from '../model/clusterView';
import { paintScene } from '../viz/canvasScene';
import { latencyScene, throughputScene } from '../viz/clusterCharts';
import { indexRing, vidCount, type RingIndex } from '../viz/ringModel';
import { nodeColour } from '../viz/ringPalette';
import { RingCanvas, type RingCanvasHandle } from './RingCanvas';
import { canvasWidth, MIN_CANVAS_WIDTH } from './viewSize';

const START_COMMAND = 'npm run cluster -- --nodes 4 --replicas 3';
const FRONT_ENDS = [{ id: 0, start: 0, end: 0 }];
const EVENTS_KEPT = 200;
const fmt = (x: number, d = 1) => x.toLocaleString('en-US', { maximumFractionDigits: d });

export function ClusterPage() {
  const [conn, setConn] = useState<ConnectionState>({ kind: 'connecting', attempt: 1 });
  const [view, setView] = useState<ClusterView | null>(null);
  const [events, setEvents] = useState<string[]>([]);
  const [tick, setTick] = useState(0);
  const history = useRef(new ClusterHistory());
  const ring = useRef<RingIndex | null>(null);
  const ringKey = useRef('');

  useEffect(() => {
    const onMessage = (m: ClusterMessage) => {
      if (m.type === 'event') {
        setEvents((e) => [...e, eventText(m.event)].slice(-EVENTS_KEPT));
        return;
      }
      const v = viewOf(m);
      if (v.ringKey !== ringKey.current) {
        ringKey.current = v.ringKey;
        ring.current = indexRing(ringToVids(m.ring, m.chains));
      }
      if (m.type === 'snapshot') setEvents(v.events);
      else history.current.push(m, m.client);
      setView(v);
      setTick((t) => t + 1);
    };
    const sock = new ClusterSocket(eventsUrl(window.location), { onState: setConn, onMessage }, {
      open: (url) => new WebSocket(url) as unknown as SocketLike, // the browser's handlers take narrower events
      fetch: (url, init) => window.fetch(url, init),
      setTimeout: (f, ms) => window.setTimeout(f, ms),
      clearTimeout: (h) => window.clearTimeout(h as number),
    });
    sock.start();
    return () => sock.stop();
  }, []);

  return (
    <main id="main" className="page cluster-page">
      <h1>Real cluster</h1>
      <p className="lead">
        A FAWN-KV cluster of real processes on this machine: a front-end and back-ends, each back-end running FAWN-DS on its own
        data directory, chain replication over TCP. Kill a node and watch the front-end's heartbeats notice it and the chains repair.
      </p>
      <p className={`conn conn-${conn.kind}`} role="status" aria-live="polite" data-testid="cluster-conn">{describeState(conn)}</p>
      {conn.kind === 'no-cluster' ? <NoCluster /> : view && (
        <ClusterBody view={view} events={events} history={history.current} ring={ring.current} tick={tick} />
      )}
    </main>
  );
}

function NoCluster() {
  return (
    <section className="panel" data-testid="cluster-none" aria-labelledby="none-h">
      <h2 id="none-h">No cluster is running behind this page</h2>
      <p>This page shows a real cluster, and this server is the plain lab server, which runs none. Start one from the repository:</p>
      <pre className="command"><code>{START_COMMAND}</code></pre>
      <p>
        It prints the address of its front-end (by default <code>http://127.0.0.1:8200/</code>); open <code>/cluster</code> there.
        Options: <code>--port</code> for the HTTP port, <code>--data DIR</code> for the data directories, <code>--token</code> to listen
        beyond this machine. See <code>docs/cluster.md</code>.
      </p>
    </section>
  );
}

function ClusterBody({ view, events, history, ring, tick }: { view: ClusterView; events: string[]; history: ClusterHistory; ring: RingIndex | null; tick: number }) {
  const [action, setAction] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (what: string, f: () => Promise<ActionResult>) => {
    setBusy(true);
    const r = await f();
    setBusy(false);
    setAction(r.ok ? { text: what, error: false } : { text: r.error, error: true });
  };
  const fe = view.frontEnd;
  const up = view.backends.filter((b) => b.state === 'up').length;
  return (
    <>
      <p className="cluster-line" data-testid="cluster-summary">
        Front-end {fe?.addr ?? '?'}{fe?.memcached ? ` · memcached ${fe.memcached}` : ''} · {view.backends.length} back-ends, {up} up · R = {view.replicas}
        {' '}· heartbeats every {view.heartbeatMs} ms
      </p>

      <section className="panel" aria-labelledby="nodes-h">
        <h2 id="nodes-h">Nodes</h2>
        <NodeTable view={view} busy={busy} onKill={(id) => run(`Killed node ${id} (SIGKILL); the front-end will notice it missing heartbeats.`, () => killNode(window.fetch.bind(window), id))}
          onRestart={(id) => run(`Restarted node ${id}: it recovers its stores and rejoins.`, () => restartNode(window.fetch.bind(window), id))} />
        <button type="button" disabled={busy} onClick={() => run('Started a new back-end; it joins the ring.', () => addNode(window.fetch.bind(window)))}>Add a node</button>
        <p className={action?.error ? 'error' : 'op-result'} role={action?.error ? 'alert' : 'status'} data-testid="cluster-action">{action?.text ?? ''}</p>
      </section>

      <section className="panel" aria-labelledby="ring-h">
        <h2 id="ring-h">The ring</h2>
        <LiveRing ring={ring} view={view} />
      </section>

      <section className="panel" aria-labelledby="charts-h">
        <h2 id="charts-h">Throughput and latency</h2>
        <Charts history={history} tick={tick} />
      </section>

      <section className="panel" aria-labelledby="load-h">
        <h2 id="load-h">Load generator</h2>
        <LoadPanel view={view} />
      </section>

      <section className="panel" aria-labelledby="changes-h">
        <h2 id="changes-h">Membership changes</h2>
        {view.changes.length === 0 ? <p className="muted small" data-testid="cluster-changes">No joins, leaves or repairs in progress.</p> : (
          <ul className="join-list small" data-testid="cluster-changes">{view.changes.map((c, i) => <li key={i}>{c.text}</li>)}</ul>
        )}
        <h3>Event log</h3>
        {events.length === 0 ? <p className="muted small">No membership events yet.</p> : (
          <ol className="event-log small" reversed aria-label="Cluster events, newest first" data-testid="cluster-events">
            {[...events].reverse().map((e, i) => <li key={events.length - i}>{e}</li>)}
          </ol>
        )}
      </section>
    </>
  );
}

function NodeTable({ view, busy, onKill, onRestart }: { view: ClusterView; busy: boolean; onKill: (id: number) => void; onRestart: (id: number) => void }) {
  return (
    <div className="table-wrap">
      <table className="metrics node-table" data-testid="cluster-nodes">
        <caption className="sr-only">Back-ends: ring state, process, address, requests served per second and the latency of the client requests each answered</caption>
        <thead>
          <tr><th>node</th><th>ring state</th><th>process</th><th>pid</th><th>address</th><th className="num">VIDs</th><th className="num">served/s</th><th className="num">p50 ms</th><th className="num">p99 ms</th><th>actions</th></tr>
        </thead>
        <tbody>
          {view.backends.map((b) => (
            <tr key={b.id} className={`state-${b.state}`} data-node={b.id}>
              <td><span className="sw-sq" style={{ borderColor: nodeColour(b.id) }} />{b.id}</td>
              <td data-testid={`node-${b.id}-state`}><span className={`badge badge-${b.state}`}>{b.state}</span></td>
              <td data-testid={`node-${b.id}-process`}>{b.process}</td>
              <td>{b.pid ?? '—'}</td>
              <td><code>{b.addr || '—'}</code></td>
              <td className="num">{b.vids}</td>
              <td className="num">{fmt(b.servedPerS, 0)}</td>
              <td className="num" data-testid={`node-${b.id}-p50`}>{b.p50Ms === null ? '—' : fmt(b.p50Ms, 2)}</td>
              <td className="num">{b.p99Ms === null ? '—' : fmt(b.p99Ms, 2)}</td>
              <td className="actions">
                {b.process === 'running' && <button type="button" disabled={busy} aria-label={`Kill node ${b.id}`} onClick={() => onKill(b.id)}>Kill</button>}
                {(b.process === 'killed' || b.process === 'exited') && <button type="button" disabled={busy} aria-label={`Restart node ${b.id}`} onClick={() => onRestart(b.id)}>Restart</button>}
                {b.process === 'remote' && <span className="muted small">remote</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function LiveRing({ ring, view }: { ring: RingIndex | null; view: ClusterView }) {
  const host = useRef<RingCanvasHandle>(null);
  useEffect(() => {
    if (!ring) return;
    host.current?.paint({ ring, ringKey: view.ringKey, replication: view.replicas, nodes: ringNodes(view.backends), frontEnds: FRONT_ENDS,
      nowNs: 0, messages: [], joins: joinsOf(view.changes) });
  });
  if (!ring || vidCount(ring.vids) === 0) return <p className="muted" data-testid="cluster-ring-empty">The ring is empty: no back-end has joined yet.</p>;
  return (
    <RingCanvas ref={host} testId="cluster-ring" readoutId="cluster-ring-readout"
      ariaLabel={`The live consistent-hashing ring: ${vidCount(ring.vids)} VIDs of ${ring.shares.size} back-ends, each range an arc in its node's colour, failed nodes crossed out. Arrow keys move between VIDs; Enter pins one; Escape lets go.`} />
  );
}

function Charts({ history, tick }: { history: ClusterHistory; tick: number }) {
  const thr = useRef<HTMLCanvasElement>(null);
  const lat = useRef<HTMLCanvasElement>(null);
  const wrap = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const dpr = window.devicePixelRatio || 1;
    const width = canvasWidth(wrap.current, 760, MIN_CANVAS_WIDTH, 900);
    if (thr.current) paintScene(thr.current, throughputScene(history.samples(), history.nodeIds(), width), dpr);
    if (lat.current) paintScene(lat.current, latencyScene(history.samples(), width), dpr);
  }, [history, tick]);
  const last = history.samples().at(-1);
  const perNode = last ? [...last.perNode].map(([id, r]) => `node ${id} ${fmt(r, 0)}`).join(', ') : 'none yet';
  return (
    <div ref={wrap} className="canvas-wrap cluster-charts">
      <canvas ref={thr} className="fawnds-canvas" role="img" data-testid="cluster-throughput"
        aria-label={`Requests served per second by each back-end over the last minute of wall-clock time. Now: ${perNode}.`} />
      <canvas ref={lat} className="fawnds-canvas" role="img" data-testid="cluster-latency"
        aria-label={`Client latency at the front-end, p50 and p99 in milliseconds, over the last minute. Now: ${last && last.p50 !== null ? `p50 ${fmt(last.p50, 3)} ms, p99 ${fmt(last.p99 ?? 0, 3)} ms, ${fmt(last.opsPerS, 0)} operations/s` : 'no requests finished'}.`} />
    </div>
  );
}

const FIELDS: Array<{ key: keyof LoadSettings; label: string; unit: string; min: number; max: number; step: number | 'any' }> = [
  { key: 'rate', label: 'Rate', unit: 'ops/s', min: 0.1, max: 100000, step: 'any' },
  { key: 'putFraction', label: 'Put fraction', unit: '0 – 1', min: 0, max: 1, step: 'any' },
  { key: 'keys', label: 'Keys', unit: 'k0 … k(n−1)', min: 1, max: 1000000, step: 1 },
  { key: 'zipf', label: 'Key skew (Zipf)', unit: '0 = uniform', min: 0, max: 2, step: 'any' },
  { key: 'valueBytes', label: 'Value size', unit: 'bytes', min: 0, max: 1048576, step: 1 },
  { key: 'multigetWidth', label: 'Multiget width', unit: 'keys per get', min: 1, max: 256, step: 1 },
];
const DEFAULT_LOAD: LoadSettings = { rate: 200, putFraction: 0.1, keys: 1000, zipf: 0, valueBytes: 100, multigetWidth: 1 };

function LoadPanel({ view }: { view: ClusterView }) {
  const load = view.load;
  const [form, setForm] = useState<Record<keyof LoadSettings, string>>(() => strings(load?.settings ?? DEFAULT_LOAD));
  const [msg, setMsg] = useState<{ text: string; error: boolean } | null>(null);
  const submit = async () => {
    const s = Object.fromEntries(FIELDS.map((f) => [f.key, Number(form[f.key])])) as unknown as LoadSettings;
    const bad = FIELDS.filter((f) => form[f.key].trim() === '' || !Number.isFinite(s[f.key])).map((f) => f.label);
    if (bad.length) return setMsg({ text: `Not a number: ${bad.join(', ')}.`, error: true });
    const r = await startLoad(window.fetch.bind(window), s);
    setMsg(r.ok ? { text: `Load ${load?.running ? 'changed' : 'started'} (seed ${(r.body.load as { seed?: number } | undefined)?.seed ?? '?'}).`, error: false } : { text: r.error, error: true });
  };
  const stop = async () => {
    const r = await stopLoad(window.fetch.bind(window));
    setMsg(r.ok ? { text: 'Load stopped.', error: false } : { text: r.error, error: true });
  };
  const iv = load?.interval;
  return (
    <>
      <form className="op-row load-form" aria-label="Load generator settings" onSubmit={(e) => { e.preventDefault(); void submit(); }}>
        {FIELDS.map((f) => (
          <label key={f.key} className="field">
            {f.label} <span className="unit">({f.unit})</span>
            <input type="number" name={f.key} min={f.min} max={f.max} step={f.step} value={form[f.key]}
              onChange={(e) => setForm({ ...form, [f.key]: e.target.value })} />
          </label>
        ))}
        <button type="submit" data-testid="load-start">{load?.running ? 'Apply' : 'Start load'}</button>
        <button type="button" disabled={!load?.running} onClick={() => void stop()} data-testid="load-stop">Stop load</button>
      </form>
      <p className={msg?.error ? 'error' : 'op-result'} role={msg?.error ? 'alert' : 'status'} data-testid="load-msg">{msg?.text ?? ''}</p>
      <dl className="counters" data-testid="load-stats">
        <div><dt>generator</dt><dd>{load?.running ? `running, seed ${load.seed}` : 'stopped'}</dd></div>
        <div><dt>offered / completed</dt><dd>{iv ? `${fmt(iv.offeredPerS, 0)} / ${fmt(iv.opsPerS, 0)} ops/s` : '—'}</dd></div>
        <div><dt>errors / skipped (at {load?.maxOutstanding ?? 1000} outstanding)</dt><dd>{iv ? `${fmt(iv.errorsPerS, 1)} / ${fmt(iv.skippedPerS, 1)} per s` : '—'}</dd></div>
        <div><dt>latency p50 / p99</dt><dd>{iv && iv.opsPerS > 0 ? `${fmt(iv.latencyMs.p50, 3)} / ${fmt(iv.latencyMs.p99, 3)} ms` : '—'}</dd></div>
        <div><dt>totals</dt><dd>{load ? `${fmt(load.totals.completed, 0)} done, ${fmt(load.totals.errors, 0)} errors, ${fmt(load.totals.skipped, 0)} skipped` : '—'}</dd></div>
      </dl>
      {iv?.lastError ? <p className="error small">Last error: {iv.lastError}</p> : null}
    </>
  );
}

function strings(s: LoadSettings): Record<keyof LoadSettings, string> {
  return Object.fromEntries(FIELDS.map((f) => [f.key, String(s[f.key])])) as Record<keyof LoadSettings, string>;
}
