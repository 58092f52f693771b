// The results feature's public entry (eslint.config.js, `features/public-entry`), issue 20: the export
// templates screen (a workspace slice, src/features/projects/workspace-pages.tsx) and the item
// analysis panel (a tab of the paper screen, loaded when opened; docs/decisions/0256).
export { default as ExportTemplatesPage } from './export-templates-page.tsx';
export { ItemAnalysisPanel } from './item-analysis.tsx';
