import type { ItemContent, ItemOf, Marking } from '#machines/items/item-schema.ts';

/** One item of each kind, in English and Hindi, with JEE-style +4 / −1 marking unless said otherwise. */
export const jee: Marking = { correct: 4, wrong: -1, unanswered: 0 };
export const unit: Marking = { correct: 1, wrong: 0, unanswered: 0 };

const opts = (...ids: string[]) => ids.map((id) => ({ id, keepLast: false }));

export const singleChoice: ItemOf<'singleChoice'> = {
  kind: 'singleChoice',
  variants: {
    en: { stem: '<p>Which planet is closest to the Sun?</p>', choices: { A: 'Mercury', B: 'Venus', C: 'Earth', D: 'None of these' } },
    hi: { stem: '<p>सूर्य के सबसे निकट कौन सा ग्रह है?</p>', choices: { A: 'बुध', B: 'शुक्र', C: 'पृथ्वी', D: 'इनमें से कोई नहीं' } },
  },
  marking: jee,
  media: [],
  options: [...opts('A', 'B', 'C'), { id: 'D', keepLast: true }],
  correct: 'A',
  shuffle: true,
};

export const multipleChoice: ItemOf<'multipleChoice'> = {
  kind: 'multipleChoice',
  variants: {
    en: { stem: '<p>Which of these are prime?</p>', choices: { A: '2', B: '4', C: '7', D: '9' } },
    hi: { stem: '<p>इनमें से कौन-सी अभाज्य संख्याएँ हैं?</p>', choices: { A: '२', B: '४', C: '७', D: '९' } },
  },
  marking: jee,
  media: [],
  options: opts('A', 'B', 'C', 'D'),
  correct: ['A', 'C'],
  minChoices: 0,
  maxChoices: 0,
  shuffle: true,
  partial: null,
};

export const trueFalse: ItemOf<'trueFalse'> = {
  kind: 'trueFalse',
  variants: { en: { stem: '<p>Water boils at 100 °C at sea level.</p>' }, hi: { stem: '<p>समुद्र तल पर पानी 100 °C पर उबलता है।</p>' } },
  marking: jee,
  media: [],
  correct: true,
};

export const numeric: ItemOf<'numeric'> = {
  kind: 'numeric',
  variants: { en: { stem: '<p>g on Earth in m/s²?</p>' }, hi: { stem: '<p>पृथ्वी पर g (m/s²)?</p>' } },
  marking: jee,
  media: [],
  answer: 9.81,
  tolerance: { mode: 'absolute', value: 0.05 },
};

export const shortText: ItemOf<'shortText'> = {
  kind: 'shortText',
  variants: { en: { stem: '<p>Capital of France?</p>' }, hi: { stem: '<p>फ्रांस की राजधानी?</p>' } },
  marking: jee,
  media: [],
  answers: [
    { text: 'Paris', caseSensitive: false, credit: 1 },
    { text: 'पेरिस', caseSensitive: true, credit: 1 },
  ],
  expectedLength: 20,
};

export const fillInBlanks: ItemOf<'fillInBlanks'> = {
  kind: 'fillInBlanks',
  variants: {
    en: { stem: '<p>H<sub>2</sub>O is made of <span data-gap="G1"></span> and <span data-gap="G2"></span>.</p>' },
    hi: { stem: '<p>H<sub>2</sub>O <span data-gap="G1"></span> और <span data-gap="G2"></span> से बना है।</p>' },
  },
  marking: jee,
  media: [],
  gaps: [
    {
      id: 'G1',
      answers: [
        { text: 'hydrogen', caseSensitive: false },
        { text: 'हाइड्रोजन', caseSensitive: true },
      ],
      expectedLength: 15,
    },
    {
      id: 'G2',
      answers: [
        { text: 'oxygen', caseSensitive: false },
        { text: 'ऑक्सीजन', caseSensitive: true },
      ],
      expectedLength: 15,
    },
  ],
  partial: null,
};

export const matching: ItemOf<'matching'> = {
  kind: 'matching',
  variants: {
    en: {
      stem: '<p>Match each state to its capital.</p>',
      choices: { GJ: 'Gujarat', MH: 'Maharashtra', KA: 'Karnataka', GAN: 'Gandhinagar', MUM: 'Mumbai', BLR: 'Bengaluru' },
    },
    hi: {
      stem: '<p>प्रत्येक राज्य को उसकी राजधानी से मिलाइए।</p>',
      choices: { GJ: 'गुजरात', MH: 'महाराष्ट्र', KA: 'कर्नाटक', GAN: 'गांधीनगर', MUM: 'मुंबई', BLR: 'बेंगलुरु' },
    },
  },
  marking: jee,
  media: [],
  left: opts('GJ', 'MH', 'KA'),
  right: opts('GAN', 'MUM', 'BLR'),
  pairs: [
    { left: 'GJ', right: 'GAN' },
    { left: 'MH', right: 'MUM' },
    { left: 'KA', right: 'BLR' },
  ],
  shuffle: true,
  partial: null,
};

export const ordering: ItemOf<'ordering'> = {
  kind: 'ordering',
  variants: {
    en: { stem: '<p>Order from smallest to largest.</p>', choices: { A: 'Atom', M: 'Molecule', C: 'Cell' } },
    hi: { stem: '<p>छोटे से बड़े के क्रम में लगाइए।</p>', choices: { A: 'परमाणु', M: 'अणु', C: 'कोशिका' } },
  },
  marking: jee,
  media: [],
  options: opts('C', 'A', 'M'),
  correctOrder: ['A', 'M', 'C'],
  shuffle: true,
};

export const essay: ItemOf<'essay'> = {
  kind: 'essay',
  variants: {
    en: { stem: '<p>Describe the water cycle.</p>', rubric: '<ul><li>Evaporation: 2</li><li>Condensation: 2</li></ul>' },
    hi: { stem: '<p>जल चक्र का वर्णन कीजिए।</p>', rubric: '<ul><li>वाष्पीकरण: 2</li><li>संघनन: 2</li></ul>' },
  },
  marking: { correct: 10, wrong: 0, unanswered: 0 },
  media: [],
  wordLimit: 150,
};

export const sampleItems: ItemContent[] = [singleChoice, multipleChoice, trueFalse, numeric, shortText, fillInBlanks, matching, ordering, essay];
