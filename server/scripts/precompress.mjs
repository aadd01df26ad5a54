// After `vite build`: writes NAME.br (brotli, quality 11) and NAME.gz (gzip, level 9) beside
// every compressible file of a folder (web/dist), each only when smaller than the file, so the
// lab server (server/src/compress.ts) sends them without compressing at request time. A
// sibling that is already newer than its file is kept; a stale or useless one is removed.
//
//   node server/scripts/precompress.mjs [DIR]     (default web/dist; prints what it wrote)
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { log, ROOT } from './util.mjs';

/** Text and WASM compress well; images and fonts are compressed already. */
export const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.wasm', '.svg', '.md', '.txt', '.map']);

/** [suffix, compress(buffer, isText)] for each encoding the server offers. */
const CODERS = [
  ['.br', (buf, isText) => brotliCompressSync(buf, { params: {
    [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
    [constants.BROTLI_PARAM_SIZE_HINT]: buf.length,
    [constants.BROTLI_PARAM_MODE]: isText ? constants.BROTLI_MODE_TEXT : constants.BROTLI_MODE_GENERIC,
  } })],
  ['.gz', (buf) => gzipSync(buf, { level: 9 })],
];

function* filesUnder(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) yield* filesUnder(p);
    else if (st.isFile() && COMPRESSIBLE.has(extname(name).toLowerCase())) yield p;
  }
}

/**
 * Compresses every compressible file under `dir` whose copies are missing or stale; returns
 * [{file, size, br, gz, fresh}] (br/gz null: not smaller, not written; fresh: written now).
 */
export function precompress(dir) {
  const out = [];
  for (const file of filesUnder(dir)) {
    const st = statSync(file);
    const row = { file: relative(dir, file), size: st.size };
    let buf = null;
    for (const [suffix, code] of CODERS) {
      const target = file + suffix;
      const key = suffix.slice(1);
      if (existsSync(target) && statSync(target).mtimeMs >= st.mtimeMs) {
        row[key] = statSync(target).size;
        continue;
      }
      buf ??= readFileSync(file);
      const packed = code(buf, extname(file).toLowerCase() !== '.wasm');
      if (packed.length < buf.length) {
        writeFileSync(target, packed);
        row[key] = packed.length;
        row.fresh = true;
      } else {
        rmSync(target, { force: true });
        row[key] = null;
      }
    }
    out.push(row);
  }
  return out;
}

if (process.argv[1] && import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] ?? join(ROOT, 'web/dist');
  if (!existsSync(dir)) {
    log(`precompress: ${dir} does not exist; build the lab first ('npm run build')`);
    process.exit(1);
  }
  for (const r of precompress(dir)) {
    log(`${r.file}: ${r.size} B → br ${r.br ?? '(not smaller)'}, gz ${r.gz ?? '(not smaller)'}`);
  }
}
