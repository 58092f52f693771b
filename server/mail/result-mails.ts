import type { Mail } from '#server/plugins/mail.ts';
import { renderMail, type Recipient } from './account-mails.ts';
import type { MailLanguage } from './mail-language.ts';
import { clientLink, clientRoutes } from './mail-links.ts';

/**
 * The e-mail a candidate gets when their result is published (issue 20), in the candidate's
 * language as registration mails are (docs/decisions/0231, 0253). It says the result is there,
 * not what it is: the marks are behind the sign-in.
 */
export interface ResultMailData {
  examName: string;
  paperTitle: string;
}

interface ResultTexts {
  subject(d: ResultMailData): string;
  preheader: string;
  intro(d: ResultMailData): string;
  next: string;
  open: string;
}

const en: ResultTexts = {
  subject: (d) => `Your result for ${d.examName} is published`,
  preheader: 'Sign in to see your marks.',
  intro: (d) => `Your result for ${d.examName} (${d.paperTitle}) has been published.`,
  next: 'Sign in to see your marks and grade. If you think a question was marked wrongly, you may ask for re-evaluation from the result screen while the window is open.',
  open: 'Open My results',
};

const catalogs: Record<MailLanguage, ResultTexts> = {
  'en-IN': en,
  'en-US': en,
  fr: {
    subject: (d) => `Votre résultat à ${d.examName} est publié`,
    preheader: 'Connectez-vous pour voir vos notes.',
    intro: (d) => `Votre résultat à ${d.examName} (${d.paperTitle}) a été publié.`,
    next: 'Connectez-vous pour voir vos notes et votre mention. Si une question vous semble mal corrigée, vous pouvez demander une révision depuis l’écran du résultat tant que le délai est ouvert.',
    open: 'Ouvrir Mes résultats',
  },
  es: {
    subject: (d) => `Su resultado de ${d.examName} está publicado`,
    preheader: 'Inicie sesión para ver sus notas.',
    intro: (d) => `Su resultado de ${d.examName} (${d.paperTitle}) ha sido publicado.`,
    next: 'Inicie sesión para ver sus notas y su calificación. Si cree que una pregunta se corrigió mal, puede pedir una revisión desde la pantalla del resultado mientras el plazo esté abierto.',
    open: 'Abrir Mis resultados',
  },
  hi: {
    subject: (d) => `${d.examName} का आपका परिणाम प्रकाशित हो गया है`,
    preheader: 'अपने अंक देखने के लिए साइन इन करें।',
    intro: (d) => `${d.examName} (${d.paperTitle}) का आपका परिणाम प्रकाशित हो गया है।`,
    next: 'अपने अंक और ग्रेड देखने के लिए साइन इन करें। यदि आपको लगता है कि किसी प्रश्न का मूल्यांकन गलत हुआ है, तो अवधि खुली रहने तक परिणाम स्क्रीन से पुनर्मूल्यांकन का अनुरोध कर सकते हैं।',
    open: 'मेरे परिणाम खोलें',
  },
  gu: {
    subject: (d) => `${d.examName} નું તમારું પરિણામ પ્રકાશિત થયું છે`,
    preheader: 'તમારા ગુણ જોવા માટે સાઇન ઇન કરો.',
    intro: (d) => `${d.examName} (${d.paperTitle}) નું તમારું પરિણામ પ્રકાશિત થયું છે.`,
    next: 'તમારા ગુણ અને ગ્રેડ જોવા માટે સાઇન ઇન કરો. જો તમને લાગે કે કોઈ પ્રશ્નનું મૂલ્યાંકન ખોટું થયું છે, તો સમયમર્યાદા ખુલ્લી હોય ત્યાં સુધી પરિણામ સ્ક્રીન પરથી પુનર્મૂલ્યાંકનની વિનંતી કરી શકો છો.',
    open: 'મારાં પરિણામો ખોલો',
  },
};

export function resultPublishedMail(language: MailLanguage, to: Recipient, data: ResultMailData, publicUrl: string): Mail {
  const c = catalogs[language];
  return renderMail(language, to, {
    subject: c.subject(data),
    preheader: c.preheader,
    blocks: [
      { kind: 'paragraph', text: c.intro(data) },
      { kind: 'paragraph', text: c.next },
      { kind: 'button', label: c.open, href: clientLink(publicUrl, clientRoutes.myResults, {}) },
    ],
  });
}
