/**
 * Every size and count limit of the real cluster, in one place (documented in docs/cluster.md).
 * Client-facing limits follow memcached where it has one; wire limits follow the design note
 * (docs: issue 6 design, "Wire").
 */

/** Largest frame payload on a peer connection (4-byte length prefix), and the smallest. */
export const FRAME_MAX_BYTES = 16 * 1024 * 1024;
/** A key, in bytes: memcached's limit (KEY_MAX_LENGTH = 250). */
export const KEY_MAX_BYTES = 250;
/** A value as the client sees it (the stored value adds 4 bytes of flags). */
export const VALUE_MAX_BYTES = 1024 * 1024;
/** Keys in one multiget (HTTP _multiget or one memcached `get`). */
export const MULTIGET_MAX_KEYS = 256;
/** An HTTP request body: one value plus a little room for JSON around keys. */
export const HTTP_BODY_MAX_BYTES = VALUE_MAX_BYTES + 1024;
/** A memcached command line, "\r\n" included. */
export const MEMCACHED_LINE_MAX_BYTES = 2048;
/** Concurrent client connections (HTTP, WebSocket and memcached together). */
export const CLIENT_CONNECTIONS_MAX = 256;
/** Concurrent inbound peer connections (each node opens at most one to each other node). */
export const PEER_CONNECTIONS_MAX = 1024;
/** The largest frame accepted before a connection's hello is admitted (the hello itself). */
export const HELLO_MAX_BYTES = 4096;
/** A hello must arrive this soon after a peer connects, or the connection is closed. */
export const HELLO_TIMEOUT_MS = 5000;
/** A client connection that sends a partial line or body and then stalls this long is closed. */
export const CLIENT_IDLE_TIMEOUT_MS = 30_000;
/**
 * A client request that gets no answer from the cluster in this long fails (504 / SERVER_ERROR):
 * the C++ front-end's timeout (host config timeoutMs). 2 s: a back-end answers in milliseconds,
 * a dead one is found after 3 missed 500 ms heartbeats (1.5 s) and the front-end never resends
 * a request, so waiting longer only delays the client's answer.
 */
export const REQUEST_TIMEOUT_MS = 2000;
/** The host loop's own backstop for a request the node never finishes (it should not happen). */
export const REQUEST_BACKSTOP_MS = REQUEST_TIMEOUT_MS + 1000;
/** Frames waiting for one outgoing peer connection (while it connects or drains), in bytes. */
export const PEER_QUEUE_MAX_BYTES = 64 * 1024 * 1024;
