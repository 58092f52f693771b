/**
 * The wording of every account e-mail in one language. Each locale file implements all of it,
 * so a missing translation is a type error, not an English sentence in a Gujarati mail.
 */
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
  confirmEmail: {
    subject: string;
    preheader: string;
    intro: string;
    action: string;
    expiry(hours: number): string;
    notYou: string;
  };
  resetPassword: {
    subject: string;
    preheader: string;
    intro: string;
    action: string;
    expiry(minutes: number): string;
    notYou: string;
  };
  invitation: {
    subject: string;
    preheader: string;
    intro: string;
    action: string;
    expiry(hours: number): string;
    notYou: string;
  };
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
