import { describe, expect, it } from 'vitest';
import { normalizeError } from '#src/lib/normalize-error.ts';
import { displayInWords as inWords } from '#tests/src/support/english.ts';

const GENERIC = 'Something went wrong, Please try again later or contact Admin';
const NETWORK = "Error! Server can't be reached. Please try again later or contact server administrator!";

const errorBody = (statusCode: number, messages: string[], exception = 'TicketStatusException') => ({
  messages,
  source: 'tickets',
  exception,
  errorId: 'b2f6c1de-0f3e-4c55-9a49-6c1f2a6b7d10',
  supportMessage: 'Quote this error id to the support team.',
  statusCode,
});
const details = (statusCode: number) => ({
  errorId: 'b2f6c1de-0f3e-4c55-9a49-6c1f2a6b7d10',
  statusCode,
  supportMessage: 'Quote this error id to the support team.',
});

/** One row per sentence of spec §8 "Error display" (the rows after the first carry its inputs). */
const rows: Array<[sentence: string, input: unknown, expected: ReturnType<typeof inWords>]> = [
  [
    'Input: an array of strings is shown as lines',
    ['The e-mail is already registered.', 'The user name is taken.'],
    { title: null, lines: ['The e-mail is already registered.', 'The user name is taken.'], details: null },
  ],
  ['a non-empty string is shown as is', 'Ticket not found.', { title: null, lines: ['Ticket not found.'], details: null }],
  [
    'a blob response is parsed as JSON first',
    new Blob([JSON.stringify(errorBody(404, ['The document does not exist.']))], { type: 'application/json' }),
    { title: null, lines: ['The document does not exist.'], details: details(404) },
  ],
  [
    'Status 400 with an errors map: the title is shown and all messages are joined per field.',
    {
      type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
      title: 'One or more validation errors occurred.',
      status: 400,
      errors: { email: ['The email field is required.', 'email must be a valid e-mail address.'], title: ['The title field is required.'] },
      traceId: 'req-1',
    },
    {
      title: 'One or more validation errors occurred.',
      lines: ['The email field is required. email must be a valid e-mail address.', 'The title field is required.'],
      details: null,
    },
  ],
  ...[401, 403, 404, 409, 500].map(
    (status) =>
      [
        `Status ${status} (of 401, 403, 404, 409 or 500) with a messages list: messages are joined; expandable details show errorId, statusCode and supportMessage`,
        errorBody(status, ['The ticket is not open.', 'It is InProgress.']),
        { title: null, lines: ['The ticket is not open. It is InProgress.'], details: details(status) },
      ] as [string, unknown, ReturnType<typeof inWords>],
  ),
  [
    'Without messages, the exception text is used.',
    errorBody(409, [], 'The ticket was changed by someone else.'),
    { title: null, lines: ['The ticket was changed by someone else.'], details: details(409) },
  ],
  [
    'Response with hasError: if errorMessageDetails is present, the values of its first entry are joined under the errorMessage title;',
    {
      hasError: true,
      errorMessage: 'The upload has errors',
      errorMessageDetails: [
        { row: 'Row 4', problem: 'E-mail missing' },
        { row: 'Row 9', problem: 'Duplicate user' },
      ],
    },
    { title: 'The upload has errors', lines: ['Row 4, E-mail missing'], details: null },
  ],
  [
    'otherwise only errorMessage is shown.',
    { hasError: true, errorMessage: 'The upload has errors' },
    { title: null, lines: ['The upload has errors'], details: null },
  ],
  [
    'Any other response with title, exception or errorMessage: that text (title)',
    { title: 'Method Not Allowed', status: 405 },
    { title: null, lines: ['Method Not Allowed'], details: null },
  ],
  [
    'Any other response with title, exception or errorMessage: that text (exception)',
    { exception: 'Quota reached', statusCode: 429 },
    { title: null, lines: ['Quota reached'], details: null },
  ],
  [
    'Any other response with title, exception or errorMessage: that text (errorMessage)',
    { errorMessage: 'Export failed' },
    { title: null, lines: ['Export failed'], details: null },
  ],
  [
    "falling back to 'Something went wrong, Please try again later or contact Admin'.",
    { title: '', exception: null, statusCode: 422 },
    { title: null, lines: [GENERIC], details: null },
  ],
  [
    'A response with both statusCode and status, and a code other than a network error: nothing is shown.',
    { statusCode: 502, status: 'Bad Gateway', code: 'ERR_BAD_RESPONSE' },
    null,
  ],
  [
    'Otherwise: the network message above.',
    Object.assign(new Error('Network Error'), { code: 'ERR_NETWORK', isAxiosError: true }),
    { title: null, lines: [NETWORK], details: null },
  ],
];

describe('normalizeError', () => {
  it.each(rows)('should follow "%s"', async (_sentence, input, expected) => {
    expect(inWords(await normalizeError(input))).toEqual(expected);
  });

  it('should show the network message for a statusCode and status pair that is a network error', async () => {
    expect(inWords(await normalizeError({ statusCode: 0, status: 0, code: 'ERR_NETWORK' }))).toEqual({ title: null, lines: [NETWORK], details: null });
  });

  it('should show the network message for an empty string, an empty array and a blob that is not JSON', async () => {
    for (const input of ['', '   ', [], new Blob(['<html>Bad gateway</html>'])]) {
      expect(inWords(await normalizeError(input))).toEqual({ title: null, lines: [NETWORK], details: null });
    }
  });

  it('should take the generic message for hasError without an errorMessage', async () => {
    expect(inWords(await normalizeError({ hasError: true }))).toEqual({ title: null, lines: [GENERIC], details: null });
  });

  it('should read errorMessageDetails given as a map of field to messages', async () => {
    const display = await normalizeError({
      hasError: true,
      errorMessage: 'Invalid rows',
      errorMessageDetails: { email: ['Missing', 'Invalid'], name: ['Too long'] },
    });
    expect(inWords(display)).toEqual({ title: 'Invalid rows', lines: ['Missing, Invalid'], details: null });
  });
});
