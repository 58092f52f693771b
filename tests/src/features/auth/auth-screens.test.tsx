import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ReactNode } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router-dom';
import { accessClaims, fakeJwt } from '#machines/auth-session.model.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { renderAt as renderScreen } from '#tests/src/support/render-at.tsx';

const session = vi.hoisted(() => ({
  requestCode: vi.fn(),
  resendCode: vi.fn(),
  verifyCode: vi.fn(),
  refreshTokens: vi.fn(),
  invalidateSession: vi.fn(),
  permissions: vi.fn(),
}));
const account = vi.hoisted(() => ({
  forgotPassword: vi.fn(),
  resetPassword: vi.fn(),
  changePassword: vi.fn(),
  confirmEmail: vi.fn(),
  resendVerification: vi.fn(),
  resendFirstTimeEmail: vi.fn(),
  selfRegister: vi.fn(),
}));
vi.mock('#src/app/auth/session-api.ts', () => ({ sessionApi: session }));
vi.mock('#src/features/auth/api/account-api.ts', () => ({ accountApi: account }));

const { default: SignInPage } = await import('#src/features/auth/sign-in-page.tsx');
const { default: ForgotPasswordPage } = await import('#src/features/auth/forgot-password-page.tsx');
const { default: ResetPasswordPage } = await import('#src/features/auth/reset-password-page.tsx');
const { default: FirstLoginPage } = await import('#src/features/auth/first-login-page.tsx');
const { default: ConfirmEmailPage } = await import('#src/features/auth/confirm-email-page.tsx');
const { default: RegisterPage } = await import('#src/features/auth/register-page.tsx');
const { emailCheckApi } = await import('#src/lib/use-email-check.ts');
const { default: ChangePasswordPage } = await import('#src/features/auth/change-password-page.tsx');
const { RequireSession } = await import('#src/app/auth/require-session.tsx');
const { loadAuthSession, rememberRedirect } = await import('#src/app/auth/auth-session-loader.ts');
const { authUserStore } = await import('#src/app/auth/auth-user-store.ts');
const { userPermissionsStore } = await import('#src/app/stores/slices.ts');

const future = () => new Date(Date.now() + 86_400_000).toISOString();
const pair = (jti: string) => ({
  token: fakeJwt(accessClaims({ jti, exp: Math.floor(Date.now() / 1000) + 900 })),
  refreshToken: `refresh-${jti}`,
  refreshTokenExpiryTime: future(),
});
const refused = (statusCode: number, reason: string, extra: Record<string, unknown> = {}) => ({ messages: ['x'], statusCode, reason, ...extra });

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['auth', 'ui', 'errors']);
});

afterEach(async () => {
  vi.clearAllMocks();
  (await loadAuthSession()).authSession.send({ type: 'session.reset' });
  await waitFor(() => expect(authUserStore.getSnapshot().context.refreshToken).toBeNull());
});

const renderAt = (path: string, routes: ReactNode) => renderScreen(path, <Routes>{routes}</Routes>);

async function signIn(user: ReturnType<typeof userEvent.setup>, password = 'lantern orbit velvet 42') {
  await user.type(await screen.findByLabelText(/E-mail address/), 'asha.patel@example.com');
  await user.type(screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole('button', { name: 'Continue' }));
}

