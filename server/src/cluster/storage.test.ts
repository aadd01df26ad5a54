// A real cluster's storage edges (issue 13): 3 back-end processes, R = 3, 4 MiB store files on
// loopback. Values of 1 MiB − 1, 1 MiB and 1 MiB + 1 bytes over HTTP and memcached (the limit
// is the value's bytes: the flags header does not count); a 2 GiB set refused at once; many
// 100 KB overwrites of one key all succeed because back-ends compact their stores in the
// background; then distinct keys fill a store until a write is refused — 507 at once, and
// memcached's SERVER_ERROR out of memory — and every acknowledged value still reads back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCluster, stopCluster, waitReady, type ClusterProc } from './clusterproc.js';
import { VALUE_MAX_BYTES } from './limits.js';
import { RawClient } from './testnet.fake.js';

const ARGS = ['--nodes', '3', '--replicas', '3', '--file-mb', '4'];
const KB100 = 100 * 1024;

/** A 100 KB value that names its key and version (so a read can be checked). */
const valueOf = (tag: string) => Buffer.concat([Buffer.from(`${tag}:`), Buffer.alloc(KB100, tag.charCodeAt(tag.length - 1))]);

async function put(http: string, key: string, body: Buffer): Promise<{ status: number; text: string; ms: number }> {
  const t0 = performance.now();
  const r = await fetch(`http://${http}/kv/${key}`, { method: 'PUT', body });
  return { status: r.status, text: await r.text(), ms: performance.now() - t0 };
}

