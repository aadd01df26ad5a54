// Small helpers for the project scripts: paths, logging to stderr, running commands, and
// "is this output older than its sources" checks for building only what is missing.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Progress and diagnostics go to stderr, so stdout carries only a command's result. */
export function log(msg) {
  process.stderr.write(msg + '\n');
}

/** Runs a command with its output on stderr; exits the process with a message on failure. */
export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: ['ignore', 2, 2], ...opts });
  if (r.status !== 0) {
    log(`fawnlab: '${[cmd, ...args].join(' ')}' failed (exit ${r.status ?? r.signal}).`);
    process.exit(1);
  }
}

/** Like run, but returns the exit status instead of exiting. */
export function tryRun(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: ['ignore', 2, 2], ...opts });
  return r.status ?? 1;
}

const SKIP = new Set(['node_modules', 'build', 'dist', '.git', 'test-results']);

/** Newest modification time (ms) of any file under the given paths (0 if none exist). */
export function newestMtime(paths) {
  let newest = 0;
  const visit = (p) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p)) if (!SKIP.has(name)) visit(join(p, name));
    } else if (st.mtimeMs > newest) {
      newest = st.mtimeMs;
    }
  };
  for (const p of paths) visit(resolve(ROOT, p));
  return newest;
}

/** True when any output is missing or older than the newest source. */
export function isStale(outputs, sources) {
  const src = newestMtime(sources);
  return outputs.some((o) => {
    const p = resolve(ROOT, o);
    return !existsSync(p) || statSync(p).mtimeMs < src;
  });
}

/** Seconds since `t0` (from performance.now()), formatted. */
export function since(t0) {
  return `${((performance.now() - t0) / 1000).toFixed(1)} s`;
}
