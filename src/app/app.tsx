import { Suspense, type ReactNode } from 'react';
import { Route, Switch } from 'wouter';
import { lazyChunk } from '#src/lib/lazy-chunk.ts';
import { protectedRoute } from './auth/require-session.tsx';
import { afterFirstContent } from './content-rendered.tsx';
import { ScrollToTop } from './scroll-to-top.tsx';
import { PageLoader } from './page-loader.tsx';

// Real-time pushes (issue 8): their code loads after the first content; the socket opens once someone is signed in.
afterFirstContent(() => void import('./realtime/realtime-boot.ts').then(({ bootRealtime }) => bootRealtime()).catch((error: unknown) => console.warn('The realtime connection could not start', error)));

// The shell loads with the first dashboard route, so the sign-in screens do not carry it (docs/decisions/0063).
const DashboardLayout = lazyChunk<{ children: ReactNode }>(async () => ({ default: (await import('./shell/dashboard-layout.tsx')).DashboardLayout }));
const DashboardPage = lazyChunk(() => import('#src/features/dashboard/dashboard-page.tsx'));
const NotFoundPage = lazyChunk(() => import('./not-found-page.tsx'));
const MyTicketsPage = lazyChunk(() => import('#src/features/tickets/my-tickets-page.tsx'));
const TicketPage = lazyChunk(() => import('#src/features/tickets/ticket-page.tsx'));
const SupportDeskPage = lazyChunk(() => import('#src/features/tickets/support-desk-page.tsx'));
const SupportGroupsPage = lazyChunk(() => import('#src/features/tickets/support-groups-page.tsx'));
const MachinesPage = lazyChunk(() => import('#src/features/machines/machines-page.tsx'));
const SignInPage = lazyChunk(() => import('#src/features/auth/sign-in-page.tsx'));
const ForgotPasswordPage = lazyChunk(() => import('#src/features/auth/forgot-password-page.tsx'));
const ResetPasswordPage = lazyChunk(() => import('#src/features/auth/reset-password-page.tsx'));
const FirstLoginPage = lazyChunk(() => import('#src/features/auth/first-login-page.tsx'));
const ConfirmEmailPage = lazyChunk(() => import('#src/features/auth/confirm-email-page.tsx'));
const RegisterPage = lazyChunk(() => import('#src/features/auth/register-page.tsx'));
const ChangePasswordPage = lazyChunk(() => import('#src/features/auth/change-password-page.tsx'));
const UsersPage = lazyChunk(() => import('#src/features/users/users-page.tsx'));
const BulkUploadPage = lazyChunk(() => import('#src/features/users/bulk-upload-page.tsx'));
const RolesPage = lazyChunk(() => import('#src/features/users/roles-page.tsx'));
const AdminLoginHistoryPage = lazyChunk(() => import('#src/features/users/login-history-page.tsx'));
const OwnLoginHistoryPage = lazyChunk(async () => ({ default: (await import('#src/features/users/login-history-page.tsx')).OwnLoginHistoryPage }));
const AccountPage = lazyChunk(() => import('#src/features/users/account-page.tsx'));

/** The main application: the lazily loaded chunk rendered inside the router (spec §2). */
export default function App() {
  return (
    <>
      <ScrollToTop />
      <Suspense fallback={<PageLoader />}>
        <Switch>
          <Route path="/login" component={SignInPage} />
          <Route path="/forgot-password" component={ForgotPasswordPage} />
          <Route path="/reset-password" component={ResetPasswordPage} />
          <Route path="/first-login" component={FirstLoginPage} />
          <Route path="/confirm-email" component={ConfirmEmailPage} />
          <Route path="/register" component={RegisterPage} />
          <Route>
            <DashboardLayout>
              <Switch>
                <Route path="/" component={DashboardPage} />
                <Route path="/tickets" component={protectedRoute(MyTicketsPage)} />
                <Route path="/tickets/:ticketId" component={protectedRoute(TicketPage)} />
                <Route path="/support" component={protectedRoute(SupportDeskPage)} />
                <Route path="/support/groups" component={protectedRoute(SupportGroupsPage)} />
                <Route path="/change-password" component={protectedRoute(ChangePasswordPage)} />
                <Route path="/users" component={protectedRoute(UsersPage)} />
                <Route path="/users/bulk-upload" component={protectedRoute(BulkUploadPage)} />
                <Route path="/users/:userId/login-history" component={protectedRoute(AdminLoginHistoryPage)} />
                <Route path="/roles" component={protectedRoute(RolesPage)} />
                <Route path="/login-history" component={protectedRoute(AdminLoginHistoryPage)} />
                <Route path="/account" component={protectedRoute(AccountPage)} />
                <Route path="/account/login-history" component={protectedRoute(OwnLoginHistoryPage)} />
                <Route path="/machines" component={protectedRoute(MachinesPage)} />
                <Route path="/machines/:machineId" component={protectedRoute(MachinesPage)} />
                <Route component={NotFoundPage} />
              </Switch>
            </DashboardLayout>
          </Route>
        </Switch>
      </Suspense>
    </>
  );
}
