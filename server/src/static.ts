/**
 * Static files for the built lab (web/dist), confined to their folder: a request path is
 * decoded, normalised and resolved, and anything that would leave the folder (.., encoded
 * slashes, NUL bytes) is refused with 400/404 before the file system is touched. The app's own
 * routes (/, /cluster, /labs/<lab>) answer index.html so its URLs (/labs/queues?...) load the
 * app; other paths without an extension answer index.html with 404, and the app shows its
 * "Not found" page.
 * Files go out compressed when a precompressed .br/.gz sits beside them (compress.ts), with an
 * ETag; hashed assets are cached for a year, everything else revalidated.
 */
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { chooseCoding, etagOf, matchesIfNoneMatch, variantsOf } from './compress.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

export type StaticResult = 'served' | 'not-found' | 'bad-request';

/** Maps a URL path to a file under `root`, or null if it would escape `root` or is malformed. */
export function resolveStaticPath(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const rootAbs = resolve(root);
  const target = resolve(rootAbs, '.' + normalize('/' + decoded));
  if (target !== rootAbs && !target.startsWith(rootAbs + sep)) return null;
  return target;
}

/** The labs: one lesson folder each (lessons/<id>/, as web/src/app/lessonFiles.ts bundles them). */
export function labsIn(lessonsDir: string): Set<string> {
  if (!existsSync(lessonsDir)) return new Set();
  return new Set(readdirSync(lessonsDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name));
}

/** Whether `urlPath` is one of the app's pages: /, /cluster, /labs/<a lab in `labs`> (a trailing slash allowed). */
export function isAppRoute(urlPath: string, labs: ReadonlySet<string>): boolean {
  const p = urlPath.length > 1 ? urlPath.replace(/\/$/, '') : urlPath;
  if (p === '/' || p === '/cluster') return true;
  const m = /^\/labs\/([a-z0-9-]+)$/.exec(p);
  return m !== null && labs.has(m[1]!);
}

/**
 * Sends `file` with `status` in the encoding the request accepts (compress.ts), or 304 when a
 * 200's If-None-Match holds its ETag; HEAD gets the headers only.
 */
function send(res: ServerResponse, req: IncomingMessage, file: string, cache: string, status = 200): void {
  const st = statSync(file);
  const variants = variantsOf(file, st);
  const coding = chooseCoding(req.headers['accept-encoding'], variants.map((v) => v.coding));
  const chosen = variants.find((v) => v.coding === coding)!;
  const etag = etagOf(st, coding);
  const headers: Record<string, string | number> = {
    'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'cache-control': cache,
    etag,
    'x-content-type-options': 'nosniff',
  };
  if (variants.length > 1) headers.vary = 'Accept-Encoding';
  if (status === 200 && matchesIfNoneMatch(req.headers['if-none-match'], etag)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  if (coding !== 'identity') headers['content-encoding'] = coding;
  headers['content-length'] = chosen.size;
  res.writeHead(status, headers);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  // A file that vanished since the stat (a rebuild underway) ends the response, not the server.
  createReadStream(chosen.path).on('error', () => res.destroy()).pipe(res);
}

/** Vite's content-hashed output (/assets/name-HASH.ext) never changes; anything else is revalidated. */
export function cacheControlFor(urlPath: string): string {
  return /^\/assets\/[^/]+-[\w-]{8,}\.[a-z0-9]+$/i.test(urlPath) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/** `labs`: the lab ids whose pages are routes (absent: every path without an extension is one). */
export function serveStatic(root: string, req: IncomingMessage, res: ServerResponse, urlPath: string, labs?: ReadonlySet<string>): StaticResult {
  const target = resolveStaticPath(root, urlPath);
  if (target === null) return 'bad-request';
  if (existsSync(target) && statSync(target).isFile()) {
    send(res, req, target, cacheControlFor(urlPath));
    return 'served';
  }
  const index = join(resolve(root), 'index.html');
  if (extname(urlPath) === '' && existsSync(index)) {
    send(res, req, index, 'no-cache', !labs || isAppRoute(urlPath, labs) ? 200 : 404);
    return 'served';
  }
  return 'not-found';
}
