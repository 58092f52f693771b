import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { P, type Permission } from '#machines/permissions.ts';
import { authUserStore } from '#src/app/auth/auth-user-store.ts';
import { userPermissionsStore } from '#src/app/stores/slices.ts';
import { useStoreValue } from '#src/lib/use-store-value.ts';
import { ListSkeleton } from '#src/components/ui/skeleton.tsx';

// Each role's cards are a chunk of their own: a candidate never loads the desk's (docs/decisions/0266).
const CandidateCards = lazy(() => import('./sections/candidate-cards.tsx'));
const SupportAgentCards = lazy(() => import('./sections/support-agent-cards.tsx'));
const SupportAdminCards = lazy(() => import('./sections/support-admin-cards.tsx'));
const ExamCards = lazy(() => import('./sections/exam-cards.tsx'));
const AdminCards = lazy(() => import('./sections/admin-cards.tsx'));

/** Which dashboards a signed-in user gets, from their permissions (machines/permissions.ts roles). */
export function dashboardsFor(permissions: readonly string[]) {
  const has = (p: Permission) => permissions.includes(p);
  const staff = has(P.SupportTickets.Work) || has(P.Projects.View) || has(P.Users.Create) || has(P.Machines.View);
  return {
    candidate: has(P.Dashboard.View) && !staff,
    supportAgent: has(P.SupportTickets.Work) && !has(P.SupportTickets.Administer),
    supportAdmin: has(P.SupportTickets.Administer),
    exams: has(P.Projects.View),
    // User administration: each card needs its own permission; only administrators (who create users) get the section.
    admin: has(P.Users.Create)
      ? { users: has(P.Users.View), jobs: has(P.Users.Import), directory: has(P.DirectoryUsers.Search), signIns: has(P.LoginHistory.View) }
      : null,
  };
}

/** "morning" before 12:00, "afternoon" before 17:00, else "evening" (the user's clock). */
export function partOfDay(hour: number): 'morning' | 'afternoon' | 'evening' {
  return hour < 12 ? 'morning' : hour < 17 ? 'afternoon' : 'evening';
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className={css({ mt: '6' })}>
      <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>{title}</h2>
      {children}
    </div>
  );
}

/**
 * The cards of `/` for the signed-in user's roles (issue 21), loaded after the dashboard's first
 * content (docs/decisions/0265). A visitor sees none.
 */
export default function DashboardCardsPage() {
  const { t } = useTranslation('dashboard');
  const user = useStoreValue(authUserStore, (s) => (s.context.isLoggedIn ? s.context.user : null));
  const permissions = useStoreValue(userPermissionsStore, (s) => s.context.permissions);
  if (!user) return null;
  const show = dashboardsFor(permissions);
  const name = [user.name].filter(Boolean).join(' ');
  return (
    <div data-testid="dashboard-cards">
      <p className={css({ mt: '4', fontSize: 'lg' })} data-testid="dashboard-greeting">
        {name ? t(`greeting.${partOfDay(new Date().getHours())}`, { name }) : t(`greeting.${partOfDay(new Date().getHours())}Anonymous`)}
      </p>
      {/*
       * One boundary for every section: the sections come together, each card with its own
       * skeleton, below the greeting. A placeholder per section, replaced by cards of another
       * height, moved every section below it (layout shift 0.24 on a phone, issue 22).
       */}
      <Suspense fallback={<ListSkeleton rows={3} columns={2} />}>
        <Sections show={show} />
      </Suspense>
    </div>
  );
}

function Sections({ show }: { show: ReturnType<typeof dashboardsFor> }) {
  const { t } = useTranslation('dashboard');
  return (
    <>
      {show.candidate ? (
        <Section title={t('candidate.title')}>
          <CandidateCards />
        </Section>
      ) : null}
      {show.supportAgent ? (
        <Section title={t('agent.title')}>
          <SupportAgentCards />
        </Section>
      ) : null}
      {show.exams ? (
        <Section title={t('exams.title')}>
          <ExamCards />
        </Section>
      ) : null}
      {show.admin ? (
        <Section title={t('users.title')}>
          <AdminCards show={show.admin} />
        </Section>
      ) : null}
      {show.supportAdmin ? (
        <Section title={t('admin.title')}>
          <SupportAdminCards />
        </Section>
      ) : null}
    </>
  );
}
