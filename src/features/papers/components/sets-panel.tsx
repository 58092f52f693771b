import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '#src/components/ui/link.tsx';
import { css } from '#styled-system/css';
import { PAPER_LIMITS } from '#machines/papers/paper-records.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { TextField } from '#src/components/ui/field.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { EmptyState, ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import { saveFile } from '#src/lib/save-file.ts';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { papersApi, type PaperRecord, type SetComparison, type SetList, type SetVerification } from '../api/papers-api.ts';
import { paperCallFailure, type PaperCallFailure } from '../lib/paper-errors.ts';

const table = css({
  width: '100%',
  borderCollapse: 'collapse',
  fontSize: 'sm',
  '& th, & td': { borderBottomWidth: '1px', borderColor: 'border', px: '2', py: '1.5' },
});
const th = css({ textAlign: 'start', fontWeight: 'semibold', color: 'fg.muted' });
const mono = css({ fontFamily: 'mono', fontSize: 'xs' });
const heading = css({ fontWeight: 'semibold', fontSize: 'md' });

/** The print language pairs a set offers: English with each other language of the project, or English alone. */
export function printChoices(languages: readonly string[]): string[][] {
  const others = languages.filter((l) => l !== 'en' && ['hi', 'gu', 'fr', 'es'].includes(l));
  return [...others.map((l) => ['en', l]), ['en']];
}

/**
 * The sets of a locked paper (issue 17): generate A, B, … (any number, replacing the earlier
 * ones), each with its seed and SHA-256 and a check that regenerating from the seed gives the
 * same bytes; the equivalence check; where each item sits in each set; preview and print.
 */
