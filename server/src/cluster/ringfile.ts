/**
 * DIR/frontend/ring.json, the front-end's persisted ring membership (its format and checks
 * are the C++ core's: wasm-core/src/fawnkvhost/ring_state.h). readRingFile returns the text,
 * or null when there is no file; writeRingFile replaces it atomically and durably: the text
 * goes to ring.json.tmp, which is fsynced and renamed over ring.json, and the directory is
 * fsynced, so a crash leaves either the old file or the new one, never a torn one.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export function readRingFile(path: string): string | null {
  if (!existsSync(path)) return null;
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`${path}: cannot read it (${(e as Error).message})`);
  }
}

export function writeRingFile(path: string, text: string): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w', 0o644);
  try {
    writeSync(fd, text.endsWith('\n') ? text : `${text}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  const dir = openSync(dirname(path), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

/** --fresh: the ring file goes (the back-ends' stores stay; they rejoin and are copied afresh). */
export function discardRingFile(path: string): boolean {
  if (!existsSync(path)) return false;
  rmSync(path);
  return true;
}
