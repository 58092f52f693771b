import { useStoreValue } from '#src/lib/use-store-value.ts';
import { useTranslation } from 'react-i18next';
import { Link } from '#src/components/ui/link.tsx';
import { css } from '#styled-system/css';
import { Icon } from '#src/components/ui/icons.tsx';
import { appConfig } from '#src/lib/config.ts';
import { crumbsOf, inWorkspace } from '../routing/route-handle.ts';
import { useRouteMatches } from '../routing/use-route-matches.ts';
import { menuStore } from '../stores/menu-store.ts';
import { examStore, projectStore } from '../stores/slices.ts';

const list = css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '1', listStyle: 'none', m: 0, p: 0, fontSize: 'sm' });
const separator = css({ color: 'fg.muted', display: 'inline-flex', _rtl: { transform: 'scaleX(-1)' } });

/** Home › group › page (from the route table), then any dynamic crumbs a screen set (e.g. a ticket title). */
export function Breadcrumbs() {
  const { t } = useTranslation();
  const matches = useRouteMatches();
  const dynamic = useStoreValue(menuStore, (s) => s.context.selectedDynamicBreadCrumData);
  const project = useStoreValue(projectStore, (s) => s.context.selected);
  const exam = useStoreValue(examStore, (s) => s.context.selected);

  // Home is where the app lands (runtime configuration `defaultPath`, '/' by default).
  const crumbs: Array<{ label: string; to?: string }> = [{ label: t('shell.home'), to: appConfig.defaultPath }];
  for (const crumb of crumbsOf(matches)) crumbs.push({ label: t(crumb.text.key, { ns: crumb.text.ns ?? 'common' }), to: crumb.to });
  // Workspace screens follow the workspace bar: … › project › exam.
  if (inWorkspace(matches) && project) {
    crumbs.push({ label: String(project.name ?? project.code ?? ''), to: '/exams' });
    if (exam) crumbs.push({ label: String(exam.name ?? exam.code ?? '') });
  }
  for (const crumb of dynamic ?? []) crumbs.push({ label: crumb.title, to: crumb.path });

  return (
    <nav aria-label={t('shell.breadcrumb')} data-testid="breadcrumbs" className={css({ mb: '4' })}>
      <ol className={list}>
        {crumbs.map((crumb, index) => {
          const last = index === crumbs.length - 1;
          return (
            <li key={`${index}-${crumb.label}`} className={css({ display: 'inline-flex', alignItems: 'center', gap: '1' })}>
              {index > 0 ? (
                <span className={separator}>
                  <Icon name="chevron" size={16} />
                </span>
              ) : null}
              {last || !crumb.to ? (
                <span aria-current={last ? 'page' : undefined} className={css({ color: last ? 'fg.default' : 'fg.muted' })}>
                  {crumb.label}
                </span>
              ) : (
                <Link to={crumb.to} className={css({ color: 'primary.main', textDecoration: 'underline', textUnderlineOffset: '2px' })}>
                  {crumb.label}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
