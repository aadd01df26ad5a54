/** Test helper: the browser build of the core, loaded in Node with its .wasm bytes passed in. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadCore, type Core } from './core';

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));

let core: Promise<Core> | null = null;

export function testCore(): Promise<Core> {
  core ??= loadCore({ wasmBinary: readFileSync(`${REPO}wasm-core/dist/fawnlab_web.wasm`) });
  return core;
}
