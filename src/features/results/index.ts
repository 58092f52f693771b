// The results feature's public entry (eslint.config.js, `features/public-entry`), issue 20: the
// candidate's results and the marking calls; the export templates screen (a workspace slice,
// src/features/projects/workspace-pages.tsx) and the item analysis panel (a tab of the paper
// screen, loaded when opened; docs/decisions/0256).
export { myResultsApi, markingApi } from './api/results-api.ts';
export { default as ExportTemplatesPage } from './export-templates-page.tsx';
export { ItemAnalysisPanel } from './item-analysis.tsx';
