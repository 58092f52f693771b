import type { Mail } from '#server/plugins/mail.ts';
import { renderMail, type Block, type Recipient } from './account-mails.ts';
import { matchLanguage, pickMailLanguage, type MailLanguage } from './mail-language.ts';
import { clientLink, clientRoutes } from './mail-links.ts';

/**
 * The e-mails a candidate gets about a registration (issue 18): approved, rejected (with the
 * reason), admit card issued. Written in the candidate's language: their saved language, else
 * the medium they registered in, else en-IN (docs/decisions/0231).
 */
export type RegistrationMailKind = 'approved' | 'rejected' | 'admitCardIssued';

export interface RegistrationMailData {
  examName: string;
  seasonName: string;
  /** Rejections: why. */
  reason?: string | null;
  /** Admit cards: the roll number and the center. */
  rollNumber?: string | null;
  centerName?: string | null;
}

interface RegistrationTexts {
  subject(d: RegistrationMailData): string;
  preheader: string;
  intro(d: RegistrationMailData): string;
  next: string;
}

interface RegistrationCatalog {
  approved: RegistrationTexts;
  rejected: RegistrationTexts & { reasonLabel: string };
  admitCardIssued: RegistrationTexts & { rollLabel: string; centerLabel: string };
  open: string;
}

const en: RegistrationCatalog = {
  approved: {
    subject: (d) => `Your registration for ${d.examName} is approved`,
    preheader: 'You will be given a seat at an exam center next.',
    intro: (d) => `Your registration for ${d.examName} (${d.seasonName}) has been approved.`,
    next: 'You will be told your exam center and roll number when your admit card is issued.',
  },
  rejected: {
    subject: (d) => `Your registration for ${d.examName} was not accepted`,
    preheader: 'The reason is given in this e-mail.',
    intro: (d) => `Your registration for ${d.examName} (${d.seasonName}) was not accepted.`,
    reasonLabel: 'Reason',
    next: 'While registration is open you may register again with corrected details.',
  },
  admitCardIssued: {
    subject: (d) => `Your admit card for ${d.examName} is ready`,
    preheader: 'Download it and bring it printed to the exam center.',
    intro: (d) => `Your admit card (hall ticket) for ${d.examName} (${d.seasonName}) has been issued.`,
    rollLabel: 'Roll number',
    centerLabel: 'Exam center',
    next: 'Download it from "My registrations", print it and bring it with a photo ID to every paper.',
  },
  open: 'Open My registrations',
};

