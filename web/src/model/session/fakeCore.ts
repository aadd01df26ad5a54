/**
 * Test helper: a fake core session (virtual time counter, busy from 3 ms to 5 ms, one column
 * view, an operation that fails) for the client and host tests that need no WASM build.
 */
import type { CoreError } from '../types';
import type { OpenRaw, RawLabSession } from './host';

export interface FakeLog {
  deleted: number;
  advances: number[];
}

export function fakeOpen(log: FakeLog = { deleted: 0, advances: [] }): OpenRaw {
  return (id, configJson, seed): RawLabSession | CoreError => {
    if (id !== 'fake') return { ok: false, code: 'not_found', message: `no session '${id}'` };
    const config = JSON.parse(configJson) as { rate?: number };
    if ((config.rate ?? 1) < 0) return { ok: false, code: 'invalid_argument', message: 'rate must be a number in [0, 10]' };
    let t = 0;
    let version = 0;
    return {
      advance: (dt, max) => {
        log.advances.push(dt);
        t += dt;
        return Math.min(max, 1);
      },
      step: () => ((t += 1), true),
      reconfigure: (p) => ((JSON.parse(p) as { rate?: number }).rate === -1 ? 'rate must be a number in [0, 10]' : ''),
      snapshot: () => JSON.stringify({ time_ns: t, seed }),
      apply: (op) => {
        const o = JSON.parse(op) as { op: string };
        if (o.op !== 'put') return { ok: false, code: 'invalid_argument', message: `unknown operation '${o.op}'` };
        version++;
        return { ok: true, json: JSON.stringify({ status: 'ok' }) };
      },
      version: () => version,
      busy: () => (t >= 3e6 && t < 5e6 ? 1 : 0),
      columns: (view, args) => view === 'ids'
        ? { ok: true, ids: Uint32Array.from({ length: (JSON.parse(args) as { n?: number }).n ?? 3 }, (_, i) => i), count: 3 }
        : { ok: false, code: 'not_found', message: `no view '${view}'` },
      delete: () => void log.deleted++,
    };
  };
}
