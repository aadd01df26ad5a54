import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Download, Page } from '@playwright/test';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SHOTS = resolve(REPO, 'e2e/screenshots');

/** Saves a full-page screenshot under e2e/screenshots/ (not committed) for a human to look at. */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: resolve(SHOTS, `${name}.png`), fullPage: true });
}

export async function downloadText(download: Download): Promise<string> {
  const path = await download.path();
  return readFileSync(path, 'utf8');
}

/** The native build's output for the same run (the browser's must match it byte for byte). */
export function nativeRun(id: string, params: Record<string, string>, seed: string): string | null {
  const cli = resolve(REPO, 'wasm-core/build/native/fawnlab_cli');
  if (!existsSync(cli)) return null;
  const args = ['run', id, '--seed', seed, ...Object.entries(params).flatMap(([k, v]) => ['--param', `${k}=${v}`])];
  return execFileSync(cli, args, { encoding: 'utf8' });
}
