/**
 * The FAWN-KV lab's controls: the cluster's shape (nodes, V, R, front-ends, placement: a new
 * cluster), put / get a key, add / remove / fail a node, a bulk fill, the background load
 * (rate, put fraction, Zipf s, front-end cache: changed in the running cluster) and the
 * linearizability checker. Each button sends one operation through `onOp`.
 */
import { useState, type FormEvent } from 'react';
import type { FawnkvConfig, FawnkvOp, FawnkvSnapshot } from './fawnkvTypes';
import { Field, KeyValueFields, numberFrom } from '../../app/LiveControls';

type Config = Required<FawnkvConfig>;

/** A number field bound to one configuration value (rounded when `int`). */
function NumberField({ id, label, value, min, max, step, int = true, onChange }: {
  id: string; label: string; value: number; min: number; max: number; step?: number; int?: boolean; onChange: (v: number) => void;
}) {
  return (
    <Field id={id} label={label}>
      <input id={id} type="number" min={min} max={max} step={step ?? 1} value={value}
        onChange={(e) => { const v = numberFrom(e.target.value, value); onChange(int ? Math.round(v) : v); }} />
    </Field>
  );
}

export function FawnkvSetup({ config, onConfig }: { config: Config; onConfig: (patch: Partial<Config>) => void }) {
  return (
    <details className="fawnds-setup">
      <summary>Cluster setup (changing it starts a new cluster)</summary>
      <div className="live-config">
        <NumberField id="fawnkv-nodes" label="back-end nodes" value={config.nodes} min={1} max={64} onChange={(v) => onConfig({ nodes: v })} />
        <NumberField id="fawnkv-vids" label="VIDs per node (V)" value={config.vids} min={1} max={4096} onChange={(v) => onConfig({ vids: v })} />
        <NumberField id="fawnkv-r" label="replicas (R)" value={config.replication} min={1} max={5} onChange={(v) => onConfig({ replication: v })} />
        <NumberField id="fawnkv-fe" label="front-ends" value={config.front_ends} min={1} max={8} onChange={(v) => onConfig({ front_ends: v })} />
        <Field id="fawnkv-placement" label="VID placement">
          <select id="fawnkv-placement" value={config.placement} onChange={(e) => onConfig({ placement: e.target.value as Config['placement'] })}>
            <option value="hashed">hashed: SHA-1("node/j") (the paper)</option>
            <option value="even">evenly spaced</option>
          </select>
        </Field>
      </div>
    </details>
  );
}

interface Props {
  snap: FawnkvSnapshot;
  busy: boolean;
  config: Config;
  onConfig: (patch: Partial<Config>) => void;
  onOp: (op: FawnkvOp) => void;
}

export function FawnkvControls({ snap, busy, config, onConfig, onOp }: Props) {
  const [key, setKey] = useState('apple');
  const [value, setValue] = useState('red');
  const [picked, setPicked] = useState<number | null>(null);
  const [fill, setFill] = useState('1000');
  const live = snap.nodes.filter((x) => x.state !== 'gone' && x.state !== 'failed');
  const node = picked !== null && live.some((x) => x.id === picked) ? picked : (live[0]?.id ?? 0);
  const submit = (e: FormEvent) => e.preventDefault();

  return (
    <div className="fawnds-controls">
      <form className="op-row" onSubmit={submit} aria-label="Key operations">
        <KeyValueFields prefix="fawnkv" keyText={key} value={value} onKey={setKey} onValue={setValue} />
        <button type="submit" className="primary" disabled={busy} onClick={() => onOp({ op: 'put', key, value })}
          title="The front-end sends it to the head of the key's chain; the tail acknowledges">Put</button>
        <button type="button" disabled={busy} onClick={() => onOp({ op: 'get', key })} title="The front-end asks the tail of the key's chain">Get</button>
      </form>

      <div className="op-row" role="group" aria-label="Membership">
        <button type="button" disabled={busy} onClick={() => onOp({ op: 'add-node' })}
          title="A new back-end joins VID by VID: pre-copy from each range's tail, then the chain takes it in (SOSP'09 §3.4.4)">Add a node</button>
        <Field id="fawnkv-node" label="node">
          <select id="fawnkv-node" value={node} onChange={(e) => setPicked(Number(e.target.value))} disabled={live.length === 0}>
            {live.map((x) => <option key={x.id} value={x.id}>node {x.id}{x.state === 'up' ? '' : ` (${x.state})`}</option>)}
          </select>
        </Field>
        <button type="button" disabled={busy || live.length === 0} onClick={() => onOp({ op: 'remove-node', id: node })}
          title="A graceful leave: the front-end runs the leave protocol at once">Remove node {node}</button>
        <button type="button" className="danger" disabled={busy || live.length === 0} onClick={() => onOp({ op: 'fail-node', id: node })}
          title="Fail-stop: it stops answering; the front-end notices after missed heartbeats">Fail node {node}</button>
      </div>

      <div className="op-row" role="group" aria-label="Bulk puts and background load">
        <Field id="fawnkv-fill" label="keys k0 … (bulk put)">
          <input id="fawnkv-fill" type="number" min={1} max={100000} value={fill} onChange={(e) => setFill(e.target.value)} />
        </Field>
        <button type="button" disabled={busy} onClick={() => onOp({ op: 'fill', count: Math.round(Number(fill)) })}>Fill</button>
        <NumberField id="fawnkv-rate" label="load (requests/s)" value={config.load_rate_per_s} min={0} max={100000} step={100} int={false}
          onChange={(v) => onConfig({ load_rate_per_s: v })} />
        <NumberField id="fawnkv-put-fraction" label="put fraction" value={config.load_put_fraction} min={0} max={1} step={0.05} int={false}
          onChange={(v) => onConfig({ load_put_fraction: v })} />
        <NumberField id="fawnkv-zipf" label="Zipf s (0: uniform)" value={config.zipf_s} min={0} max={2} step={0.1} int={false}
          onChange={(v) => onConfig({ zipf_s: v })} />
        <NumberField id="fawnkv-cache" label="front-end cache entries" value={config.cache_entries} min={0} max={100000} step={100}
          onChange={(v) => onConfig({ cache_entries: v })} />
      </div>

      <div className="op-row" role="group" aria-label="Checker">
        <button type="button" disabled={busy} onClick={() => onOp({ op: 'check' })}
          title="Checks every key's history of puts and gets so far: does each get return the latest acknowledged put?">Run checker</button>
      </div>
    </div>
  );
}
