import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { examPermissionNames, type ExamPermission } from '#machines/permissions.ts';
import { defaultQuery } from '#machines/paged-search.machine.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { Button } from '#src/components/ui/button.tsx';
import { useConfirm } from '#src/components/ui/confirm-dialog.tsx';
import type { Column } from '#src/components/ui/data-table.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { ComboboxField } from '#src/components/ui/combobox.tsx';
import { fieldError } from '#src/components/ui/field.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { PagedTable } from '#src/components/ui/paged-table.tsx';
import { EmptyState } from '#src/components/ui/states.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { useServerSearch } from '#src/lib/use-server-search.ts';
import { usePagedSearch } from '#src/lib/use-paged-search.ts';
import { usersApi, type UserDetail } from '#src/features/users/index.ts';
import { examsApi, projectsApi, type Exam, type Grant } from '../api/projects-api.ts';

type FieldErrors = Record<string, string[]> | null;

const userLabel = (user: UserDetail) => `${user.firstName} ${user.lastName} <${user.email}>`;

/** The users whose name or e-mail contains the text (the users search, first ten). */
const findUsers = async (keyword: string) =>
  // An explicit order: the server refuses `orderBy: null` (it coerces it to [""]).
  (await usersApi.search({ ...defaultQuery, keyword, pageSize: 10, orderBy: ['lastName asc'] })).data;

/**
 * Grant an exam permission on the project or one exam: type a name or e-mail and choose the user
 * from the server's matches (Ark Combobox), then the permission and where it applies.
 */
function GrantDialog({ onClose, onGranted }: { onClose: () => void; onGranted: (grant: Grant) => void }) {
  const { t } = useTranslation('projects');
  const [text, setText] = useState('');
  const users = useServerSearch(findUsers);
  const [exams, setExams] = useState<Exam[]>([]);
  const [draft, setDraft] = useState({ userId: '', permission: 'ItemReviewer' as ExamPermission, examId: '' });
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const failureText = useErrorText(failure);
  const searchFailureText = useErrorText(users.status === 'failed' ? users.error : null);

  useEffect(() => {
    let live = true;
    examsApi.search({ ...defaultQuery, pageSize: 50, orderBy: ['code asc'] }).then(
      (page) => live && setExams(page.data),
      (error: unknown) => live && setFailure(error),
    );
    return () => {
      live = false;
    };
  }, []);

  const userItems = useMemo(() => users.items.map((user) => ({ value: user.id, label: userLabel(user) })), [users.items]);
  const status =
    users.status === 'searching'
      ? t('team.searching')
      : users.status === 'failed'
        ? searchFailureText
        : users.status === 'done' && users.items.length === 0
          ? t('team.noUsers')
          : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!draft.userId) return;
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
      <ComboboxField
        label={t('team.user')}
        placeholder={t('team.findUser')}
        hint={t('team.findUserHint')}
        items={userItems}
        filtering="server"
        allowCustomValue={false}
        inputValue={text}
        onInputValueChange={(value, typed) => {
          setText(value);
          // Typing searches again (and drops the chosen user); choosing one leaves the matches as they are.
          if (typed) users.search(value);
        }}
        value={draft.userId || null}
        onValueChange={(value) => setDraft((d) => ({ ...d, userId: value ?? '' }))}
        status={status}
        statusIsError={users.status === 'failed'}
        error={fieldError(errors, 'userId')}
        autoFocus
        testId="grant-user-search"
      />
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
