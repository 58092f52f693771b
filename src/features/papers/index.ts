// The papers feature's public entry (eslint.config.js, `features/public-entry`).
export { papersApi, type PaperRecord } from './api/papers-api.ts';
export { contentInSetOrder } from './set-preview-page.tsx';