describe('sign in', () => {
  it('should say what is missing before sending anything', async () => {
    const { user } = renderAt('/login', <Route path="/login" element={<SignInPage />} />);
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    expect(screen.getByText('Enter your e-mail address.')).toBeTruthy();
    expect(screen.getByText('Enter your password.')).toBeTruthy();
    await user.type(screen.getByLabelText(/E-mail address/), 'not-an-address');
    expect(screen.getByText('Enter a valid e-mail address, like name@example.com.')).toBeTruthy();
    expect(session.requestCode).not.toHaveBeenCalled();
  });

  it('should show the generic error for a refused password and stay on the first step', async () => {
    session.requestCode.mockRejectedValue(refused(401, 'invalidCredentials'));
    const { user } = renderAt('/login', <Route path="/login" element={<SignInPage />} />);
    await signIn(user, 'wrong password');
    expect((await screen.findByRole('alert')).textContent).toBe('The e-mail address or password is incorrect.');
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
  });

  it('should take the code, say how many tries are left after a wrong one, then go to the remembered page with the permissions loaded', async () => {
    session.requestCode.mockResolvedValue({ token: 'challenge-1', otpExpiresAt: future(), resendAfterSeconds: 30 });
    session.verifyCode.mockRejectedValueOnce(refused(401, 'codeWrong', { remainingAttempts: 3 })).mockResolvedValueOnce(pair('a'));
    session.permissions.mockResolvedValue(['Permissions.SupportTickets.View']);
    rememberRedirect('/tickets?status=open');
    const { user, location } = renderAt(
      '/login',
      <>
        <Route path="/login" element={<SignInPage />} />
        <Route path="/tickets" element={<h1>Tickets page</h1>} />
      </>,
    );
    await signIn(user);
    await screen.findByRole('heading', { level: 1, name: 'Enter your code' });
    expect(screen.getByText(/We sent a 6-digit code to asha.patel@example.com/)).toBeTruthy();
    const resend = screen.getByRole('button', { name: /Send a new code in \d+ seconds/ }) as HTMLButtonElement;
    expect(resend.disabled).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('Enter the 6 digits of the code.')).toBeTruthy();
    // Six boxes, one per digit; a pasted code fills them all and is sent at once.
    const boxes = screen.getAllByRole('textbox', { name: /^Code, digit \d of 6$/ });
    expect(boxes).toHaveLength(6);
    await user.click(boxes[0]!);
    await user.paste('111111');
    expect((await screen.findByRole('alert')).textContent).toBe('That code is not right. 3 tries left.');
    expect(session.verifyCode).toHaveBeenCalledWith({ email: 'asha.patel@example.com', enteredOTP: '111111', token: 'challenge-1' });
    // The refused code is gone, the first box has the focus, and the fresh field shows no format error.
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Code, digit 1 of 6' })).toHaveFocus());
    for (const box of screen.getAllByRole('textbox', { name: /^Code, digit/ })) expect(box).toHaveValue('');
    expect(screen.queryByText('Enter the 6 digits of the code.')).toBeNull();

    await user.paste('042917');
    await screen.findByRole('heading', { name: 'Tickets page' });
    expect(session.verifyCode).toHaveBeenCalledTimes(2);
    expect(location.current()).toBe('/tickets?status=open');
    await waitFor(() => expect(userPermissionsStore.getSnapshot().context.permissions).toEqual(['Permissions.SupportTickets.View']));
    expect(authUserStore.getSnapshot().context).toMatchObject({ isLoggedIn: true, redirectUrl: null });
  });

  it('should offer a resend once the cooldown is over and go back to the first step on request', async () => {
    session.requestCode.mockResolvedValue({ token: 'challenge-1', otpExpiresAt: future(), resendAfterSeconds: 1 });
    session.resendCode.mockResolvedValue({ token: 'challenge-2', otpExpiresAt: future(), resendAfterSeconds: 1 });
    const { user } = renderAt('/login', <Route path="/login" element={<SignInPage />} />);
    await signIn(user);
    const resend = await screen.findByRole('button', { name: 'Send a new code' }, { timeout: 3000 });
    await user.click(resend);
    await screen.findByText('A new code is on its way. The previous one no longer works.');
    expect(session.resendCode).toHaveBeenCalledWith({ email: 'asha.patel@example.com', password: 'lantern orbit velvet 42' });
    await user.click(screen.getByRole('button', { name: 'Use another account' }));
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
  });
});

