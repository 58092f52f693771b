import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { notify } from '#src/app/notifications/notify.ts';
import { Button } from '#src/components/ui/button.tsx';
import { useConfirm } from '#src/components/ui/confirm-dialog.tsx';
import { FileUpload, useFormatBytes } from '#src/components/ui/file-upload.tsx';
import { ProgressBar } from '#src/components/ui/progress.tsx';
import { useFormat } from '#src/lib/format.ts';
import { saveFile } from '#src/lib/save-file.ts';
import { ticketsApi, type TicketDetail, type TicketDocument } from '../api/tickets-api.ts';

const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
const FINAL_STATUSES = [6, 7];

/** A ticket's documents: download, delete (own uploads, or any for staff) and add more while the ticket is open. */
export function TicketDocuments({
  ticket,
  view,
  userId,
  onChanged,
}: {
  ticket: TicketDetail;
  view: 'requester' | 'staff';
  userId: string | null;
  onChanged: () => void;
}) {
  const { t } = useTranslation('tickets');
  const format = useFormat();
  const formatSize = useFormatBytes();
  const [files, setFiles] = useState<File[]>([]);
  const [uploading, setUploading] = useState<number | null>(null);
  const [working, setWorking] = useState<string | null>(null);
  const editable = !FINAL_STATUSES.includes(ticket.statusId);
  const { confirm, element: confirmation } = useConfirm();

  const uploadChosen = async () => {
    setUploading(0);
    try {
      await ticketsApi.uploadDocuments(ticket.ticketId, files, view, (p) => setUploading(p.fraction ?? 0));
      setFiles([]);
      void notify.success(t('documents.uploaded'));
      onChanged();
    } catch {
      // The HTTP layer has shown why (size, type).
    } finally {
      setUploading(null);
    }
  };

  const downloadOne = async (doc: TicketDocument) => {
    setWorking(doc.documentId);
    try {
      const { blob, filename } = await ticketsApi.downloadDocument(doc.documentId, view);
      saveFile(blob, filename ?? doc.fileName);
    } catch {
      // shown by the HTTP layer
    } finally {
      setWorking(null);
    }
  };

  const deleteOne = async (doc: TicketDocument) => {
    if (
      !(await confirm({
        title: t('documents.confirmDeleteTitle'),
        message: t('documents.confirmDelete', { name: doc.fileName }),
        confirmLabel: t('documents.delete'),
      }))
    )
      return;
    setWorking(doc.documentId);
    try {
      await ticketsApi.deleteDocument(doc.documentId, view);
      void notify.success(t('documents.deleted', { name: doc.fileName }));
      onChanged();
    } catch {
      // shown by the HTTP layer
    } finally {
      setWorking(null);
    }
  };

  return (
    <section aria-labelledby="ticket-documents-title" className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
      <h2 id="ticket-documents-title" className={css({ fontSize: 'md', fontWeight: 'bold' })}>
        {t('documents.title', { n: ticket.documents.length })}
      </h2>
      {ticket.documents.length === 0 ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{t('documents.none')}</p>
      ) : (
        <ul className={css({ listStyle: 'none', p: 0, m: 0, display: 'flex', flexDirection: 'column', gap: '2' })} data-testid="ticket-documents">
          {ticket.documents.map((doc) => (
            <li key={doc.documentId} className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '2', fontSize: 'sm' })}>
              <span className={css({ fontWeight: 'semibold', flex: '1 1 12rem', minWidth: 0, overflowWrap: 'anywhere' })}>{doc.fileName}</span>
              <span className={css({ color: 'fg.muted' })}>
                {formatSize(doc.sizeBytes)} · {doc.uploadedByName ?? t('someone')} · {format.date(doc.uploadedOn)}
              </span>
              <Button
                size="sm"
                variant="outline"
                onClick={() => void downloadOne(doc)}
                loading={working === doc.documentId}
                aria-label={t('documents.downloadNamed', { name: doc.fileName })}
              >
                {t('documents.download')}
              </Button>
              {editable && (view === 'staff' || doc.uploadedBy === userId) ? (
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => void deleteOne(doc)}
                  disabled={working === doc.documentId}
                  aria-label={t('documents.deleteNamed', { name: doc.fileName })}
                >
                  {t('documents.delete')}
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {editable ? (
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
          <FileUpload
            label={t('documents.add')}
            hint={t('documents.hint')}
            files={files}
            onChange={setFiles}
            maxFiles={5}
            maxBytes={MAX_DOCUMENT_BYTES}
            disabled={uploading !== null}
          />
          {uploading !== null ? (
            <ProgressBar value={Math.round(uploading * 100)} label={t('documents.uploadProgress')} testId="documents-upload-progress" />
          ) : null}
          {files.length ? (
            <div>
              <Button size="sm" onClick={() => void uploadChosen()} loading={uploading !== null}>
                {uploading !== null ? t('create.uploading', { percent: Math.round(uploading * 100) }) : t('documents.upload', { n: files.length })}
              </Button>
            </div>
          ) : null}
        </div>
      ) : null}
      {confirmation}
    </section>
  );
}
