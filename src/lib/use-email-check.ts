import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serviceApi } from './http/api.ts';

export interface EmailCheckAnswer {
  email: string;
  isValid: boolean;
  message: string;
}

/** Spec §7 `POST /users/validateemail?email=`: public, so it works on the registration screen too. */
export const emailCheckApi = {
  validate: (email: string) =>
    serviceApi('userService').post<EmailCheckAnswer>(`/users/validateemail?email=${encodeURIComponent(email)}`, undefined, {
      anonymous: true,
      showErrors: false,
    }),
};

type Checked =
  { email: string; status: 'checking' } | { email: string; status: 'valid' | 'invalid'; normalised: string } | { email: string; status: 'unknown' };

/**
 * The server's verdict on an e-mail address while a form is filled in (issue 23): asked when the
 * field loses focus, not on every key (the call is rate-limited per address of the caller). The
 * server answers syntax and length only — never whether an account uses the address
 * (SECURITY.md, enumeration) — so the field says "accepted", not "available"; a taken address
 * still comes back from the save as a field error. The verdict holds only while the field still
 * has the text it was given for; a failed check says nothing (the save checks again).
 */
export function useEmailCheck(current: string) {
  const { t } = useTranslation('ui');
  const [checked, setChecked] = useState<Checked | null>(null);
  const latest = useRef('');

  const check = useCallback(async (raw: string) => {
    const email = raw.trim();
    latest.current = email;
    if (!email) {
      setChecked(null);
      return;
    }
    setChecked({ email, status: 'checking' });
    try {
      const answer = await emailCheckApi.validate(email);
      if (latest.current === email) setChecked({ email, status: answer.isValid ? 'valid' : 'invalid', normalised: answer.email });
    } catch {
      if (latest.current === email) setChecked({ email, status: 'unknown' });
    }
  }, []);

  const verdict = checked && checked.email === current.trim() ? checked : null;
  const hint =
    verdict?.status === 'checking'
      ? t('emailCheck.checking')
      : verdict?.status === 'valid'
        ? verdict.normalised !== verdict.email
          ? t('emailCheck.validAs', { email: verdict.normalised })
          : t('emailCheck.valid')
        : null;
  const error = verdict?.status === 'invalid' ? t('emailCheck.invalid') : null;
  return { check, hint, error, status: verdict?.status ?? null };
}
