import { serviceApi, type CallOptions } from '#src/lib/http/api.ts';

/**
 * Spec §7 "Passwords and e-mail" and self-registration, with the bodies the spec gives (and
 * `currentPassword` on change-password, docs/decisions/0030). The screens show failures
 * themselves, so no toast; links from e-mails carry the tenant, sent as the `tenant` header.
 */
const users = () => serviceApi('userService');
const anonymous = (tenant?: string | null): CallOptions => ({
  anonymous: true,
  showErrors: false,
  ...(tenant ? { headers: { tenant } } : {}),
});

export interface MessageAnswer {
  message: string;
}

export interface SelfRegistration {
  firstName: string;
  lastName: string;
  email: string;
  userName: string;
  password: string;
  confirmPassword: string;
  phoneNumber?: string;
  dateOfBirth?: string;
  redirectUrl?: string;
}

export const accountApi = {
  forgotPassword: (body: { email: string; redirectUrl?: string }, tenant?: string | null) =>
    users().post<MessageAnswer>('/users/forgot-password', body, anonymous(tenant)),
  resetPassword: (body: { email: string; password: string; token: string; isFirstTimeLogin: boolean }, tenant?: string | null) =>
    users().post<MessageAnswer>('/users/reset-password', body, anonymous(tenant)),
  changePassword: (userId: string, body: { currentPassword: string; newPassword: string; confirmNewPassword: string }) =>
    users().post<MessageAnswer & { token: string }>(`/users/change-password/?userId=${encodeURIComponent(userId)}`, body, { showErrors: false }),
  confirmEmail: (query: { tenant: string; userId: string; code: string }) =>
    users().get<MessageAnswer>(`/users/confirm-email?${new URLSearchParams(query).toString()}`, anonymous(query.tenant)),
  resendVerification: (body: { email: string; redirectUrl?: string }, tenant?: string | null) =>
    users().post<MessageAnswer>('/users/resend-verification', body, anonymous(tenant)),
  resendFirstTimeEmail: (body: { email: string; redirectUrl?: string }, tenant?: string | null) =>
    users().post<MessageAnswer>('/users/resendemailtofirsttime', body, anonymous(tenant)),
  selfRegister: (body: SelfRegistration, tenant?: string | null) => users().post<MessageAnswer>('/users/self-register', body, anonymous(tenant)),
};
