/**
 * The Vector I/O lab's live views: the networked back-end (net/) and the Linux block layer
 * (block/), one tab each. A lesson's live scenario names its view (`"view": "net" | "block"`),
 * which opens that tab and configures it; the hidden view pauses.
 */
import { useEffect, useState } from 'react';
import type { LiveConfigRecord, LiveRequest } from '../../app/labModule';
import { LiveBlock } from './block/LiveBlock';
import { LiveNet } from './net/LiveNet';

type View = 'net' | 'block';
const TABS: Array<[View, string]> = [['net', 'Networked back-end'], ['block', 'Block layer (Ch. 6)']];

export function LiveVector({ request, onEdit }: { request: LiveRequest | null; onEdit?: (changed: LiveConfigRecord) => void }) {
  const [view, setView] = useState<View>('net');
  const [netReq, setNetReq] = useState<LiveRequest | null>(null);
  const [blockReq, setBlockReq] = useState<LiveRequest | null>(null);

  useEffect(() => {
    if (!request) return;
    const { view: v, ...config } = request.config;
    const which: View = v === 'block' ? 'block' : 'net';
    setView(which);
    const req = { config, seed: request.seed, nonce: request.nonce };
    if (which === 'block') setBlockReq(req);
    else setNetReq(req);
  }, [request]);

  const choose = (v: View) => {
    setView(v);
    if (v !== view) onEdit?.({ view: v });
  };

  return (
    <section className="panel live live-vector" aria-labelledby="live-heading">
      <h2 id="live-heading">Live vector I/O</h2>
      <div className="tabs" role="tablist" aria-label="Live view">
        {TABS.map(([v, label]) => (
          <button key={v} type="button" role="tab" id={`tab-${v}`} aria-controls={`tabpanel-${v}`} aria-selected={view === v}
            tabIndex={view === v ? 0 : -1} onClick={() => choose(v)}>
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="tabpanel-net" aria-labelledby="tab-net" hidden={view !== 'net'}>
        <LiveNet request={netReq} active={view === 'net'} onEdit={(c) => onEdit?.({ view: 'net', ...c })} />
      </div>
      <div role="tabpanel" id="tabpanel-block" aria-labelledby="tab-block" hidden={view !== 'block'}>
        <LiveBlock request={blockReq} active={view === 'block'} onEdit={(c) => onEdit?.({ view: 'block', ...c })} />
      </div>
    </section>
  );
}
