#!/usr/bin/env node
// The `fawnlab` command (npm's bin): the same commands as the npm scripts.
//   fawnlab serve | start | test | repro | bench | build | cluster | node | lint
import '../scripts/fawnlab.mjs';
