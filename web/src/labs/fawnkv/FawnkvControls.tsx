/**
 * The FAWN-KV lab's controls: the cluster's shape (nodes, V, R, front-ends, placement: a new
 * cluster), put / get a key, add / remove / fail a node, a bulk fill, the background load
 * (rate, put fraction, Zipf s, front-end cache: changed in the running cluster) and the
 * linearizability checker. Each button sends one operation through `onOp`. The fields come
 * from the fawnkv session's schema, the key, value and fill count from its operations'.
 */
import { useState, type FormEvent } from 'react';
import type { FawnkvConfig, FawnkvOp, FawnkvSnapshot } from './fawnkvTypes';
import { Field } from '../../app/LiveControls';
import { OpArgField, SessionField, sessionSchema } from '../../app/SessionField';

type Config = Required<FawnkvConfig>;

/** The placement choices as the setup shows them. */
export const PLACEMENT_NAMES = { hashed: 'hashed: SHA-1("node/j") (the paper)', even: 'evenly spaced' };

export function FawnkvSetup({ config, onConfig }: { config: Config; onConfig: (patch: Partial<Config>) => void }) {
  const bind = { session: sessionSchema('fawnkv'), config, onConfig };
  return (
    <details className="fawnds-setup">
      <summary>Cluster setup (changing it starts a new cluster)</summary>
      <div className="live-config">
        <SessionField {...bind} name="nodes" id="fawnkv-nodes" label="back-end nodes" />
        <SessionField {...bind} name="vids" id="fawnkv-vids" label="VIDs per node (V)" />
        <SessionField {...bind} name="replication" id="fawnkv-r" label="replicas (R)" />
        <SessionField {...bind} name="front_ends" id="fawnkv-fe" label="front-ends" />
        <SessionField {...bind} name="placement" id="fawnkv-placement" label="VID placement" names={PLACEMENT_NAMES} />
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
  const [fill, setFill] = useState(1000);
  const live = snap.nodes.filter((x) => x.state !== 'gone' && x.state !== 'failed');
  const node = picked !== null && live.some((x) => x.id === picked) ? picked : (live[0]?.id ?? 0);
  const submit = (e: FormEvent) => e.preventDefault();
  const session = sessionSchema('fawnkv');
  const bind = { session, config, onConfig };

  return (
    <div className="fawnds-controls">
      <form className="op-row" onSubmit={submit} aria-label="Key operations">
        <OpArgField session={session} op="put" arg="key" id="fawnkv-key" label="key" value={key} onChange={(v) => setKey(String(v))} />
        <OpArgField session={session} op="put" arg="value" id="fawnkv-value" label="value (put)" value={value} onChange={(v) => setValue(String(v))} />
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
        <OpArgField session={session} op="fill" arg="count" id="fawnkv-fill" label="keys k0 … (bulk put)" value={fill} onChange={(v) => setFill(Number(v))} />
        <button type="button" disabled={busy} onClick={() => onOp({ op: 'fill', count: fill })}>Fill</button>
        <SessionField {...bind} name="load_rate_per_s" id="fawnkv-rate" label="load (requests/s)" step={100} />
        <SessionField {...bind} name="load_put_fraction" id="fawnkv-put-fraction" label="put fraction" step={0.05} />
        <SessionField {...bind} name="zipf_s" id="fawnkv-zipf" label="Zipf s (0: uniform)" step={0.1} />
        <SessionField {...bind} name="cache_entries" id="fawnkv-cache" label="front-end cache entries" step={100} />
      </div>

      <div className="op-row" role="group" aria-label="Checker">
        <button type="button" disabled={busy} onClick={() => onOp({ op: 'check' })}
          title="Checks every key's history of puts and gets so far: does each get return the latest acknowledged put?">Run checker</button>
      </div>
    </div>
  );
}
