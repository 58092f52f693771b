import { describe, expect, it } from 'vitest';
import type { ItemContent } from '#machines/items/item-schema.ts';
import { answerText, keyText, plainText, variantOf } from '#machines/results/answer-text.ts';
import { essay, fillInBlanks, matching, multipleChoice, numeric, ordering, shortText, singleChoice, trueFalse } from '../items/support/sample-items.ts';

/** Answer sheet text (issue 20): what the candidate answered and the key, in the candidate's medium. */
describe('plainText', () => {
  it('should drop tags, decode the common entities and collapse white space', () => {
    expect(plainText('  <p>H<sub>2</sub>O&nbsp;is\n\t<b>wet</b></p>  ')).toBe('H 2 O is wet');
    expect(plainText('a &amp; b &lt; c &gt; d')).toBe('a & b < c > d');
  });

  it('should decode an escaped entity only once', () => {
    expect(plainText('<p>write &amp;lt; for &lt;</p>')).toBe('write &lt; for <');
    expect(plainText('&amp;nbsp;&amp;gt;')).toBe('&nbsp;&gt;');
  });

  it('should leave text without markup unchanged', () => {
    expect(plainText('Mercury')).toBe('Mercury');
    expect(plainText('')).toBe('');
  });

  it('should keep an escaped less-than sign that is not a tag', () => {
    expect(plainText('<p>x &lt; y and y &gt; z</p>')).toBe('x < y and y > z');
  });
});

describe('variantOf', () => {
  it('should pick the variant of the medium', () => {
    expect(variantOf(singleChoice, 'hi').choices?.A).toBe('बुध');
    expect(variantOf(singleChoice, 'en').choices?.A).toBe('Mercury');
  });

  it('should fall back to English when the medium has no variant', () => {
    expect(variantOf(singleChoice, 'gu').choices?.A).toBe('Mercury');
  });

  it('should fall back to the first variant when there is neither the medium nor English', () => {
    const onlyHindi = { ...singleChoice, variants: { hi: singleChoice.variants.hi } } as ItemContent;
    expect(variantOf(onlyHindi, 'fr').choices?.A).toBe('बुध');
  });
});

describe('answerText', () => {
  it('should be null for an empty answer of any kind', () => {
    for (const item of [singleChoice, multipleChoice, trueFalse, numeric, shortText, fillInBlanks, matching, ordering, essay]) {
      expect(answerText(item, null, 'en')).toBeNull();
      expect(answerText(item, undefined, 'en')).toBeNull();
      expect(answerText(item, '', 'en')).toBeNull();
    }
  });

  it('should give a single choice as its text in the medium', () => {
    expect(answerText(singleChoice, 'B', 'en')).toBe('Venus');
    expect(answerText(singleChoice, 'B', 'hi')).toBe('शुक्र');
  });

  it('should give a choice as its id when the variant has no text for it', () => {
    expect(answerText(singleChoice, 'Z', 'en')).toBe('Z');
    const noChoices = { ...singleChoice, variants: { en: { stem: '<p>?</p>' } } } as ItemContent;
    expect(answerText(noChoices, 'A', 'en')).toBe('A');
  });

  it('should strip markup from a choice text', () => {
    const marked = { ...singleChoice, variants: { en: { stem: '<p>?</p>', choices: { A: '<b>H<sub>2</sub></b>&amp;O' } } } } as ItemContent;
    expect(answerText(marked, 'A', 'en')).toBe('H 2 &O');
    expect(keyText(marked, 'en')).toBe('H 2 &O');
  });

  it('should be null for a single choice that is not a string', () => {
    expect(answerText(singleChoice, ['A'], 'en')).toBeNull();
    expect(answerText(singleChoice, 1, 'en')).toBeNull();
  });

  it('should list multiple choices with commas in the order given', () => {
    expect(answerText(multipleChoice, ['C', 'A'], 'en')).toBe('7, 2');
    expect(answerText(multipleChoice, ['A'], 'hi')).toBe('२');
  });

  it('should be null for multiple choice or ordering with no ids or not a list', () => {
    expect(answerText(multipleChoice, [], 'en')).toBeNull();
    expect(answerText(multipleChoice, 'A', 'en')).toBeNull();
    expect(answerText(ordering, [], 'en')).toBeNull();
    expect(answerText(ordering, 'A', 'en')).toBeNull();
  });

  it('should join an ordering with arrows', () => {
    expect(answerText(ordering, ['C', 'A', 'M'], 'en')).toBe('Cell → Atom → Molecule');
  });

  it('should read matching pairs as "left → right" separated by semicolons', () => {
    expect(
      answerText(
        matching,
        [
          ['GJ', 'MUM'],
          ['KA', 'BLR'],
        ],
        'en',
      ),
    ).toBe('Gujarat → Mumbai; Karnataka → Bengaluru');
    expect(answerText(matching, [['MH', 'MUM']], 'hi')).toBe('महाराष्ट्र → मुंबई');
  });

  it('should be null for matching with no pairs or not a list', () => {
    expect(answerText(matching, [], 'en')).toBeNull();
    expect(answerText(matching, 'GJ', 'en')).toBeNull();
  });

  it('should give the filled gaps as "id: text" and skip blank ones', () => {
    expect(answerText(fillInBlanks, { G1: 'hydrogen', G2: 'oxygen' }, 'en')).toBe('G1: hydrogen; G2: oxygen');
    expect(answerText(fillInBlanks, { G1: '  ', G2: 'oxygen' }, 'en')).toBe('G2: oxygen');
    expect(answerText(fillInBlanks, { G1: 5, G2: 'x' }, 'en')).toBe('G2: x');
  });

  it('should be null when no gap is filled', () => {
    expect(answerText(fillInBlanks, { G1: '', G2: ' ' }, 'en')).toBeNull();
    expect(answerText(fillInBlanks, {}, 'en')).toBeNull();
  });

  it('should give true/false, numeric, short text and essay answers as written', () => {
    expect(answerText(trueFalse, false, 'en')).toBe('false');
    expect(answerText(trueFalse, true, 'en')).toBe('true');
    expect(answerText(numeric, 0, 'en')).toBe('0');
    expect(answerText(numeric, 9.8, 'en')).toBe('9.8');
    expect(answerText(shortText, 'Paris', 'en')).toBe('Paris');
    expect(answerText(essay, 'Water evaporates.', 'en')).toBe('Water evaporates.');
  });
});

describe('keyText', () => {
  it('should give the key of every kind in the medium', () => {
    expect(keyText(singleChoice, 'en')).toBe('Mercury');
    expect(keyText(singleChoice, 'hi')).toBe('बुध');
    expect(keyText(multipleChoice, 'en')).toBe('2, 7');
    expect(keyText(trueFalse, 'en')).toBe('true');
    expect(keyText(numeric, 'en')).toBe('9.81');
    expect(keyText(shortText, 'en')).toBe('Paris / पेरिस');
    expect(keyText(fillInBlanks, 'en')).toBe('G1: hydrogen / हाइड्रोजन; G2: oxygen / ऑक्सीजन');
    expect(keyText(matching, 'en')).toBe('Gujarat → Gandhinagar; Maharashtra → Mumbai; Karnataka → Bengaluru');
    expect(keyText(ordering, 'en')).toBe('Atom → Molecule → Cell');
    expect(keyText(ordering, 'hi')).toBe('परमाणु → अणु → कोशिका');
  });

  it('should be null for an essay, which a person marks against the rubric', () => {
    expect(keyText(essay, 'en')).toBeNull();
  });
});
