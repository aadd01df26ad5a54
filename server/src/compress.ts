/**
 * Content negotiation for the static files: which of a file's representations (identity, or a
 * .br / .gz written beside it at build time by server/scripts/precompress.mjs) to send for a
 * request's Accept-Encoding (RFC 9110 §12.5.3: q-values, `*`, `identity;q=0`), and the
 * representation's validator (ETag) for If-None-Match. Nothing is compressed at request time.
 */
import { existsSync, statSync, type Stats } from 'node:fs';

/** The encodings served, best first (brotli is ~25% smaller than gzip on the lab's JS and WASM). */
export const ENCODINGS = [
  { coding: 'br', suffix: '.br' },
  { coding: 'gzip', suffix: '.gz' },
] as const;
export type Coding = (typeof ENCODINGS)[number]['coding'] | 'identity';

/** One representation of a file: the file on disk to send and the Content-Encoding it has. */
export interface Variant {
  coding: Coding;
  path: string;
  size: number;
  mtimeMs: number;
}

/**
 * The q-value of each coding named in an Accept-Encoding header (lower-cased; `x-gzip` counts
 * as gzip). Malformed q-values count as 0, so a garbled header never selects an encoding.
 */
export function parseAcceptEncoding(header: string): Map<string, number> {
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!name) continue;
    let weight = 1;
    for (const p of params) {
      const m = /^q\s*=\s*(.*)$/.exec(p);
      if (m) weight = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(m[1]!) ? Number(m[1]) : 0;
    }
    q.set(name === 'x-gzip' ? 'gzip' : name, weight);
  }
  return q;
}

/**
 * The coding to send, given the header (undefined: none sent) and the codings on offer besides
 * identity. Highest q wins, ties go to the server's order (br, gzip); identity is the fallback,
 * even when the client refused it (`identity;q=0`), since an uncompressed answer is more useful
 * than a 406.
 */
export function chooseCoding(header: string | undefined, offered: readonly Coding[]): Coding {
  if (header === undefined || header.trim() === '') return 'identity';
  const q = parseAcceptEncoding(header);
  const star = q.get('*');
  let best: Coding = 'identity';
  let bestQ = 0;
  for (const { coding } of ENCODINGS) {
    if (!offered.includes(coding)) continue;
    const w = q.get(coding) ?? star ?? 0;
    if (w > bestQ) {
      best = coding;
      bestQ = w;
    }
  }
  return best;
}

/**
 * The file's representations: itself, and each precompressed sibling that is at least as new as
 * it and smaller (a stale or useless sibling is ignored, never served).
 */
export function variantsOf(file: string, st: Stats = statSync(file)): Variant[] {
  const out: Variant[] = [{ coding: 'identity', path: file, size: st.size, mtimeMs: st.mtimeMs }];
  for (const { coding, suffix } of ENCODINGS) {
    const p = file + suffix;
    if (!existsSync(p)) continue;
    const s = statSync(p);
    if (s.isFile() && s.mtimeMs >= st.mtimeMs && s.size < st.size) out.push({ coding, path: p, size: s.size, mtimeMs: s.mtimeMs });
  }
  return out;
}

/** A strong validator for one representation: the original's size and time, and the coding. */
export function etagOf(original: Stats, coding: Coding): string {
  return `"${original.size.toString(36)}-${Math.floor(original.mtimeMs).toString(36)}${coding === 'identity' ? '' : '-' + coding}"`;
}

/** True when If-None-Match (a list of tags, weak or strong, or `*`) matches `etag` (weak comparison, RFC 9110 §13.1.2). */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => bare(t) === bare(etag));
}
