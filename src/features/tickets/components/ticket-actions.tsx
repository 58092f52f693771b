import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ticketPriorities } from '#machines/ticket-lifecycle.machine.ts';
import type { TicketAction, TicketViewEvent } from '#machines/ticket-view.machine.ts';
import { css } from '#styled-system/css';
import { Button } from '#src/components/ui/button.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { fieldError, TextAreaField, TextField } from '#src/components/ui/field.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { supportGroupsApi, type Agent, type SupportGroup, type TicketDetail } from '../api/tickets-api.ts';

/** The most common next step of each status is the solid button; the rest are outlined. */
const primaryActions: TicketAction[] = ['ticket.claim', 'ticket.resolve', 'ticket.resume', 'ticket.close'];
const dangerActions: TicketAction[] = ['ticket.cancel'];

/** Buttons for exactly the actions the lifecycle machine allows this viewer now. */
export function TicketActionsBar({ actions, busy, send }: { actions: TicketAction[]; busy: boolean; send: (event: TicketViewEvent) => void }) {
  const { t } = useTranslation('tickets');
  // Accepting the bot's answer is offered on the suggestion itself.
  const shown = actions.filter((action) => action !== 'ticket.acceptBotAnswer');
  if (!shown.length) return null;
  return (
    <div role="group" aria-label={t('actions.label')} className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })} data-testid="ticket-actions">
      {shown.map((action) => (
        <Button
          key={action}
          variant={dangerActions.includes(action) ? 'danger' : primaryActions.includes(action) ? 'solid' : 'outline'}
          size="sm"
          disabled={busy}
          onClick={() => send({ type: 'action.start', action })}
        >
          {t(`actions.${action.slice('ticket.'.length)}`)}
        </Button>
      ))}
    </div>
  );
}

interface ActionDialogProps {
  action: TicketAction;
  ticket: TicketDetail;
  fields: Record<string, unknown>;
  fieldErrors: Record<string, string[]> | null;
  actionError: unknown;
  busy: boolean;
  send: (event: TicketViewEvent) => void;
}

