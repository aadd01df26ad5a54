/**
 * The "auto" speed of the live views: the clock runs at a cruising speed while nothing much
 * happens, fast-forwards through waits with nothing to see (a failed node's missed
 * heartbeats), and drops to slow motion while an event runs (a join, a leave, a repair, a
 * compaction), so a lesson's point shows within seconds of wall time. A slow-motion episode
 * starts at the policy's slow speed (or the speed the mode names) and speeds up again
 * (doubling each second after the first 1.5 s, up to cruising) so a long event still ends in
 * seconds. The clock asks for its advance in small chunks that end the frame at the moment the
 * session's busy phase changes (an event starts, a lock is taken, an event ends), so no phase
 * starts and ends inside one fast frame; the chunked advance itself runs where the session does
 * (model/session/advance.ts, in the session worker). Pure logic: the frame loop passes the wall
 * time in: plan() before a tick, landed() and observe() with its result.
 */
import { advanceChunked, MAX_CHUNKS } from '../model/session/advance';

/** What the view is doing, as a policy reads it from a snapshot. */
export interface AutoMode {
  kind: 'slow' | 'fast' | 'cruise';
  /** What happens: "join of node 20 in progress" (empty for cruise). */
  what: string;
  /** Slow motion: the speed this event starts at (default: the policy's slowNsPerSec). */
  nsPerSec?: number;
}

export interface AutoPolicy<S> {
  /** Virtual ns per wall second in each mode. */
  slowNsPerSec: number;
  cruiseNsPerSec: number;
  fastNsPerSec: number;
  /** The mode for this snapshot; `busy` is the session's own flag (an event is running). */
  mode: (snap: S, busy: boolean) => AutoMode;
}

/** A session driven synchronously (tests): advance and its busy phase (0: nothing). */
export interface AutoSteppable {
  advance(dtNs: number, maxEvents: number): number;
  busy(): number;
}

/** What the clock asks of the next tick: virtual ns, in chunks of about chunkNs. */
export interface AutoPlan {
  dtNs: number;
  chunkNs: number;
}

/** Wall ms of slow motion before an episode starts to speed up, and the doubling period. */
export const RAMP_AFTER_MS = 1500;
export const RAMP_DOUBLING_MS = 1000;

const CRUISE: AutoMode = { kind: 'cruise', what: '' };

export class AutoClock<S> {
  private current: AutoMode = CRUISE;
  /** Wall ms the current slow episode (same `what`) began; -1 when not slow. */
  private slowSince = -1;
  private lastWall = 0;

  constructor(private readonly policy: AutoPolicy<S>) {}

  /** Back to cruising (a new session). */
  reset(): void {
    this.current = CRUISE;
    this.slowSince = -1;
  }

  /** Virtual ns per wall second now. */
  nsPerSec(wallMs = this.lastWall): number {
    const p = this.policy;
    switch (this.current.kind) {
      case 'fast':
        return p.fastNsPerSec;
      case 'cruise':
        return p.cruiseNsPerSec;
      case 'slow': {
        const over = Math.max(0, wallMs - (this.slowSince < 0 ? wallMs : this.slowSince) - RAMP_AFTER_MS);
        const base = this.current.nsPerSec ?? p.slowNsPerSec;
        return Math.min(Math.max(base, p.cruiseNsPerSec), base * 2 ** (over / RAMP_DOUBLING_MS));
      }
    }
  }

  mode(): AutoMode {
    return this.current;
  }

  /** "slow motion: join in progress" / "fast-forward: …" / '' (cruising). */
  label(): string {
    const c = this.current;
    if (c.kind === 'slow') return `slow motion: ${c.what}`;
    if (c.kind === 'fast') return `fast-forward: ${c.what}`;
    return '';
  }

  private enter(m: AutoMode, wallMs: number): void {
    if (m.kind === 'slow' && (this.current.kind !== 'slow' || this.current.what !== m.what)) this.slowSince = wallMs;
    if (m.kind !== 'slow') this.slowSince = -1;
    this.current = m;
  }

  /**
   * The advance for `dtMs` of wall time at the current speed, in chunks of at most a twentieth
   * of a second of slow motion (so a phase that starts mid-frame is caught within that much of
   * its start); the tick ends early where the busy phase changes. `phase` is the session's
   * phase now: an event that began outside the clock (an operation that ran the session) is
   * slowed down for before the snapshot names it.
   */
  plan(dtMs: number, wallMs: number, phase: number): AutoPlan {
    this.lastWall = wallMs;
    if (phase !== 0 && this.current.kind !== 'slow') this.enter({ kind: 'slow', what: 'an event starts' }, wallMs);
    const total = (dtMs / 1000) * this.nsPerSec(wallMs);
    if (total <= 0) return { dtNs: 0, chunkNs: 0 };
    const chunks = Math.min(MAX_CHUNKS, Math.max(1, Math.ceil(total / (this.policy.slowNsPerSec / 20))));
    return { dtNs: total, chunkNs: total / chunks };
  }

  /** After a tick: a phase that began in it starts slow motion at once (the rest of the frame runs at that speed). */
  landed(busyBefore: number, busyAfter: number, wallMs: number): void {
    if (busyAfter !== busyBefore && busyAfter !== 0) this.enter({ kind: 'slow', what: 'an event starts' }, wallMs);
  }

  /** plan(), the chunked advance and landed() on a session driven synchronously; the virtual ns run. */
  advance(session: AutoSteppable, dtMs: number, wallMs: number, maxEvents: number): number {
    const phase = session.busy();
    const p = this.plan(dtMs, wallMs, phase);
    if (p.dtNs <= 0) return 0;
    const a = advanceChunked(session, p.dtNs, maxEvents, p.chunkNs);
    this.landed(phase, a.busy, wallMs);
    return a.advancedNs;
  }

  /** Reads the mode from the frame's snapshot (after advance). */
  observe(snap: S, busy: boolean, wallMs: number): void {
    this.lastWall = wallMs;
    const m = this.policy.mode(snap, busy);
    // A slow episode that the chunked advance began keeps its start when the snapshot names it.
    if (m.kind === 'slow' && this.current.kind === 'slow' && this.current.what === 'an event starts') {
      this.current = m;
      return;
    }
    this.enter(m, wallMs);
  }
}
