import QRCode from 'qrcode';

/**
 * The admit card (hall ticket) as HTML for the papers' headless Chromium (docs/decisions/0141,
 * 0232): candidate, photo placeholder, roll number, exam, papers with date, time and the
 * center's address, instructions in the candidate's medium (Devanagari and Gujarati shaped by
 * Chromium from the page's fonts), and the QR code of the signed token with the token printed
 * beside it for typing when a scanner fails.
 */
export interface AdmitCardPrint {
  candidateName: string;
  candidateEmail: string;
  rollNumber: string;
  projectName: string;
  examName: string;
  seasonName: string;
  medium: string;
  papers: Array<{ paperCode: string; paperTitle: string; sitsOn: string; startsAt: string; durationMinutes: number; mode: string }>;
  center: { name: string; address: string; city: string; state: string };
  seatNumber: number;
  accommodations: { extraTimePercent?: number; scribe?: boolean; largePrint?: boolean } | null;
  issuedAt: string;
  token: string;
}

interface CardTexts {
  title: string;
  candidate: string;
  roll: string;
  exam: string;
  season: string;
  medium: string;
  center: string;
  seat: string;
  paper: string;
  date: string;
  time: string;
  photo: string;
  accommodations: string;
  extraTime: (percent: number) => string;
  scribe: string;
  largePrint: string;
  instructionsTitle: string;
  instructions: string[];
  qr: string;
  issued: string;
  signature: string;
}