describe('a real cluster with small stores', () => {
  it('takes 1 MiB values, compacts overwrites away and refuses a write to a full store at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fawnlab-storage-'));
    const logs: string[] = [];
    let c: ClusterProc | null = null;
    try {
      c = await startCluster(ARGS, dir, (l) => logs.push(l));
      await waitReady(c.http, 3);
      const mcPort = Number(c.mc.split(':').pop());

      // 1. The value limit is the value's bytes (the stored flags header does not count).
      for (const n of [VALUE_MAX_BYTES - 1, VALUE_MAX_BYTES]) {
        const r = await put(c.http, 'limit', Buffer.alloc(n, 108));
        expect([n, r.status, r.text]).toEqual([n, 200, '{"ok":true}\n']);
        const got = await fetch(`http://${c.http}/kv/limit`);
        expect([got.status, (await got.arrayBuffer()).byteLength]).toEqual([200, n]);
      }
      const over = await put(c.http, 'limit', Buffer.alloc(VALUE_MAX_BYTES + 1, 108));
      expect([over.status, JSON.parse(over.text).error]).toEqual([413, `the value is ${VALUE_MAX_BYTES + 1} bytes; the limit is ${VALUE_MAX_BYTES}`]);
      const mc = new RawClient(mcPort);
      const mib = Buffer.concat([Buffer.from(`set limit 7 0 ${VALUE_MAX_BYTES}\r\n`), Buffer.alloc(VALUE_MAX_BYTES, 109), Buffer.from('\r\n')]);
      expect(await mc.send(mib).until('\r\n', 10_000)).toBe('STORED\r\n');
      const overMc = Buffer.concat([Buffer.from(`set limit 0 0 ${VALUE_MAX_BYTES + 1}\r\n`), Buffer.alloc(VALUE_MAX_BYTES + 1), Buffer.from('\r\n')]);
      expect(await mc.send(overMc).until('\r\n')).toBe('SERVER_ERROR object too large for cache\r\n');
      const t0 = performance.now();
      const huge = new RawClient(mcPort);
      expect(await huge.send('set k 0 0 2147483648\r\n').until('\r\n')).toBe('SERVER_ERROR object too large for cache\r\n');
      expect(performance.now() - t0).toBeLessThan(1000);
      huge.close();
      expect(await mc.send('version extra\r\nquit now\r\nversion\r\n').until('VERSION 1.4.0-fawnlab-', 3000)).toMatch(/^ERROR\r\nERROR\r\nVERSION 1\.4\.0-fawnlab-/);
      expect((await fetch(`http://${c.http}/kv/limit`, { method: 'DELETE' })).status).toBe(200);

      // 2. 150 overwrites of one key with 100 KB (15 MB per replica through 4 MiB files).
      for (let i = 0; i < 150; i++) {
        const r = await put(c.http, 'hot', valueOf(`hot${i}`));
        expect(r.status, `overwrite ${i}: ${r.text}`).toBe(200);
      }
      const hot = Buffer.from(await (await fetch(`http://${c.http}/kv/hot`)).arrayBuffer());
      expect(hot.equals(valueOf('hot149'))).toBe(true);

      // 3. Distinct keys until a store is full: a prompt 507, memcached's out of memory.
      const stored: string[] = [];
      let refused: { key: string; status: number; text: string; ms: number } | null = null;
      for (let i = 0; i < 400 && !refused; i++) {
        const r = await put(c.http, `fill${i}`, valueOf(`fill${i}`));
        if (r.status === 200) stored.push(`fill${i}`);
        else refused = { key: `fill${i}`, ...r };
      }
      expect(refused, 'a store filled within 400 × 100 KB').not.toBeNull();
      expect([refused!.status, JSON.parse(refused!.text).error]).toEqual([507, expect.stringMatching(/^out of memory: .*not applied/)]);
      expect(refused!.ms, 'a refusal is prompt, not a 2 s timeout').toBeLessThan(500);
      const again = Buffer.concat([Buffer.from(`set ${refused!.key} 0 0 ${KB100}\r\n`), Buffer.alloc(KB100, 120), Buffer.from('\r\n')]);
      expect(await mc.send(again).until('\r\n')).toBe('SERVER_ERROR out of memory storing object\r\n');
      mc.close();
      // Filling on, every put is stored or refused at once (507), never left to time out (504).
      const later: number[] = [];
      for (let i = 400; i < 440; i++) {
        const r = await put(c.http, `fill${i}`, valueOf(`fill${i}`));
        if (r.status === 200) stored.push(`fill${i}`);
        later.push(r.status);
      }
      expect(later.filter((s) => s !== 200 && s !== 507)).toEqual([]);

      // 4. Nothing acknowledged was lost, and the refused key was never written.
      const wrong: string[] = [];
      for (const k of [...stored, 'hot']) {
        const want = k === 'hot' ? valueOf('hot149') : valueOf(k);
        const got = Buffer.from(await (await fetch(`http://${c.http}/kv/${k}`)).arrayBuffer());
        if (!got.equals(want)) wrong.push(k);
      }
      expect(wrong).toEqual([]);
      expect((await fetch(`http://${c.http}/kv/${refused!.key}`)).status).toBe(404);
      await new Promise((r) => setTimeout(r, 1200)); // the back-ends log their counters each second
      const reclaimed = logs.join('').split('\n').map((l) => /back-end (\d+): (\d+) store compactions? so far, (\d+) log bytes reclaimed/.exec(l))
        .filter((m) => m !== null).reduce((acc, m) => acc.set(m[1]!, Number(m[3])), new Map<string, number>());
      const total = [...reclaimed.values()].reduce((a, b) => a + b, 0);
      expect(reclaimed.size, 'every replica compacted').toBe(3);
      expect(total).toBeGreaterThan(3 * 10 * 1024 * 1024);
      console.log(`storage: 150 × 100 KB overwrites of one key, compaction reclaimed ${(total / 2 ** 20).toFixed(1)} MiB over 3 replicas; `
        + `after ${stored.length} distinct 100 KB keys a put got 507 in ${refused!.ms.toFixed(1)} ms`);
    } catch (e) {
      console.log(logs.join('').split('\n').slice(-40).join('\n'));
      throw e;
    } finally {
      if (c) await stopCluster(c.proc);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
