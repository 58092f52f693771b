import type { Locator } from 'playwright-core';

export interface RenderedFont {
  familyName: string;
  /** true: a web font the page loaded; false: a font installed on the machine. */
  isCustomFont: boolean;
  glyphCount: number;
}

/**
 * The fonts Chromium actually used to draw the text of an element (DevTools protocol
 * `CSS.getPlatformFontsForNode`), with how many glyphs each drew. This checks what is on
 * screen whatever fonts the machine has installed, unlike `document.fonts.check`, which only
 * says whether a face could be used, or font requests, which depend on what the machine
 * already offers (issue 23: Debian's fonts-noto-core).
 */
export async function renderedFonts(locator: Locator): Promise<RenderedFont[]> {
  const page = locator.page();
  const session = await page.context().newCDPSession(page);
  try {
    await session.send('DOM.enable');
    await session.send('CSS.enable');
    const marker = `rendered-font-${Math.random().toString(36).slice(2)}`;
    await locator.evaluate((element, value) => element.setAttribute('data-rendered-font', value), marker);
    const { root } = await session.send('DOM.getDocument', { depth: -1 });
    const { nodeId } = await session.send('DOM.querySelector', { nodeId: root.nodeId, selector: `[data-rendered-font="${marker}"]` });
    await locator.evaluate((element) => element.removeAttribute('data-rendered-font'));
    const fonts: RenderedFont[] = [];
    // The fonts of the element's own text nodes and of every descendant's.
    const visit = async (id: number) => {
      const { fonts: own } = await session.send('CSS.getPlatformFontsForNode', { nodeId: id });
      fonts.push(...own.map(({ familyName, isCustomFont, glyphCount }) => ({ familyName, isCustomFont, glyphCount })));
      const { node } = await session.send('DOM.describeNode', { nodeId: id, depth: 1 });
      for (const child of node.children ?? []) {
        if (child.nodeType === 1) {
          const { nodeIds } = await session.send('DOM.pushNodesByBackendIdsToFrontend', { backendNodeIds: [child.backendNodeId] });
          await visit(nodeIds[0]);
        }
      }
    };
    await visit(nodeId);
    return fonts;
  } finally {
    await session.detach();
  }
}