const TEXTS: Record<string, CardTexts> = {
  en: {
    title: 'Admit card (hall ticket)',
    candidate: 'Candidate',
    roll: 'Roll number',
    exam: 'Examination',
    season: 'Sitting',
    medium: 'Medium',
    center: 'Exam center',
    seat: 'Seat',
    paper: 'Paper',
    date: 'Date',
    time: 'Time',
    photo: 'Affix a recent passport-size photograph',
    accommodations: 'Approved accommodations',
    extraTime: (p) => `${p}% extra time`,
    scribe: 'scribe',
    largePrint: 'large-print paper',
    instructionsTitle: 'Instructions to the candidate',
    instructions: [
      'Bring this admit card, printed, and a photo identity card to every paper.',
      'Reach the exam center at least 30 minutes before the paper starts; the gate closes when it starts.',
      'Mobile phones, smart watches, calculators (unless allowed) and written material are not allowed in the hall.',
      'Sit only at the seat given on this card and show it to the invigilator when asked.',
      'The invigilator scans the code on this card; a card that does not scan as valid is not accepted.',
    ],
    qr: 'Verification code',
    issued: 'Issued',
    signature: 'Signature of the candidate',
  },
  hi: {
    title: 'प्रवेश पत्र',
    candidate: 'परीक्षार्थी',
    roll: 'अनुक्रमांक',
    exam: 'परीक्षा',
    season: 'सत्र',
    medium: 'माध्यम',
    center: 'परीक्षा केंद्र',
    seat: 'सीट',
    paper: 'प्रश्नपत्र',
    date: 'तिथि',
    time: 'समय',
    photo: 'हाल का पासपोर्ट आकार का फ़ोटो चिपकाएँ',
    accommodations: 'स्वीकृत सुविधाएँ',
    extraTime: (p) => `${p}% अतिरिक्त समय`,
    scribe: 'लेखक',
    largePrint: 'बड़े अक्षरों वाला प्रश्नपत्र',
    instructionsTitle: 'परीक्षार्थी के लिए निर्देश',
    instructions: [
      'हर प्रश्नपत्र में यह छपा हुआ प्रवेश पत्र और फ़ोटो पहचान पत्र साथ लाएँ।',
      'प्रश्नपत्र शुरू होने से कम से कम 30 मिनट पहले परीक्षा केंद्र पहुँचें; परीक्षा शुरू होते ही द्वार बंद हो जाएगा।',
      'मोबाइल फ़ोन, स्मार्ट घड़ी, कैलकुलेटर (अनुमति न हो तो) और लिखित सामग्री कक्ष में वर्जित हैं।',
      'केवल इस पत्र पर दी गई सीट पर बैठें और माँगे जाने पर इसे निरीक्षक को दिखाएँ।',
      'निरीक्षक इस पत्र का कोड स्कैन करेंगे; जो पत्र मान्य स्कैन न हो, वह स्वीकार नहीं होगा।',
    ],
    qr: 'सत्यापन कोड',
    issued: 'जारी करने की तिथि',
    signature: 'परीक्षार्थी के हस्ताक्षर',
  },
  gu: {
    title: 'પ્રવેશપત્ર (હૉલ ટિકિટ)',
    candidate: 'પરીક્ષાર્થી',
    roll: 'બેઠક નંબર',
    exam: 'પરીક્ષા',
    season: 'સત્ર',
    medium: 'માધ્યમ',
    center: 'પરીક્ષા કેન્દ્ર',
    seat: 'બેઠક',
    paper: 'પ્રશ્નપત્ર',
    date: 'તારીખ',
    time: 'સમય',
    photo: 'તાજેતરનો પાસપોર્ટ સાઇઝનો ફોટો ચોંટાડો',
    accommodations: 'મંજૂર સુવિધાઓ',
    extraTime: (p) => `${p}% વધારાનો સમય`,
    scribe: 'લેખનિક',
    largePrint: 'મોટા અક્ષરોવાળું પ્રશ્નપત્ર',
    instructionsTitle: 'પરીક્ષાર્થી માટે સૂચનાઓ',
    instructions: [
      'દરેક પેપરમાં આ છાપેલું પ્રવેશપત્ર અને ફોટો ઓળખપત્ર સાથે લાવો.',
      'પેપર શરૂ થાય તેના ઓછામાં ઓછા 30 મિનિટ પહેલાં પરીક્ષા કેન્દ્ર પર પહોંચો; પરીક્ષા શરૂ થતાં જ દરવાજો બંધ થશે.',
      'મોબાઇલ ફોન, સ્માર્ટ ઘડિયાળ, કેલ્ક્યુલેટર (છૂટ ન હોય તો) અને લખેલી સામગ્રી ખંડમાં લાવવાની મનાઈ છે.',
      'ફક્ત આ પત્ર પર આપેલી બેઠક પર બેસો અને માગવામાં આવે ત્યારે નિરીક્ષકને બતાવો.',
      'નિરીક્ષક આ પત્રનો કોડ સ્કેન કરશે; જે પત્ર માન્ય સ્કેન ન થાય તે સ્વીકારાશે નહીં.',
    ],
    qr: 'ચકાસણી કોડ',
    issued: 'જારી તારીખ',
    signature: 'પરીક્ષાર્થીની સહી',
  },
  fr: {
    title: 'Convocation',
    candidate: 'Candidat',
    roll: 'Numéro de candidat',
    exam: 'Examen',
    season: 'Session',
    medium: 'Langue',
    center: 'Centre d’examen',
    seat: 'Place',
    paper: 'Épreuve',
    date: 'Date',
    time: 'Heure',
    photo: 'Collez une photo d’identité récente',
    accommodations: 'Aménagements accordés',
    extraTime: (p) => `${p} % de temps supplémentaire`,
    scribe: 'secrétaire',
    largePrint: 'sujet en gros caractères',
    instructionsTitle: 'Consignes au candidat',
    instructions: [
      'Apportez cette convocation imprimée et une pièce d’identité avec photo à chaque épreuve.',
      'Arrivez au centre au moins 30 minutes avant le début de l’épreuve ; l’accès ferme au début.',
      'Téléphones, montres connectées, calculatrices (sauf autorisation) et documents sont interdits dans la salle.',
      'Asseyez-vous uniquement à la place indiquée et présentez cette convocation à la demande du surveillant.',
      'Le surveillant scanne le code de cette convocation ; une convocation non valide n’est pas acceptée.',
    ],
    qr: 'Code de vérification',
    issued: 'Émise le',
    signature: 'Signature du candidat',
  },
  es: {
    title: 'Pase de examen',
    candidate: 'Candidato',
    roll: 'Número de candidato',
    exam: 'Examen',
    season: 'Convocatoria',
    medium: 'Idioma',
    center: 'Centro de examen',
    seat: 'Puesto',
    paper: 'Prueba',
    date: 'Fecha',
    time: 'Hora',
    photo: 'Pegue una fotografía reciente tamaño carné',
    accommodations: 'Adaptaciones aprobadas',
    extraTime: (p) => `${p} % de tiempo adicional`,
    scribe: 'escribiente',
    largePrint: 'prueba en letra grande',
    instructionsTitle: 'Instrucciones para el candidato',
    instructions: [
      'Traiga este pase impreso y un documento de identidad con foto a cada prueba.',
      'Llegue al centro al menos 30 minutos antes del inicio; el acceso se cierra al comenzar.',
      'No se permiten móviles, relojes inteligentes, calculadoras (salvo autorización) ni material escrito en la sala.',
      'Siéntese solo en el puesto indicado y muestre este pase cuando el vigilante lo pida.',
      'El vigilante escanea el código de este pase; un pase que no resulte válido no se acepta.',
    ],
    qr: 'Código de verificación',
    issued: 'Emitido',
    signature: 'Firma del candidato',
  },
};

