/**
 * A standalone SVG file of a drawn diagram: the on-screen colours come from the theme's CSS
 * variables, which a file opened elsewhere does not have, so the computed paint of every
 * element is written onto it and the classes dropped. The whole diagram is exported whatever
 * the current zoom.
 */
const PAINT = ['fill', 'stroke', 'stroke-width', 'stroke-dasharray', 'opacity', 'font-weight', 'font-size', 'font-family'] as const;

export function standaloneSvg(svg: SVGSVGElement, size: { width: number; height: number }): string {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const originals = [svg, ...svg.querySelectorAll('*')];
  const copies = [copy, ...copy.querySelectorAll('*')];
  const view = svg.ownerDocument.defaultView;
  originals.forEach((element, index) => {
    const target = copies[index];
    const style = view?.getComputedStyle(element);
    if (style) {
      for (const property of PAINT) {
        const value = style.getPropertyValue(property);
        if (value && !target.hasAttribute(property)) target.setAttribute(property, value);
      }
    }
    target.removeAttribute('class');
    target.removeAttribute('tabindex');
  });
  copy.setAttribute('viewBox', `0 0 ${size.width} ${size.height}`);
  copy.setAttribute('width', String(Math.ceil(size.width)));
  copy.setAttribute('height', String(Math.ceil(size.height)));
  const background = view?.getComputedStyle(svg).getPropertyValue('background-color');
  if (background) {
    const rect = svg.ownerDocument.createElementNS('http://www.w3.org/2000/svg', 'rect');
    rect.setAttribute('width', '100%');
    rect.setAttribute('height', '100%');
    rect.setAttribute('fill', background);
    copy.insertBefore(rect, copy.firstChild);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}\n`;
}
