import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serviceApi } from './http/api.ts';

export interface EmailCheckAnswer {
  email: string;
  isValid: boolean;
  /** Only to user administrators (Users.Create / Users.Update): no other user of the tenant has it. */
  isAvailable?: boolean;
  message: string;
}

/** User administration forms: ask with the caller's token, and whose address the edited one is. */
export interface AvailabilityCheck {
  userId?: string;
}

/** Spec §7 `POST /users/validateemail?email=`: public, so it works on the registration screen too. */
export const emailCheckApi = {
  validate: (email: string, availability?: AvailabilityCheck) =>
    serviceApi('userService').post<EmailCheckAnswer>(
      `/users/validateemail?email=${encodeURIComponent(email)}${availability?.userId ? `&userId=${encodeURIComponent(availability.userId)}` : ''}`,
      undefined,
      { anonymous: !availability, showErrors: false },
    ),
};

type Checked =
  | { email: string; status: 'checking' }
  | { email: string; status: 'valid' | 'invalid' | 'taken'; normalised: string; available?: boolean }
  | { email: string; status: 'unknown' };

/**
 * The server's verdict on an e-mail address while a form is filled in (issue 23): asked when the
 * field loses focus, not on every key (the call is rate-limited per address of the caller). The
 * server answers syntax and length only — never whether an account uses the address
 * (SECURITY.md, enumeration) — so the field says "accepted", not "available"; a taken address
 * still comes back from the save as a field error. The verdict holds only while the field still
 * has the text it was given for; a failed check says nothing (the save checks again).
 *
 * With `availability` (user administration forms, docs/decisions/0282) the call carries the
 * caller's token and the server also says whether another user of the tenant has the address:
 * "taken" is then the field's error before the save.
 */
export function useEmailCheck(current: string, availability?: AvailabilityCheck) {
  const { t } = useTranslation('ui');
  const [checked, setChecked] = useState<Checked | null>(null);
  const latest = useRef('');
  const ask = useRef(availability);
  useEffect(() => {
    ask.current = availability;
  });

  const check = useCallback(async (raw: string) => {
    const email = raw.trim();
    latest.current = email;
    if (!email) {
      setChecked(null);
      return;
    }
    setChecked({ email, status: 'checking' });
    try {
      const answer = await (ask.current ? emailCheckApi.validate(email, ask.current) : emailCheckApi.validate(email));
      const status = !answer.isValid ? 'invalid' : answer.isAvailable === false ? 'taken' : 'valid';
      if (latest.current === email) setChecked({ email, status, normalised: answer.email, available: answer.isAvailable });
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
          ? t(verdict.available ? 'emailCheck.availableAs' : 'emailCheck.validAs', { email: verdict.normalised })
          : t(verdict.available ? 'emailCheck.available' : 'emailCheck.valid')
        : null;
  const error = verdict?.status === 'invalid' ? t('emailCheck.invalid') : verdict?.status === 'taken' ? t('emailCheck.taken') : null;
  return { check, hint, error, status: verdict?.status ?? null };
}