describe('protected routes', () => {
  it('should send a visitor without a session to /login and remember the page', async () => {
    const Page = () => (
      <RequireSession>
        <h1>Support desk</h1>
      </RequireSession>
    );
    const { location } = renderAt(
      '/support?group=2',
      <>
        <Route path="/support" element={<Page />} />
        <Route path="/login" element={<h1>Login here</h1>} />
      </>,
    );
    await screen.findByRole('heading', { name: 'Login here' });
    expect(location.current()).toBe('/login');
    expect(authUserStore.getSnapshot().context.redirectUrl).toBe('/support?group=2');
    expect(screen.queryByRole('heading', { name: 'Support desk' })).toBeNull();
  });
});

describe('forgot password', () => {
  it('should check the address, send it with the link tenant and say a link is on its way', async () => {
    account.forgotPassword.mockResolvedValue({ message: 'ok' });
    const { user } = renderAt(
      '/forgot-password?tenant=acme&email=asha.patel%40example.com',
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />,
    );
    const email = (await screen.findByLabelText(/E-mail address/)) as HTMLInputElement;
    expect(email.value).toBe('asha.patel@example.com');
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    await screen.findByText(/If an account uses asha.patel@example.com, a link to reset its password is on its way/);
    expect(account.forgotPassword).toHaveBeenCalledWith({ email: 'asha.patel@example.com', redirectUrl: '/login' }, 'acme');
  });

  it('should show a failure', async () => {
    account.forgotPassword.mockRejectedValue(refused(429, 'rateLimited'));
    const { user } = renderAt('/forgot-password', <Route path="/forgot-password" element={<ForgotPasswordPage />} />);
    await user.type(await screen.findByLabelText(/E-mail address/), 'asha.patel@example.com');
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Too many attempts. Wait a moment and try again.');
  });
});

describe('reset password and first-time login', () => {
  const link = '?tenant=root&email=asha.patel%40example.com&token=tok-123';

  it('should refuse an incomplete link', async () => {
    renderAt('/reset-password?email=a%40b.c', <Route path="/reset-password" element={<ResetPasswordPage />} />);
    expect((await screen.findByRole('alert')).textContent).toBe('This link is incomplete. Open the link from the e-mail again, or ask for a new one.');
  });

  it('should check length and confirmation, show the server’s reason under the field, then save', async () => {
    account.resetPassword
      .mockRejectedValueOnce({ title: 'One or more validation errors occurred.', status: 400, errors: { password: ['This password is too common.'] } })
      .mockResolvedValueOnce({ message: 'ok' });
    const { user } = renderAt(`/reset-password${link}`, <Route path="/reset-password" element={<ResetPasswordPage />} />);
    await user.type(await screen.findByLabelText(/^New password/), 'short');
    await user.click(screen.getByRole('button', { name: 'Save the password' }));
    expect(screen.getByText('The password needs at least 12 characters.')).toBeTruthy();
    await user.clear(screen.getByLabelText(/^New password/));
    await user.type(screen.getByLabelText(/^New password/), 'password1234');
    await user.type(screen.getByLabelText(/^Confirm the password/), 'password12345');
    expect(screen.getByText('The two passwords are not the same.')).toBeTruthy();
    await user.clear(screen.getByLabelText(/^Confirm the password/));
    await user.type(screen.getByLabelText(/^Confirm the password/), 'password1234');
    await user.click(screen.getByRole('button', { name: 'Save the password' }));
    await screen.findByText('This password is too common.');
    expect(account.resetPassword).toHaveBeenCalledWith(
      { email: 'asha.patel@example.com', password: 'password1234', token: 'tok-123', isFirstTimeLogin: false },
      'root',
    );
    await user.click(screen.getByRole('button', { name: 'Save the password' }));
    await screen.findByText('Your password has been changed. Sign in with it now.');
    expect((screen.getByRole('link', { name: 'Go to sign in' }) as HTMLAnchorElement).getAttribute('href')).toBe('/login?email=asha.patel%40example.com');
  });

  it('should set the first password from an invitation with isFirstTimeLogin', async () => {
    account.resetPassword.mockResolvedValue({ message: 'ok' });
    const { user } = renderAt(`/first-login${link}`, <Route path="/first-login" element={<FirstLoginPage />} />);
    await screen.findByRole('heading', { level: 1, name: 'Set your password' });
    await user.type(screen.getByLabelText(/^New password/), 'amber harbour quietly');
    await user.type(screen.getByLabelText(/^Confirm the password/), 'amber harbour quietly');
    await user.click(screen.getByRole('button', { name: 'Set the password' }));
    await screen.findByText('Your password is set. Sign in with it now.');
    expect(account.resetPassword).toHaveBeenCalledWith(expect.objectContaining({ isFirstTimeLogin: true, token: 'tok-123' }), 'root');
  });
});

