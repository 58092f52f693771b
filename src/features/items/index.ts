// The item bank feature's public entry: other features (papers) import only from here
// (eslint.config.js, `features/public-entry`).
export { itemsApi } from './api/items-api.ts';
export { ResponseInput } from './components/item-preview.tsx';
export { RichHtml } from './components/rich-html.tsx';
export { useItemWorkspace, type ItemWorkspace } from './lib/use-item-workspace.ts';
export { useMediaUrls } from './lib/use-media-urls.ts';
