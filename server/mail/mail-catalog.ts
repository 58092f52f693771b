/**
 * The wording of every account e-mail in one language. Each locale file implements all of it,
 * so a missing translation is a type error, not an English sentence in a Gujarati mail.
 */
/** A mail whose point is one link; `expiry` gets hours or minutes as the mail's lifetime is counted. */
export interface LinkMailTexts {
  subject: string;
  preheader: string;
  intro: string;
  action: string;
  expiry(amount: number): string;
  notYou: string;
}

export interface MailCatalog {
  greeting(name: string): string;
  greetingNoName: string;
  linkFallback: string;
  automated: string;
  signInCode: {
    subject: string;
    preheader: string;
    intro: string;
    codeLabel: string;
    expiry(minutes: number): string;
    notYou: string;
  };
  confirmEmail: LinkMailTexts;
  resetPassword: LinkMailTexts;
  invitation: LinkMailTexts;
  accountExists: {
    subject: string;
    preheader: string;
    intro: string;
    signIn: string;
    forgot: string;
    notYou: string;
  };
  passwordChanged: {
    subject: string;
    preheader: string;
    intro: string;
    notYou: string;
    action: string;
  };
}
