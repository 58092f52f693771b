import { describe, expect, it } from 'vitest';
import { failedCallSubject, isNoRetryCall, isRefreshCall, rejectionValue } from '#src/lib/http/failed-call.ts';

describe('isNoRetryCall', () => {
  it.each([
    ['/tokens', true],
    ['tokens', true],
    ['/tokens/', true],
    ['/tokens/verifyotp', true],
    ['/tokens/resendotp', true],
    ['/tokens/refresh', true],
    ['/TOKENS/Refresh?x=1', true],
    ['/users/4f1c/invalidatepermission', true],
    ['/api/tokens', true],
    ['/tokens/other', false],
    ['/users/4f1c', false],
    ['/users/search', false],
    ['/v1/supportticket?ticketId=3', false],
    [undefined, false],
  ])('should say %s is %s', (url, expected) => {
    expect(isNoRetryCall(url)).toBe(expected);
  });

  it('should recognise only the refresh call as the refresh call', () => {
    expect([isRefreshCall('/tokens/refresh'), isRefreshCall('/tokens'), isRefreshCall('/tokens/verifyotp')]).toEqual([true, false, false]);
  });
});

describe('failedCallSubject', () => {
  const invalid = { catalogue: 'invalidEndpoint' };
  const generic = { catalogue: 'generic' };
  const serverError = { messages: ['Boom'], exception: 'X', errorId: 'e1', supportMessage: 's', statusCode: 500 };

  it.each([
    ['400 with a plain message: the body', 400, 'Bad e-mail.', 'Bad e-mail.'],
    [
      '400 with an errors map: the whole body, for its title and every message',
      400,
      { title: 'One or more validation errors occurred.', errors: { a: ['x'] } },
      { title: 'One or more validation errors occurred.', status: 400, errors: { a: ['x'] } },
    ],
    [
      '400 with a title and an empty errors map: the title',
      400,
      { title: 'One or more validation errors occurred.', status: 400, errors: { a: [] } },
      'One or more validation errors occurred.',
    ],
    ['400 with a title only: the title', 400, { title: 'Bad request.' }, 'Bad request.'],
    ['400 without either: invalid end point', 400, { detail: 'x' }, invalid],
    ['400 with an empty body: invalid end point', 400, '', invalid],
    ['400 with a blob body that was not JSON: invalid end point', 400, undefined, invalid],
    ['404 with a body: the body', 404, serverError, serverError],
    ['404 with a message: the message', 404, 'No such user.', 'No such user.'],
    ['404 without a body: invalid end point', 404, '', invalid],
    ['405 with a title: the title', 405, { title: 'Method Not Allowed' }, 'Method Not Allowed'],
    ['405 without a title: generic', 405, 'nope', generic],
    ['415 with a title: the title', 415, { title: 'Unsupported Media Type' }, 'Unsupported Media Type'],
    ['415 without a title: generic', 415, undefined, generic],
    ['403 with a body: the body', 403, serverError, serverError],
    ['403 without a body: generic', 403, null, generic],
    ['409 with a body: the body', 409, { exception: 'Changed by someone else' }, { exception: 'Changed by someone else' }],
    ['409 without a body: generic', 409, '', generic],
    ['500 with a body: the body', 500, serverError, serverError],
    ['500 without a body: generic', 500, undefined, generic],
    ['401: nothing', 401, serverError, null],
    ['429: nothing', 429, serverError, null],
    ['502: nothing', 502, 'Bad gateway', null],
  ])('should show for %s', (_case, status, body, expected) => {
    expect(failedCallSubject(status as number, body)).toEqual(expected);
  });
});

describe('rejectionValue', () => {
  it('should be the body when there is one, else the error', () => {
    const error = new Error('Request failed');
    expect(rejectionValue({ messages: ['x'] }, error)).toEqual({ messages: ['x'] });
    expect(rejectionValue('text', error)).toBe('text');
    expect(rejectionValue('', error)).toBe(error);
    expect(rejectionValue(undefined, error)).toBe(error);
  });
});
