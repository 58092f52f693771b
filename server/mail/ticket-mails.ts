import type { Mail } from '#server/plugins/mail.ts';
import { renderMail, type Block, type Recipient } from './account-mails.ts';
import type { MailLanguage } from './mail-language.ts';

/**
 * The mail a support admin gets when a ticket lands in a support group that has no agents
 * (issue 23, docs/decisions/0280): nobody would see it in a queue, so someone who can assign it
 * is told. Written in the admin's saved language, else en-IN.
 */
export interface UnstaffedTicketMailData {
  ticketId: number;
  title: string;
  groupName: string;
  /** The desk's page of the ticket (PUBLIC_URL based). */
  link: string;
}

interface UnstaffedTexts {
  subject(d: UnstaffedTicketMailData): string;
  preheader: string;
  intro(d: UnstaffedTicketMailData): string;
  titleLabel: string;
  next: string;
  open: string;
}

const en: UnstaffedTexts = {
  subject: (d) => `Ticket #${d.ticketId} is in ${d.groupName}, which has no agents`,
  preheader: 'Nobody will see it in a queue until it is reassigned or the group gets an agent.',
  intro: (d) => `Ticket #${d.ticketId} was placed in the support group "${d.groupName}". That group has no agents, so nobody will pick it up.`,
  titleLabel: 'Title',
  next: 'Reassign the ticket to a staffed group, or add an agent to the group.',
  open: 'Open the ticket',
};

const catalogs: Record<MailLanguage, UnstaffedTexts> = {
  'en-IN': en,
  'en-US': en,
  fr: {
    subject: (d) => `Le ticket n°${d.ticketId} est dans ${d.groupName}, qui n’a aucun agent`,
    preheader: 'Personne ne le verra dans une file tant qu’il n’est pas réaffecté ou que le groupe n’a pas d’agent.',
    intro: (d) =>
      `Le ticket n°${d.ticketId} a été placé dans le groupe de support « ${d.groupName} ». Ce groupe n’a aucun agent : personne ne le prendra en charge.`,
    titleLabel: 'Titre',
    next: 'Réaffectez le ticket à un groupe doté d’agents, ou ajoutez un agent au groupe.',
    open: 'Ouvrir le ticket',
  },
  es: {
    subject: (d) => `El ticket n.º ${d.ticketId} está en ${d.groupName}, que no tiene agentes`,
    preheader: 'Nadie lo verá en una cola hasta que se reasigne o el grupo tenga un agente.',
    intro: (d) => `El ticket n.º ${d.ticketId} se ha colocado en el grupo de soporte «${d.groupName}». Ese grupo no tiene agentes, así que nadie lo atenderá.`,
    titleLabel: 'Título',
    next: 'Reasigne el ticket a un grupo con agentes o añada un agente al grupo.',
    open: 'Abrir el ticket',
  },
  hi: {
    subject: (d) => `टिकट #${d.ticketId} ${d.groupName} में है, जिसमें कोई एजेंट नहीं है`,
    preheader: 'जब तक इसे दोबारा सौंपा न जाए या समूह में कोई एजेंट न हो, इसे कोई कतार में नहीं देखेगा।',
    intro: (d) => `टिकट #${d.ticketId} को सहायता समूह "${d.groupName}" में रखा गया है। इस समूह में कोई एजेंट नहीं है, इसलिए इसे कोई नहीं उठाएगा।`,
    titleLabel: 'शीर्षक',
    next: 'टिकट को किसी ऐसे समूह को सौंपें जिसमें एजेंट हों, या इस समूह में एक एजेंट जोड़ें।',
    open: 'टिकट खोलें',
  },
  gu: {
    subject: (d) => `ટિકિટ #${d.ticketId} ${d.groupName} માં છે, જેમાં કોઈ એજન્ટ નથી`,
    preheader: 'જ્યાં સુધી તેને ફરી સોંપવામાં ન આવે અથવા જૂથમાં એજન્ટ ન હોય, ત્યાં સુધી તેને કોઈ કતારમાં નહીં જુએ.',
    intro: (d) => `ટિકિટ #${d.ticketId} સહાય જૂથ "${d.groupName}" માં મૂકવામાં આવી છે. આ જૂથમાં કોઈ એજન્ટ નથી, તેથી તેને કોઈ હાથ પર નહીં લે.`,
    titleLabel: 'શીર્ષક',
    next: 'ટિકિટને એજન્ટ ધરાવતા જૂથને સોંપો, અથવા આ જૂથમાં એક એજન્ટ ઉમેરો.',
    open: 'ટિકિટ ખોલો',
  },
};

export function unstaffedTicketMail(language: MailLanguage, to: Recipient, data: UnstaffedTicketMailData): Mail {
  const m = catalogs[language];
  const blocks: Block[] = [
    { kind: 'paragraph', text: m.intro(data) },
    { kind: 'paragraph', text: `${m.titleLabel}: ${data.title}` },
    { kind: 'paragraph', text: m.next },
    { kind: 'button', label: m.open, href: data.link },
  ];
  return renderMail(language, to, { subject: m.subject(data), preheader: m.preheader, blocks });
}
