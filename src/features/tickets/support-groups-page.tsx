import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { notify } from '#src/app/notifications/notify.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { DataTable, type Column } from '#src/components/ui/data-table.tsx';
import { Checkbox } from '#src/components/ui/checkbox.tsx';
import { useConfirm } from '#src/components/ui/confirm-dialog.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { fieldError, TextAreaField, TextField } from '#src/components/ui/field.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { EmptyState, ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import { ListSkeleton } from '#src/components/ui/skeleton.tsx';
import { NoAgentsWarning } from './components/no-agents-warning.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { supportGroupsApi, type Agent, type SupportGroup } from './api/tickets-api.ts';

function GroupDialog({ group, onClose, onSaved }: { group: SupportGroup | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation('tickets');
  const [name, setName] = useState(group?.name ?? '');
  const [description, setDescription] = useState(group?.description ?? '');
  const [errors, setErrors] = useState<Record<string, string[]> | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const failureText = useErrorText(failure);

  const save = async () => {
    if (name.trim().length < 2) {
      setErrors({ name: [t('groups.nameTooShort')] });
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      if (group) await supportGroupsApi.update(group.supportGroupId, { name: name.trim(), description: description.trim() });
      else await supportGroupsApi.create({ name: name.trim(), description: description.trim() });
      void notify.success(group ? t('groups.saved', { name: name.trim() }) : t('groups.created', { name: name.trim() }));
      onSaved();
    } catch (error) {
      const problem = error as { errors?: Record<string, string[]> };
      if (problem?.errors) setErrors(problem.errors);
      else setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={group ? t('groups.edit', { name: group.name }) : t('groups.create')}
      onClose={onClose}
      onSubmit={() => void save()}
      busy={busy}
      testId="group-dialog"
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={busy}>
            {t('common.save')}
          </Button>
        </>
      }
    >
      <TextField
        label={t('groups.name')}
        value={name}
        onChange={(e) => setName(e.target.value)}
        required
        maxLength={100}
        autoFocus
        error={fieldError(errors, 'name')}
      />
      <TextAreaField
        label={t('groups.descriptionLabel')}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        maxLength={500}
        rows={3}
        error={fieldError(errors, 'description')}
      />
      {failureText ? (
        <p role="alert" className={css({ color: 'error.main', fontSize: 'sm' })}>
          {failureText}
        </p>
      ) : null}
    </Dialog>
  );
}

function MembersDialog({ group, onClose, onSaved }: { group: SupportGroup; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation('tickets');
  const [agents, setAgents] = useState<Agent[] | null>(null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const failureText = useErrorText(failure);

  useEffect(() => {
    supportGroupsApi.agents().then(
      (list) => {
        setAgents(list);
        setChosen(new Set(list.filter((a) => a.supportGroupIds.includes(group.supportGroupId)).map((a) => a.userId)));
      },
      (error) => {
        setAgents([]);
        setFailure(error);
      },
    );
  }, [group.supportGroupId]);

  const save = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await supportGroupsApi.setMembers(group.supportGroupId, [...chosen]);
      void notify.success(t('groups.membersSaved', { name: group.name }));
      onSaved();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={t('groups.membersOf', { name: group.name })}
      description={t('groups.membersHint')}
      onClose={onClose}
      onSubmit={() => void save()}
      busy={busy}
      testId="members-dialog"
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={busy} disabled={agents === null}>
            {t('common.save')}
          </Button>
        </>
      }
    >
      {agents === null ? (
        <ListSkeleton />
      ) : agents.length === 0 ? (
        <p className={css({ color: 'fg.muted' })}>{t('groups.noAgents')}</p>
      ) : (
        <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
          <legend className={css({ srOnly: true })}>{t('groups.membersOf', { name: group.name })}</legend>
          {agents.map((agent) => (
            <Checkbox
              key={agent.userId}
              checked={chosen.has(agent.userId)}
              onChange={(checked) => {
                const next = new Set(chosen);
                if (checked) next.add(agent.userId);
                else next.delete(agent.userId);
                setChosen(next);
              }}
            >
              {`${agent.firstName} ${agent.lastName}`.trim()} <span className={css({ color: 'fg.muted' })}>{agent.email}</span>
            </Checkbox>
          ))}
        </fieldset>
      )}
      {failureText ? (
        <p role="alert" className={css({ color: 'error.main', fontSize: 'sm' })}>
          {failureText}
        </p>
      ) : null}
    </Dialog>
  );
}

/** Support admins create, rename and deactivate support groups and choose their agents. */
export default function SupportGroupsPage() {
  const { t } = useTranslation('tickets');
  const [groups, setGroups] = useState<SupportGroup[] | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [editing, setEditing] = useState<SupportGroup | 'new' | null>(null);
  const [members, setMembers] = useState<SupportGroup | null>(null);
  const [toggling, setToggling] = useState<number | null>(null);
  const failureText = useErrorText(failure);

  const load = useCallback(() => {
    setFailure(null);
    supportGroupsApi.list(true).then(setGroups, (error) => setFailure(error));
  }, []);
  useEffect(load, [load]);

  const { confirm, element: confirmation } = useConfirm();

  const toggle = async (group: SupportGroup) => {
    // A deactivated group takes no new tickets: ask first.
    if (
      group.isActive &&
      !(await confirm({
        title: t('groups.confirmDeactivateTitle'),
        message: t('groups.confirmDeactivate', { name: group.name }),
        confirmLabel: t('groups.deactivate'),
      }))
    )
      return;
    setToggling(group.supportGroupId);
    try {
      await supportGroupsApi.update(group.supportGroupId, { isActive: !group.isActive });
      void notify.success(group.isActive ? t('groups.deactivated', { name: group.name }) : t('groups.activated', { name: group.name }));
      load();
    } catch (error) {
      void notify.error(error);
    } finally {
      setToggling(null);
    }
  };

  const columns: Column<SupportGroup>[] = [
    { key: 'name', header: t('groups.name'), cell: (g) => <span className={css({ fontWeight: 'semibold' })}>{g.name}</span> },
    { key: 'description', header: t('groups.descriptionLabel'), cell: (g) => g.description, hideOnSmall: true },
    {
      key: 'members',
      header: t('groups.members'),
      align: 'end',
      cell: (g) =>
        g.memberCount === 0 && g.isActive ? (
          <span data-testid={`no-agents-${g.supportGroupId}`}>
            <Badge tone="warning">{t('groups.noAgentsBadge')}</Badge>
          </span>
        ) : (
          g.memberCount
        ),
    },
    {
      key: 'state',
      header: t('groups.state'),
      cell: (g) => <Badge tone={g.isActive ? 'success' : 'neutral'}>{g.isActive ? t('groups.active') : t('groups.inactive')}</Badge>,
    },
    {
      key: 'actions',
      header: <span className={css({ srOnly: true })}>{t('column.action')}</span>,
      align: 'end',
      cell: (g) => (
        <div className={css({ display: 'flex', gap: '2', justifyContent: 'flex-end', flexWrap: 'wrap' })}>
          <Button size="sm" variant="outline" onClick={() => setMembers(g)} aria-label={t('groups.manageMembersOf', { name: g.name })}>
            {t('groups.manageMembers')}
          </Button>
          <Button size="sm" variant="outline" onClick={() => setEditing(g)} aria-label={t('groups.editNamed', { name: g.name })}>
            {t('groups.editShort')}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => void toggle(g)} loading={toggling === g.supportGroupId}>
            {g.isActive ? t('groups.deactivate') : t('groups.activate')}
          </Button>
        </div>
      ),
    },
  ];

  return (
    <section aria-labelledby="groups-title">
      <PageHeader
        id="groups-title"
        title={t('groups.title')}
        description={t('groups.description')}
        actions={<Button onClick={() => setEditing('new')}>{t('groups.create')}</Button>}
      />
      {groups ? <NoAgentsWarning groups={groups} /> : null}
      <div className={card}>
        {failure ? (
          <ErrorState message={failureText} onRetry={load} />
        ) : groups === null ? (
          <LoadingState />
        ) : groups.length === 0 ? (
          <EmptyState title={t('groups.none')} />
        ) : (
          <DataTable caption={t('groups.title')} columns={columns} rows={groups} rowKey={(g) => g.supportGroupId} testId="groups-table" />
        )}
      </div>
      {editing ? (
        <GroupDialog
          group={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            load();
          }}
        />
      ) : null}
      {members ? (
        <MembersDialog
          group={members}
          onClose={() => setMembers(null)}
          onSaved={() => {
            setMembers(null);
            load();
          }}
        />
      ) : null}
      {confirmation}
    </section>
  );
}
