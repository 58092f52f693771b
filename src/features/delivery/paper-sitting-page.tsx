import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '#src/components/ui/link.tsx';
import { css } from '#styled-system/css';
import { P } from '#machines/permissions.ts';
import { Button } from '#src/components/ui/button.tsx';
import { TextField } from '#src/components/ui/field.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { registrationsApi } from '#src/features/seasons/index.ts';
import { PermissionGate } from '#src/features/users/index.ts';
import { paperApi, type PaperSheet, type PaperSheetRow } from './api/delivery-api.ts';
import { RoomPicker, RoomStates, type Room } from './room-picker.tsx';

/**
 * A paper sat on paper (issue 19 "offline (paper) mode", docs/decisions/0249): the invigilator
 * marks each candidate present or absent, then enters the marks of a present candidate per
 * question; the server scores the result from them as it scores online scripts.
 */
const table = css({ width: '100%', borderCollapse: 'collapse', '& th, & td': { textAlign: 'start', p: '2', borderBottomWidth: '1px' } });

function MarksForm({ sheet, row, onSaved, onClose }: { sheet: PaperSheet; row: PaperSheetRow; onSaved: (row: PaperSheetRow) => void; onClose: () => void }) {
  const { t } = useTranslation('delivery');
  const items = sheet.sets[row.setLetter] ?? [];
  const [values, setValues] = useState<Record<number, string>>(() =>
    Object.fromEntries(items.map((i) => [i.number, row.marks[String(i.number)] === undefined ? '' : String(row.marks[String(i.number)])])),
  );
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const failureText = useErrorText(failure);
  const invalid = items.filter((i) => values[i.number] !== '' && !(Number(values[i.number]) >= 0 && Number(values[i.number]) <= i.maxMarks));
  const filled = items.filter((i) => values[i.number] !== '');
  return (
    <form
      className={card}
      aria-labelledby="marks-title"
      data-testid="paper-marks-form"
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        setFailure(null);
        setSaved(false);
        paperApi
          .enter(
            sheet.seasonPaperId,
            row.registrationId,
            filled.map((i) => ({ itemNumber: i.number, marks: Number(values[i.number]) })),
          )
          .then((fresh) => {
            setSaved(true);
            onSaved(fresh);
          }, setFailure)
          .finally(() => setBusy(false));
      }}
    >
      <h2 id="marks-title" className={css({ fontSize: 'lg', fontWeight: 'semibold', mb: '2' })}>
        {t('paper.marksTitle', { name: row.candidateName, set: row.setLetter })}
      </h2>
      <div className={css({ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(9rem, 1fr))', gap: '2' })}>
        {items.map((item) => (
          <TextField
            key={item.number}
            label={t('paper.question', { number: item.number, max: item.maxMarks })}
            type="number"
            inputMode="decimal"
            min={0}
            max={item.maxMarks}
            step="any"
            value={values[item.number]}
            onChange={(e) => setValues((v) => ({ ...v, [item.number]: e.target.value }))}
            error={invalid.includes(item) ? t('paper.outOf', { max: item.maxMarks }) : undefined}
          />
        ))}
      </div>
      <div className={css({ display: 'flex', gap: '2', mt: '3', alignItems: 'center' })}>
        <Button type="submit" loading={busy} disabled={!filled.length || invalid.length > 0} data-testid="paper-marks-save">
          {t('paper.save')}
        </Button>
        <Button variant="ghost" onClick={onClose} disabled={busy}>
          {t('paper.close')}
        </Button>
        <span aria-live="polite">{saved ? t('paper.saved') : null}</span>
      </div>
      {failure ? <p role="alert">{failureText}</p> : null}
    </form>
  );
}

