import type { NotificationKind } from '#machines/realtime-protocol.ts';
import type { Mail } from '#server/plugins/mail.ts';
import { renderMail, type Recipient } from './account-mails.ts';
import type { MailLanguage } from './mail-language.ts';

/**
 * The e-mail of a notification (issue 21, docs/decisions/0260), in the recipient's saved
 * language: a subject and one sentence naming what happened, and a button to the record.
 * Registration decisions and admit cards keep their own, richer mails (registration-mails.ts).
 */
export type NotificationParams = Record<string, string | number>;

interface NotificationTexts {
  subject: Record<NotificationKind, (p: NotificationParams) => string>;
  open: string;
  settings: string;
}

const s = (p: NotificationParams, key: string) => String(p[key] ?? '');

const en: NotificationTexts = {
  subject: {
    'ticket.reply': (p) => `New reply on ticket #${s(p, 'ticketId')}: ${s(p, 'title')}`,
    'ticket.assigned': (p) => `Ticket #${s(p, 'ticketId')} was assigned to you: ${s(p, 'title')}`,
    'ticket.status': (p) => `Ticket #${s(p, 'ticketId')} is now ${s(p, 'status')}`,
    'ticket.resolved': (p) => `Ticket #${s(p, 'ticketId')} was resolved: ${s(p, 'title')}`,
    'registration.approved': (p) => `Your registration for ${s(p, 'examName')} is approved`,
    'registration.rejected': (p) => `Your registration for ${s(p, 'examName')} was not accepted`,
    'admitcard.issued': (p) => `Your admit card for ${s(p, 'examName')} is ready`,
    'results.published': (p) => `Results of ${s(p, 'examName')} are published`,
    'reevaluation.outcome': (p) => `The re-evaluation of ${s(p, 'examName')} is complete`,
    'bulkjob.finished': (p) =>
      p.job === 'admitCards'
        ? `Admit cards for ${s(p, 'seasonName')}: ${s(p, 'issued')} issued, ${s(p, 'failed')} failed`
        : `Your bulk upload ${s(p, 'fileName')} has finished`,
  },
  open: 'Open',
  settings: 'You get this e-mail because of your notification settings. Change them in your profile.',
};

