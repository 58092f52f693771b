import type { Mail } from '#server/plugins/mail.ts';
import type { LinkMailTexts, MailCatalog } from './mail-catalog.ts';
import type { MailLanguage } from './mail-language.ts';
import { enIN } from './locales/en-IN.ts';
import { enUS } from './locales/en-US.ts';
import { es } from './locales/es.ts';
import { fr } from './locales/fr.ts';
import { gu } from './locales/gu.ts';
import { hi } from './locales/hi.ts';

export const mailCatalogs: Record<MailLanguage, MailCatalog> = { 'en-IN': enIN, 'en-US': enUS, fr, es, hi, gu };

/** The account e-mails and what each needs to be written. */
export interface AccountMailData {
  signInCode: { code: string; minutes: number };
  confirmEmail: { link: string; hours: number };
  resetPassword: { link: string; minutes: number };
  invitation: { link: string; hours: number };
  accountExists: { signInLink: string; forgotPasswordLink: string };
  passwordChanged: { forgotPasswordLink: string };
}

export type AccountMailKind = keyof AccountMailData;

export interface Recipient {
  email: string;
  /** First name for the greeting; empty gives a greeting without a name. */
  name: string;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** One block of the body, written once and rendered both as HTML and as plain text. */
export type Block =
  | { kind: 'paragraph'; text: string }
  | { kind: 'code'; label: string; code: string }
  | { kind: 'button'; label: string; href: string }
  | { kind: 'link'; text: string; href: string }
  | { kind: 'note'; text: string };

export interface Composed {
  subject: string;
  preheader: string;
  blocks: Block[];
}

/** A mail whose point is one link: intro, button, expiry, the link spelled out, a note. */
function linkMail(t: MailCatalog, m: LinkMailTexts, link: string, lifetime: number): Composed {
  return {
    subject: m.subject,
    preheader: m.preheader,
    blocks: [
      { kind: 'paragraph', text: m.intro },
      { kind: 'button', label: m.action, href: link },
      { kind: 'paragraph', text: m.expiry(lifetime) },
      { kind: 'link', text: t.linkFallback, href: link },
      { kind: 'note', text: m.notYou },
    ],
  };
}

type MailRequest = { [K in AccountMailKind]: { kind: K; data: AccountMailData[K] } }[AccountMailKind];

function compose(t: MailCatalog, request: MailRequest): Composed {
  switch (request.kind) {
    case 'signInCode': {
      const m = t.signInCode;
      return {
        subject: m.subject,
        preheader: m.preheader,
        blocks: [
          { kind: 'paragraph', text: m.intro },
          { kind: 'code', label: m.codeLabel, code: request.data.code },
          { kind: 'paragraph', text: m.expiry(request.data.minutes) },
          { kind: 'note', text: m.notYou },
        ],
      };
    }
    case 'confirmEmail':
      return linkMail(t, t.confirmEmail, request.data.link, request.data.hours);
    case 'invitation':
      return linkMail(t, t.invitation, request.data.link, request.data.hours);
    case 'resetPassword':
      return linkMail(t, t.resetPassword, request.data.link, request.data.minutes);
    case 'accountExists': {
      const m = t.accountExists;
      return {
        subject: m.subject,
        preheader: m.preheader,
        blocks: [
          { kind: 'paragraph', text: m.intro },
          { kind: 'button', label: m.signIn, href: request.data.signInLink },
          { kind: 'link', text: m.forgot, href: request.data.forgotPasswordLink },
          { kind: 'note', text: m.notYou },
        ],
      };
    }
    case 'passwordChanged': {
      const m = t.passwordChanged;
      return {
        subject: m.subject,
        preheader: m.preheader,
        blocks: [
          { kind: 'paragraph', text: m.intro },
          { kind: 'paragraph', text: m.notYou },
          { kind: 'button', label: m.action, href: request.data.forgotPasswordLink },
        ],
      };
    }
  }
}

const font = `-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,'Noto Sans','Noto Sans Devanagari','Noto Sans Gujarati',Arial,sans-serif`;

function htmlBlock(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
      return `<p style="margin:0 0 16px;font-size:15px;line-height:1.6;color:#262626">${escapeHtml(block.text)}</p>`;
    case 'note':
      return `<p style="margin:16px 0 0;font-size:13px;line-height:1.6;color:#595959">${escapeHtml(block.text)}</p>`;
    case 'code':
      return `<p style="margin:0 0 8px;font-size:13px;color:#595959">${escapeHtml(block.label)}</p>
<p style="margin:0 0 20px;font-family:'SFMono-Regular',Consolas,'Liberation Mono',monospace;font-size:32px;font-weight:700;letter-spacing:8px;color:#141414">${escapeHtml(block.code)}</p>`;
    case 'button':
      return `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:8px 0 24px"><tr><td style="border-radius:6px;background:#1677ff">
<a href="${escapeHtml(block.href)}" style="display:inline-block;padding:12px 24px;font-size:15px;font-weight:600;color:#ffffff;text-decoration:none;border-radius:6px">${escapeHtml(block.label)}</a>
</td></tr></table>`;
    case 'link':
      return `<p style="margin:0 0 16px;font-size:13px;line-height:1.6;color:#595959">${escapeHtml(block.text)}<br>
<a href="${escapeHtml(block.href)}" style="color:#1677ff;word-break:break-all">${escapeHtml(block.href)}</a></p>`;
  }
}

