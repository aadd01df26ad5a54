// The auto speed: slow motion with its ramp, fast-forward, chunks that stop where an event
// starts; then every FAWN-KV and FAWN-DS lesson scenario played at 60 frames a second through
// the session client over the real core (browser build), its point shown within ten seconds of
// wall time.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isCoreError } from '../model/core';
// eslint-disable-next-line no-restricted-imports -- the labs' session types, for their scenarios played below
import type { FawndsLiveConfig, FawndsOp, FawndsSnapshot } from '../labs/fawnds/fawndsTypes';
// eslint-disable-next-line no-restricted-imports -- the labs' session types, for their scenarios played below
import type { FawnkvLiveConfig, FawnkvOp, FawnkvSnapshot, FawnkvVids } from '../labs/fawnkv/fawnkvTypes';
import type { LiveSessionClient, TickResult, ViewRequest } from '../model/session/client';
import { testSession } from '../model/session/testSessions';
import { REPO } from '../model/testCore';
import { AutoClock, RAMP_AFTER_MS, type AutoMode, type AutoPolicy } from './autoSpeed';
// eslint-disable-next-line no-restricted-imports -- the labs' auto-speed policies, tested beside the clock
import { fawndsAutoMode } from '../labs/fawnds/fawndsSpeed';
// eslint-disable-next-line no-restricted-imports -- the labs' auto-speed policies, tested beside the clock
import { fawnkvAutoMode } from '../labs/fawnkv/LiveFawnkv';

const policy = (mode: (busy: boolean) => AutoMode): AutoPolicy<null> => ({ slowNsPerSec: 1e7, cruiseNsPerSec: 1e8, fastNsPerSec: 1e9, mode: (_s, b) => mode(b) });

describe('AutoClock', () => {
  it('cruises, fast-forwards, and slows down with a ramp after 1.5 s', () => {
    let m: AutoMode = { kind: 'cruise', what: '' };
    const c = new AutoClock(policy(() => m));
    expect(c.nsPerSec(0)).toBe(1e8);
    expect(c.label()).toBe('');
    m = { kind: 'fast', what: 'waiting' };
    c.observe(null, false, 0);
    expect([c.nsPerSec(0), c.label()]).toEqual([1e9, 'fast-forward: waiting']);
    m = { kind: 'slow', what: 'join of node 6 in progress' };
    c.observe(null, true, 1000);
    expect(c.label()).toBe('slow motion: join of node 6 in progress');
    expect(c.nsPerSec(1000 + RAMP_AFTER_MS)).toBe(1e7);
    expect(c.nsPerSec(1000 + RAMP_AFTER_MS + 1000)).toBeCloseTo(2e7);
    expect(c.nsPerSec(1000 + RAMP_AFTER_MS + 10_000)).toBe(1e8);  // never faster than cruising
    // A new event (another `what`) starts its own episode.
    c.observe(null, true, 9000);
    m = { kind: 'slow', what: 'the lock holds requests' };
    c.observe(null, true, 9000);
    expect(c.nsPerSec(9000)).toBe(1e7);
  });

  it('advances in chunks and stops the frame where the session turns busy', () => {
    const c = new AutoClock(policy(() => ({ kind: 'cruise', what: '' })));
    let t = 0;
    const session = { advance: (dt: number) => ((t += dt), 1), busy: () => (t >= 3e6 ? 1 : 0) };
    const ran = c.advance(session, 100, 0, 1e9);  // 100 ms at 100 ms/s: 10 ms of virtual time
    expect(t).toBeGreaterThanOrEqual(3e6);
    expect(t).toBeLessThan(3e6 + 1e7 / 20 + 1);  // within a twentieth of a second of slow motion
    expect(ran).toBe(t);
    expect(c.mode().kind).toBe('slow');
    // In slow motion too, a new phase (a lock taken) ends the frame where it starts.
    const locked = { advance: (dt: number) => ((t += dt), 1), busy: () => (t >= 3.2e6 ? 2 : 1) };
    const before = t;
    c.advance(locked, 100, 100, 1e9);
    expect(t).toBeGreaterThanOrEqual(3.2e6);
    expect(t - before).toBeLessThan(1e6);  // stopped at the lock, not at the frame's end
  });
});

interface Scenario<C> { id: string; live?: C; seed: number }
const scenarios = <C>(lab: string) =>
  (JSON.parse(readFileSync(`${REPO}lessons/${lab}/scenarios.json`, 'utf8')) as Array<Scenario<C>>).filter((s) => s.live);

/**
 * Plays `frames` frames of 1/60 s as the page does (the script one operation per frame, then
 * one tick as the clock plans it, through the session client); the wall ms at which `done`
 * first held, or null.
 */
