import { describe, expect, it } from 'vitest';
import { sanitizeItemHtml } from '#server/lib/items/item-html.ts';

describe('sanitizeItemHtml', () => {
  it('should keep the rich text items are made of', () => {
    const html =
      '<p><b>Bold</b>, <em>italic</em>, H<sub>2</sub>O, x<sup>2</sup></p><ul><li>one</li></ul><ol start="3"><li>three</li></ol>' +
      '<table><thead><tr><th scope="col">A</th></tr></thead><tbody><tr><td colspan="2">1</td></tr></tbody></table>' +
      '<p lang="hi" dir="ltr">नमस्ते <span data-gap="G1"></span></p><math display="block"><mfrac><mn>1</mn><mn>2</mn></mfrac></math>' +
      '<figure><img src="media:fig.png" alt="A figure" width="100" /><figcaption>Fig.</figcaption></figure>';
    expect(sanitizeItemHtml(html)).toBe(html);
  });

  it.each([
    ['a script', '<p>a<script>alert(1)</script></p>', '<p>a</p>'],
    ['an event handler', '<img src="media:a.png" onerror="alert(1)" />', '<img src="media:a.png" />'],
    ['a javascript: link', '<a href="javascript:alert(1)">x</a>', 'x'],
    ['an image from another site', '<img src="https://127.0.0.1/track.png" alt="t" />', '<img alt="t" />'],
    ['a data: image', '<img src="data:image/svg+xml;base64,PHN2Zz4=" />', '<img />'],
    ['a relative image path', '<img src="../../etc/passwd" />', '<img />'],
    ['an inline style', '<p style="position:fixed">p</p>', '<p>p</p>'],
    ['an iframe', '<iframe src="https://127.0.0.1"></iframe>ok', 'ok'],
    ['a form', '<form action="/x"><input name="q" /></form>t', 't'],
    ['an svg with a script', '<svg><script>alert(1)</script></svg>s', 's'],
    ['a style element', '<style>*{display:none}</style>s', 's'],
    ['a class', '<p class="x">c</p>', '<p>c</p>'],
  ])('should remove %s', (_, dirty, clean) => {
    expect(sanitizeItemHtml(dirty)).toBe(clean);
  });
});
