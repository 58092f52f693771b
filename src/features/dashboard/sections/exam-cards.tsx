import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { projectStore } from '#src/app/stores/slices.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Link } from '#src/components/ui/link.tsx';
import { languageName } from '#src/lib/language-name.ts';
import { useStoreValue } from '#src/lib/use-store-value.ts';
import { dashboardApi } from '../api/dashboard-api.ts';
import { cardGrid, cardList, cardRow, DashboardCard, Figures, muted } from '../components/dashboard-card.tsx';

const meter = css({ height: '2', borderRadius: 'full', bg: 'bg.muted', overflow: 'hidden', minWidth: '24', flex: 1 });
const meterFill = css({ display: 'block', height: '100%', bg: 'primary.main' });

/** A bar from 0 to 100 %, with its figures in words next to it (the bar itself is decorative). */
function Meter({ value, max }: { value: number; max: number }) {
  const percent = max > 0 ? Math.min(100, Math.round((value / max) * 100)) : 0;
  return (
    <span aria-hidden="true" className={meter}>
      <span className={meterFill} style={{ width: `${percent}%` }} />
    </span>
  );
}

/**
 * The exam manager's and project admin's dashboard (issue 21): the selected project's items by
 * status and language coverage, papers by status, registrations per center against capacity,
 * the sittings under way, and the marking progress of its exams. Without a selected project it asks for one.
 */
export default function ExamCards() {
  const { t, i18n } = useTranslation('dashboard');
  const project = useStoreValue(projectStore, (s) => s.context.selected);
  if (!project)
    return (
      <div className={cardGrid} data-testid="dashboard-exams">
        <p className={muted} data-testid="dashboard-exams-choose">
          {t('exams.chooseProject')}{' '}
          <Link to="/projects" className={css({ color: 'primary.main', textDecoration: 'underline' })}>
            {t('exams.projects')}
          </Link>
        </p>
      </div>
    );
  // The cards reload when another project is chosen (a new key: new loader actors).
  const key = String(project.projectId ?? project.id ?? project.code ?? '');
  return (
    <div className={cardGrid} data-testid="dashboard-exams" key={key}>
      <DashboardCard id="items" title={t('exams.items.title')} to="/items" linkLabel={t('exams.items.all')} load={dashboardApi.items}>
        {(items) => (
          <div className={css({ display: 'grid', gap: '3' })}>
            <Figures
              testId="items-status"
              items={items.byStatus.map((s) => ({ key: s.status, label: t(`status.${s.status}`, { ns: 'items', defaultValue: s.status }), value: s.count }))}
            />
            <ul className={cardList} aria-label={t('exams.items.coverage')} data-testid="items-languages">
              {items.languages.map((l) => (
                <li key={l.language} className={cardRow}>
                  <span className={css({ minWidth: '24' })}>{languageName(l.language, i18n.language)}</span>
                  <Meter value={l.count} max={items.total} />
                  <span className={muted}>{t('exams.items.ofTotal', { count: l.count, total: items.total })}</span>
                </li>
              ))}
            </ul>
          </div>
        )}
      </DashboardCard>
      <DashboardCard id="papers" title={t('exams.papers.title')} to="/workspace/papers" linkLabel={t('exams.papers.all')} load={dashboardApi.papers}>
        {(papers) => (
          <Figures
            testId="papers-status"
            items={papers.byStatus.map((s) => ({ key: s.status, label: t(`status.${s.status}`, { ns: 'papers', defaultValue: s.status }), value: s.count }))}
          />
        )}
      </DashboardCard>
      <DashboardCard id="centers" title={t('exams.centers.title')} to="/workspace/centers" linkLabel={t('exams.centers.all')} load={dashboardApi.centers}>
        {(centers) =>
          centers.length ? (
            <ul className={cardList}>
              {centers.slice(0, 6).map((c) => (
                <li key={`${c.seasonId}-${c.centerId}`} className={cardRow} data-testid={`center-${c.centerId}`}>
                  <span className={css({ fontWeight: 'medium', minWidth: '32' })}>
                    {c.centerName}, {c.city}
                  </span>
                  <Meter value={c.registrations} max={c.seats} />
                  <span className={muted}>
                    {t('exams.centers.load', { registrations: c.registrations, seats: c.seats, capacity: c.capacity, season: c.seasonName })}
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className={muted}>{t('exams.centers.none')}</p>
          )
        }
      </DashboardCard>
      <DashboardCard id="deliveries" title={t('exams.deliveries.title')} to="/invigilate" linkLabel={t('exams.deliveries.all')} load={dashboardApi.deliveries}>
        {(live) =>
          live.length ? (
            <ul className={cardList}>
              {live.map((d) => (
                <li key={d.seasonPaperId} className={cardRow} data-testid={`live-${d.seasonPaperId}`}>
                  <span className={css({ fontWeight: 'medium' })}>
                    {d.paperTitle} · {d.seasonName}
                  </span>
                  <Badge tone="success">{t('exams.deliveries.active', { count: d.active })}</Badge>
                  <Badge tone="warning">{t('exams.deliveries.paused', { count: d.paused })}</Badge>
                  <Badge tone="neutral">{t('exams.deliveries.waiting', { count: d.waiting })}</Badge>
                  <Badge tone="info">{t('exams.deliveries.finished', { count: d.finished })}</Badge>
                </li>
              ))}
            </ul>
          ) : (
            <p className={muted}>{t('exams.deliveries.none')}</p>
          )
        }
      </DashboardCard>
      <DashboardCard id="marking" title={t('exams.marking.title')} to="/results?view=marking" linkLabel={t('exams.marking.all')} load={dashboardApi.marking}>
        {(exams) =>
          exams.length ? (
            <ul className={cardList}>
              {exams.map((e) => (
                <li key={e.examId} className={cardRow} data-testid={`marking-${e.examId}`}>
                  <span className={css({ fontWeight: 'medium', minWidth: '32' })}>{e.examName}</span>
                  <Meter value={e.scriptsMarked} max={e.scripts} />
                  <span className={muted} data-testid={`marking-${e.examId}-scripts`}>
                    {t('exams.marking.scripts', { marked: e.scriptsMarked, count: e.scripts })}
                  </span>
                  <span className={muted}>{t('exams.marking.tasks', { marked: e.tasksMarked, count: e.tasks, evaluators: e.evaluators })}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className={muted}>{t('exams.marking.none')}</p>
          )
        }
      </DashboardCard>
    </div>
  );
}
