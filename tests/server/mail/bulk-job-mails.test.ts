import { describe, expect, it } from 'vitest';
import { notificationMail } from '#server/mail/notification-mails.ts';

/**
 * The `bulkjob.finished` e-mail (issue 21) names the job that finished: a file upload by its
 * file, an admit-card batch (it has no file) by its season and counts — in every language.
 */
const to = { email: 'meera@example.test', name: 'Meera' };
const batch = { job: 'admitCards', seasonName: 'March 2027', state: 'finished', total: 4, issued: 3, failed: 1 };
const upload = { job: 'registrations', fileName: 'march.xlsx', state: 'finished', created: 1, failed: 3, total: 4 };

describe('the bulk job e-mail', () => {
  it('should name the admit-card batch by its season and counts, and an upload by its file', () => {
    expect(notificationMail('bulkjob.finished', 'en-IN', to, batch, '/workspace/seasons/3', 'https://portal.test').subject).toBe(
      'Admit cards for March 2027: 3 issued, 1 failed',
    );
    expect(notificationMail('bulkjob.finished', 'en-IN', to, upload, '/workspace/registrations', 'https://portal.test').subject).toBe(
      'Your bulk upload march.xlsx has finished',
    );
  });

  it('should say it in each of the six languages, never with an empty file name', () => {
    const subjects = (['en-IN', 'en-US', 'fr', 'es', 'hi', 'gu'] as const).map(
      (language) => notificationMail('bulkjob.finished', language, to, batch, null, 'https://portal.test').subject,
    );
    for (const subject of subjects) expect(subject).toMatch(/March 2027.*3.*1/);
    expect(new Set(subjects).size).toBe(5);
  });
});
