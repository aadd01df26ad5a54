/**
 * The "auto" speed of the live views: the clock runs at a cruising speed while nothing much
 * happens, fast-forwards through waits with nothing to see (a failed node's missed
 * heartbeats), and drops to slow motion while an event runs (a join, a leave, a repair, a
 * compaction), so a lesson's point shows within seconds of wall time. A slow-motion episode
 * starts at the policy's slow speed (or the speed the mode names) and speeds up again
 * (doubling each second after the first 1.5 s, up to cruising) so a long event still ends in
 * seconds. The clock advances in small chunks and ends the frame at the moment the session's
 * busy phase changes (an event starts, a lock is taken, an event ends), so no phase starts and
 * ends inside one fast frame. Pure logic: the frame loop passes the wall time in.
 */

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

/** A session as the auto clock drives it. */
export interface AutoSteppable {
  advance(dtNs: number, maxEvents: number): number;
  /** What the view slows down for runs now, as a phase (0 or false: nothing); cheaper than a snapshot. */
  busy?(): number | boolean;
}

/** Wall ms of slow motion before an episode starts to speed up, and the doubling period. */
export const RAMP_AFTER_MS = 1500;
export const RAMP_DOUBLING_MS = 1000;
/** At most this many chunks per frame while watching for an event to start. */
const MAX_CHUNKS = 32;

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
   * Advances `session` by `dtMs` of wall time at the current speed, in chunks; the frame ends
   * early when the session's busy phase changes (the rest then runs at the speed the next
   * snapshot chooses; a new phase starts in slow motion at once). Returns the virtual ns run.
   */
  advance(session: AutoSteppable, dtMs: number, wallMs: number, maxEvents: number): number {
    this.lastWall = wallMs;
    // An event that began outside the clock (an operation that ran the session) is slowed
    // down for before the snapshot names it.
    const phase = session.busy ? Number(session.busy()) : 0;
    if (phase !== 0 && this.current.kind !== 'slow') this.enter({ kind: 'slow', what: 'an event starts' }, wallMs);
    const total = (dtMs / 1000) * this.nsPerSec(wallMs);
    if (total <= 0) return 0;
    if (!session.busy) {
      session.advance(total, maxEvents);
      return total;
    }
    // Chunks of at most a twentieth of a second of slow motion, so a phase that starts
    // mid-frame is caught within that much of its start.
    const chunks = Math.min(MAX_CHUNKS, Math.max(1, Math.ceil(total / (this.policy.slowNsPerSec / 20))));
    const chunk = total / chunks;
    let events = 0;
    for (let i = 0; i < chunks && events < maxEvents; i++) {
      events += session.advance(chunk, maxEvents - events);
      const now = Number(session.busy());
      if (now !== phase) {
        if (now !== 0) this.enter({ kind: 'slow', what: 'an event starts' }, wallMs);
        return chunk * (i + 1);
      }
    }
    return total;
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
