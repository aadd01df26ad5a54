/**
 * Everything the block view asks of its session (the core's `vector.block`, through the
 * session client and useLiveSession) beyond ticks and live fields: the `timeline` column view
 * requested with each tick, and reading it back. The speeds the view offers live here too.
 */
import type { Speed } from '../../../app/LiveControls';
import type { Columns, ViewRequest } from '../../../model/session/client';
import { isCoreError } from '../../../model/core';
import type { CoreError } from '../../../model/types';
import type { BlockTimeline } from './blockTypes';

export const BLOCK_SESSION = 'vector.block';

/** Virtual time per wall second: the slow speeds show each I/O's phases; the fast ones fill the ~50 ms the rates cover. */
export const BLOCK_SPEEDS: Speed[] = [
  { label: '100 µs per second (I/Os one by one)', nsPerSec: 100_000 },
  { label: '1 ms per second', nsPerSec: 1_000_000 },
  { label: '5 ms per second', nsPerSec: 5_000_000 },
  { label: '20 ms per second', nsPerSec: 20_000_000 },
  { label: '100 ms per second', nsPerSec: 100_000_000 },
];
export const BLOCK_DEFAULT_SPEED = 2;

/** The windows the timeline offers (µs; the session's `window_us` takes 100–20,000). */
export const WINDOWS_US = [200, 1000, 5000];
export const DEFAULT_WINDOW_US = 1000;

/** The column view fetched with a tick. */
export function timelineRequest(windowUs: number): ViewRequest[] {
  return [{ name: 'timeline', args: { window_us: windowUs } }];
}

/** The timeline a tick brought, or null (none asked, or the core's error). */
export function readTimeline(views: Record<string, Columns | CoreError>): BlockTimeline | null {
  const v = views.timeline;
  if (!v || isCoreError(v)) return null;
  return v as unknown as BlockTimeline;
}