function textBlock(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
    case 'note':
      return block.text;
    case 'code':
      return `${block.label}: ${block.code}`;
    case 'button':
      return `${block.label}: ${block.href}`;
    case 'link':
      return `${block.text}\n${block.href}`;
  }
}

/**
 * An account e-mail in the recipient's language, as HTML (inline styles, table layout, for
 * mail clients) and as plain text with the same content. Every value is escaped in the HTML.
 */
export function accountMail<K extends AccountMailKind>(kind: K, language: MailLanguage, to: Recipient, data: AccountMailData[K]): Mail {
  return renderMail(language, to, compose(mailCatalogs[language], { kind, data } as MailRequest));
}

/** Any composed mail in the product's layout (account mails, registration mails: server/mail/registration-mails.ts). */
export function renderMail(language: MailLanguage, to: Recipient, composed: Composed): Mail {
  const t = mailCatalogs[language];
  const { subject, preheader, blocks } = composed;
  const greeting = to.name.trim() ? t.greeting(to.name.trim()) : t.greetingNoName;
  // A button and the fallback link carry the same address: the text part names it once.
  const textBlocks = blocks.filter((b, i) => !(b.kind === 'button' && blocks.slice(i + 1).some((o) => o.kind === 'link' && o.href === b.href)));
  const text = [greeting, ...textBlocks.map(textBlock), '--', t.automated].join('\n\n') + '\n';
  const html = `<!doctype html>
<html lang="${language}" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(subject)}</title>
</head>
<body style="margin:0;padding:0;background:#f4f5f7;font-family:${font}">
<div style="display:none;max-height:0;overflow:hidden;opacity:0">${escapeHtml(preheader)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f5f7">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;border:1px solid #e5e7eb">
<tr><td style="padding:20px 32px;border-bottom:1px solid #e5e7eb;font-size:18px;font-weight:700;color:#1677ff">Exam Portal</td></tr>
<tr><td style="padding:28px 32px">
<p style="margin:0 0 16px;font-size:15px;line-height:1.6;color:#262626">${escapeHtml(greeting)}</p>
${blocks.map(htmlBlock).join('\n')}
</td></tr>
<tr><td style="padding:16px 32px;border-top:1px solid #e5e7eb;font-size:12px;line-height:1.5;color:#8c8c8c">${escapeHtml(t.automated)}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
  return { to: to.email, subject, text, html };
}
