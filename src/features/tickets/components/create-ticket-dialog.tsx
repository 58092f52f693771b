import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ticketPriorities } from '#machines/ticket-lifecycle.machine.ts';
import { css } from '#styled-system/css';
import { Button } from '#src/components/ui/button.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { fieldError, TextAreaField, TextField } from '#src/components/ui/field.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { FileUpload } from '#src/components/ui/file-upload.tsx';
import { ProgressBar } from '#src/components/ui/progress.tsx';
import { notify } from '#src/app/notifications/notify.ts';
import { supportGroupsApi, ticketsApi, type SupportGroup, type TicketDetail } from '../api/tickets-api.ts';

const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

interface ProblemDetails {
  errors?: Record<string, string[]>;
}

/**
 * Raise a ticket: title, description, priority, support group and up to five documents
 * (uploaded once the ticket exists). Staff may name someone else as the requester.
 */
export function CreateTicketDialog({
  onClose,
  onCreated,
  requesterId,
}: {
  onClose: () => void;
  onCreated: (ticket: TicketDetail) => void;
  requesterId?: string | null;
}) {
  const { t } = useTranslation('tickets');
  const [groups, setGroups] = useState<SupportGroup[] | null>(null);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [priority, setPriority] = useState(String(ticketPriorities.Medium));
  const [group, setGroup] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [errors, setErrors] = useState<Record<string, string[]> | null>(null);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);

  useEffect(() => {
    supportGroupsApi.list().then(
      (list) => {
        setGroups(list);
        setGroup((current) => current || String(list[0]?.supportGroupId ?? ''));
      },
      () => setGroups([]),
    );
  }, []);

  const validate = () => {
    const found: Record<string, string[]> = {};
    if (!title.trim()) found.title = [t('create.titleRequired')];
    if (!description.trim()) found.description = [t('create.descriptionRequired')];
    if (!group) found.supportGroupId = [t('create.groupRequired')];
    return Object.keys(found).length ? found : null;
  };

  const submit = async () => {
    const found = validate();
    setErrors(found);
    if (found) return;
    setBusy(true);
    try {
      const ticket = await ticketsApi.create({
        title: title.trim(),
        description: description.trim(),
        supportTicketPriorityId: Number(priority),
        supportGroupId: Number(group),
        loginUserId: requesterId ?? null,
      });
      if (files.length) {
        try {
          setProgress(0);
          await ticketsApi.uploadDocuments(ticket.ticketId, files, 'requester', (p) => setProgress(p.fraction));
        } catch (error) {
          // The ticket exists; say the documents failed and let the ticket page offer a retry.
          void notify.error(error);
        }
      }
      void notify.success(t('create.created', { id: ticket.ticketId }));
      onCreated(ticket);
    } catch (error) {
      const details = error as ProblemDetails;
      if (details?.errors) setErrors(details.errors);
      else void notify.error(error);
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };

  return (
    <Dialog
      title={t('create.title')}
      description={t('create.description')}
      onClose={onClose}
      onSubmit={() => void submit()}
      busy={busy}
      size="lg"
      testId="create-ticket-dialog"
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={busy}>
            {progress !== null ? t('create.uploading', { percent: Math.round((progress ?? 0) * 100) }) : t('create.submit')}
          </Button>
        </>
      }
    >
      <TextField
        label={t('field.title')}
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        maxLength={200}
        required
        error={fieldError(errors, 'title')}
        autoFocus
      />
      <TextAreaField
        label={t('field.description')}
        hint={t('create.descriptionHint')}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        maxLength={20000}
        required
        error={fieldError(errors, 'description')}
      />
      <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '4' })}>
        <SelectField
          label={t('field.priority')}
          value={priority}
          onValueChange={(value) => setPriority(value)}
          options={Object.values(ticketPriorities).map((id) => ({ value: String(id), label: t(`priority.${id}`) }))}
          error={fieldError(errors, 'supportTicketPriorityId')}
        />
        <SelectField
          label={t('field.group')}
          value={group}
          onValueChange={(value) => setGroup(value)}
          options={(groups ?? []).map((g) => ({ value: String(g.supportGroupId), label: g.name }))}
          placeholder={groups === null ? t('common.loading') : undefined}
          required
          // A group nobody works in can still be chosen; the requester is told, the support admins see it flagged (issue 23).
          hint={groups?.find((g) => String(g.supportGroupId) === group)?.memberCount === 0 ? t('groups.raiseNoAgents') : undefined}
          error={fieldError(errors, 'supportGroupId')}
        />
      </div>
      <FileUpload
        label={t('field.documents')}
        hint={t('documents.hint')}
        files={files}
        onChange={setFiles}
        maxFiles={5}
        maxBytes={MAX_DOCUMENT_BYTES}
        disabled={busy}
      />
      {progress !== null ? <ProgressBar value={Math.round(progress * 100)} label={t('documents.uploadProgress')} testId="create-upload-progress" /> : null}
    </Dialog>
  );
}
