// ESLint for the web lab. Besides the TypeScript and React-hooks rules it enforces the layers:
//   model (the only code that loads the WASM glue) <- viz (pure D3) <- app (React pages) <- labs
// (one folder per lab; app reaches them only through their registry, labs/index.ts) and keeps
// wall clocks and unseeded randomness out of model and viz code.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const noClocks = {
  'no-restricted-properties': ['error',
    { object: 'Math', property: 'random', message: 'Unseeded randomness: model and viz must be deterministic.' },
    { object: 'Date', property: 'now', message: 'Wall clock: model and viz run on virtual time (pass times in).' },
    { object: 'performance', property: 'now', message: 'Wall clock: pass the frame time in from the app layer.' },
  ],
  'no-restricted-syntax': ['error',
    { selector: "NewExpression[callee.name='Date']", message: 'Wall clock: model and viz run on virtual time.' },
  ],
};

const wasmOnlyInCore = { group: ['@wasm/*'], message: 'Only web/src/model/core.ts loads the WASM glue.' };
// The sessions' schemas (data the build writes beside the glue) are read by model/session/schema.ts.
const glueOnlyInCore = { group: ['@wasm/*', '!@wasm/sessions.json'], message: wasmOnlyInCore.message };

export default tseslint.config(
  { ignores: ['dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/model/**/*.ts'],
    ignores: ['src/model/core.ts'],
    rules: {
      ...noClocks,
      'no-restricted-imports': ['error', { patterns: [glueOnlyInCore,
        { group: ['../viz/*', '../app/*', '../../viz/*', '../../app/*', '**/labs', '**/labs/*'], message: 'model must not depend on viz, app or labs.' }] }],
    },
  },
  {
    files: ['src/model/core.ts'],
    rules: { ...noClocks, 'no-restricted-imports': ['error', { patterns: [{ group: ['../viz/*', '../app/*', '**/labs', '**/labs/*'], message: 'model must not depend on viz, app or labs.' }] }] },
  },
  {
    files: ['src/viz/**/*.ts'],
    rules: {
      ...noClocks,
      'no-restricted-imports': ['error', { patterns: [wasmOnlyInCore,
        { group: ['../app/*', '**/labs', '**/labs/*'], message: 'viz must not depend on app or labs.' },
        { group: ['../model/core', '../model/runner', '../model/worker'], message: 'viz takes plain data (model/types), not the running model.' }] }],
    },
  },
  {
    files: ['src/app/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [wasmOnlyInCore,
      { group: ['**/labs/*'], message: 'app reaches a lab only through the registry, ../labs (labs/index.ts).' }] }] },
  },
  {
    files: ['src/labs/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [wasmOnlyInCore] }] },
  },
  {
    // A lab's plain modules (row builders, result lines, speed policies) are pure, as viz is;
    // its React files pass the frame time in.
    files: ['src/labs/**/*.ts'],
    rules: noClocks,
  },
  {
    files: ['src/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-properties': 'off', 'no-restricted-syntax': 'off' },
  },
);