const catalogs: Record<MailLanguage, RegistrationCatalog> = {
  'en-IN': en,
  'en-US': en,
  fr: {
    approved: {
      subject: (d) => `Votre inscription à ${d.examName} est approuvée`,
      preheader: 'Une place dans un centre d’examen vous sera attribuée.',
      intro: (d) => `Votre inscription à ${d.examName} (${d.seasonName}) a été approuvée.`,
      next: 'Votre centre d’examen et votre numéro de candidat vous seront communiqués avec votre convocation.',
    },
    rejected: {
      subject: (d) => `Votre inscription à ${d.examName} n’a pas été acceptée`,
      preheader: 'Le motif figure dans cet e-mail.',
      intro: (d) => `Votre inscription à ${d.examName} (${d.seasonName}) n’a pas été acceptée.`,
      reasonLabel: 'Motif',
      next: 'Tant que les inscriptions sont ouvertes, vous pouvez vous inscrire à nouveau avec des informations corrigées.',
    },
    admitCardIssued: {
      subject: (d) => `Votre convocation à ${d.examName} est prête`,
      preheader: 'Téléchargez-la et apportez-la imprimée au centre d’examen.',
      intro: (d) => `Votre convocation pour ${d.examName} (${d.seasonName}) a été émise.`,
      rollLabel: 'Numéro de candidat',
      centerLabel: 'Centre d’examen',
      next: 'Téléchargez-la depuis « Mes inscriptions », imprimez-la et apportez-la avec une pièce d’identité à chaque épreuve.',
    },
    open: 'Ouvrir Mes inscriptions',
  },
  es: {
    approved: {
      subject: (d) => `Su inscripción en ${d.examName} ha sido aprobada`,
      preheader: 'A continuación se le asignará un puesto en un centro de examen.',
      intro: (d) => `Su inscripción en ${d.examName} (${d.seasonName}) ha sido aprobada.`,
      next: 'Conocerá su centro de examen y su número de candidato cuando se emita su pase de examen.',
    },
    rejected: {
      subject: (d) => `Su inscripción en ${d.examName} no fue aceptada`,
      preheader: 'El motivo figura en este correo.',
      intro: (d) => `Su inscripción en ${d.examName} (${d.seasonName}) no fue aceptada.`,
      reasonLabel: 'Motivo',
      next: 'Mientras la inscripción esté abierta puede inscribirse de nuevo con los datos corregidos.',
    },
    admitCardIssued: {
      subject: (d) => `Su pase de examen para ${d.examName} está listo`,
      preheader: 'Descárguelo y llévelo impreso al centro de examen.',
      intro: (d) => `Se ha emitido su pase de examen para ${d.examName} (${d.seasonName}).`,
      rollLabel: 'Número de candidato',
      centerLabel: 'Centro de examen',
      next: 'Descárguelo en «Mis inscripciones», imprímalo y llévelo con un documento de identidad a cada prueba.',
    },
    open: 'Abrir Mis inscripciones',
  },
  hi: {
    approved: {
      subject: (d) => `${d.examName} के लिए आपका पंजीकरण स्वीकृत हो गया है`,
      preheader: 'अब आपको किसी परीक्षा केंद्र पर सीट दी जाएगी।',
      intro: (d) => `${d.examName} (${d.seasonName}) के लिए आपका पंजीकरण स्वीकृत कर दिया गया है।`,
      next: 'प्रवेश पत्र जारी होने पर आपको आपका परीक्षा केंद्र और अनुक्रमांक बताया जाएगा।',
    },
    rejected: {
      subject: (d) => `${d.examName} के लिए आपका पंजीकरण स्वीकार नहीं हुआ`,
      preheader: 'कारण इस ई-मेल में दिया गया है।',
      intro: (d) => `${d.examName} (${d.seasonName}) के लिए आपका पंजीकरण स्वीकार नहीं किया गया।`,
      reasonLabel: 'कारण',
      next: 'पंजीकरण खुला रहने तक आप सही जानकारी के साथ फिर से पंजीकरण कर सकते हैं।',
    },
    admitCardIssued: {
      subject: (d) => `${d.examName} के लिए आपका प्रवेश पत्र तैयार है`,
      preheader: 'इसे डाउनलोड करें और छपा हुआ परीक्षा केंद्र पर लाएँ।',
      intro: (d) => `${d.examName} (${d.seasonName}) के लिए आपका प्रवेश पत्र जारी कर दिया गया है।`,
      rollLabel: 'अनुक्रमांक',
      centerLabel: 'परीक्षा केंद्र',
      next: '"मेरे पंजीकरण" से इसे डाउनलोड करें, छापें और हर प्रश्नपत्र में फ़ोटो पहचान पत्र के साथ लाएँ।',
    },
    open: 'मेरे पंजीकरण खोलें',
  },
  gu: {
    approved: {
      subject: (d) => `${d.examName} માટે તમારી નોંધણી મંજૂર થઈ છે`,
      preheader: 'હવે તમને કોઈ પરીક્ષા કેન્દ્રમાં બેઠક આપવામાં આવશે.',
      intro: (d) => `${d.examName} (${d.seasonName}) માટે તમારી નોંધણી મંજૂર કરવામાં આવી છે.`,
      next: 'પ્રવેશપત્ર જારી થશે ત્યારે તમને તમારું પરીક્ષા કેન્દ્ર અને બેઠક નંબર જણાવવામાં આવશે.',
    },
    rejected: {
      subject: (d) => `${d.examName} માટે તમારી નોંધણી સ્વીકારાઈ નથી`,
      preheader: 'કારણ આ ઈ-મેલમાં આપેલું છે.',
      intro: (d) => `${d.examName} (${d.seasonName}) માટે તમારી નોંધણી સ્વીકારવામાં આવી નથી.`,
      reasonLabel: 'કારણ',
      next: 'નોંધણી ખુલ્લી હોય ત્યાં સુધી તમે સુધારેલી વિગતો સાથે ફરી નોંધણી કરી શકો છો.',
    },
    admitCardIssued: {
      subject: (d) => `${d.examName} માટે તમારું પ્રવેશપત્ર તૈયાર છે`,
      preheader: 'તેને ડાઉનલોડ કરો અને છાપીને પરીક્ષા કેન્દ્ર પર લાવો.',
      intro: (d) => `${d.examName} (${d.seasonName}) માટે તમારું પ્રવેશપત્ર જારી કરવામાં આવ્યું છે.`,
      rollLabel: 'બેઠક નંબર',
      centerLabel: 'પરીક્ષા કેન્દ્ર',
      next: '"મારી નોંધણીઓ"માંથી તેને ડાઉનલોડ કરો, છાપો અને દરેક પેપરમાં ફોટો ઓળખપત્ર સાથે લાવો.',
    },
    open: 'મારી નોંધણીઓ ખોલો',
  },
};

/** The candidate's mail language: their saved language, else their medium (`hi`, `gu`, `en` …), else en-IN. */
export function candidateMailLanguage(preferredLanguage: string | null | undefined, medium: string | null | undefined): MailLanguage {
  return matchLanguage(preferredLanguage) ?? pickMailLanguage(null, medium ?? undefined);
}

export function registrationMail(kind: RegistrationMailKind, language: MailLanguage, to: Recipient, data: RegistrationMailData, publicUrl: string): Mail {
  const c = catalogs[language];
  const m = c[kind];
  const link = clientLink(publicUrl, clientRoutes.myRegistrations, {});
  const blocks: Block[] = [{ kind: 'paragraph', text: m.intro(data) }];
  if (kind === 'rejected' && data.reason) blocks.push({ kind: 'paragraph', text: `${c.rejected.reasonLabel}: ${data.reason}` });
  if (kind === 'admitCardIssued') {
    if (data.rollNumber) blocks.push({ kind: 'code', label: c.admitCardIssued.rollLabel, code: data.rollNumber });
    if (data.centerName) blocks.push({ kind: 'paragraph', text: `${c.admitCardIssued.centerLabel}: ${data.centerName}` });
  }
  blocks.push({ kind: 'paragraph', text: m.next }, { kind: 'button', label: c.open, href: link });
  return renderMail(language, to, { subject: m.subject(data), preheader: m.preheader, blocks });
}
