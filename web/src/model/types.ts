/**
 * Plain-data types shared by the model, viz and app layers: what the C++ core returns for
 * experiments (schemas, results). They mirror the JSON written by wasm-core (registry/result.h,
 * base/params.h); the experiments' part is the wire contract the server shares
 * (server/src/wire/experiments.ts), re-exported here. A lab's session types live in its folder
 * (web/src/labs/<id>/).
 */

export type {
  AnchorBasis,
  AnchorNote,
  CoreError,
  ExperimentInfo,
  ExperimentResult,
  ParamSpec,
  ParamType,
  ParamValue,
  Series,
  SeriesKind,
  Tolerance,
} from '@wire/experiments';
import type { ExperimentResult } from '@wire/experiments';

/** A finished run as the model keeps it: the parsed result and the core's exact bytes. */
export interface RunRecord {
  result: ExperimentResult;
  json: string;
  csv: string;
}
