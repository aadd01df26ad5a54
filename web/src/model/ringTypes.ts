/**
 * Plain-data types of the FAWN-KV ring that the FAWN-KV lab and the Cluster page share (the
 * ring views in viz/ring*.ts draw both): back-ends, messages, joins and the VID columns of the
 * core's FAWN-KV session (wasm-core/src/fawnkv/lab/session.h) and of a real cluster's status.
 *
 * Ring positions are fractions of the 160-bit ring in [0, 1) (the top 53 bits of the ID), so
 * 0 is 12 o'clock and the ring runs clockwise. A VID owns (predecessor, VID]. The chain of a
 * range is its owner followed clockwise by the first VID of each further distinct node, R in
 * all (wasm-core/src/fawnkv/ring.h); the vids columns carry the chains the core computed.
 */

/** One back-end in the snapshot. */
export interface FawnkvNode {
  id: number;
  state: 'up' | 'joining' | 'leaving' | 'failed' | 'gone';
  /** Ranges (stores) it holds. */
  stores: number;
  /** Records in its stores, and the bytes of their logs. */
  records: number;
  log_bytes: number;
  /** Over the last second of virtual time: requests answered per second, median and 99th latency (ms). */
  qps: number;
  p50_ms: number;
  p99_ms: number;
  /** Messages waiting at its server: client queue and chain queue. */
  client_queue: number;
  chain_queue: number;
  /** Power now (W) and queries per joule over the last second. */
  watts: number;
  qpj: number;
}

/** A message on the wire (or in a queue) for the view to animate. Times are virtual ns. */
export interface FawnkvMessage {
  id: number;
  kind: 'put' | 'get' | 'reply' | 'chain-put' | 'ack' | 'precopy' | 'membership' | 'flush' | 'heartbeat';
  /** Endpoints: back-end ids ≥ 0; front-end f is −1 − f. */
  from: number;
  to: number;
  /** Ring position of the key or range the message concerns, [0, 1). */
  pos: number;
  sent_ns: number;
  arrive_ns: number;
  bytes: number;
}

/** A join (or the re-replication after a leave) in progress: one per (VID, chain). */
export interface FawnkvJoin {
  node: number;
  vid: string;
  /** The range (start, end] as ring fractions. */
  start: number;
  end: number;
  role: 'head' | 'mid' | 'tail';
  donor: number;
  phase: 'precopy' | 'insert' | 'flush' | 'merge' | 'done';
  copied_bytes: number;
  total_bytes: number;
}

/** The ring's VIDs as columns, in ring order. */
export interface FawnkvVids {
  version: number;
  node: Uint32Array;
  index: Uint16Array;
  /** Ring position in [0, 1). */
  pos: Float64Array;
  /** The width of a row of `chains`: R as the ring applies it. */
  chainLength: number;
  /** VID count × chainLength: the chain whose head is VID i, VID indices head first; 0xFFFFFFFF pads. */
  chains: Uint32Array;
}
