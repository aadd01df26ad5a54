/**
 * The FAWN-DS live view's operations as the page reads them: a scenario's script with its big
 * fills cut into one chunk per frame, one line saying what an operation did, the key names
 * the page learns from results (the defaults are the session schema's). Pure functions.
 */
import type { FawndsOp, FawndsOpResult } from './fawndsTypes';
import { fmtNs } from '../../viz/format';

/** The top 32 bits of a key (its first 8 hex digits) → the key typed for it, from operation results. */
export function noteKeyName(names: Map<number, string>, r: FawndsOpResult): void {
  if (r.key === undefined || !r.key_hex || r.key_hex.length < 8) return;
  names.set(Number.parseInt(r.key_hex.slice(0, 8), 16), r.key);
}

const CHUNK = 25_000;

/** A scenario's operations with big fills split into chunks (one per frame). */
export function expandScript(ops: FawndsOp[]): FawndsOp[] {
  const out: FawndsOp[] = [];
  for (const op of ops) {
    if ((op.op === 'fill' || op.op === 'delete-many') && op.count > CHUNK) {
      const step = op.op === 'delete-many' ? (op.step ?? 1) : 1;
      for (let done = 0; done < op.count; done += CHUNK) {
        const count = Math.min(CHUNK, op.count - done);
        const from = (op.from ?? 0) + done * step;
        out.push(op.op === 'fill' ? { op: 'fill', count, from } : { op: 'delete-many', count, from, step });
      }
    } else {
      out.push(op);
    }
  }
  return out;
}

/** One line saying what an operation did. */
export function describeResult(op: FawndsOp, r: FawndsOpResult, playing = false): string {
  const t = (ns?: number) => (ns !== undefined && ns >= 0 ? fmtNs(ns) : '—');
  switch (op.op) {
    case 'put':
      return `put “${op.key}” → store ${r.store}: ${r.status}${r.queued ? ' (held by a lock)' : ''}, ${t(r.latency_ns)}`;
    case 'get':
      return r.status === 'ok'
        ? `get “${op.key}” → “${r.value}” from store ${r.store}, ${r.record_reads} flash read${r.record_reads === 1 ? '' : 's'}, ${t(r.latency_ns)}`
        : `get “${op.key}” → ${r.status === 'not_found' ? 'not found' : r.status} in store ${r.store}, ${r.record_reads ? `${r.record_reads} flash read${r.record_reads === 1 ? '' : 's'} (false positive${r.record_reads === 1 ? '' : 's'}), ${t(r.latency_ns)}` : 'no flash read: the index alone said so'}`;
    case 'delete':
      return `delete “${op.key}” → store ${r.store}: ${r.status === 'not_found' ? 'not found (nothing written)' : r.status}, ${t(r.latency_ns)}`;
    case 'fill':
    case 'delete-many':
      return `${op.op}: ${r.succeeded?.toLocaleString('en-US')} of ${r.issued?.toLocaleString('en-US')} keys, then a sync`;
    case 'compact':
    case 'split':
    case 'merge':
      return `${op.op} of store ${r.store}${r.other !== undefined ? ` and ${r.other}` : ''} ${r.finished ? 'finished' : playing ? 'started: watch it run below' : 'started: press Play to watch it'}`;
    case 'checkpoint':
      return `checkpointed ${op.store === undefined ? 'every store' : `store ${op.store}`} in ${t(r.latency_ns)}`;
    case 'sync':
      return `synced: every acknowledged write is durable (${t(r.latency_ns)})`;
    case 'crash':
      return `crash: ${r.lost_records} record${r.lost_records === 1 ? '' : 's'} lost (${r.unsynced_bytes?.toLocaleString('en-US')} unsynced bytes undone); the DRAM index is gone`;
    case 'recover':
      return `recovered ${r.stores} store${r.stores === 1 ? '' : 's'} in ${t(r.duration_ns)} of device time: ${r.replayed_records} records replayed`;
  }
}
