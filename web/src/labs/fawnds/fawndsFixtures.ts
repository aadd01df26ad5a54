/**
 * Fixtures for the FAWN-DS views' tests: logs and index cells built by hand (a log is its
 * records' sizes, states and types; keys follow a fixed hash), and a lookup, so the views can
 * be checked without the core.
 */
import type { FawndsIndexCells, FawndsLog, FawndsLookup, FawndsSnapshot, RecordStateName } from './fawndsTypes';
import { FLAG_DELETE, FLAG_REPLAYED, RECORD_STATES } from './fawndsTypes';

export interface FixtureRecord {
  size: number;
  state: RecordStateName;
  del?: boolean;
  replayed?: boolean;
}

/** A log of `records` in order from offset 0. */
export function fixtureLog(records: FixtureRecord[]): FawndsLog {
  const n = records.length;
  const offsets = new Uint32Array(n);
  const flags = new Uint8Array(n);
  const keys = new Uint32Array(n);
  const counts = [0, 0, 0, 0, 0];
  let o = 0;
  records.forEach((r, i) => {
    offsets[i] = o;
    const s = RECORD_STATES.indexOf(r.state);
    flags[i] = s | (r.del ? FLAG_DELETE : 0) | (r.replayed ? FLAG_REPLAYED : 0);
    keys[i] = Math.imul(i + 1, 0x9e3779b1) >>> 0;
    counts[s]!++;
    o += r.size;
  });
  return { offsets, flags, keys, logEnd: o, counts };
}

/** `n` records of `size` bytes with a repeating pattern of states (deterministic). */
export function patternLog(n: number, size = 49): FawndsLog {
  const n32 = n >>> 0;
  const offsets = new Uint32Array(n32);
  const flags = new Uint8Array(n32);
  const keys = new Uint32Array(n32);
  const counts = [0, 0, 0, 0, 0];
  for (let i = 0; i < n32; i++) {
    offsets[i] = i * size;
    // Mostly live early on, more orphaned towards the end (as a log under overwrites looks).
    const h = Math.imul(i + 7, 0x9e3779b1) >>> 0;
    const s = h % 100 < (i * 60) / n32 ? 1 : h % 100 > 97 ? 2 : 0;
    flags[i] = s;
    keys[i] = h;
    counts[s]!++;
  }
  return { offsets, flags, keys, logEnd: n32 * size, counts };
}

/** Index cells of 2^bits buckets, bucket b valid when (b × 7) mod 10 < 4, fragments from b. */
export function fixtureCells(bits: number, group = 1): FawndsIndexCells {
  const buckets = 2 ** bits;
  const count = buckets / group;
  const valid = new Uint16Array(count);
  const fragments = new Uint16Array(group === 1 ? count : 0);
  const offsets = new Uint32Array(group === 1 ? count : 0);
  for (let b = 0; b < buckets; b++) {
    const v = (b * 7) % 10 < 4;
    const c = Math.floor(b / group);
    if (v) valid[c]!++;
    if (group === 1) {
      fragments[c] = ((b * 2654435761) >>> 17) & 0x7fff | (v ? 0x8000 : 0);
      offsets[c] = v ? b * 49 : 0;
    }
  }
  return { indexBits: bits, first: 0, group, valid, fragments, offsets };
}

/** A get in store `store` that met one false positive before its hit. */
export function fixtureLookup(store: number, bits: number): FawndsLookup {
  const mask = 2 ** bits - 1;
  return {
    op: 'get',
    key: 'apple',
    key_hex: 'd0be2dc421be4fcd0172e5afceea3970e2f3d940',
    store,
    index: 0x940 & mask,
    fragment: 0x1e3,
    queued: false,
    probes: [
      [0, 0x940 & mask, false, 0, 0, 'empty'],
      [1, (0x940 + 37) & mask, true, 0x11, 98, 'other'],
      [2, (0x940 + 74) & mask, true, 0x1e3, 147, 'false-positive'],
      [3, (0x940 + 111) & mask, true, 0x1e3, 245, 'hit'],
    ],
    reads: [
      { log_offset: 147, bytes: 49, device_offset: 28819, false_positive: true },
      { log_offset: 245, bytes: 49, device_offset: 28917, false_positive: false },
    ],
  };
}

/** A snapshot's timeline: steady 800 QPS, a compaction whose lock drops it to 0. */
export function fixtureTimeline(): { timeline: FawndsSnapshot['timeline']; now: number } {
  const bin = 50e6;
  const qps = Array.from({ length: 120 }, (_, i) => (i >= 80 && i < 81 ? 0 : i >= 60 && i < 80 ? 600 : 800));
  return {
    timeline: { bin_ns: bin, first_ns: 0, qps, locks: [[80 * bin, 80.5 * bin]], maintenance: [[60 * bin, 80.5 * bin, 'compact']] },
    now: 120 * bin,
  };
}
