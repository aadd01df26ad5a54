/**
 * Test fixtures for the Devices lab's views: snapshots shaped exactly like the core's
 * FlashSession and DiskSession output (docs/devices.md). FixtureFtl is a tiny page-mapped FTL
 * with greedy garbage collection (seeded, deterministic) so a test can take a sequence of
 * snapshots whose `recent` events are consistent with the page maps. Not used by the app.
 */
import type { DiskSnapshot, FlashBlockRole, FlashSnapshot } from './deviceTypes';

/** A small deterministic generator (LCG); fixtures only. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Blk {
  chip: number;
  role: FlashBlockRole;
  erases: number;
  pages: string[];
  /** Logical page stored in each physical page (or -1). */
  lpn: number[];
}

export class FixtureFtl {
  private blocks: Blk[];
  private map: Array<[number, number] | null>;
  private host = 0;
  private gcOpen = -1;
  private victim: number | null = null;
  private rand: () => number;
  private timeNs = 0;
  private recent: FlashSnapshot['recent'] = { writes: [], moves: [], erased: [] };
  private hostWrites = 0;
  private gcMoves = 0;
  private erases = 0;

  constructor(
    readonly nBlocks = 32,
    readonly ppb = 16,
    readonly chips = 2,
    readonly logical = Math.floor(nBlocks * ppb * 0.75),
    seed = 1,
  ) {
    this.rand = lcg(seed);
    this.blocks = Array.from({ length: nBlocks }, (_, i) => ({
      chip: Math.floor((i * chips) / nBlocks),
      role: 'free' as FlashBlockRole,
      erases: 0,
      pages: Array<string>(ppb).fill('.'),
      lpn: Array<number>(ppb).fill(-1),
    }));
    this.map = Array<[number, number] | null>(logical).fill(null);
    this.blocks[0]!.role = 'host';
  }

  private nextFree(page: number): number {
    return this.blocks[page]!.pages.indexOf('.');
  }

  private openFree(role: FlashBlockRole): number {
    const i = this.blocks.findIndex((b) => b.role === 'free');
    if (i < 0) throw new Error('fixture FTL out of free blocks');
    this.blocks[i]!.role = role;
    return i;
  }

  private program(block: number, lpn: number): number {
    const b = this.blocks[block]!;
    const p = this.nextFree(block);
    const old = this.map[lpn];
    if (old) this.blocks[old[0]]!.pages[old[1]] = 'x';
    b.pages[p] = 'v';
    b.lpn[p] = lpn;
    this.map[lpn] = [block, p];
    return p;
  }

  private collect(): void {
    let best = -1;
    for (let i = 0; i < this.blocks.length; i++) {
      const b = this.blocks[i]!;
      if (b.role !== 'full') continue;
      if (best < 0 || b.pages.filter((c) => c === 'v').length < this.blocks[best]!.pages.filter((c) => c === 'v').length) best = i;
    }
    if (best < 0) return;
    this.victim = best;
    const v = this.blocks[best]!;
    for (let p = 0; p < this.ppb; p++) {
      if (v.pages[p] !== 'v') continue;
      if (this.gcOpen < 0 || this.nextFree(this.gcOpen) < 0) {
        if (this.gcOpen >= 0) this.blocks[this.gcOpen]!.role = 'full';
        this.gcOpen = this.openFree('gc');
      }
      const to = this.program(this.gcOpen, v.lpn[p]!);
      this.recent.moves.push([best, p, this.gcOpen, to]);
      this.gcMoves++;
      this.timeNs += 300_000;
    }
    v.pages.fill('.');
    v.lpn.fill(-1);
    v.erases++;
    v.role = 'free';
    this.erases++;
    this.recent.erased.push(best);
    this.timeNs += 1_500_000;
  }

  /** Writes `n` random logical pages (greedy GC keeps two free blocks). */
  write(n: number, pattern: 'random' | 'sequential' = 'random'): void {
    for (let i = 0; i < n; i++) {
      const lpn = pattern === 'random' ? Math.floor(this.rand() * this.logical) : this.hostWrites % this.logical;
      if (this.nextFree(this.host) < 0) {
        this.blocks[this.host]!.role = 'full';
        this.host = this.openFree('host');
      }
      const p = this.program(this.host, lpn);
      this.recent.writes.push([this.host, p]);
      this.hostWrites++;
      this.timeNs += 100_000;
      this.victim = null;
      if (this.blocks.filter((b) => b.role === 'free').length < 2) this.collect();
    }
  }

  /** The snapshot, draining `recent` (as the core does). */
  snapshot(): FlashSnapshot {
    const cap = <T>(l: T[]) => l.slice(-256);
    const recent = { writes: cap(this.recent.writes), moves: cap(this.recent.moves), erased: cap(this.recent.erased) };
    this.recent = { writes: [], moves: [], erased: [] };
    const hostBytes = this.hostWrites * 4096;
    const media = (this.hostWrites + this.gcMoves) * 4096;
    return {
      time_ns: this.timeNs,
      profile: 'intel-x25m',
      ftl: 'page-mapped',
      chips: this.chips,
      pages_per_block: this.ppb,
      page_bytes: 4096,
      logical_pages: this.logical,
      overprovision: 0.25,
      blocks: this.blocks.map((b, id) => ({
        id, chip: b.chip, role: b.role, erases: b.erases,
        valid: b.pages.filter((c) => c === 'v').length, pages: b.pages.join(''),
      })),
      gc: { active: this.victim !== null, victim: this.victim },
      recent,
      counters: {
        host_writes: this.hostWrites, host_bytes: hostBytes, media_bytes: media,
        write_amplification: hostBytes ? media / hostBytes : 0, erases: this.erases, gc_moves: this.gcMoves,
        gc_stalls: Math.floor(this.erases / 2), gc_stall_ms: this.erases * 0.75, queue_depth: 1,
        host_mb_s: 21.4, mean_write_us: 187.5, joules: this.timeNs * 1e-9 * 2.1,
      },
    };
  }
}

/** A flash device in steady state: full of stale pages, the collector running. */
export function steadyFlash(nBlocks = 32, ppb = 16, chips = 2): { ftl: FixtureFtl; snap: FlashSnapshot } {
  const ftl = new FixtureFtl(nBlocks, ppb, chips);
  ftl.write(nBlocks * ppb * 3);
  ftl.snapshot();
  ftl.write(40);
  return { ftl, snap: ftl.snapshot() };
}

/** A disk mid-seek with a few requests queued. */
export function diskSnapshot(over: Partial<DiskSnapshot> = {}): DiskSnapshot {
  return {
    time_ns: 1_250_000_000,
    profile: 'disk-7200',
    rpm: 7200,
    cylinders: 100000,
    head: 51234.5,
    angle: 0.25,
    state: 'active',
    watts: 8.27,
    current: { cylinder: 70000, sector_angle: 0.6, phase: 'seek', phase_end_ns: 1_251_000_000 },
    queue: [
      { cylinder: 1200, sector_angle: 0.1, arrival_ns: 1_200_000_000 },
      { cylinder: 88000, sector_angle: 0.45, arrival_ns: 1_220_000_000 },
      { cylinder: 30500, sector_angle: 0.85, arrival_ns: 1_240_000_000 },
    ],
    counters: {
      window_start_ns: 0, completed: 10, mean_ms: 12.5, p99_ms: 30.1, mean_seek_ms: 8.1, mean_rotate_ms: 4.2,
      mean_transfer_ms: 0.1, spin_ups: 0, joules: 12.0, avg_watts: 7.9, standby_s: 0,
    },
    ...over,
  };
}
