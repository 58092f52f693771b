import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { examPermissionNames, type ExamPermission } from '#machines/permissions.ts';
import { defaultQuery } from '#machines/paged-search.machine.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { Button } from '#src/components/ui/button.tsx';
import { useConfirm } from '#src/components/ui/confirm-dialog.tsx';
import type { Column } from '#src/components/ui/data-table.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { fieldError, TextField } from '#src/components/ui/field.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { PagedTable } from '#src/components/ui/paged-table.tsx';
import { EmptyState } from '#src/components/ui/states.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { usePagedSearch } from '#src/lib/use-paged-search.ts';
import { usersApi, type UserDetail } from '#src/features/users/index.ts';
import { examsApi, projectsApi, type Exam, type Grant } from '../api/projects-api.ts';

type FieldErrors = Record<string, string[]> | null;

/** Grant an exam permission on the project or one exam: find the user by name or e-mail, pick the permission. */
function GrantDialog({ onClose, onGranted }: { onClose: () => void; onGranted: (grant: Grant) => void }) {
  const { t } = useTranslation('projects');
  const [keyword, setKeyword] = useState('');
  const [found, setFound] = useState<UserDetail[] | null>(null);
  const [exams, setExams] = useState<Exam[]>([]);
  const [draft, setDraft] = useState({ userId: '', permission: 'ItemReviewer' as ExamPermission, examId: '' });
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const failureText = useErrorText(failure);

  const findUsers = async () => {
    setFailure(null);
    try {
      const [users, examPage] = await Promise.all([
        // An explicit order: the server refuses `orderBy: null` (it coerces it to [""]).
        usersApi.search({ ...defaultQuery, keyword, pageSize: 10, orderBy: ['createdOn desc'] }),
        exams.length ? Promise.resolve(null) : examsApi.search({ ...defaultQuery, pageSize: 50, orderBy: ['code asc'] }),
      ]);
      setFound(users.data);
      if (examPage) setExams(examPage.data);
      if (users.data[0]) setDraft((d) => ({ ...d, userId: users.data[0].id }));
    } catch (error) {
      setFailure(error);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!draft.userId) return void findUsers();
    setBusy(true);
    try {
      onGranted(await projectsApi.grant({ userId: draft.userId, permission: draft.permission, examId: draft.examId ? Number(draft.examId) : null }));
    } catch (error) {
      setErrors((error as { errors?: Record<string, string[]> } | null)?.errors ?? null);
      setFailure(error);
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={t('team.grantTitle')}
      description={t('team.grantIntro')}
      onClose={onClose}
      onSubmit={submit}
      busy={busy}
      testId="grant-dialog"
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            {t('action.cancel')}
          </Button>
          <Button type="submit" loading={busy} disabled={!draft.userId}>
            {t('team.grantSubmit')}
          </Button>
        </>
      }
    >
      <div className={css({ display: 'flex', gap: '2', alignItems: 'end' })}>
        <TextField
          className={css({ flex: '1' })}
          label={t('team.findUser')}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          autoFocus
          data-testid="grant-user-search"
        />
        <Button variant="outline" onClick={() => void findUsers()} data-testid="grant-find">
          {t('team.find')}
        </Button>
      </div>
      {found && found.length === 0 ? <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{t('team.noUsers')}</p> : null}
      {found && found.length > 0 ? (
        <SelectField
          label={t('team.user')}
          value={draft.userId}
          onValueChange={(value) => setDraft((d) => ({ ...d, userId: value }))}
          options={found.map((u) => ({ value: u.id, label: `${u.firstName} ${u.lastName} <${u.email}>` }))}
          error={fieldError(errors, 'userId')}
        />
      ) : null}
      <SelectField
        label={t('team.permission')}
        value={draft.permission}
        onValueChange={(value) => setDraft((d) => ({ ...d, permission: value as ExamPermission }))}
        options={examPermissionNames.map((name) => ({ value: name, label: t(`permission.${name}`) }))}
        error={fieldError(errors, 'permission')}
      />
      <SelectField
        label={t('team.scope')}
        value={draft.examId}
        onValueChange={(value) => setDraft((d) => ({ ...d, examId: value }))}
        placeholder={t('team.wholeProject')}
        options={exams.map((exam) => ({ value: String(exam.examId), label: exam.name }))}
        error={fieldError(errors, 'examId')}
      />
      {failureText && !errors ? (
        <p role="alert" className={css({ color: 'error.main', fontSize: 'sm' })}>
          {failureText}
        </p>
      ) : null}
    </Dialog>
  );
}

/** The selected project's team (a project call): who holds which exam permission; grant and revoke. */
export function TeamPanel({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation('projects');
  const { confirm, element: confirmation } = useConfirm();
  const search = usePagedSearch<Grant>((query) => projectsApi.grants(query), { orderBy: ['lastName asc'] });
  const errorText = useErrorText(search.error);
  const [granting, setGranting] = useState(false);

  const revoke = async (grant: Grant) => {
    const name = `${grant.firstName} ${grant.lastName}`;
    if (
      !(await confirm({
        title: t('team.revokeTitle'),
        message: t('team.revokeMessage', { name, permission: t(`permission.${grant.permission}`) }),
        confirmLabel: t('team.revoke'),
      }))
    )
      return;
    try {
      await projectsApi.revoke(grant.grantId);
      void notify.success(t('team.revoked', { name }));
      search.send({ type: 'search.reload' });
    } catch (error) {
      void notify.error(error);
    }
  };

  const columns: Column<Grant>[] = [
    { key: 'name', header: t('team.user'), sortKey: 'lastName', cell: (g) => `${g.firstName} ${g.lastName}` },
    { key: 'email', header: t('team.email'), sortKey: 'email', hideOnSmall: true, cell: (g) => g.email },
    { key: 'permission', header: t('team.permission'), sortKey: 'permission', cell: (g) => t(`permission.${g.permission}`) },
    { key: 'scope', header: t('team.scope'), cell: (g) => g.examName ?? t('team.wholeProject') },
    {
      key: 'actions',
      header: t('field.actions'),
      align: 'end',
      cell: (g) =>
        canManage ? (
          <Button
            size="sm"
            variant="ghost"
            onClick={() => void revoke(g)}
            aria-label={t('team.revokeNamed', { name: `${g.firstName} ${g.lastName}`, permission: t(`permission.${g.permission}`) })}
          >
            {t('team.revoke')}
          </Button>
        ) : null,
    },
  ];

  return (
    <div data-testid="team-panel">
      {canManage ? (
        <div className={css({ display: 'flex', justifyContent: 'flex-end', p: '4' })}>
          <Button onClick={() => setGranting(true)} data-testid="grant-open">
            {t('team.grant')}
          </Button>
        </div>
      ) : null}
      <PagedTable
        search={search}
        errorText={errorText}
        empty={<EmptyState title={t('team.none')} />}
        caption={t('team.caption')}
        columns={columns}
        rowKey={(g) => g.grantId}
        testId="team-table"
      />
      {granting ? (
        <GrantDialog
          onClose={() => setGranting(false)}
          onGranted={(grant) => {
            setGranting(false);
            void notify.success(t('team.granted', { name: `${grant.firstName} ${grant.lastName}`, permission: t(`permission.${grant.permission}`) }));
            search.send({ type: 'search.reload' });
          }}
        />
      ) : null}
      {confirmation}
    </div>
  );
}
