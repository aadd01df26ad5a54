// @vitest-environment jsdom
// useLiveSession's `ready`: a view's operation buttons wait (opsBusy, with the "starting" status
// line) from the render that asks for a session until that session's first snapshot arrives —
// on opening, after a reset, after a structural change (also one back to an earlier value) —
// and a failed start is not reported as "starting". The sessions are fakes whose opening the
// test releases, and the animation frames run when the test says; the schema is the core's
// `queues` session (servers: structural).
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveSessionClient, TickRequest } from '../model/session/client';
import type { CoreError } from '../model/types';
import { STARTING_STATUS, useLiveSession } from './useLiveSession';

interface Snap { n: number }
type Opened = LiveSessionClient<Snap> | CoreError;

/** The sessions asked for, in order, each opened (or refused) when the test settles it. */
const opens = vi.hoisted(() => [] as Array<{ config: Record<string, unknown>; settle: (s: unknown) => void }>);
vi.mock('../model/session/client', () => ({
  openSession: (_id: string, config: Record<string, unknown>) => new Promise((settle) => opens.push({ config, settle })),
}));

/** A session that answers every tick with its name and a count. */
function fakeSession(name: number): LiveSessionClient<Snap> {
  let ticks = 0;
  const s = {
    id: 'queues', info: undefined, busy: 0, version: 0, closed: false,
    tick: (_req: TickRequest) => Promise.resolve({ ok: true as const, advancedNs: 0, events: 0, busyBefore: 0, busy: 0, version: 0,
      snapshot: { n: name * 1000 + ticks++ }, views: {} }),
    step: () => Promise.resolve({ ok: true as const, ran: false }),
    reconfigure: () => Promise.resolve({ ok: true as const }),
    apply: () => Promise.resolve({ ok: true as const, result: null, busy: 0, version: 0 }),
    columns: () => Promise.resolve({ ok: false as const, code: 'unavailable', message: 'none' }),
    dispose: () => { s.closed = true; },
  };
  return s as unknown as LiveSessionClient<Snap>;
}

let frames: FrameRequestCallback[] = [];
let wall = 0;
/** Runs `n` animation frames, letting the ticks' replies land between them. */
async function runFrames(n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await act(async () => {
      const due = frames;
      frames = [];
      wall += 16;
      for (const f of due) f(wall);
      await Promise.resolve();
    });
  }
}

type Live = ReturnType<typeof useLiveSession<{ servers: number }, Snap>>;
let live: Live | null = null;
function Probe() {
  live = useLiveSession<{ servers: number }, Snap>({
    request: null, speeds: [{ label: '1 ms per second', nsPerSec: 1e6 }], defaultSpeed: 0, active: true, session: 'queues', draw: () => {},
  });
  return <button type="button" disabled={live.opsBusy}>{live.opStatus || 'idle'}</button>;
}

let root: Root | null = null;
let host: HTMLElement | null = null;
const button = () => host!.querySelector('button')!;

async function settle(i: number, s: Opened): Promise<void> {
  await act(async () => {
    opens[i]!.settle(s);
    await Promise.resolve();
  });
}

/** Asserts the view's state: whether operations can run, and the status line. */
function expectWaiting(waiting: boolean, status: string) {
  expect(live!.ready).toBe(!waiting);
  expect(live!.opsBusy).toBe(waiting);
  expect(button().disabled).toBe(waiting);
  expect(live!.opStatus).toBe(status);
  // Ready means there is a session to run the operation on.
  if (!waiting) expect(live!.session.current).not.toBeNull();
}

/** Opens the i-th session asked for as session `name`, runs frames, and checks the view is ready on its snapshot. */
async function openReady(i: number, name: number): Promise<void> {
  await settle(i, fakeSession(name));
  await runFrames(3);
  expect(live!.snap?.n).toBeGreaterThanOrEqual(name * 1000);
  expectWaiting(false, '');
}

beforeEach(async () => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  opens.length = 0;
  frames = [];
  vi.stubGlobal('requestAnimationFrame', (f: FrameRequestCallback) => frames.push(f));
  vi.stubGlobal('cancelAnimationFrame', () => {});
  host = document.createElement('div');
  document.body.appendChild(host);
  root = createRoot(host);
  await act(async () => root!.render(<Probe />));
});

afterEach(async () => {
  await act(async () => root?.unmount());
  host?.remove();
  vi.unstubAllGlobals();
  live = null;
});

describe('useLiveSession ready', () => {
  it('waits for the session to open and send its first snapshot', async () => {
    expectWaiting(true, STARTING_STATUS);
    await runFrames(3);
    expectWaiting(true, STARTING_STATUS);  // no session yet: nothing to run an operation on
    await settle(0, fakeSession(1));
    expect(live!.session.current).not.toBeNull();
    expectWaiting(true, STARTING_STATUS);  // open, but its first snapshot has not come
    await runFrames(3);
    expect(live!.snap?.n).toBe(1000);
    expectWaiting(false, '');
  });

  it('waits again from the render of a reset until the new session\'s first snapshot', async () => {
    await openReady(0, 1);
    await act(async () => live!.reset());
    // The old session's snapshot is still on screen, but its session is gone: a gate on the snapshot would let a click through.
    expect(live!.snap?.n).toBeGreaterThanOrEqual(1000);
    expect(live!.session.current).toBeNull();
    expectWaiting(true, STARTING_STATUS);
    await runFrames(2);
    expectWaiting(true, STARTING_STATUS);
    await openReady(1, 2);
  });

  it('waits after a structural change, also one back to the value it had', async () => {
    await openReady(0, 1);
    await act(async () => live!.update({ servers: 2 }));
    expectWaiting(true, STARTING_STATUS);
    expect(opens[1]!.config.servers).toBe(2);
    await act(async () => live!.update({ servers: 1 }));
    expectWaiting(true, STARTING_STATUS);  // the same configuration as the first session, but that session is gone
    await settle(1, fakeSession(2));  // the servers: 2 session, opened too late: disposed, never ready
    await runFrames(3);
    expectWaiting(true, STARTING_STATUS);
    await openReady(2, 3);
  });

  it('a refused session leaves the operations off, its error (not "starting") saying why', async () => {
    await settle(0, { ok: false, code: 'invalid_argument', message: 'servers: must be at least 1' });
    await runFrames(2);
    expect(live!.error).toBe('servers: must be at least 1');
    expectWaiting(true, '');
  });
});