describe('an invitation link that no longer works', () => {
  it('should say so and send a new invitation link on request', async () => {
    account.resetPassword.mockRejectedValue(refused(400, 'invalidToken'));
    account.resendFirstTimeEmail.mockResolvedValue({ message: 'ok' });
    const { user } = renderAt('/first-login?tenant=root&email=asha.patel%40example.com&token=old', <Route path="/first-login" element={<FirstLoginPage />} />);
    await user.type(await screen.findByLabelText(/^New password/), 'amber harbour quietly');
    await user.type(screen.getByLabelText(/^Confirm the password/), 'amber harbour quietly');
    await user.click(screen.getByRole('button', { name: 'Set the password' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This link is not valid any more. Ask for a new one.');
    await user.click(screen.getByRole('button', { name: 'Send me a new link' }));
    await screen.findByText('A new link is on its way to asha.patel@example.com if the invitation still waits for a password.');
    expect(account.resendFirstTimeEmail).toHaveBeenCalledWith({ email: 'asha.patel@example.com', redirectUrl: '/login' }, 'root');
  });
});

describe('confirm e-mail', () => {
  it('should confirm with the link’s query, once, and say so', async () => {
    account.confirmEmail.mockResolvedValue({ message: 'ok' });
    renderAt('/confirm-email?tenant=root&userId=u-1&code=c-1', <Route path="/confirm-email" element={<ConfirmEmailPage />} />);
    await screen.findByText('Your e-mail address is confirmed. You can sign in now.');
    expect(account.confirmEmail).toHaveBeenCalledTimes(1);
    expect(account.confirmEmail).toHaveBeenCalledWith({ tenant: 'root', userId: 'u-1', code: 'c-1' });
  });

  it('should say when the link does not work any more', async () => {
    account.confirmEmail.mockRejectedValue(refused(400, 'invalidToken'));
    renderAt('/confirm-email?tenant=root&userId=u-2&code=c-2', <Route path="/confirm-email" element={<ConfirmEmailPage />} />);
    expect((await screen.findByRole('alert')).textContent).toMatch(/This confirmation link is not valid any more/);
  });
});

describe('self-registration', () => {
  beforeEach(() => {
    // POST /users/validateemail (spec §7): syntax and length only, lower-cased.
    vi.spyOn(emailCheckApi, 'validate').mockImplementation(async (email: string) => ({
      email: email.toLowerCase(),
      isValid: /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email),
      message: '',
    }));
  });

  it("should give the server's verdict on the address as soon as the field is left (issue 23)", async () => {
    const { user } = renderAt('/register', <Route path="/register" element={<RegisterPage />} />);
    const email = await screen.findByLabelText(/^E-mail address/);
    await user.type(email, 'asha@patel');
    await user.tab();
    expect(await screen.findByText('This is not a valid e-mail address.')).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    await user.clear(email);
    await user.type(email, 'asha.patel@example.com');
    await user.tab();
    expect(await screen.findByText('The address is accepted.')).toBeInTheDocument();
    expect(email).not.toHaveAttribute('aria-invalid', 'true');
    expect(emailCheckApi.validate).toHaveBeenCalledTimes(2);
    expect(account.selfRegister).not.toHaveBeenCalled();
  });

  it('should check the form, show the server’s field errors, then confirm the mail is sent', async () => {
    account.selfRegister
      .mockRejectedValueOnce({ status: 400, title: 'One or more validation errors occurred.', errors: { userName: ['This user name is already taken.'] } })
      .mockResolvedValueOnce({ message: 'ok' });
    const { user } = renderAt('/register', <Route path="/register" element={<RegisterPage />} />);
    await user.click(await screen.findByRole('button', { name: 'Create the account' }));
    expect(screen.getAllByText('This field is required.')).toHaveLength(2);
    await user.type(screen.getByLabelText(/^First name/), 'Asha');
    await user.type(screen.getByLabelText(/^Last name/), 'Patel');
    await user.type(screen.getByLabelText(/^E-mail address/), 'asha.patel@example.com');
    await user.type(screen.getByLabelText(/^User name/), 'asha.patel');
    await user.type(screen.getByLabelText(/^Password/), 'lantern orbit velvet 42');
    await user.type(screen.getByLabelText(/^Confirm the password/), 'lantern orbit velvet 42');
    await user.click(screen.getByRole('button', { name: 'Create the account' }));
    await screen.findByText('This user name is already taken.');
    expect(account.selfRegister).toHaveBeenCalledWith(
      {
        firstName: 'Asha',
        lastName: 'Patel',
        email: 'asha.patel@example.com',
        userName: 'asha.patel',
        password: 'lantern orbit velvet 42',
        confirmPassword: 'lantern orbit velvet 42',
        redirectUrl: '/login',
      },
      null,
    );
    await user.click(screen.getByRole('button', { name: 'Create the account' }));
    await screen.findByText(/we sent a confirmation link to asha.patel@example.com/);
  });
});

describe('change password', () => {
  it('should need the current password, then take the new access token into the session', async () => {
    const first = pair('b');
    (await loadAuthSession()).authSession.send({ type: 'session.synced', session: first });
    const replaced = fakeJwt(accessClaims({ jti: 'after-change', exp: Math.floor(Date.now() / 1000) + 900 }));
    account.changePassword.mockResolvedValue({ message: 'Password changed.', token: replaced });
    const { user } = renderAt('/change-password', <Route path="/change-password" element={<ChangePasswordPage />} />);
    await user.click(await screen.findByRole('button', { name: 'Change password' }));
    expect(screen.getByText('Enter your password.')).toBeTruthy();
    await user.type(screen.getByLabelText(/^Current password/), 'lantern orbit velvet 42');
    await user.type(screen.getByLabelText(/^New password/), 'copper lantern drifting 58');
    await user.type(screen.getByLabelText(/^Confirm the new password/), 'copper lantern drifting 58');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await screen.findByText('Your password has been changed. Other sessions have been signed out.');
    expect(account.changePassword).toHaveBeenCalledWith('7f1c4a52-0d7e-4c8e-9a51-3f2b6c1d9e01', {
      currentPassword: 'lantern orbit velvet 42',
      newPassword: 'copper lantern drifting 58',
      confirmNewPassword: 'copper lantern drifting 58',
    });
    expect(authUserStore.getSnapshot().context).toMatchObject({ token: replaced, refreshToken: first.refreshToken });
  });
});

describe('sign in with an unconfirmed e-mail address', () => {
  it('should offer a new confirmation link and say it is on its way', async () => {
    session.requestCode.mockRejectedValue(refused(403, 'emailNotConfirmed'));
    account.resendVerification.mockResolvedValue({ message: 'ok' });
    const { user } = renderAt('/login', <Route path="/login" element={<SignInPage />} />);
    await signIn(user);
    expect((await screen.findByRole('alert')).textContent).toBe('Confirm your e-mail address first: open the link we sent you.');
    await user.click(screen.getByRole('button', { name: 'Send a new confirmation link' }));
    await screen.findByText('If the account needs it, a new confirmation link is on its way to asha.patel@example.com.');
    expect(account.resendVerification).toHaveBeenCalledWith({ email: 'asha.patel@example.com', redirectUrl: '/login' });
  });
});