/** Asks for what the action must carry (a reason, an answer, a group or agent), or confirms it. */
export function TicketActionDialog({ action, ticket, fields, fieldErrors, actionError, busy, send }: ActionDialogProps) {
  const { t } = useTranslation('tickets');
  const verb = action.slice('ticket.'.length);
  const errorText = useErrorText(actionError);
  const [groups, setGroups] = useState<SupportGroup[]>([]);
  const [agents, setAgents] = useState<Agent[]>([]);
  const value = (name: string) => (fields[name] === undefined || fields[name] === null ? '' : String(fields[name]));
  const change = (name: string, v: unknown) => send({ type: 'action.change', fields: { [name]: v } });

  useEffect(() => {
    if (action === 'ticket.reassign' || action === 'ticket.escalate') supportGroupsApi.list().then(setGroups, () => setGroups([]));
    if (action === 'ticket.reassign') supportGroupsApi.agents().then(setAgents, () => setAgents([]));
  }, [action]);

  useEffect(() => {
    // An edit starts from the ticket as it is.
    if (action === 'ticket.edit' && fields.title === undefined) {
      send({
        type: 'action.change',
        fields: { title: ticket.title, description: ticket.description, supportTicketPriorityId: ticket.supportTicketPriorityId },
      });
    }
  }, [action, fields.title, send, ticket]);

  const reassignGroup = Number(fields.toSupportGroupId || ticket.supportGroupId);
  const reassignAgents = agents.filter((a) => a.supportGroupIds.includes(reassignGroup));

  let body: React.ReactNode = null;
  switch (action) {
    case 'ticket.hold':
      body = (
        <TextAreaField
          label={t('field.onHoldReason')}
          hint={t('hint.onHoldReason')}
          value={value('onHoldReason')}
          onChange={(e) => change('onHoldReason', e.target.value)}
          required
          autoFocus
          error={fieldError(fieldErrors, 'onHoldReason')}
          maxLength={2000}
        />
      );
      break;
    case 'ticket.resolve':
      body = (
        <TextAreaField
          label={t('field.answer')}
          hint={t('hint.answer')}
          value={value('answer')}
          onChange={(e) => change('answer', e.target.value)}
          required
          autoFocus
          rows={7}
          error={fieldError(fieldErrors, 'answer')}
          maxLength={20000}
        />
      );
      break;
    case 'ticket.cancel':
      body = (
        <TextAreaField
          label={t('field.cancelReason')}
          value={value('cancelReason')}
          onChange={(e) => change('cancelReason', e.target.value)}
          required
          autoFocus
          error={fieldError(fieldErrors, 'cancelReason')}
          maxLength={2000}
        />
      );
      break;
    case 'ticket.reopen':
      body = (
        <TextAreaField
          label={t('field.reopenReason')}
          hint={t('hint.reopenReason')}
          value={value('reopenReason')}
          onChange={(e) => change('reopenReason', e.target.value)}
          required
          autoFocus
          error={fieldError(fieldErrors, 'reopenReason')}
          maxLength={2000}
        />
      );
      break;
    case 'ticket.close':
      body = <p>{t('confirm.close', { id: ticket.ticketId })}</p>;
      break;
    case 'ticket.acceptBotAnswer':
      body = (
        <>
          <p>{t('confirm.acceptBotAnswer')}</p>
          <blockquote className={css({ borderInlineStartWidth: '3px', borderColor: 'success.main', ps: '3', whiteSpace: 'pre-wrap' })}>
            {ticket.botSuggestion?.answer}
          </blockquote>
        </>
      );
      break;
    case 'ticket.reassign':
      body = (
        <>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{t('hint.reassign')}</p>
          <SelectField
            label={t('field.toSupportGroupId')}
            value={value('toSupportGroupId')}
            onValueChange={(chosen) => send({ type: 'action.change', fields: { toSupportGroupId: chosen, toSupportUserId: '' } })}
            placeholder={t('reassign.keepGroup', { group: ticket.supportGroupName })}
            options={groups.filter((g) => g.supportGroupId !== ticket.supportGroupId).map((g) => ({ value: String(g.supportGroupId), label: g.name }))}
            error={fieldError(fieldErrors, 'toSupportGroupId')}
          />
          <SelectField
            label={t('field.toSupportUserId')}
            value={value('toSupportUserId')}
            onValueChange={(chosen) => change('toSupportUserId', chosen)}
            placeholder={t('reassign.anyAgent')}
            options={reassignAgents.map((a) => ({ value: a.userId, label: `${a.firstName} ${a.lastName}`.trim() || a.email }))}
            error={fieldError(fieldErrors, 'toSupportUserId')}
          />
        </>
      );
      break;
    case 'ticket.escalate':
      body = (
        <>
          <SelectField
            label={t('field.targetSupportGroupId')}
            value={value('targetSupportGroupId')}
            onValueChange={(chosen) => change('targetSupportGroupId', chosen)}
            placeholder={t('escalate.chooseGroup')}
            options={groups.filter((g) => g.supportGroupId !== ticket.supportGroupId).map((g) => ({ value: String(g.supportGroupId), label: g.name }))}
            required
            error={fieldError(fieldErrors, 'supportGroupId') ?? fieldError(fieldErrors, 'targetSupportGroupId')}
          />
          <TextAreaField
            label={t('field.escalationDescription')}
            hint={t('hint.escalate')}
            value={value('description')}
            onChange={(e) => change('description', e.target.value)}
            required
            error={fieldError(fieldErrors, 'description')}
            maxLength={20000}
          />
        </>
      );
      break;
    case 'ticket.edit':
      body = (
        <>
          <TextField
            label={t('field.title')}
            value={value('title')}
            onChange={(e) => change('title', e.target.value)}
            required
            maxLength={200}
            error={fieldError(fieldErrors, 'title')}
            autoFocus
          />
          <TextAreaField
            label={t('field.description')}
            value={value('description')}
            onChange={(e) => change('description', e.target.value)}
            required
            maxLength={20000}
            error={fieldError(fieldErrors, 'description')}
          />
          <SelectField
            label={t('field.priority')}
            value={value('supportTicketPriorityId')}
            onValueChange={(chosen) => change('supportTicketPriorityId', chosen)}
            options={Object.values(ticketPriorities).map((id) => ({ value: String(id), label: t(`priority.${id}`) }))}
          />
        </>
      );
      break;
    default:
      body = <p>{t('confirm.generic')}</p>;
  }

  return (
    <Dialog
      title={t(`dialog.${verb}`, { id: ticket.ticketId })}
      onClose={() => send({ type: 'action.cancel' })}
      onSubmit={() => send({ type: 'action.submit' })}
      busy={busy}
      testId="ticket-action-dialog"
      footer={
        <>
          <Button variant="ghost" onClick={() => send({ type: 'action.cancel' })} disabled={busy}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant={action === 'ticket.cancel' ? 'danger' : 'solid'} loading={busy}>
            {t(`actions.${verb}`)}
          </Button>
        </>
      }
    >
      {body}
      {errorText ? (
        <p role="alert" className={css({ color: 'error.main', fontSize: 'sm' })}>
          {errorText}
        </p>
      ) : null}
    </Dialog>
  );
}
