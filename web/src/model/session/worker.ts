/**
 * The session worker: the page's live sessions run here, off the main thread, in a host
 * (host.ts) over the WASM core. Protocol: in {reqId, body: HostRequest}, out {reqId, body:
 * HostReply}, in order; the typed arrays of column views are transferred, not copied.
 */
import { loadCore } from '../core';
import { SessionHost } from './host';
import { transferablesOf, type Envelope, type HostReply, type HostRequest } from './protocol';

const hostPromise = loadCore().then((core) => new SessionHost((id, configJson, seed) => core.openLabSession(id, configJson, seed)));
const post = (reqId: number, body: HostReply) => (self as unknown as Worker).postMessage({ reqId, body } satisfies Envelope<HostReply>, transferablesOf(body));

// Requests are answered in order: each waits for the core, then runs to completion.
let queue: Promise<void> = Promise.resolve();
self.onmessage = (e: MessageEvent<Envelope<HostRequest>>) => {
  const { reqId, body } = e.data;
  queue = queue.then(async () => {
    let host: SessionHost;
    try {
      host = await hostPromise;
    } catch (err) {
      post(reqId, { ok: false, code: 'internal', message: `cannot load the core: ${String(err)}` });
      return;
    }
    post(reqId, host.handle(body));
  });
};
