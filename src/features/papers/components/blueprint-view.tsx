import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import type { BlueprintWarning } from '#machines/papers/blueprint.ts';
import { DIFFICULTIES } from '#machines/papers/paper-records.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { papersApi, type BlueprintAnswer, type PaperRecord } from '../api/papers-api.ts';

const table = css({ width: '100%', borderCollapse: 'collapse', fontSize: 'sm', '& th, & td': { borderWidth: '1px', borderColor: 'border', px: '2', py: '1' } });
const th = css({ textAlign: 'start', fontWeight: 'semibold', bg: 'bg.subtle' });
const num = css({ textAlign: 'end', fontVariantNumeric: 'tabular-nums' });
const heading = css({ fontWeight: 'semibold', fontSize: 'md', mt: '2' });

/**
 * The blueprint of a paper (issue 17): marks and counts by section × category × difficulty,
 * totals by category and by difficulty, language coverage (which fixed items lack a language,
 * how many items of the draw pools do) and the warnings, blocking ones first. The server computes
 * it (machines/papers/blueprint.ts); it is read again whenever the paper changes.
 */
export function BlueprintView({ paper, labels }: { paper: PaperRecord; labels: ReadonlyMap<string, string> }) {
  const { t } = useTranslation('papers');
  const [blueprint, setBlueprint] = useState<BlueprintAnswer | null>(null);
  const [error, setError] = useState<unknown>(null);
  const errorText = useErrorText(error);
  const load = useCallback(() => {
    setError(null);
    papersApi.blueprint(paper.paperId).then(setBlueprint, (failure: unknown) => setError(failure ?? new Error('failed')));
  }, [paper.paperId]);
  useEffect(() => {
    load();
    // Read again after every change of the paper (its version moves).
  }, [load, paper.version]);

  if (error) return <ErrorState message={errorText ?? t('blueprint.failed')} onRetry={load} />;
  if (!blueprint) return <LoadingState />;

  const categoryName = (id: string | null) =>
    id === null ? t('blueprint.noCategory') : (blueprint.byCategory.find((c) => c.categoryId === id)?.categoryName ?? `#${id}`);
  const difficulties = [...DIFFICULTIES, null] as const;
  const shownDifficulties = difficulties.filter((d) => blueprint.byDifficulty.some((b) => b.difficulty === d));
  const warnings = [...blueprint.warnings].sort((a, b) => Number(b.blocking) - Number(a.blocking));
  const sectionTitle = (id: string) => blueprint.sections.find((s) => s.sectionId === id)?.title ?? id;

  const warningText = (w: BlueprintWarning) => {
    switch (w.code) {
      case 'totalMismatch':
        return t('blueprint.warning.totalMismatch', { declared: w.declared, computed: w.computed });
      case 'emptySection':
        return t('blueprint.warning.emptySection', { section: sectionTitle(w.sectionId) });
      case 'attemptAnyTooLarge':
        return t('blueprint.warning.attemptAnyTooLarge', { section: sectionTitle(w.sectionId), attemptAny: w.attemptAny, count: w.count });
      case 'unknownItem':
        return t('blueprint.warning.unknownItem', { section: sectionTitle(w.sectionId), item: labels.get(w.versionId) ?? `#${w.versionId}` });
      case 'notApproved':
        return t('blueprint.warning.notApproved', { section: sectionTitle(w.sectionId), item: labels.get(w.versionId) ?? `#${w.versionId}` });
      case 'duplicateItem':
        return t('blueprint.warning.duplicateItem', { item: `#${w.itemId}`, sections: w.sectionIds.map(sectionTitle).join(', ') });
      case 'drawShortfall':
        return t('blueprint.warning.drawShortfall', {
          category: categoryName(w.categoryId),
          difficulty: t(`difficulty.${w.difficulty}`),
          wanted: w.wanted,
          approved: w.approved,
        });
      case 'languageMissing':
        return t('blueprint.warning.languageMissing', { language: t(`language.${w.language}`, { defaultValue: w.language }), count: w.count });
    }
  };

  return (
    <div className={css({ display: 'grid', gap: '4' })} data-testid="blueprint">
      <p className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'center' })} data-testid="blueprint-totals">
        <span>{t('blueprint.totals', { computed: blueprint.computedMarks, declared: blueprint.declaredMarks, items: blueprint.itemCount })}</span>
        {paper.status === 'Locked' || paper.status === 'Published' ? (
          <Badge tone="info">{t('blueprint.frozen')}</Badge>
        ) : blueprint.blocking > 0 ? (
          <Badge tone="error">{t('blueprint.blocking', { count: blueprint.blocking })}</Badge>
        ) : (
          <Badge tone="success">{t('blueprint.clean')}</Badge>
        )}
      </p>

      <section aria-labelledby="bp-warnings">
        <h2 id="bp-warnings" className={heading}>
          {t('blueprint.warnings')}
        </h2>
        {warnings.length === 0 ? (
          <p data-testid="blueprint-no-warnings">{t('blueprint.noWarnings')}</p>
        ) : (
          <ul className={css({ display: 'grid', gap: '1', listStyle: 'none', p: 0, m: 0 })} data-testid="blueprint-warnings">
            {warnings.map((w, index) => (
              <li key={`${w.code}-${index}`} className={css({ display: 'flex', gap: '2', alignItems: 'baseline' })} data-code={w.code}>
                <Badge tone={w.blocking ? 'error' : 'warning'}>{w.blocking ? t('blueprint.blocks') : t('blueprint.note')}</Badge>
                <span>{warningText(w)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="bp-matrix" className={css({ overflowX: 'auto' })}>
        <h2 id="bp-matrix" className={heading}>
          {t('blueprint.matrix')}
        </h2>
        <table className={table} data-testid="blueprint-matrix">
          <caption className={css({ srOnly: true })}>{t('blueprint.matrixCaption')}</caption>
          <thead>
            <tr>
              <th scope="col" className={th}>
                {t('blueprint.section')}
              </th>
              <th scope="col" className={th}>
                {t('field.category')}
              </th>
              {shownDifficulties.map((d) => (
                <th key={d ?? 'none'} scope="col" className={th}>
                  {d ? t(`difficulty.${d}`) : t('blueprint.noDifficulty')}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {blueprint.sections.flatMap((section) => {
              const categories = [...new Set(section.cells.map((c) => c.categoryId))];
              if (categories.length === 0)
                return [
                  <tr key={section.sectionId}>
                    <th scope="row" className={th}>
                      {section.title}
                    </th>
                    <td colSpan={shownDifficulties.length + 1}>{t('blueprint.emptySection')}</td>
                  </tr>,
                ];
              return categories.map((categoryId, index) => (
                <tr key={`${section.sectionId}-${categoryId ?? 'none'}`}>
                  {index === 0 ? (
                    <th scope="row" rowSpan={categories.length} className={th}>
                      {section.title}
                      <span className={css({ display: 'block', fontWeight: 'normal', color: 'fg.muted' })}>
                        {t('blueprint.sectionTotal', { count: section.count, marks: section.marks })}
                      </span>
                    </th>
                  ) : null}
                  <td>{categoryName(categoryId)}</td>
                  {shownDifficulties.map((d) => {
                    const cell = section.cells.find((c) => c.categoryId === categoryId && c.difficulty === d);
                    return (
                      <td key={d ?? 'none'} className={num}>
                        {cell ? t('blueprint.cell', { count: cell.count, marks: cell.marks }) : '—'}
                      </td>
                    );
                  })}
                </tr>
              ));
            })}
          </tbody>
        </table>
      </section>

      <div className={css({ display: 'grid', gap: '4', gridTemplateColumns: { base: '1fr', md: '1fr 1fr' } })}>
        <section aria-labelledby="bp-category">
          <h2 id="bp-category" className={heading}>
            {t('blueprint.byCategory')}
          </h2>
          <table className={table}>
            <thead>
              <tr>
                <th scope="col" className={th}>
                  {t('field.category')}
                </th>
                <th scope="col" className={th}>
                  {t('blueprint.items')}
                </th>
                <th scope="col" className={th}>
                  {t('blueprint.marks')}
                </th>
              </tr>
            </thead>
            <tbody>
              {blueprint.byCategory.map((c) => (
                <tr key={c.categoryId ?? 'none'}>
                  <td>{categoryName(c.categoryId)}</td>
                  <td className={num}>{c.count}</td>
                  <td className={num}>{c.marks}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <section aria-labelledby="bp-difficulty">
          <h2 id="bp-difficulty" className={heading}>
            {t('blueprint.byDifficulty')}
          </h2>
          <table className={table}>
            <thead>
              <tr>
                <th scope="col" className={th}>
                  {t('field.difficulty')}
                </th>
                <th scope="col" className={th}>
                  {t('blueprint.items')}
                </th>
                <th scope="col" className={th}>
                  {t('blueprint.marks')}
                </th>
              </tr>
            </thead>
            <tbody>
              {blueprint.byDifficulty.map((d) => (
                <tr key={d.difficulty ?? 'none'}>
                  <td>{d.difficulty ? t(`difficulty.${d.difficulty}`) : t('blueprint.noDifficulty')}</td>
                  <td className={num}>{d.count}</td>
                  <td className={num}>{d.marks}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </div>

      <section aria-labelledby="bp-languages">
        <h2 id="bp-languages" className={heading}>
          {t('blueprint.languages')}
        </h2>
        <ul className={css({ display: 'grid', gap: '1', listStyle: 'none', p: 0, m: 0 })} data-testid="blueprint-languages">
          {blueprint.languages.map((l) => (
            <li key={l.language} data-testid={`coverage-${l.language}`}>
              <strong>{t(`language.${l.language}`, { defaultValue: l.language })}</strong>:{' '}
              {l.missing.length === 0 && l.drawPoolMissing === 0
                ? t('blueprint.covered')
                : [
                    l.missing.length
                      ? t('blueprint.missingFixed', { count: l.missing.length, items: l.missing.map((v) => labels.get(v) ?? `#${v}`).join('; ') })
                      : null,
                    l.drawPoolMissing ? t('blueprint.missingPool', { count: l.drawPoolMissing }) : null,
                  ]
                    .filter(Boolean)
                    .join(' ')}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