function PaperSittingPage() {
  const { t } = useTranslation('delivery');
  const [room, setRoom] = useState<Room | null>(null);
  const [sheet, setSheet] = useState<PaperSheet | null>(null);
  const [editing, setEditing] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const seasonPaperId = room?.seasonPaperId;
  const center = room?.centerId;

  const load = useCallback(() => {
    if (!seasonPaperId) return;
    paperApi.sheet(seasonPaperId, center).then(setSheet, setError);
  }, [seasonPaperId, center]);
  useEffect(() => {
    setSheet(null);
    setEditing(null);
    load();
  }, [load]);

  const replace = (fresh: PaperSheetRow) =>
    setSheet((s) => (s ? { ...s, candidates: s.candidates.map((c) => (c.registrationId === fresh.registrationId ? fresh : c)) } : s));
  const mark = (row: PaperSheetRow, present: boolean) =>
    registrationsApi
      .transition(row.registrationId, present ? 'registration.markAttended' : 'registration.markAbsent', row.registrationVersion)
      .then(load, setError);
  const editingRow = sheet?.candidates.find((c) => c.registrationId === editing) ?? null;

  return (
    <section>
      <PageHeader title={t('paper.title')} description={t('paper.description')} />
      <p className={css({ mb: '3' })}>
        <Link to="/invigilate">{t('paper.toConsole')}</Link>
      </p>
      <RoomPicker sitting="paper" testIdPrefix="paper" onRoomChange={setRoom} onError={setError} />
      <RoomStates
        room={room}
        loaded={sheet}
        isEmpty={(loaded) => loaded.candidates.length === 0}
        error={error}
        onRetry={() => setError(null)}
        pickTitle={t('paper.pick')}
        emptyTitle={t('paper.empty')}
      >
        {(sheet) => (
          <>
            <div className={card}>
              <table className={table} data-testid="paper-table">
                <caption className={css({ srOnly: true })}>{t('paper.title')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('console.candidate')}</th>
                    <th scope="col">{t('paper.attendance')}</th>
                    <th scope="col">{t('paper.set')}</th>
                    <th scope="col">{t('paper.total')}</th>
                    <th scope="col">{t('console.actions')}</th>
                  </tr>
                </thead>
                <tbody>
                  {sheet.candidates.map((row) => (
                    <tr key={row.registrationId} data-testid={`paper-row-${row.registrationId}`}>
                      <td>
                        {row.candidateName}
                        <br />
                        <span className={css({ color: 'fg.muted', fontSize: 'sm' })}>{row.rollNumber}</span>
                      </td>
                      <td>{t(`paper.state.${row.attendance}`)}</td>
                      <td>{row.setLetter}</td>
                      <td>{row.total === null ? '—' : row.total}</td>
                      <td className={css({ display: 'flex', flexWrap: 'wrap', gap: '1' })}>
                        {row.attendance === 'AdmitCardIssued' ? (
                          <>
                            <Button
                              size="sm"
                              variant="outline"
                              aria-label={t('console.actionFor', { action: t('paper.present'), name: row.candidateName })}
                              onClick={() => mark(row, true)}
                            >
                              {t('paper.present')}
                            </Button>
                            <Button
                              size="sm"
                              variant="ghost"
                              aria-label={t('console.actionFor', { action: t('paper.absent'), name: row.candidateName })}
                              onClick={() => mark(row, false)}
                            >
                              {t('paper.absent')}
                            </Button>
                          </>
                        ) : null}
                        {row.attendance === 'Attended' ? (
                          <Button
                            size="sm"
                            variant="outline"
                            aria-label={t('console.actionFor', { action: t('paper.enterMarks'), name: row.candidateName })}
                            onClick={() => setEditing(row.registrationId)}
                          >
                            {t('paper.enterMarks')}
                          </Button>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {editingRow ? (
              <div className={css({ mt: '4' })}>
                <MarksForm key={editingRow.registrationId} sheet={sheet} row={editingRow} onSaved={replace} onClose={() => setEditing(null)} />
              </div>
            ) : null}
          </>
        )}
      </RoomStates>
    </section>
  );
}

export default function GatedPaperSittingPage() {
  return (
    <PermissionGate permission={P.Exams.View}>
      <PaperSittingPage />
    </PermissionGate>
  );
}
