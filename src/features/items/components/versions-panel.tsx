import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import type { ItemDiff } from '#machines/items/item-records.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import { itemsApi, type ItemVersionSummary } from '../api/items-api.ts';
import { languageName } from '#src/lib/language-name.ts';

/** A value of a diff as short text (HTML stays text here: it is never rendered). */
export function diffText(value: unknown): string {
  if (value === undefined || value === null) return '—';
  if (typeof value === 'string') return value.length > 400 ? `${value.slice(0, 400)}…` : value;
  const json = JSON.stringify(value);
  return json.length > 400 ? `${json.slice(0, 400)}…` : json;
}

/** The item's versions (newest first) and the differences between any two of them. */
export function VersionsPanel({ itemId, versionNumber }: { itemId: number; versionNumber: number }) {
  const { t, i18n } = useTranslation('items');
  const [versions, setVersions] = useState<ItemVersionSummary[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [from, setFrom] = useState(Math.max(1, versionNumber - 1));
  const [to, setTo] = useState(versionNumber);
  const [diff, setDiff] = useState<ItemDiff | null>(null);
  const [diffFailed, setDiffFailed] = useState(false);
  useEffect(() => {
    let live = true;
    itemsApi.versions(itemId).then(
      (list) => live && setVersions(list),
      () => live && setFailed(true),
    );
    setFrom(Math.max(1, versionNumber - 1));
    setTo(versionNumber);
    setDiff(null);
    return () => {
      live = false;
    };
  }, [itemId, versionNumber]);
  const compare = async () => {
    setDiffFailed(false);
    try {
      setDiff(await itemsApi.diff(itemId, from, to));
    } catch {
      setDiffFailed(true);
    }
  };
  if (failed) return <ErrorState />;
  if (!versions) return <LoadingState />;
  const numbers = versions.map((v) => ({ value: String(v.versionNumber), label: t('versions.named', { n: v.versionNumber }) }));
  return (
    <section aria-labelledby="versions-title" className={css({ display: 'grid', gap: '3' })} data-testid="versions-panel">
      <h2 id="versions-title" className={css({ fontWeight: 'semibold', fontSize: 'lg' })}>
        {t('versions.title')}
      </h2>
      <ul className={css({ display: 'grid', gap: '1' })}>
        {versions.map((v) => (
          <li
            key={v.versionId}
            className={css({ display: 'flex', gap: '2', alignItems: 'center', flexWrap: 'wrap' })}
            data-testid={`version-${v.versionNumber}`}
          >
            <strong>{t('versions.named', { n: v.versionNumber })}</strong>
            <Badge tone={v.status === 'approved' ? 'success' : v.status === 'retired' ? 'error' : 'neutral'}>{t(`versions.status.${v.status}`)}</Badge>
            <span className={css({ color: 'fg.muted', fontSize: 'sm' })}>
              {v.languages.map((code) => t(`language.${code}`, { defaultValue: languageName(code, i18n.language) })).join(', ')}
            </span>
          </li>
        ))}
      </ul>
      {versions.length > 1 ? (
        <div className={css({ display: 'flex', gap: '3', alignItems: 'end', flexWrap: 'wrap' })}>
          <SelectField label={t('versions.from')} value={String(from)} onValueChange={(value) => setFrom(Number(value))} options={numbers} testId="diff-from" />
          <SelectField label={t('versions.to')} value={String(to)} onValueChange={(value) => setTo(Number(value))} options={numbers} testId="diff-to" />
          <Button variant="outline" onClick={() => void compare()} disabled={from === to} data-testid="diff-compare">
            {t('versions.compare')}
          </Button>
        </div>
      ) : (
        <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{t('versions.onlyOne')}</p>
      )}
      {diffFailed ? <p role="alert">{t('versions.diffFailed')}</p> : null}
      {diff ? (
        diff.changes.length === 0 ? (
          <p>{t('versions.same')}</p>
        ) : (
          <table
            className={css({
              borderCollapse: 'collapse',
              width: '100%',
              fontSize: 'sm',
              '& th, & td': { borderWidth: '1px', borderColor: 'border', p: '2', textAlign: 'start', verticalAlign: 'top' },
            })}
            data-testid="diff-table"
          >
            <caption className={css({ textAlign: 'start', fontWeight: 'medium', mb: '1' })}>
              {t('versions.diffCaption', { from: diff.from, to: diff.to })}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t('versions.path')}</th>
                <th scope="col">{t('versions.change')}</th>
                <th scope="col">{t('versions.before')}</th>
                <th scope="col">{t('versions.after')}</th>
              </tr>
            </thead>
            <tbody>
              {diff.changes.map((change) => (
                <tr key={change.path}>
                  <td className={css({ fontFamily: 'mono' })}>{change.path}</td>
                  <td>{t(`versions.kind.${change.change}`)}</td>
                  <td className={css({ whiteSpace: 'pre-wrap', wordBreak: 'break-word', bg: change.change === 'added' ? undefined : 'error.lighter' })}>
                    {diffText(change.before)}
                  </td>
                  <td className={css({ whiteSpace: 'pre-wrap', wordBreak: 'break-word', bg: change.change === 'removed' ? undefined : 'success.lighter' })}>
                    {diffText(change.after)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
    </section>
  );
}
