import type { MailCatalog } from '../mail-catalog.ts';

export const fr: MailCatalog = {
  greeting: (name) => `Bonjour ${name},`,
  greetingNoName: 'Bonjour,',
  linkFallback: 'Si le bouton ne fonctionne pas, copiez cette adresse dans votre navigateur :',
  automated: 'Cet e-mail a été envoyé automatiquement par Exam Portal. Merci de ne pas y répondre.',
  signInCode: {
    subject: 'Votre code de connexion Exam Portal',
    preheader: 'Utilisez ce code pour terminer votre connexion.',
    intro: 'Utilisez ce code pour terminer votre connexion à Exam Portal :',
    codeLabel: 'Votre code',
    expiry: (minutes) => `Le code ne fonctionne qu’une seule fois et expire dans ${minutes} minutes.`,
    notYou:
      'Si vous n’avez pas essayé de vous connecter, quelqu’un connaît peut-être votre mot de passe. Changez-le dès que possible.',
  },
  confirmEmail: {
    subject: 'Confirmez votre adresse e-mail',
    preheader: 'Plus qu’une étape pour activer votre compte Exam Portal.',
    intro: 'Merci de vous être inscrit sur Exam Portal. Veuillez confirmer que cette adresse e-mail vous appartient.',
    action: 'Confirmer l’adresse e-mail',
    expiry: (hours) => `Ce lien ne fonctionne qu’une seule fois et expire dans ${hours} heures.`,
    notYou: 'Si vous n’avez pas créé de compte, vous pouvez ignorer cet e-mail.',
  },
  resetPassword: {
    subject: 'Réinitialisez votre mot de passe Exam Portal',
    preheader: 'Un lien pour choisir un nouveau mot de passe.',
    intro: 'Nous avons reçu une demande de réinitialisation du mot de passe de votre compte Exam Portal.',
    action: 'Choisir un nouveau mot de passe',
    expiry: (minutes) => `Ce lien ne fonctionne qu’une seule fois et expire dans ${minutes} minutes.`,
    notYou: 'Si vous n’êtes pas à l’origine de cette demande, ignorez cet e-mail : votre mot de passe reste inchangé.',
  },
  invitation: {
    subject: 'Vous êtes invité sur Exam Portal',
    preheader: 'Définissez votre mot de passe pour commencer à utiliser votre compte.',
    intro: 'Un compte Exam Portal a été créé pour vous. Définissez votre mot de passe pour vous connecter la première fois.',
    action: 'Définir mon mot de passe',
    expiry: (hours) => `Ce lien ne fonctionne qu’une seule fois et expire dans ${hours} heures.`,
    notYou: 'Si vous n’attendiez pas cette invitation, vous pouvez ignorer cet e-mail.',
  },
  accountExists: {
    subject: 'Vous avez déjà un compte Exam Portal',
    preheader: 'Quelqu’un a essayé de s’inscrire avec cette adresse e-mail.',
    intro:
      'Quelqu’un a essayé de créer un nouveau compte Exam Portal avec cette adresse e-mail, mais un compte existe déjà pour cette adresse.',
    signIn: 'Se connecter',
    forgot: 'Si vous avez oublié votre mot de passe, vous pouvez le réinitialiser ici :',
    notYou: 'Si ce n’était pas vous, ignorez cet e-mail : rien n’a changé.',
  },
  passwordChanged: {
    subject: 'Le mot de passe de votre compte Exam Portal a été modifié',
    preheader: 'Toutes vos autres sessions ont été fermées.',
    intro: 'Le mot de passe de votre compte Exam Portal vient d’être modifié, et toutes vos autres sessions ont été fermées.',
    notYou: 'Si vous n’êtes pas à l’origine de ce changement, réinitialisez votre mot de passe maintenant et contactez votre administrateur :',
    action: 'Réinitialiser le mot de passe',
  },
};
