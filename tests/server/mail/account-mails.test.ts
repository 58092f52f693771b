import { describe, expect, it } from 'vitest';
import { supportedLocales } from '#server/config.ts';
import { accountMail, mailCatalogs, type AccountMailData, type AccountMailKind } from '#server/mail/account-mails.ts';
import { acceptedLanguages, pickMailLanguage } from '#server/mail/mail-language.ts';
import { clientLink, clientRoutes, sameOriginPath } from '#server/mail/mail-links.ts';

const link = 'https://portal.example/reset-password?tenant=root&email=a%40b.test&token=abc_DEF-123';
const samples: { [K in AccountMailKind]: AccountMailData[K] } = {
  signInCode: { code: '042917', minutes: 10 },
  confirmEmail: { link, hours: 24 },
  resetPassword: { link, minutes: 30 },
  invitation: { link, hours: 72 },
  accountExists: { signInLink: 'https://portal.example/login?tenant=root', forgotPasswordLink: link },
  passwordChanged: { forgotPasswordLink: link },
};
const kinds = Object.keys(samples) as AccountMailKind[];

describe('account mails', () => {
  it('should write every mail in every supported language as HTML and text with the same content', () => {
    for (const language of supportedLocales) {
      for (const kind of kinds) {
        const mail = accountMail(kind, language, { email: 'a@b.test', name: 'Asha' }, samples[kind] as never);
        expect(mail.to).toBe('a@b.test');
        expect(mail.subject).toBe(mailCatalogs[language][kind].subject);
        expect(mail.html).toContain(`<html lang="${language}" dir="ltr">`);
        expect(mail.html).toContain(`<title>${mail.subject}</title>`.replace(/'/g, '&#39;'));
        expect(mail.text.startsWith(mailCatalogs[language].greeting('Asha'))).toBe(true);
        expect(mail.text).toContain(mailCatalogs[language].automated);
        if (kind === 'signInCode') {
          expect(mail.text).toContain(`: 042917\n`);
          expect(mail.html).toContain('>042917</p>');
        } else {
          expect(mail.text).toContain(link);
          expect(mail.html).toContain(`href="${link.replace(/&/g, '&#38;')}"`);
        }
      }
    }
  });

  it('should be really translated: no two languages share a subject or an introduction, except en-IN and en-US subjects', () => {
    for (const kind of kinds) {
      const intros = supportedLocales.map((language) => mailCatalogs[language][kind].intro);
      expect(new Set(intros).size).toBe(supportedLocales.length);
      const subjects = supportedLocales.filter((l) => l !== 'en-US').map((language) => mailCatalogs[language][kind].subject);
      expect(new Set(subjects).size).toBe(supportedLocales.length - 1);
    }
    expect(mailCatalogs.hi.signInCode.intro).toMatch(/[\u0900-\u097F]/);
    expect(mailCatalogs.gu.signInCode.intro).toMatch(/[\u0A80-\u0AFF]/);
  });

  it('should escape what it did not write in the HTML', () => {
    const mail = accountMail('signInCode', 'en-IN', { email: 'a@b.test', name: '<img src=x onerror=alert(1)>' }, samples.signInCode);
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&#60;img src=x onerror=alert(1)&#62;');
  });

  it('should greet without a name when the account has none', () => {
    const mail = accountMail('resetPassword', 'es', { email: 'a@b.test', name: ' ' }, samples.resetPassword);
    expect(mail.text.startsWith('Hola:\n')).toBe(true);
  });
});

describe('mail language', () => {
  it('should prefer the saved language, then Accept-Language in order of weight, then en-IN', () => {
    expect(pickMailLanguage('gu', 'fr')).toBe('gu');
    expect(pickMailLanguage(null, 'de-DE, fr-CA;q=0.8, hi;q=0.9')).toBe('hi');
    expect(pickMailLanguage(null, 'en-US,en;q=0.9')).toBe('en-US');
    expect(pickMailLanguage(null, 'en-GB')).toBe('en-IN');
    expect(pickMailLanguage('klingon', 'es-MX;q=0.5, *;q=0.1')).toBe('es');
    expect(pickMailLanguage(null, 'fr;q=0, de')).toBe('en-IN');
    expect(pickMailLanguage(null, undefined)).toBe('en-IN');
  });

  it('should order Accept-Language entries by weight and keep the header order for equal weights', () => {
    expect(acceptedLanguages('a;q=0.5, b, c;q=0.9, d')).toEqual(['b', 'd', 'c', 'a']);
  });
});

describe('mail links', () => {
  it('should build links on PUBLIC_URL, keeping a path prefix and encoding every parameter', () => {
    expect(clientLink('https://portal.example/exam', clientRoutes.confirmEmail, { tenant: 'root', userId: 'u 1', code: 'a+b', redirectUrl: undefined })).toBe(
      'https://portal.example/exam/confirm-email?tenant=root&userId=u+1&code=a%2Bb',
    );
  });

  it('should keep only redirect targets inside the application', () => {
    const base = 'https://portal.example';
    expect(sameOriginPath(base, '/exams/7?tab=a#top')).toBe('/exams/7?tab=a#top');
    expect(sameOriginPath(base, 'https://portal.example/login')).toBe('/login');
    expect(sameOriginPath(base, 'https://evil.example/login')).toBeUndefined();
    expect(sameOriginPath(base, '//evil.example/login')).toBeUndefined();
    expect(sameOriginPath(base, '/\\evil.example')).toBeUndefined();
    expect(sameOriginPath(base, 'javascript:alert(1)')).toBeUndefined();
    expect(sameOriginPath(base, 'exams')).toBeUndefined();
    expect(sameOriginPath(base, undefined)).toBeUndefined();
  });
});
