/**
 * The Devices lab's live views: the flash device and the disk, one tab each (arrow keys move
 * between the tabs). A lesson's live scenario names its view (`"view": "flash" | "disk"`),
 * which opens that tab and configures it; the hidden view pauses.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { DevicesLiveConfig, DiskConfig, FlashConfig } from './deviceTypes';
import { LiveDisk } from './LiveDisk';
import { LiveFlash } from './LiveFlash';
import type { LiveRequest } from '../../app/labModule';

type View = DevicesLiveConfig['view'];
const TABS: Array<[View, string]> = [['flash', 'Flash (SSD, CF card)'], ['disk', 'Disk']];

export function LiveDevices({ request, onEdit }: { request: LiveRequest<DevicesLiveConfig> | null; onEdit?: (changed: Record<string, unknown>) => void }) {
  const [view, setView] = useState<View>('flash');
  const [flashReq, setFlashReq] = useState<LiveRequest<FlashConfig> | null>(null);
  const [diskReq, setDiskReq] = useState<LiveRequest<DiskConfig> | null>(null);
  const tabRefs = useRef<Record<View, HTMLButtonElement | null>>({ flash: null, disk: null });

  useEffect(() => {
    if (!request) return;
    const { view: v, ...config } = request.config;
    setView(v);
    if (v === 'flash') setFlashReq({ config: config as FlashConfig, seed: request.seed, nonce: request.nonce });
    else setDiskReq({ config: config as DiskConfig, seed: request.seed, nonce: request.nonce });
  }, [request]);

  const onTabKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft' && e.key !== 'Home' && e.key !== 'End') return;
    e.preventDefault();
    const i = TABS.findIndex(([v]) => v === view);
    const next = e.key === 'Home' ? 0 : e.key === 'End' ? TABS.length - 1 : (i + (e.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length;
    const v = TABS[next]![0];
    choose(v);
    tabRefs.current[v]?.focus();
  };
  /** A tab the user picks (the page's URL records it, with the fields changed on it). */
  const choose = (v: View) => {
    setView(v);
    if (v !== view) onEdit?.({ view: v });
  };

  return (
    <section className="panel live live-devices" aria-labelledby="live-heading">
      <h2 id="live-heading">Live devices</h2>
      <div className="tabs" role="tablist" aria-label="Live device" onKeyDown={onTabKey}>
        {TABS.map(([v, label]) => (
          <button key={v} type="button" role="tab" id={`tab-${v}`} aria-controls={`tabpanel-${v}`} aria-selected={view === v}
            tabIndex={view === v ? 0 : -1} ref={(el) => { tabRefs.current[v] = el; }} onClick={() => choose(v)}>
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="tabpanel-flash" aria-labelledby="tab-flash" hidden={view !== 'flash'}>
        <LiveFlash request={flashReq} active={view === 'flash'} onEdit={(c) => onEdit?.({ view: 'flash', ...c })} />
      </div>
      <div role="tabpanel" id="tabpanel-disk" aria-labelledby="tab-disk" hidden={view !== 'disk'}>
        <LiveDisk request={diskReq} active={view === 'disk'} onEdit={(c) => onEdit?.({ view: 'disk', ...c })} />
      </div>
    </section>
  );
}
