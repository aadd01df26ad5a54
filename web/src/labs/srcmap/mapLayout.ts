/**
 * The bipartite map's layout: the volumes in a column on the left, the disks (primaries, then
 * any cache disks under their own heading) on the right, and an edge from a volume to each disk
 * that holds a copy of it (its primary, its working-set replicas), serves it now, or took its
 * I/O in the last minute. An edge where the volume is served now is thick, the rest thin (a
 * replica dashed); each edge's width adds the last minute's I/O on it (square-root scale, the
 * busiest edge MAX_FLOW_W px wider). Pure: mapLayout() computes positions in CSS px for a width;
 * MapView.tsx draws them.
 */
import { diskIndex, volumeIndex } from './srcmapReadout';
import type { SrcmapSnapshot } from './srcmapTypes';

export const ROW_H = 42;
export const NODE_H = 34;
const TOP = 26;
const CACHE_GAP = 24;
export const MAX_FLOW_W = 10;

export interface MapNode {
  /** "v0".."v7", "d0".."d9": the focus key. */
  key: string;
  index: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

export type EdgeKind = 'served' | 'primary' | 'replica' | 'flow';

export interface MapEdge {
  volume: number;
  disk: number;
  kind: EdgeKind;
  /** I/O in the last minute, per second (0 when none). */
  iops: number;
  width: number;
  /** A cubic from the volume's right edge to the disk's left edge. */
  path: string;
}

export interface MapLayout {
  width: number;
  height: number;
  volumes: MapNode[];
  disks: MapNode[];
  edges: MapEdge[];
  /** Where the cache disks' heading goes (null without cache disks). */
  cacheHeadY: number | null;
  /** The column headings' x. */
  volumeHeadX: number;
  diskHeadX: number;
  /** Narrow: the nodes' second lines shorten. */
  narrow: boolean;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** The extra width of an edge carrying `iops` when the busiest carries `max`. */
export function flowWidth(iops: number, max: number): number {
  if (!(iops > 0) || !(max > 0)) return 0;
  return MAX_FLOW_W * Math.sqrt(Math.min(1, iops / max));
}

export function mapLayout(snap: SrcmapSnapshot, width: number): MapLayout {
  const w = Math.max(280, Math.floor(width));
  const narrow = w < 480;
  const volW = Math.round(clamp(w * 0.27, 96, 170));
  const diskW = Math.round(clamp(w * 0.33, 144, 210));
  const volX = 2;
  const diskX = w - diskW - 2;
  const primaries: number[] = [];
  const caches: number[] = [];
  snap.disks.forEach((d, i) => (d.kind === 'cache' ? caches : primaries).push(i));
  const disks: MapNode[] = [];
  primaries.forEach((i, row) => disks.push({ key: `d${i}`, index: i, x: diskX, y: TOP + row * ROW_H, w: diskW, h: NODE_H }));
  const cacheTop = TOP + primaries.length * ROW_H + CACHE_GAP;
  caches.forEach((i, row) => disks.push({ key: `d${i}`, index: i, x: diskX, y: cacheTop + row * ROW_H, w: diskW, h: NODE_H }));
  const volumes: MapNode[] = snap.volumes.map((_, i) => ({ key: `v${i}`, index: i, x: volX, y: TOP + i * ROW_H, w: volW, h: NODE_H }));
  const bottom = Math.max(
    volumes.length ? volumes[volumes.length - 1]!.y + NODE_H : TOP,
    disks.length ? Math.max(...disks.map((d) => d.y + NODE_H)) : TOP,
  );

  // Every (volume, disk) pair with a relation, its kind the strongest: served > primary > replica > flow.
  const rank: Record<EdgeKind, number> = { served: 3, primary: 2, replica: 1, flow: 0 };
  const pairs = new Map<string, { v: number; d: number; kind: EdgeKind; iops: number }>();
  const add = (v: number, d: number, kind: EdgeKind, iops = 0) => {
    if (v < 0 || d < 0) return;
    const k = `${v}:${d}`;
    const have = pairs.get(k);
    if (!have) pairs.set(k, { v, d, kind, iops });
    else {
      if (rank[kind] > rank[have.kind]) have.kind = kind;
      have.iops += iops;
    }
  };
  snap.volumes.forEach((vol, v) => {
    // A volume's primary is the disk whose `volume` names it (D0 holds home-1), else the disk of its index.
    const home = snap.disks.findIndex((d) => d.kind !== 'cache' && (d.volume === vol.name || d.id === vol.id));
    add(v, home >= 0 ? home : v < primaries.length ? primaries[v]! : -1, 'primary');
    for (const r of vol.replicas) add(v, diskIndex(snap, r), 'replica');
    for (const s of vol.serving) add(v, diskIndex(snap, s), 'served');
  });
  for (const f of snap.flows) add(volumeIndex(snap, f.volume), diskIndex(snap, f.disk), 'flow', Math.max(0, f.iops || 0));
  const maxFlow = Math.max(0, ...[...pairs.values()].map((p) => p.iops));

  const nodeOf = new Map(disks.map((n) => [n.index, n]));
  const edges: MapEdge[] = [];
  for (const p of pairs.values()) {
    const vn = volumes[p.v];
    const dn = nodeOf.get(p.d);
    if (!vn || !dn) continue;
    const x1 = vn.x + vn.w;
    const y1 = vn.y + NODE_H / 2;
    const x2 = dn.x;
    const y2 = dn.y + NODE_H / 2;
    const mx = (x1 + x2) / 2;
    const base = p.kind === 'served' ? 3 : 1;
    edges.push({
      volume: p.v, disk: p.d, kind: p.kind, iops: p.iops,
      width: Math.round((base + flowWidth(p.iops, maxFlow)) * 10) / 10,
      path: `M${x1},${y1} C${mx},${y1} ${mx},${y2} ${x2},${y2}`,
    });
  }
  // Thin edges first, so the served ones are drawn over them.
  edges.sort((a, b) => rank[a.kind] - rank[b.kind] || a.volume - b.volume || a.disk - b.disk);

  return {
    width: w, height: bottom + 6, volumes, disks, edges,
    cacheHeadY: caches.length ? cacheTop - 8 : null,
    volumeHeadX: volX, diskHeadX: diskX, narrow,
  };
}

/** The node keyboard focus moves to from `key` on `arrow` (Up/Down in a column, Left/Right across, Home/End). */
export function nextNode(layout: MapLayout, key: string, arrow: string): string | null {
  const cols = [layout.volumes, layout.disks];
  const c = key.startsWith('v') ? 0 : 1;
  const col = cols[c]!;
  const at = Math.max(0, col.findIndex((n) => n.key === key));
  const pick = (list: MapNode[], i: number) => list[clamp(i, 0, list.length - 1)]?.key ?? null;
  switch (arrow) {
    case 'ArrowUp': return pick(col, at - 1);
    case 'ArrowDown': return pick(col, at + 1);
    case 'Home': return pick(col, 0);
    case 'End': return pick(col, col.length - 1);
    case 'ArrowLeft':
    case 'ArrowRight': {
      const other = cols[arrow === 'ArrowLeft' ? 0 : 1]!;
      if (other === col) return key;
      // The node across nearest in height.
      const y = col[at]?.y ?? 0;
      let best: MapNode | null = null;
      for (const n of other) if (!best || Math.abs(n.y - y) < Math.abs(best.y - y)) best = n;
      return best?.key ?? null;
    }
    default: return null;
  }
}

/** Whether an edge touches the focused node (key "v3" / "d5"). */
export function touches(e: MapEdge, key: string | null): boolean {
  if (!key) return false;
  return key === `v${e.volume}` || key === `d${e.disk}`;
}
