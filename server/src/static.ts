/**
 * Static files for the built lab (web/dist), confined to their folder: a request path is
 * decoded, normalised and resolved, and anything that would leave the folder (.., encoded
 * slashes, NUL bytes) is refused with 400/404 before the file system is touched. Paths without
 * an extension fall back to index.html so the app's own URLs (/labs/queues?...) load the app.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

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

function send(res: ServerResponse, req: IncomingMessage, file: string, cache: string): void {
  const st = statSync(file);
  res.writeHead(200, {
    'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'content-length': st.size,
    'cache-control': cache,
    'x-content-type-options': 'nosniff',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file).pipe(res);
}

export function serveStatic(root: string, req: IncomingMessage, res: ServerResponse, urlPath: string): StaticResult {
  const target = resolveStaticPath(root, urlPath);
  if (target === null) return 'bad-request';
  if (existsSync(target) && statSync(target).isFile()) {
    // Vite's hashed assets never change; everything else is revalidated.
    const cache = urlPath.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
    send(res, req, target, cache);
    return 'served';
  }
  const index = join(resolve(root), 'index.html');
  if (extname(urlPath) === '' && existsSync(index)) {
    send(res, req, index, 'no-cache');
    return 'served';
  }
  return 'not-found';
}
