// The papers feature's public entry (eslint.config.js, `features/public-entry`).
export { papersApi, type PaperRecord } from './api/papers-api.ts';
export { contentInSetOrder } from './set-preview-page.tsx';
// The item analysis (issue 20) chooses a paper like the paper screens, and reads refusals the same way.
export { ChooseExamState } from './components/choose-exam-state.tsx';
export { paperCallFailure } from './lib/paper-errors.ts';
