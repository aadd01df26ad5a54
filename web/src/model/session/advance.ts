/**
 * Advancing a session in chunks that end where its busy phase changes (an event starts, a lock
 * is taken, an event ends), so no phase starts and ends unseen inside one fast frame: the part
 * of the auto speed (app/autoSpeed.ts) that needs the session, run where the session lives (the
 * session worker, or inline). Pure over the session it is given.
 */

/** What the chunked advance needs of a session. */
export interface ChunkedSession {
  advance(dtNs: number, maxEvents: number): number;
  /** The phase the page slows down for (0: nothing). */
  busy(): number;
}

export interface Advanced {
  /** Virtual ns advanced (less than asked when a phase changed). */
  advancedNs: number;
  events: number;
  /** The phase after the advance. */
  busy: number;
}

/** At most this many chunks per advance. */
export const MAX_CHUNKS = 32;

/**
 * Advances `session` by `dtNs` (at most `maxEvents` events). With `chunkNs`, in equal chunks of
 * about that size (at most MAX_CHUNKS), stopping after the first chunk in which busy() changes.
 */
export function advanceChunked(session: ChunkedSession, dtNs: number, maxEvents: number, chunkNs?: number): Advanced {
  if (!(dtNs > 0)) return { advancedNs: 0, events: 0, busy: session.busy() };
  if (chunkNs === undefined || !(chunkNs > 0) || chunkNs >= dtNs) {
    const events = session.advance(dtNs, maxEvents);
    return { advancedNs: dtNs, events, busy: session.busy() };
  }
  const phase = session.busy();
  const chunks = Math.min(MAX_CHUNKS, Math.max(1, Math.round(dtNs / chunkNs)));
  const chunk = dtNs / chunks;
  let events = 0;
  for (let i = 0; i < chunks && events < maxEvents; i++) {
    events += session.advance(chunk, maxEvents - events);
    const now = session.busy();
    if (now !== phase) return { advancedNs: chunk * (i + 1), events, busy: now };
  }
  return { advancedNs: dtNs, events, busy: phase };
}
