import { SetPasswordPage } from './reset-password-page.tsx';

/** /first-login — the invitation link: choose your password (isFirstTimeLogin: true). */
export default function FirstLoginPage() {
  return <SetPasswordPage firstTime />;
}
