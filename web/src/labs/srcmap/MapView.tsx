/**
 * The bipartite map as SVG (layout: mapLayout.ts): volumes on the left, disks on the right, each
 * disk with its power state as a colour band, an icon and its name, in the active set (solid
 * border) or not (dashed); edges thin where a volume has a copy, thick where it is served now,
 * wider with the last minute's I/O. The nodes are one tab stop: the arrow keys move between them
 * (Up/Down in a column, Left/Right across), and the focused node's edges stand out while the
 * rest fade; `onFocusNode` reports the focused node's key ("v3", "d5") for the readout in words.
 */
import { useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { canvasWidth } from '../../app/viewSize';
import { fmt } from '../../viz/format';
import { mapLayout, nextNode, NODE_H, touches, type MapEdge, type MapNode } from './mapLayout';
import { SM, stateStyle, type StateStyle } from './srcmapPalette';
import { diskReadout, volumeReadout } from './srcmapReadout';
import type { SrcmapSnapshot } from './srcmapTypes';

/** The width (CSS px) of `el`, kept up to date as it resizes. */
export function useWidth(el: RefObject<HTMLElement | null>, fallback: number): number {
  const [w, setW] = useState(fallback);
  useEffect(() => {
    const measure = () => setW(canvasWidth(el.current, fallback));
    measure();
    const ro = new ResizeObserver(measure);
    if (el.current) ro.observe(el.current);
    return () => ro.disconnect();
  }, [el, fallback]);
  return w;
}

/** A state's icon, centred on (cx, cy). */
export function StateIcon({ style, cx, cy }: { style: StateStyle; cx: number; cy: number }) {
  const c = style.ink;
  switch (style.icon) {
    case 'platter':
      return (
        <g aria-hidden="true">
          <circle cx={cx} cy={cy} r={7} fill="none" stroke={c} strokeWidth={1.6} />
          <path d={`M${cx},${cy} L${cx},${cy - 7} A7,7 0 0 1 ${cx + 7},${cy} Z`} fill={c} />
        </g>
      );
    case 'square':
      return <rect x={cx - 5} y={cy - 5} width={10} height={10} fill={c} stroke={c} aria-hidden="true" />;
    case 'arrow':
      return <path d={`M${cx},${cy - 7} L${cx + 6},${cy + 5} L${cx - 6},${cy + 5} Z`} fill={c} aria-hidden="true" />;
    default:
      return <circle cx={cx} cy={cy} r={5.5} fill="none" stroke={c} strokeWidth={2} aria-hidden="true" />;
  }
}

const EDGE_DASH: Record<MapEdge['kind'], string | undefined> = { served: undefined, primary: undefined, replica: '5 3', flow: '2 3' };

interface Props {
  snap: SrcmapSnapshot;
  /** The focused node's key, or null; reported as it moves. */
  focused: string | null;
  onFocusNode: (key: string | null) => void;
  /** A located block: its volume and the disks holding it (drawn outlined). */
  located: { volume: number; disks: number[] } | null;
  /** The width laid out before the container is measured (and in tests). */
  initialWidth?: number;
}

export function MapView({ snap, focused, onFocusNode, located, initialWidth = 640 }: Props) {
  const wrap = useRef<HTMLDivElement>(null);
  const width = useWidth(wrap, initialWidth);
  const L = mapLayout(snap, width);
  const nodes = useRef(new Map<string, SVGGElement>());
  // The node that takes the tab stop: the focused one, else the first volume.
  const [tabKey, setTabKey] = useState('v0');
  const stop = focused ?? tabKey;
  const primaries = snap.disks.filter((d) => d.kind !== 'cache').length;

  const onKey = (e: KeyboardEvent<SVGGElement>, key: string) => {
    const to = nextNode(L, key, e.key);
    if (!to) return;
    e.preventDefault();
    e.stopPropagation();
    nodes.current.get(to)?.focus();
  };
  const bind = (key: string) => ({
    ref: (el: SVGGElement | null) => {
      if (el) nodes.current.set(key, el);
      else nodes.current.delete(key);
    },
    tabIndex: key === stop ? 0 : -1,
    onFocus: () => {
      setTabKey(key);
      onFocusNode(key);
    },
    onBlur: () => onFocusNode(null),
    onKeyDown: (e: KeyboardEvent<SVGGElement>) => onKey(e, key),
  });

  // Copies are many (a volume's replicas on most disks): light, so the served edges read over them.
  const fade = (e: MapEdge) => (focused && !touches(e, focused) ? 0.12 : e.kind === 'served' ? 0.9 : e.kind === 'replica' ? 0.45 : 0.75);
  const locatedDisk = (i: number) => located !== null && located.disks.includes(i);
  const edgeLocated = (e: MapEdge) => located !== null && e.volume === located.volume && located.disks.includes(e.disk);

  const volumeNode = (n: MapNode) => {
    const v = snap.volumes[n.index]!;
    const on = focused === n.key;
    const loc = located?.volume === n.index;
    const second = L.narrow || v.dirty_extents === 0 ? `${fmt(v.iops)} IOPS` : `${fmt(v.iops)} IOPS · ${v.dirty_extents} dirty`;
    return (
      <g key={n.key} {...bind(n.key)} className="srcmap-node" role="img" aria-label={volumeReadout(snap, n.index)}
        data-testid={`srcmap-volume-${n.index}`}>
        <rect x={n.x} y={n.y} width={n.w} height={n.h} rx={5} fill={SM.panel} stroke={on ? SM.ink : loc ? SM.located : SM.copy}
          strokeWidth={on || loc ? 3 : 1.2} />
        <text x={n.x + 8} y={n.y + 14} className="srcmap-node-title">{v.name}</text>
        <text x={n.x + 8} y={n.y + 28} className="srcmap-node-sub">{second}</text>
      </g>
    );
  };

  const diskNode = (n: MapNode) => {
    const d = snap.disks[n.index]!;
    const st = stateStyle(d.state);
    const on = focused === n.key;
    const loc = locatedDisk(n.index);
    const cy = n.y + NODE_H / 2;
    return (
      <g key={n.key} {...bind(n.key)} className="srcmap-node" role="img" aria-label={diskReadout(snap, n.index)}
        data-testid={`srcmap-disk-${n.index}`} data-state={d.state} data-active={d.active ? 'true' : 'false'}>
        <rect x={n.x} y={n.y} width={n.w} height={n.h} rx={5} fill="#ffffff" stroke={st.colour}
          strokeWidth={d.active ? 2.5 : 1.5} strokeDasharray={d.active ? undefined : '4 3'} />
        <rect x={n.x} y={n.y} width={26} height={n.h} rx={5} fill={st.colour} />
        <rect x={n.x + 20} y={n.y} width={6} height={n.h} fill={st.colour} />
        <StateIcon style={st} cx={n.x + 13} cy={cy} />
        <text x={n.x + 32} y={n.y + 14} className="srcmap-node-title">
          {d.id}<tspan className="srcmap-node-sub" dx={5}>{d.kind === 'cache' ? 'cache' : d.volume}</tspan>
        </text>
        <text x={n.x + 32} y={n.y + 28} className="srcmap-node-state">{st.label}{d.active && !L.narrow ? ' · active' : ''}</text>
        <text x={n.x + n.w - 6} y={n.y + 28} className="srcmap-node-sub" textAnchor="end">{fmt(d.iops)}/s</text>
        {(on || loc) && (
          <rect x={n.x - 3} y={n.y - 3} width={n.w + 6} height={n.h + 6} rx={7} fill="none" stroke={on ? SM.ink : SM.located} strokeWidth={2.5} />
        )}
      </g>
    );
  };

  return (
    <div ref={wrap} className="srcmap-map-wrap">
      <svg className="srcmap-map" width={L.width} height={L.height} viewBox={`0 0 ${L.width} ${L.height}`} role="group" data-testid="srcmap-map"
        aria-label="The volumes (left) and the disks (right): an edge where a volume has a copy, thick where it is served now, wider with its I/O. Focus a node and use the arrow keys to read each one.">
        <text x={L.volumeHeadX} y={14} className="srcmap-head">volumes</text>
        <text x={L.diskHeadX} y={14} className="srcmap-head">disks{L.narrow || primaries < 2 ? '' : ` (primaries D0–D${primaries - 1})`}</text>
        {L.cacheHeadY !== null && <text x={L.diskHeadX} y={L.cacheHeadY} className="srcmap-head">cache disks</text>}
        <g aria-hidden="true">
          {L.edges.map((e) => (
            <path key={`${e.volume}:${e.disk}`} d={e.path} fill="none" stroke={edgeLocated(e) ? SM.located : e.kind === 'served' ? SM.served : SM.copy}
              strokeWidth={e.width} strokeDasharray={EDGE_DASH[e.kind]} strokeOpacity={fade(e)} data-kind={e.kind} data-iops={e.iops} />
          ))}
        </g>
        {L.volumes.map(volumeNode)}
        {L.disks.map(diskNode)}
      </svg>
    </div>
  );
}