export function SetsPanel({
  paper,
  languages,
  labels,
  onGenerated,
  onConflict,
}: {
  paper: PaperRecord;
  languages: string[];
  labels: ReadonlyMap<string, string>;
  onGenerated: () => void;
  onConflict: (failure: PaperCallFailure) => void;
}) {
  const { t } = useTranslation('papers');
  const [list, setList] = useState<SetList | null>(null);
  const [comparison, setComparison] = useState<SetComparison | null>(null);
  const [error, setError] = useState<unknown>(null);
  const errorText = useErrorText(error);
  const [count, setCount] = useState('4');
  const [generating, setGenerating] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [verified, setVerified] = useState<Record<string, SetVerification | 'failed'>>({});
  const choices = printChoices(languages);
  const [printLanguages, setPrintLanguages] = useState(choices[0].join(','));
  const [printing, setPrinting] = useState<string | null>(null);
  const [printFailure, setPrintFailure] = useState<{ unavailable: boolean; text: string } | null>(null);
  const canGenerate = paper.actions.includes('paper.generateSets');

  const load = useCallback(() => {
    setError(null);
    Promise.all([papersApi.sets(paper.paperId), papersApi.compare(paper.paperId)]).then(
      ([sets, compared]) => {
        setList(sets);
        setComparison(compared);
      },
      (failure: unknown) => setError(failure ?? new Error('failed')),
    );
  }, [paper.paperId]);
  useEffect(() => {
    load();
  }, [load, paper.version, paper.setCount]);

  const n = Number(count);
  const countValid = Number.isInteger(n) && n >= 1 && n <= PAPER_LIMITS.sets;
  const generate = async () => {
    if (!countValid) return;
    setGenerating(true);
    setRefusal(null);
    try {
      const answer = await papersApi.generateSets(paper.paperId, n);
      setVerified({});
      void notify.success(t('sets.generated', { count: answer.sets.length }));
      onGenerated();
      load();
    } catch (failure) {
      const refused = await paperCallFailure(failure);
      if (refused.conflict) onConflict(refused);
      else setRefusal(refused.messages.join(' ') || t('sets.generateFailed'));
    } finally {
      setGenerating(false);
    }
  };

  const verify = (letter: string) =>
    papersApi.verify(paper.paperId, letter).then(
      (answer) => setVerified((v) => ({ ...v, [letter]: answer })),
      () => setVerified((v) => ({ ...v, [letter]: 'failed' })),
    );

  const print = async (letter: string, part: 'paper' | 'key') => {
    setPrinting(`${letter}-${part}`);
    setPrintFailure(null);
    try {
      const { blob, filename } = await papersApi.pdf(paper.paperId, letter, { part, languages: printLanguages.split(',') });
      saveFile(blob, filename ?? `${paper.code}-set-${letter}${part === 'key' ? '-answer-key' : ''}.pdf`);
      void notify.success(t('print.downloaded', { letter }));
    } catch (failure) {
      const refused = await paperCallFailure(failure);
      setPrintFailure(
        refused.status === 503
          ? { unavailable: true, text: refused.messages.join(' ') }
          : { unavailable: false, text: refused.messages.join(' ') || t('print.failed') },
      );
    } finally {
      setPrinting(null);
    }
  };

  const locked = paper.status === 'Locked' || paper.status === 'Published';
  return (
    <div className={css({ display: 'grid', gap: '5' })} data-testid="sets-panel">
      {!locked ? (
        <EmptyState title={t('sets.lockFirst')}>{t('sets.lockFirstHint')}</EmptyState>
      ) : canGenerate ? (
        <form
          className={css({ display: 'flex', gap: '2', alignItems: 'end', flexWrap: 'wrap' })}
          onSubmit={(event) => {
            event.preventDefault();
            void generate();
          }}
          aria-label={t('sets.generateForm')}
        >
          <TextField
            label={t('sets.howMany')}
            hint={t('sets.howManyHint', { max: PAPER_LIMITS.sets })}
            inputMode="numeric"
            value={count}
            onChange={(e) => setCount(e.target.value)}
            error={countValid ? undefined : t('sets.countInvalid', { max: PAPER_LIMITS.sets })}
            className={css({ width: '12rem' })}
            data-testid="sets-count"
          />
          <Button type="submit" loading={generating} disabled={!countValid} data-testid="sets-generate">
            {list?.sets.length ? t('sets.regenerate') : t('sets.generate')}
          </Button>
          {list?.sets.length ? <p className={css({ fontSize: 'sm', color: 'fg.muted', flexBasis: '100%' })}>{t('sets.replaceNote')}</p> : null}
        </form>
      ) : null}
      {refusal ? (
        <p role="alert" className={css({ color: 'error.dark' })} data-testid="sets-refusal">
          {refusal}
        </p>
      ) : null}

      {error ? (
        <ErrorState message={errorText ?? t('sets.failed')} onRetry={load} />
      ) : !list ? (
        locked ? (
          <LoadingState />
        ) : null
      ) : list.sets.length === 0 ? (
        locked ? (
          <EmptyState title={t('sets.none')}>{t('sets.noneHint')}</EmptyState>
        ) : null
      ) : (
        <>
          <p data-testid="sets-equivalence" className={css({ display: 'flex', gap: '2', alignItems: 'center', flexWrap: 'wrap' })}>
            {list.equivalence.equivalent ? (
              <Badge tone="success">{t('sets.equivalent')}</Badge>
            ) : (
              <Badge tone="error">{t('sets.notEquivalent', { count: list.equivalence.differences.length })}</Badge>
            )}
            <span>{t('sets.equivalenceHint')}</span>
          </p>
          {list.equivalence.differences.length ? (
            <ul role="alert" className={css({ fontSize: 'sm' })}>
              {list.equivalence.differences.map((d) => (
                <li key={`${d.letter}-${d.cell}`}>{t('sets.difference', { letter: d.letter, cell: d.cell, count: d.count, expected: d.expectedCount })}</li>
              ))}
            </ul>
          ) : null}

          <section aria-labelledby="sets-list-title" className={css({ display: 'grid', gap: '2' })}>
            <div className={css({ display: 'flex', gap: '3', alignItems: 'end', flexWrap: 'wrap', justifyContent: 'space-between' })}>
              <h2 id="sets-list-title" className={heading}>
                {t('sets.title')}
              </h2>
              <SelectField
                label={t('print.languages')}
                value={printLanguages}
                onValueChange={(value) => value && setPrintLanguages(value)}
                options={choices.map((pair) => ({ value: pair.join(','), label: pair.map((l) => t(`language.${l}`)).join(' + ') }))}
                testId="print-languages"
              />
            </div>
            {printFailure ? (
              <div
                role="alert"
                className={css({ color: 'error.dark', borderWidth: '1px', borderColor: 'error.light', borderRadius: 'md', p: '3' })}
                data-testid="print-failure"
              >
                <p className={css({ fontWeight: 'semibold' })}>{printFailure.unavailable ? t('print.unavailable') : t('print.failed')}</p>
                {printFailure.unavailable ? <p>{t('print.unavailableHint')}</p> : null}
                {printFailure.text ? <p>{printFailure.text}</p> : null}
              </div>
            ) : null}
            <div className={css({ overflowX: 'auto' })}>
              <table className={table} data-testid="sets-table">
                <caption className={css({ srOnly: true })}>{t('sets.caption')}</caption>
                <thead>
                  <tr>
                    <th scope="col" className={th}>
                      {t('sets.letter')}
                    </th>
                    <th scope="col" className={th}>
                      {t('sets.seed')}
                    </th>
                    <th scope="col" className={th}>
                      {t('sets.items')}
                    </th>
                    <th scope="col" className={th}>
                      {t('sets.check')}
                    </th>
                    <th scope="col" className={th}>
                      {t('sets.actions')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.sets.map((s) => {
                    const check = verified[s.letter];
                    return (
                      <tr key={s.letter} data-testid={`set-row-${s.letter}`}>
                        <th scope="row" className={css({ fontWeight: 'bold', fontSize: 'lg' })}>
                          {s.letter}
                        </th>
                        <td>
                          <span className={mono} data-testid={`set-seed-${s.letter}`}>
                            {s.seed}
                          </span>
                          <span className={css({ display: 'block', color: 'fg.muted' })} title={s.sha256}>
                            <span className={mono}>{t('sets.sha', { hash: s.sha256.slice(0, 12) })}</span>
                          </span>
                        </td>
                        <td>{s.set.sections.reduce((sum, sec) => sum + sec.items.length, 0)}</td>
                        <td>
                          {check === undefined ? (
                            <Button
                              size="sm"
                              variant="ghost"
                              onClick={() => void verify(s.letter)}
                              aria-label={t('sets.verifyNamed', { letter: s.letter })}
                              data-testid={`set-verify-${s.letter}`}
                            >
                              {t('sets.verify')}
                            </Button>
                          ) : check === 'failed' ? (
                            <Badge tone="error">{t('sets.verifyFailed')}</Badge>
                          ) : check.identical ? (
                            <Badge tone="success" testId={`set-identical-${s.letter}`}>
                              {t('sets.identical')}
                            </Badge>
                          ) : (
                            <Badge tone="error">{t('sets.different')}</Badge>
                          )}
                        </td>
                        <td>
                          <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center' })}>
                            <Link
                              to={`/workspace/papers/${paper.paperId}/sets/${s.letter}`}
                              className={css({ color: 'primary.dark', textDecoration: 'underline' })}
                              aria-label={t('sets.previewNamed', { letter: s.letter })}
                              data-testid={`set-preview-${s.letter}`}
                            >
                              {t('sets.preview')}
                            </Link>
                            <Button
                              size="sm"
                              variant="outline"
                              loading={printing === `${s.letter}-paper`}
                              disabled={printing !== null}
                              onClick={() => void print(s.letter, 'paper')}
                              aria-label={t('print.paperNamed', { letter: s.letter })}
                              data-testid={`set-pdf-${s.letter}`}
                            >
                              {t('print.paper')}
                            </Button>
                            <Button
                              size="sm"
                              variant="ghost"
                              loading={printing === `${s.letter}-key`}
                              disabled={printing !== null}
                              onClick={() => void print(s.letter, 'key')}
                              aria-label={t('print.keyNamed', { letter: s.letter })}
                              data-testid={`set-key-${s.letter}`}
                            >
                              {t('print.key')}
                            </Button>
                          </div>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          </section>

          {comparison && comparison.rows.length ? (
            <section aria-labelledby="sets-compare-title" className={css({ display: 'grid', gap: '2', overflowX: 'auto' })}>
              <h2 id="sets-compare-title" className={heading}>
                {t('sets.compareTitle')}
              </h2>
              <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{t('sets.compareHint')}</p>
              <table className={table} data-testid="sets-compare">
                <caption className={css({ srOnly: true })}>{t('sets.compareTitle')}</caption>
                <thead>
                  <tr>
                    <th scope="col" className={th}>
                      {t('sets.item')}
                    </th>
                    {comparison.letters.map((letter) => (
                      <th key={letter} scope="col" className={th}>
                        {t('sets.setNamed', { letter })}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {comparison.rows.map((r) => (
                    <tr key={r.versionId}>
                      <th
                        scope="row"
                        className={css({
                          fontWeight: 'normal',
                          textAlign: 'start',
                          maxWidth: '24rem',
                          overflow: 'hidden',
                          textOverflow: 'ellipsis',
                          whiteSpace: 'nowrap',
                        })}
                      >
                        {labels.get(r.versionId) ?? t('sets.drawnItem', { id: r.versionId })}
                      </th>
                      {comparison.letters.map((letter) => (
                        <td key={letter} className={css({ textAlign: 'center', fontVariantNumeric: 'tabular-nums' })}>
                          {r.positions[letter] === null || r.positions[letter] === undefined ? (
                            <span aria-label={t('sets.notInSet')}>—</span>
                          ) : (
                            t('sets.questionNumber', { n: r.positions[letter] })
                          )}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          ) : null}
        </>
      )}
    </div>
  );
}
