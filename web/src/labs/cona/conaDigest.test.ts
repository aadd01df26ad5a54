// Native = WebAssembly for the live CONA session: the browser build runs the config and seed of
// wasm-core/src/cona/lab/session_test.cc's DigestIsTheBrowserBuilds (workload A on 2,000
// records at 5,000 ops/s, B = 8 KB: puts, gets, induces, merges and flips on the emulated M500
// and page cache) and must give the FNV-1a digest the native build pins there, over the same
// ten snapshots (one per 100 ms of virtual time).
import { describe, expect, it } from 'vitest';
import { isCoreError } from '../../model/core';
import { testCore } from '../../model/testCore';

const CONFIG = { workload: 'a', records: 2000, buffer_kb: 8, rate_ops_per_s: 5000 };
const NATIVE_DIGEST = 'dc54799c157ec341';

function fnv1a(h: bigint, text: string): bigint {
  const mask = (1n << 64n) - 1n;
  for (const byte of new TextEncoder().encode(text)) h = ((h ^ BigInt(byte)) * 1099511628211n) & mask;
  return h;
}

describe('the cona session in the browser build', () => {
  it('gives the digest of the native build, snapshot for snapshot', async () => {
    const core = await testCore();
    const raw = core.openLabSession('cona', JSON.stringify(CONFIG), '1');
    if (isCoreError(raw)) throw new Error(raw.message);
    try {
      let h = 1469598103934665603n;
      for (let i = 0; i < 10; i++) {
        raw.advance(100e6, 10_000_000);
        h = fnv1a(h, raw.snapshot());
      }
      expect(h.toString(16).padStart(16, '0')).toBe(NATIVE_DIGEST);
    } finally {
      raw.delete();
    }
  });
});
