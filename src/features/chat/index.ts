// The chat feature's public entry: other features import only from here (eslint.config.js,
// `features/public-entry`). The panel is its own chunk, so a list that needs only the unread
// counts does not carry it.
import type { ComponentType } from 'react';
import { lazyChunk } from '#src/lib/lazy-chunk.ts';
import type { ChatPanelProps } from './chat-panel.tsx';

export { useUnreadCounts } from './use-unread-counts.ts';
export const ChatPanel = lazyChunk<ChatPanelProps>(() =>
  import('./chat-panel.tsx').then((module): { default: ComponentType<ChatPanelProps> } => ({ default: module.ChatPanel })),
);
