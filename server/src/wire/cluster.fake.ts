/**
 * Test data for the cluster wire contract: a view of a front-end with no back-ends yet, as
 * GET /cluster answers before the first one joins (tests spread their own fields over it).
 */
import type { ClusterViewWire } from './cluster.js';

export function emptyClusterView(): ClusterViewWire {
  return {
    nodes: [{ id: -1, role: 'frontend', state: 'up', addr: '127.0.0.1:8200' }],
    ring: [], chains: [], changes: [], events: [],
    settings: { replicas: 3, vids: 2, heartbeatMs: 500, missed: 3 },
    load: { running: false, settings: null, seed: null, maxOutstanding: 1000, totals: { issued: 0, completed: 0, errors: 0, skipped: 0 }, interval: null },
    timeMs: 1_000_000,
  };
}