async function play<S>(session: LiveSessionClient<S, unknown>, ops: unknown[], clock: AutoClock<S>, done: (s: S) => boolean, labels: Set<string>,
  views?: () => ViewRequest[] | undefined, onViews?: (v: TickResult<S>['views']) => void, frames = 600): Promise<number | null> {
  const queue = [...ops];
  for (let f = 0; f < frames; f++) {
    const wall = (f * 1000) / 60;
    const op = queue.shift();
    if (op !== undefined) await session.apply(op);
    const r = await session.tick({ maxEvents: 200_000, ...clock.plan(1000 / 60, wall, session.busy), views: views?.() });
    if (!r.ok) throw new Error(r.message);
    onViews?.(r.views);
    clock.landed(r.busyBefore, r.busy, wall);
    clock.observe(r.snapshot, r.busy !== 0, wall);
    if (clock.label()) labels.add(clock.label().replace(/\d+(, \d+)*/g, 'N'));
    if (queue.length === 0 && done(r.snapshot)) return wall;
  }
  return null;
}

describe('FAWN-KV lesson scenarios at the auto speed', () => {
  // What each scenario shows; the rest show a running load or a put and a get.
  const point: Record<string, [RegExp, string]> = {
    'node-joins': [/node 20 joined/, 'slow motion: join of node N in progress'],
    'node-fails': [/node 4 replaced/, 'slow motion: repair after a failure in progress'],
    'node-leaves': [/node 4 left/, 'slow motion: leave of node N in progress'],
  };
  for (const s of scenarios<FawnkvLiveConfig>('fawnkv')) {
    it(`${s.id} shows its point within 10 s`, async () => {
      const { script, ...config } = s.live!;
      const session = await testSession<FawnkvSnapshot, unknown>('fawnkv', config, String(s.seed));
      // The ring as the page keeps it: fetched again when its version changes.
      let ring: FawnkvVids | null = null;
      let seen = -1;
      const inRing = (id: number) => ring === null || ring.node.includes(id);
      const clock = new AutoClock<FawnkvSnapshot>({ slowNsPerSec: 1e7, cruiseNsPerSec: 1e8, fastNsPerSec: 1e9, mode: (sn, b) => {
        seen = sn.ring_version;
        return fawnkvAutoMode(sn, b, inRing);
      } });
      const labels = new Set<string>();
      const [event, label] = point[s.id] ?? [null, null];
      const done = (sn: FawnkvSnapshot) => (event ? sn.events.some((e) => event.test(e.text)) : config.load_rate_per_s ? sn.qps > 0 : true);
      const at = await play(session, (script ?? []) as FawnkvOp[], clock, done, labels,
        () => (ring === null || seen !== ring.version ? [{ name: 'vids' }] : undefined),
        (v) => {
          if (v.vids && !isCoreError(v.vids)) ring = v.vids as unknown as FawnkvVids;
        });
      session.dispose();
      console.log(`${s.id}: point after ${at === null ? 'never' : `${(at / 1000).toFixed(2)} s`} of wall time; ${[...labels].join('; ') || 'cruising'}`);
      expect(at).not.toBeNull();
      expect(at!).toBeLessThan(10_000);
      if (label) expect([...labels]).toContain(label);
    }, 120_000);
  }
});

describe('FAWN-DS lesson scenarios at the auto speed', () => {
  for (const s of scenarios<FawndsLiveConfig>('fawnds')) {
    it(`${s.id} shows its point within 10 s`, async () => {
      const { script, ...config } = s.live!;
      const session = await testSession<FawndsSnapshot, unknown>('fawnds', config, String(s.seed));
      const clock = new AutoClock<FawndsSnapshot>({ slowNsPerSec: 1e7, cruiseNsPerSec: 1e9, fastNsPerSec: 1e9, mode: fawndsAutoMode });
      const labels = new Set<string>();
      // Maintenance that runs as time advances (not `wait`ed for by the operation itself).
      const maintains = (script ?? []).some((o) => ['compact', 'split', 'merge'].includes(o.op) && !('wait' in o && o.wait));
      const done = (sn: FawndsSnapshot) => !maintains || /finished/.test(sn.maintenance.last_result);
      const at = await play(session, (script ?? []) as FawndsOp[], clock, done, labels);
      session.dispose();
      console.log(`${s.id}: point after ${at === null ? 'never' : `${(at / 1000).toFixed(2)} s`} of wall time; ${[...labels].join('; ') || 'cruising'}`);
      expect(at).not.toBeNull();
      expect(at!).toBeLessThan(10_000);
      if (maintains) expect([...labels]).toContain('slow motion: compact of store N in progress');
      if (maintains && (config.lock_hold_us ?? 25_000) >= 1000) expect([...labels].some((l) => l.includes('lock holds requests'))).toBe(true);
    }, 120_000);
  }
});
