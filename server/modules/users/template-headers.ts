import type { MailLanguage } from '#server/mail/mail-language.ts';

/**
 * The header row of the upload template in each supported language (issue 23: the template's
 * headers were English in hi, gu and fr). The template is written in the caller's language
 * (their saved language, else Accept-Language); an upload is read whichever of these languages
 * its header row is in, and the column keys themselves (`firstName`, …) are still accepted, so
 * files made from older templates keep working.
 */
export const templateHeaders = {
  'en-IN': {
    firstName: 'First name',
    lastName: 'Last name',
    email: 'E-mail address',
    userName: 'User name',
    phoneNumber: 'Phone number',
    dateOfBirth: 'Date of birth (YYYY-MM-DD)',
    roleName: 'Role',
    newPassword: 'New password',
    confirmNewPassword: 'Confirm new password',
  },
  'en-US': {
    firstName: 'First name',
    lastName: 'Last name',
    email: 'E-mail address',
    userName: 'User name',
    phoneNumber: 'Phone number',
    dateOfBirth: 'Date of birth (YYYY-MM-DD)',
    roleName: 'Role',
    newPassword: 'New password',
    confirmNewPassword: 'Confirm new password',
  },
  fr: {
    firstName: 'Prénom',
    lastName: 'Nom',
    email: 'Adresse e-mail',
    userName: 'Nom d’utilisateur',
    phoneNumber: 'Numéro de téléphone',
    dateOfBirth: 'Date de naissance (AAAA-MM-JJ)',
    roleName: 'Rôle',
    newPassword: 'Nouveau mot de passe',
    confirmNewPassword: 'Confirmer le nouveau mot de passe',
  },
  es: {
    firstName: 'Nombre',
    lastName: 'Apellidos',
    email: 'Correo electrónico',
    userName: 'Nombre de usuario',
    phoneNumber: 'Número de teléfono',
    dateOfBirth: 'Fecha de nacimiento (AAAA-MM-DD)',
    roleName: 'Rol',
    newPassword: 'Nueva contraseña',
    confirmNewPassword: 'Confirmar la nueva contraseña',
  },
  hi: {
    firstName: 'पहला नाम',
    lastName: 'उपनाम',
    email: 'ई-मेल पता',
    userName: 'उपयोगकर्ता नाम',
    phoneNumber: 'फ़ोन नंबर',
    dateOfBirth: 'जन्म तिथि (YYYY-MM-DD)',
    roleName: 'भूमिका',
    newPassword: 'नया पासवर्ड',
    confirmNewPassword: 'नए पासवर्ड की पुष्टि',
  },
  gu: {
    firstName: 'પ્રથમ નામ',
    lastName: 'અટક',
    email: 'ઈ-મેલ સરનામું',
    userName: 'વપરાશકર્તા નામ',
    phoneNumber: 'ફોન નંબર',
    dateOfBirth: 'જન્મ તારીખ (YYYY-MM-DD)',
    roleName: 'ભૂમિકા',
    newPassword: 'નવો પાસવર્ડ',
    confirmNewPassword: 'નવા પાસવર્ડની પુષ્ટિ',
  },
} as const satisfies Record<MailLanguage, Record<string, string>>;

/** The role drop-down's messages and the Roles sheet's header, per language (sheet names stay, formulas name them). */
export const templateTexts = {
  'en-IN': { rolesHeader: 'Role', unknownRole: 'Unknown role', chooseRole: 'Choose a role from the list.' },
  'en-US': { rolesHeader: 'Role', unknownRole: 'Unknown role', chooseRole: 'Choose a role from the list.' },
  fr: { rolesHeader: 'Rôle', unknownRole: 'Rôle inconnu', chooseRole: 'Choisissez un rôle dans la liste.' },
  es: { rolesHeader: 'Rol', unknownRole: 'Rol desconocido', chooseRole: 'Elija un rol de la lista.' },
  hi: { rolesHeader: 'भूमिका', unknownRole: 'अज्ञात भूमिका', chooseRole: 'सूची से एक भूमिका चुनें।' },
  gu: { rolesHeader: 'ભૂમિકા', unknownRole: 'અજાણી ભૂમિકા', chooseRole: 'સૂચિમાંથી એક ભૂમિકા પસંદ કરો.' },
} as const satisfies Record<MailLanguage, Record<string, string>>;

/** A header cell's text as it is compared: trimmed, lower case, inner spaces folded. */
export const headerKey = (title: string) => title.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
