/**
 * A FAWN-KV session snapshot for the lab's views' tests (test data only; the app never uses
 * it), built on the ring fixtures' messages and joins (viz/ringFixtures.ts).
 */
import { fixtureJoins, fixtureMessages } from '../../viz/ringFixtures';
import type { FawnkvNode, FawnkvSnapshot } from './fawnkvTypes';

function node(id: number, state: FawnkvNode['state'], qps: number): FawnkvNode {
  return { id, state, stores: 3, records: 400 + id, log_bytes: 120_000, qps, p50_ms: 0.8, p99_ms: 4.5, client_queue: id % 3, chain_queue: 1, watts: 4 + qps / 1000, qpj: qps / (4 + qps / 1000) };
}

/** A six-node cluster one and a half seconds in: node 4 failed, node 6 joining. */
export function fixtureKvSnapshot(): FawnkvSnapshot {
  const now = 1_500_000_000;
  const nodes = [0, 1, 2, 3, 5].map((i) => node(i, 'up', 300 + 20 * i));
  nodes.splice(4, 0, node(4, 'failed', 0));
  nodes.push(node(6, 'joining', 10));
  return {
    now_ns: now,
    ring_version: 3,
    replication: 3,
    nodes,
    front_ends: [{ id: 0, start: 0, end: 0, cache_entries: 0, cache_hits: 0, cache_misses: 120, qps: 1600 }],
    messages: fixtureMessages(now),
    joins: fixtureJoins(),
    events: [{ t_ns: 1_200_000_000, text: 'node 4 failed: 3 heartbeats missed' }, { t_ns: 1_300_000_000, text: 'node 6 joining' }],
    qps: 1600,
    watts: 32,
    qpj: 50,
    puts: 160,
    gets: 1440,
    timeouts: 2,
    refused: 0,
    timeline: Array.from({ length: 15 }, (_, i) => ({ t_ns: i * 100_000_000, qps: i < 12 ? 1600 : 1200, watts: i < 12 ? 34 : 29 })),
  };
}
