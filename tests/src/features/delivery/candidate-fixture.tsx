import { render } from '@testing-library/react';
import { Suspense, type ComponentType } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Route, Routes } from 'react-router-dom';
import type { Delivery, DeliveryItem, Timing } from '#src/features/delivery/api/delivery-api.ts';
import { i18n } from '#src/i18n/i18n.ts';
import { testRouter } from '#tests/src/support/test-router.tsx';

/**
 * The test data the candidate screen's suites share: the delivery the server sends, its timing,
 * and the screen mounted at /sit/41. Each suite mocks the delivery API itself (`vi.mock` is
 * hoisted per file) and passes the page it imported after the mock.
 */
export const MIN = 60_000;
export const DELIVERY_ID = 41;

export interface ChoiceItemOptions {
  /** The English stem; `Question n` unless given. */
  stem?: string;
  /** Adds a Hindi variant (`हिंदी n`), for the language switch. */
  withHindi?: boolean;
  /** The option order the server chose for this candidate. */
  options?: string[];
  shuffle?: boolean;
}

/** A one-mark single-choice item with options a (Alpha) and b (Beta). */
export function choiceItem(
  n: number,
  { stem = `Question ${n}`, withHindi = false, options = ['a', 'b'], shuffle = false }: ChoiceItemOptions = {},
): DeliveryItem {
  return {
    number: n,
    versionId: `v${n}`,
    kind: 'singleChoice',
    marks: 1,
    options,
    left: null,
    right: null,
    content: {
      kind: 'singleChoice' as const,
      variants: {
        en: { stem: `<p>${stem}</p>`, choices: { a: 'Alpha', b: 'Beta' } },
        ...(withHindi ? { hi: { stem: `<p>हिंदी ${n}</p>`, choices: { a: 'अ', b: 'ब' } } } : {}),
      },
      marking: { correct: 1, wrong: 0, unanswered: 0 },
      media: [],
      options: [
        { id: 'a', keepLast: false },
        { id: 'b', keepLast: false },
      ],
      correct: '',
      shuffle,
    },
  };
}

/**
 * What the server says of the delivery now: by default running, 30 minutes of 60 left.
 * `skewMs` puts the server's clock that far ahead of the browser's.
 */
export function serverTiming(over: Partial<Timing> = {}, skewMs = 0): Timing {
  const serverNow = Date.now() + skewMs;
  return {
    status: 'Active',
    serverNow: new Date(serverNow).toISOString(),
    startsAt: new Date(serverNow - 5 * MIN).toISOString(),
    deadline: new Date(serverNow + 30 * MIN).toISOString(),
    remainingMs: 30 * MIN,
    allowedMs: 60 * MIN,
    extensionMs: 0,
    admitted: false,
    declared: true,
    endedAt: null,
    ...over,
  };
}

/** Kavya Shah's delivery of the MATH paper, free navigation, English only, two items in one section. */
export function candidateDelivery(over: Partial<Delivery> = {}): Delivery {
  return {
    deliveryId: DELIVERY_ID,
    registrationId: 3,
    seasonPaperId: 5,
    rollNumber: 'MOCK0001',
    candidateName: 'Kavya Shah',
    paper: { code: 'MATH', title: 'Paths', durationMinutes: 60, totalMarks: 2, calculator: false, navigation: 'free', instructions: { en: 'Answer all.' } },
    medium: 'en',
    largePrint: false,
    languages: ['en'],
    setLetter: 'A',
    timing: serverTiming(),
    sections: [{ sectionId: '1', title: 'Section A', instructions: {}, items: [choiceItem(1), choiceItem(2)] }],
    answers: [],
    actions: ['delivery.save', 'delivery.submit'],
    ...over,
  };
}

/** Mounts `page` (the delivery page, imported after the suite's API mock) at /sit/41. */
export function renderCandidateScreen(Page: ComponentType) {
  const location = testRouter(`/sit/${DELIVERY_ID}`);
  render(
    <I18nextProvider i18n={i18n}>
      <location.Router>
        <Suspense fallback={null}>
          <Routes>
            <Route path="/sit/:deliveryId" element={<Page />} />
          </Routes>
        </Suspense>
      </location.Router>
    </I18nextProvider>,
  );
}