const LANGUAGE_NAMES: Record<string, string> = { en: 'English', hi: 'हिन्दी', gu: 'ગુજરાતી', fr: 'Français', es: 'Español' };

/** The texts of a medium (`hi`, `gu-IN`, `en` …); English for a language without its own. */
export function cardTexts(medium: string): { language: string; texts: CardTexts } {
  const language = medium.toLowerCase().split('-')[0];
  return TEXTS[language] ? { language, texts: TEXTS[language] } : { language: 'en', texts: TEXTS.en };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function endOf(startsAt: string, minutes: number): string {
  const total = Number(startsAt.slice(0, 2)) * 60 + Number(startsAt.slice(3, 5)) + minutes;
  const clock = total % 1440;
  return `${String(Math.floor(clock / 60)).padStart(2, '0')}:${String(clock % 60).padStart(2, '0')}${total >= 1440 ? ' (+1)' : ''}`;
}

/** The QR code of the token as a PNG data URL (error correction M: survives a smudged print). */
export function qrDataUrl(token: string): Promise<string> {
  return QRCode.toDataURL(token, { errorCorrectionLevel: 'M', margin: 2, scale: 6, type: 'image/png' });
}

/** The page's own rules: the same for every card. */
const CARD_CSS = `
@page { size: A4; margin: 14mm; }
* { box-sizing: border-box; }
body { font-family: 'DejaVu Sans', 'Liberation Sans', 'Noto Sans Devanagari', 'Noto Sans Gujarati', sans-serif; font-size: 10pt; line-height: 1.45; color: #000; margin: 0; }
[lang=hi] { font-family: 'Noto Sans Devanagari', 'DejaVu Sans', sans-serif; }
[lang=gu] { font-family: 'Noto Sans Gujarati', 'DejaVu Sans', sans-serif; }
.en { color: #333; font-size: 8.5pt; }
header { border-bottom: 2px solid #000; padding-bottom: 3mm; margin-bottom: 4mm; text-align: center; }
header h1 { font-size: 16pt; margin: 0; }
header p { margin: 1mm 0 0; }
.top { display: grid; grid-template-columns: 1fr 36mm; gap: 5mm; }
dl { display: grid; grid-template-columns: 46mm 1fr; gap: 1.5mm 3mm; margin: 0; }
dt { font-weight: 700; }
dd { margin: 0; }
.roll { font-size: 15pt; font-weight: 700; letter-spacing: 0.5mm; font-family: 'DejaVu Sans Mono', monospace; }
.photo { width: 36mm; height: 45mm; border: 1px dashed #000; display: flex; align-items: center; justify-content: center; text-align: center; font-size: 8pt; padding: 2mm; }
table { width: 100%; border-collapse: collapse; margin: 5mm 0 3mm; }
th, td { border: 1px solid #000; padding: 1.5mm 2mm; text-align: left; vertical-align: top; }
th { background: #eee; }
.center { border: 1px solid #000; padding: 2mm 3mm; }
.bottom { display: grid; grid-template-columns: 1fr 50mm; gap: 5mm; margin-top: 5mm; }
.instructions ol { margin: 1mm 0 0; padding-left: 5mm; }
.instructions li { margin-bottom: 1mm; }
.qr { text-align: center; }
.qr img { width: 46mm; height: 46mm; image-rendering: pixelated; }
.token { font-family: 'DejaVu Sans Mono', monospace; font-size: 6.5pt; word-break: break-all; text-align: left; }
.sign { margin-top: 12mm; display: flex; justify-content: space-between; }
.sign span { border-top: 1px solid #000; padding-top: 1mm; min-width: 60mm; text-align: center; }
`;

/**
 * The head every card shares: `fontCss` holds the @font-face rules of the Indic faces (the paper
 * print's). The printer keeps a page with it loaded and fonts decoded, and fills in each card's
 * body (docs/decisions/0237).
 */
export function admitCardShell(fontCss: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title></title><style>\n${fontCss}\n${CARD_CSS}</style></head><body></body></html>`;
}

/** One card: its language, the document's title and the body's HTML (every text escaped). */
export interface CardPage {
  lang: string;
  title: string;
  body: string;
}

export function admitCardPage(card: AdmitCardPrint, qr: string): CardPage {
  const { language, texts: t } = cardTexts(card.medium);
  const en = TEXTS.en;
  // Labels in the medium, with English beside them when the medium is another language.
  const label = (key: Exclude<keyof CardTexts, 'extraTime' | 'instructions'>) =>
    language === 'en' ? escapeHtml(en[key]) : `<span lang="${language}">${escapeHtml(t[key])}</span> <span class="en">/ ${escapeHtml(en[key])}</span>`;
  const accommodations = card.accommodations
    ? [
        card.accommodations.extraTimePercent ? t.extraTime(card.accommodations.extraTimePercent) : '',
        card.accommodations.scribe ? t.scribe : '',
        card.accommodations.largePrint ? t.largePrint : '',
      ].filter(Boolean)
    : [];
  const rows = card.papers
    .map(
      (p) =>
        `<tr><td><b>${escapeHtml(p.paperCode)}</b><br>${escapeHtml(p.paperTitle)}</td><td>${escapeHtml(p.sitsOn)}</td><td>${escapeHtml(p.startsAt)}–${escapeHtml(endOf(p.startsAt, p.durationMinutes))}</td></tr>`,
    )
    .join('');
  const tokenLines = card.token.match(/.{1,38}/g)!.join('<br>');
  const address = [card.center.name, card.center.address, [card.center.city, card.center.state].filter(Boolean).join(', ')].filter(Boolean);
  return {
    lang: language,
    title: `${en.title} ${card.rollNumber}`,
    body: `<header><h1>${label('title')}</h1><p>${escapeHtml(card.projectName)} · ${escapeHtml(card.examName)} · ${escapeHtml(card.seasonName)}</p></header>
<section class="top">
<dl>
<dt>${label('candidate')}</dt><dd data-field="name">${escapeHtml(card.candidateName)}</dd>
<dt>${label('roll')}</dt><dd class="roll" data-field="roll">${escapeHtml(card.rollNumber)}</dd>
<dt>${label('exam')}</dt><dd>${escapeHtml(card.examName)}</dd>
<dt>${label('season')}</dt><dd>${escapeHtml(card.seasonName)}</dd>
<dt>${label('medium')}</dt><dd><span lang="${language}">${escapeHtml(LANGUAGE_NAMES[language] ?? card.medium)}</span></dd>
<dt>${label('seat')}</dt><dd>${card.seatNumber}</dd>
${accommodations.length ? `<dt>${label('accommodations')}</dt><dd lang="${language}">${accommodations.map(escapeHtml).join(', ')}</dd>` : ''}
</dl>
<div class="photo" lang="${language}">${escapeHtml(t.photo)}</div>
</section>
<table><thead><tr><th>${label('paper')}</th><th>${label('date')}</th><th>${label('time')}</th></tr></thead><tbody>${rows}</tbody></table>
<div class="center"><b>${label('center')}</b><br>${address.map(escapeHtml).join('<br>')}</div>
<section class="bottom">
<div class="instructions" lang="${language}"><b>${escapeHtml(t.instructionsTitle)}</b><ol>${t.instructions.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ol></div>
<div class="qr"><img src="${qr}" alt="${escapeHtml(en.qr)}"><div>${label('qr')}</div><div class="token" data-field="token">${tokenLines}</div></div>
</section>
<div class="sign"><span>${label('signature')}</span><span>${label('issued')}: ${escapeHtml(card.issuedAt.slice(0, 10))}</span></div>
`,
  };
}

/** The card as one self-contained page (the same document the printer fills in from the shell). */
export function admitCardHtml(card: AdmitCardPrint, qr: string, fontCss: string): string {
  const page = admitCardPage(card, qr);
  return admitCardShell(fontCss)
    .replace('<html>', () => `<html lang="${page.lang}">`)
    .replace('<title></title>', () => `<title>${escapeHtml(page.title)}</title>`)
    .replace('<body></body>', () => `<body>\n${page.body}</body>`);
}
