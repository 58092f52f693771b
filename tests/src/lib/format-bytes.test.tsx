import { act, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatBytes, useFormatBytes } from '#src/components/ui/file-upload.tsx';
import { i18n, initI18n } from '#src/i18n/i18n.ts';

const plain = (text: string | null) => (text ?? '').replace(/[\u202f\u00a0]/g, ' ');

function Sizes() {
  const size = useFormatBytes();
  return <p data-testid="sizes">{[512, 1536, 10 * 1024 * 1024].map(size).join(' | ')}</p>;
}

describe('sizes in the user’s language (issue 23)', () => {
  beforeAll(async () => {
    await initI18n('en-IN');
    await i18n.loadNamespaces('ui');
  });
  afterAll(async () => {
    await i18n.changeLanguage('en-IN');
  });

  it('should pick the unit by size and leave the words to the caller', () => {
    const words: string[] = [];
    const unit = (name: string, value: string) => (words.push(name), `${value}<${name}>`);
    expect(
      [0, 1023, 1024, 1536, 1024 * 1024 - 1, 5 * 1024 * 1024].map((n) => formatBytes(n, (v, o) => v.toFixed(o?.maximumFractionDigits ?? 0), unit)),
    ).toEqual(['0<bytes>', '1023<bytes>', '1.0<kilobytes>', '1.5<kilobytes>', '1024.0<kilobytes>', '5.0<megabytes>']);
  });

  it.each([
    ['en-IN', '512 B | 1.5 KB | 10 MB'],
    ['fr', '512 o | 1,5 Ko | 10 Mo'],
    ['es', '512 B | 1,5 KB | 10 MB'],
    ['hi', '512 बाइट | 1.5 केबी | 10 एमबी'],
    ['gu', '512 બાઇટ | 1.5 કેબી | 10 એમબી'],
  ])('should say sizes in %s with its own units and digits', async (language, expected) => {
    render(
      <I18nextProvider i18n={i18n}>
        <Sizes />
      </I18nextProvider>,
    );
    await act(() => i18n.changeLanguage(language));
    await act(() => i18n.loadNamespaces('ui'));
    expect(plain(screen.getByTestId('sizes').textContent)).toBe(expected);
  });
});
