/**
 * The Cluster page's actions on the front-end's API (docs/cluster.md): add a back-end, kill or
 * restart one, start/change or stop the load generator. Each resolves to the answer's body or
 * the error to show (the server's own message when it sent one). Same-origin requests, so the
 * server's cross-site check and its token cookie apply as for any other client.
 */
import type { FetchLike } from './clusterSocket';
import type { LoadSettings } from '@wire/cluster';

export type ActionFetch = (url: string, init: { method: string; headers?: Record<string, string>; body?: string }) => ReturnType<FetchLike>;

export type ActionResult = { ok: true; body: Record<string, unknown> } | { ok: false; error: string };

export async function clusterAction(fetch: ActionFetch, method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<ActionResult> {
  let r: Awaited<ReturnType<ActionFetch>>;
  try {
    r = await fetch(path, {
      method,
      headers: { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch (e) {
    return { ok: false, error: `${method} ${path}: the server did not answer (${e instanceof Error ? e.message : String(e)})` };
  }
  let parsed: Record<string, unknown> | null = null;
  try {
    parsed = JSON.parse(await r.text()) as Record<string, unknown>;
  } catch {
    parsed = null;
  }
  if (r.status === 200 && parsed?.ok === true) return { ok: true, body: parsed };
  const why = typeof parsed?.error === 'string' ? parsed.error : `the server answered ${r.status}`;
  return { ok: false, error: `${method} ${path}: ${why}` };
}

export const addNode = (f: ActionFetch) => clusterAction(f, 'POST', '/cluster/nodes');
export const killNode = (f: ActionFetch, id: number) => clusterAction(f, 'POST', `/cluster/nodes/${id}/kill`);
export const restartNode = (f: ActionFetch, id: number) => clusterAction(f, 'POST', `/cluster/nodes/${id}/restart`);
export const startLoad = (f: ActionFetch, s: LoadSettings) => clusterAction(f, 'POST', '/cluster/load', s);
export const stopLoad = (f: ActionFetch) => clusterAction(f, 'DELETE', '/cluster/load');