const catalogs: Record<MailLanguage, NotificationTexts> = {
  'en-IN': en,
  'en-US': en,
  fr: {
    subject: {
      'ticket.reply': (p) => `Nouvelle réponse sur le ticket n°${s(p, 'ticketId')} : ${s(p, 'title')}`,
      'ticket.assigned': (p) => `Le ticket n°${s(p, 'ticketId')} vous a été attribué : ${s(p, 'title')}`,
      'ticket.status': (p) => `Le ticket n°${s(p, 'ticketId')} est maintenant ${s(p, 'status')}`,
      'ticket.resolved': (p) => `Le ticket n°${s(p, 'ticketId')} a été résolu : ${s(p, 'title')}`,
      'registration.approved': (p) => `Votre inscription à ${s(p, 'examName')} est approuvée`,
      'registration.rejected': (p) => `Votre inscription à ${s(p, 'examName')} n’a pas été acceptée`,
      'admitcard.issued': (p) => `Votre convocation pour ${s(p, 'examName')} est prête`,
      'results.published': (p) => `Les résultats de ${s(p, 'examName')} sont publiés`,
      'reevaluation.outcome': (p) => `La réévaluation de ${s(p, 'examName')} est terminée`,
      'bulkjob.finished': (p) =>
        p.job === 'admitCards'
          ? `Convocations pour ${s(p, 'seasonName')} : ${s(p, 'issued')} émises, ${s(p, 'failed')} en échec`
          : `Votre import en masse ${s(p, 'fileName')} est terminé`,
    },
    open: 'Ouvrir',
    settings: 'Vous recevez cet e-mail selon vos préférences de notification. Modifiez-les dans votre profil.',
  },
  es: {
    subject: {
      'ticket.reply': (p) => `Nueva respuesta en el ticket n.º ${s(p, 'ticketId')}: ${s(p, 'title')}`,
      'ticket.assigned': (p) => `Se le asignó el ticket n.º ${s(p, 'ticketId')}: ${s(p, 'title')}`,
      'ticket.status': (p) => `El ticket n.º ${s(p, 'ticketId')} ahora está ${s(p, 'status')}`,
      'ticket.resolved': (p) => `El ticket n.º ${s(p, 'ticketId')} se resolvió: ${s(p, 'title')}`,
      'registration.approved': (p) => `Su inscripción en ${s(p, 'examName')} está aprobada`,
      'registration.rejected': (p) => `Su inscripción en ${s(p, 'examName')} no fue aceptada`,
      'admitcard.issued': (p) => `Su tarjeta de admisión para ${s(p, 'examName')} está lista`,
      'results.published': (p) => `Se publicaron los resultados de ${s(p, 'examName')}`,
      'reevaluation.outcome': (p) => `La reevaluación de ${s(p, 'examName')} ha terminado`,
      'bulkjob.finished': (p) =>
        p.job === 'admitCards'
          ? `Credenciales de examen de ${s(p, 'seasonName')}: ${s(p, 'issued')} emitidas, ${s(p, 'failed')} con error`
          : `Su carga masiva ${s(p, 'fileName')} ha terminado`,
    },
    open: 'Abrir',
    settings: 'Recibe este correo por sus preferencias de notificación. Cámbielas en su perfil.',
  },
  hi: {
    subject: {
      'ticket.reply': (p) => `टिकट #${s(p, 'ticketId')} पर नया जवाब: ${s(p, 'title')}`,
      'ticket.assigned': (p) => `टिकट #${s(p, 'ticketId')} आपको सौंपा गया: ${s(p, 'title')}`,
      'ticket.status': (p) => `टिकट #${s(p, 'ticketId')} अब ${s(p, 'status')} है`,
      'ticket.resolved': (p) => `टिकट #${s(p, 'ticketId')} हल हो गया: ${s(p, 'title')}`,
      'registration.approved': (p) => `${s(p, 'examName')} के लिए आपका पंजीकरण स्वीकृत हुआ`,
      'registration.rejected': (p) => `${s(p, 'examName')} के लिए आपका पंजीकरण स्वीकार नहीं हुआ`,
      'admitcard.issued': (p) => `${s(p, 'examName')} के लिए आपका प्रवेश पत्र तैयार है`,
      'results.published': (p) => `${s(p, 'examName')} के परिणाम प्रकाशित हुए`,
      'reevaluation.outcome': (p) => `${s(p, 'examName')} का पुनर्मूल्यांकन पूरा हुआ`,
      'bulkjob.finished': (p) =>
        p.job === 'admitCards'
          ? `${s(p, 'seasonName')} के प्रवेश पत्र: ${s(p, 'issued')} जारी, ${s(p, 'failed')} विफल`
          : `आपका बल्क अपलोड ${s(p, 'fileName')} पूरा हुआ`,
    },
    open: 'खोलें',
    settings: 'आपको यह ई-मेल आपकी सूचना सेटिंग के कारण मिला है। इन्हें अपनी प्रोफ़ाइल में बदलें।',
  },
  gu: {
    subject: {
      'ticket.reply': (p) => `ટિકિટ #${s(p, 'ticketId')} પર નવો જવાબ: ${s(p, 'title')}`,
      'ticket.assigned': (p) => `ટિકિટ #${s(p, 'ticketId')} તમને સોંપવામાં આવી: ${s(p, 'title')}`,
      'ticket.status': (p) => `ટિકિટ #${s(p, 'ticketId')} હવે ${s(p, 'status')} છે`,
      'ticket.resolved': (p) => `ટિકિટ #${s(p, 'ticketId')} ઉકેલાઈ: ${s(p, 'title')}`,
      'registration.approved': (p) => `${s(p, 'examName')} માટે તમારી નોંધણી મંજૂર થઈ`,
      'registration.rejected': (p) => `${s(p, 'examName')} માટે તમારી નોંધણી સ્વીકારાઈ નથી`,
      'admitcard.issued': (p) => `${s(p, 'examName')} માટે તમારું પ્રવેશપત્ર તૈયાર છે`,
      'results.published': (p) => `${s(p, 'examName')} ના પરિણામ પ્રકાશિત થયા`,
      'reevaluation.outcome': (p) => `${s(p, 'examName')} નું પુનર્મૂલ્યાંકન પૂર્ણ થયું`,
      'bulkjob.finished': (p) =>
        p.job === 'admitCards'
          ? `${s(p, 'seasonName')} નાં પ્રવેશપત્રો: ${s(p, 'issued')} જારી, ${s(p, 'failed')} નિષ્ફળ`
          : `તમારું બલ્ક અપલોડ ${s(p, 'fileName')} પૂર્ણ થયું`,
    },
    open: 'ખોલો',
    settings: 'તમારી સૂચના સેટિંગને કારણે તમને આ ઈ-મેલ મળ્યો છે. તેને તમારી પ્રોફાઇલમાં બદલો.',
  },
};

/** `link` is a client path (`/tickets/12`); it is put under PUBLIC_URL here, never taken from a request. */
export function notificationMail(
  kind: NotificationKind,
  language: MailLanguage,
  to: Recipient,
  params: NotificationParams,
  link: string | null,
  publicUrl: string,
): Mail {
  const t = catalogs[language];
  const subject = t.subject[kind](params);
  const blocks: Parameters<typeof renderMail>[2]['blocks'] = [{ kind: 'paragraph', text: subject }];
  if (link?.startsWith('/')) blocks.push({ kind: 'button', label: t.open, href: new URL(link.slice(1), `${publicUrl}/`).toString() });
  blocks.push({ kind: 'note', text: t.settings });
  return renderMail(language, to, { subject, preheader: subject, blocks });
}
