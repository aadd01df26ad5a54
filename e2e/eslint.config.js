// ESLint for the Playwright tests: the same rules as the server's.
export { default } from '../server/eslint.config.js';
