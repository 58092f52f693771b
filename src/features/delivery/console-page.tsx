import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '#src/components/ui/link.tsx';
import { css } from '#styled-system/css';
import { P } from '#machines/permissions.ts';
import type { DeliveryRoomData } from '#machines/realtime-protocol.ts';
import { useRealtime, useRealtimeStatus } from '#src/app/realtime/use-realtime.ts';
import { Button } from '#src/components/ui/button.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { TextAreaField, TextField } from '#src/components/ui/field.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { useFormat } from '#src/lib/format.ts';
import { PermissionGate } from '#src/features/users/index.ts';
import { consoleApi, type ConsoleRow, type InvigilatorEvent } from './api/delivery-api.ts';
import { AdmitCheck } from './console-verify.tsx';
import { RoomPicker, RoomStates, type Room } from './room-picker.tsx';

/**
 * The invigilator's console (issue 19, EXAMS.md §4): a season paper's deliveries at one center
 * (or all) with state, time left, last heartbeat, answered count and alerts; admit early, pause,
 * resume, extend time (minutes and a reason) and terminate (a reason), each kept in the
 * delivery's history by the server.
 *
 * The room is read again on each `delivery.room` push of the hub (decision 0248); the poll is
 * the fallback, every 30 s while the hub is live and every 5 s while it is not.
 */
const POLL_LIVE_MS = 30_000;
const POLL_OFFLINE_MS = 5_000;

function minutesLeft(ms: number) {
  return Math.ceil(ms / 60_000);
}

function ActDialog({
  row,
  event,
  onClose,
  onDone,
}: {
  row: ConsoleRow;
  event: 'delivery.extend' | 'delivery.terminate';
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('delivery');
  const [minutes, setMinutes] = useState('5');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog
      title={t(event === 'delivery.extend' ? 'console.extendTitle' : 'console.terminateTitle', { name: row.candidateName })}
      onClose={onClose}
      busy={busy}
      testId="console-dialog"
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        consoleApi
          .act(row.deliveryId, event, { reason, ...(event === 'delivery.extend' ? { minutes: Number(minutes) } : {}) })
          .then(onDone, () => setError(t('console.refused')))
          .finally(() => setBusy(false));
      }}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            {t('confirm.back')}
          </Button>
          <Button type="submit" loading={busy} data-testid="console-dialog-confirm" disabled={!reason.trim()}>
            {t(event === 'delivery.extend' ? 'console.extend' : 'console.terminate')}
          </Button>
        </>
      }
    >
      {event === 'delivery.extend' ? (
        <TextField label={t('console.minutes')} type="number" min={1} max={240} value={minutes} onChange={(e) => setMinutes(e.target.value)} required />
      ) : null}
      <TextAreaField label={t('console.reason')} value={reason} onChange={(e) => setReason(e.target.value)} required rows={3} />
      {error ? <p role="alert">{error}</p> : null}
    </Dialog>
  );
}

function ConsolePage() {
  const { t } = useTranslation('delivery');
  const format = useFormat();
  const [room, setRoom] = useState<Room | null>(null);
  const hub = useRealtimeStatus();
  const [rows, setRows] = useState<ConsoleRow[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [dialog, setDialog] = useState<{ row: ConsoleRow; event: 'delivery.extend' | 'delivery.terminate' } | null>(null);

  const seasonPaperId = room?.seasonPaperId;
  const center = room?.centerId;
  const load = useCallback(() => {
    if (!seasonPaperId) return;
    consoleApi.room(seasonPaperId, center).then(setRows, setError);
  }, [seasonPaperId, center]);
  useEffect(() => {
    setRows(null);
    load();
  }, [load]);
  useEffect(() => {
    const timer = setInterval(load, hub === 'live' ? POLL_LIVE_MS : POLL_OFFLINE_MS);
    return () => clearInterval(timer);
  }, [load, hub]);
  useRealtime((notice) => {
    if (notice.type === 'event' && notice.frame.kind === 'delivery.room') {
      const data = notice.frame.data as unknown as DeliveryRoomData;
      if (data.seasonPaperId === seasonPaperId && (center === undefined || data.centerId === center)) load();
    } else if (notice.type === 'resync' || (notice.type === 'connected' && notice.resumed)) load();
  });

  const act = (row: ConsoleRow, event: InvigilatorEvent) => {
    if (event === 'delivery.extend' || event === 'delivery.terminate') setDialog({ row, event });
    else consoleApi.act(row.deliveryId, event).then(load, setError);
  };

  return (
    <section>
      <PageHeader title={t('console.title')} description={t('console.description')} />
      <p className={css({ mb: '3' })}>
        <Link to="/invigilate/paper">{t('paper.fromConsole')}</Link>
      </p>
      <RoomPicker sitting="online" testIdPrefix="console" onRoomChange={setRoom} onError={setError} />
      {seasonPaperId ? <AdmitCheck seasonPaperId={seasonPaperId} centerId={center} onAdmitted={load} /> : null}
      <RoomStates
        room={room}
        loaded={rows}
        isEmpty={(loaded) => loaded.length === 0}
        error={error}
        onRetry={() => setError(null)}
        pickTitle={t('console.pick')}
        emptyTitle={t('console.empty')}
      >
        {(rows) => (
          <div className={card}>
            <table
              className={css({ width: '100%', borderCollapse: 'collapse', '& th, & td': { textAlign: 'start', p: '2', borderBottomWidth: '1px' } })}
              data-testid="console-table"
            >
              <caption className={css({ srOnly: true })}>{t('console.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('console.candidate')}</th>
                  <th scope="col">{t('console.state')}</th>
                  <th scope="col">{t('console.timeLeft')}</th>
                  <th scope="col">{t('console.heartbeat')}</th>
                  <th scope="col">{t('console.answered')}</th>
                  <th scope="col">{t('console.alerts')}</th>
                  <th scope="col">{t('console.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.deliveryId} data-testid={`console-row-${row.deliveryId}`}>
                    <td>
                      {row.candidateName}
                      <br />
                      <span className={css({ color: 'fg.muted', fontSize: 'sm' })}>{row.rollNumber}</span>
                    </td>
                    <td>{t(`status.${row.timing.status}`)}</td>
                    <td>{t('console.minutesLeft', { count: minutesLeft(row.timing.remainingMs) })}</td>
                    <td>{row.lastHeartbeat ? format.time(row.lastHeartbeat) : '—'}</td>
                    <td>{row.answered}</td>
                    <td>{row.alerts}</td>
                    <td className={css({ display: 'flex', flexWrap: 'wrap', gap: '1' })}>
                      {row.actions.map((action) => (
                        <Button
                          key={action}
                          size="sm"
                          variant={action === 'delivery.terminate' ? 'ghost' : 'outline'}
                          data-testid={`console-${action.replace('delivery.', '')}-${row.deliveryId}`}
                          aria-label={t('console.actionFor', { action: t(`console.${action.replace('delivery.', '')}`), name: row.candidateName })}
                          onClick={() => act(row, action as InvigilatorEvent)}
                        >
                          {t(`console.${action.replace('delivery.', '')}`)}
                        </Button>
                      ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </RoomStates>
      {dialog ? (
        <ActDialog
          row={dialog.row}
          event={dialog.event}
          onClose={() => setDialog(null)}
          onDone={() => {
            setDialog(null);
            load();
          }}
        />
      ) : null}
    </section>
  );
}

export default function GatedConsolePage() {
  return (
    <PermissionGate permission={P.Exams.View}>
      <ConsolePage />
    </PermissionGate>
  );
}
