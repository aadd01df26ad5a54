// Types for precompress.mjs (used by server/src/compress.test.ts).
export declare const COMPRESSIBLE: Set<string>;
export interface PrecompressRow {
  /** Path relative to the folder. */
  file: string;
  size: number;
  /** Bytes of NAME.br / NAME.gz; null when compression was not smaller (no file). */
  br: number | null;
  gz: number | null;
  /** True when a sibling was written by this call. */
  fresh?: boolean;
}
export declare function precompress(dir: string): PrecompressRow[];
