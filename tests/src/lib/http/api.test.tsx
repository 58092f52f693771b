import { act, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NotificationsHost } from '#src/app/notifications/notifications-host.tsx';
import { notify } from '#src/app/notifications/notify.ts';
import { localizationStore } from '#src/app/stores/localization-store.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { configureHttpAuth, getHttpClient, serviceApi } from '#src/lib/http/api.ts';
import { bannerStore } from '#src/lib/http/banner-store.ts';
import { fakeServer, lowerKeys, type FakeHandler } from './support/fake-server.ts';

beforeAll(async () => {
  await initI18n('en-US');
});
afterEach(async () => {
  configureHttpAuth(null);
  localizationStore.trigger.reset();
  await act(() => notify.clear());
});

/** Points every service client of the app at a fake server. */
async function serve(handler: FakeHandler) {
  const server = fakeServer(handler);
  for (const service of ['userService', 'examService'] as const) (await getHttpClient(service)).defaults.adapter = server.adapter;
  return server;
}

describe('the app HTTP layer', () => {
  it('should load axios on first use and resolve a call with the body', async () => {
    const server = await serve(() => ({ status: 200, data: { id: 7, userName: 'asha' } }));
    configureHttpAuth({ getAccessToken: () => 'access-1', refreshSession: async () => 'access-2', onSessionExpired: () => {} });
    localizationStore.trigger.update({ i18n: 'gu' });
    await expect(serviceApi('userService').get('/users/7')).resolves.toEqual({ id: 7, userName: 'asha' });
    expect(lowerKeys(server.seen[0].headers)).toMatchObject({ authorization: 'Bearer access-1', 'accept-language': 'gu' });
  });

  it('should send accept-language en-US when the localization slice holds none', async () => {
    const server = await serve(() => ({ status: 200, data: {} }));
    await serviceApi('userService').post('/users/forgot-password', { email: 'a@b.c', redirectUrl: 'http://x/reset' }, { anonymous: true });
    expect(lowerKeys(server.seen[0].headers)).toMatchObject({ tenant: 'root', 'accept-language': 'en-US' });
  });

  it('should show a failed call in the red error toast and reject with its body', async () => {
    render(
      <I18nextProvider i18n={i18n}>
        <NotificationsHost />
      </I18nextProvider>,
    );
    await serve(() => ({ status: 404, data: '' }));
    await act(async () => {
      const rejected = await serviceApi('examService')
        .get('/exams/9')
        .catch((e: unknown) => e);
      expect(rejected).toBeInstanceOf(Error);
    });
    expect(await screen.findByText('Invalid end point, Please try again later or contact Admin')).toBeInTheDocument();
    expect(screen.getByTestId('error-toast')).toBeInTheDocument();
  });

  it('should raise the banner after a 401 with a body that no refresh cures', async () => {
    await serve(() => ({ status: 401, data: { messages: ['Authentication failed.'], statusCode: 401 } }));
    await serviceApi('userService')
      .get('/users/7')
      .catch(() => {});
    expect(bannerStore.getSnapshot().context.message).toBe('technicalDifficulties');
    await serve(() => ({ status: 200, data: {} }));
    await serviceApi('userService').get('/users/7');
    expect(bannerStore.getSnapshot().context.message).toBeNull();
  });
});
