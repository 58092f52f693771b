import { useTranslation } from 'react-i18next';
import { P } from '#machines/permissions.ts';
import { projectStore } from '#src/app/stores/slices.ts';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { useStoreValue } from '#src/lib/use-store-value.ts';
import { PermissionGate } from '#src/features/users/index.ts';
import { NoProjectState } from './components/no-grant.tsx';
import { TeamPanel } from './components/team-panel.tsx';

/** The grants screen of the selected project. */
function TeamPage() {
  const { t } = useTranslation('projects');
  const project = useStoreValue(projectStore, (s) => s.context.selected);
  if (!project) return <NoProjectState />;
  const canManage = project.canConfigure === true || (Array.isArray(project.myPermissions) && project.myPermissions.includes('ProjectAdmin'));
  return (
    <section aria-labelledby="team-title">
      <PageHeader id="team-title" title={t('team.title', { project: String(project.name ?? '') })} description={t('team.intro')} />
      <div className={card}>
        <TeamPanel key={String(project.projectId)} canManage={canManage} />
      </div>
    </section>
  );
}

export default function GatedTeamPage() {
  return (
    <PermissionGate permission={P.Projects.View}>
      <TeamPage />
    </PermissionGate>
  );
}
