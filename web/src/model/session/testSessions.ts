/** Test helper: live sessions of the real core (browser build, in Node) over the inline transport. */
import { testCore } from '../testCore';
import { inlineTransport, openSession, type LiveSessionClient, type Transport } from './client';

let transport: Promise<Transport> | null = null;

/** The inline transport over the browser build of the core. */
export function testTransport(): Promise<Transport> {
  transport ??= testCore().then((core) => inlineTransport((id, config, seed) => core.openLabSession(id, config, seed)));
  return transport;
}

/** Opens session `id`; throws with the core's message when it refuses. */
export async function testSession<S = unknown, O = unknown, R = unknown>(id: string, config: Record<string, unknown> = {}, seed = '1'): Promise<LiveSessionClient<S, O, R>> {
  const s = await openSession<S, O, R>(id, config, seed, await testTransport());
  if (!('tick' in s)) throw new Error(`${id}: ${s.message}`);
  return s;
}
