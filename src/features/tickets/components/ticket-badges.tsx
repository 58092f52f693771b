import { useTranslation } from 'react-i18next';
import { statusName, type TicketStatus } from '#machines/ticket-lifecycle.machine.ts';
import { Badge, type BadgeTone } from '#src/components/ui/badge.tsx';

const statusTones: Record<TicketStatus, BadgeTone> = {
  Open: 'info',
  InProgress: 'primary',
  OnHold: 'warning',
  Escalated: 'warning',
  Resolved: 'success',
  Closed: 'neutral',
  Cancelled: 'neutral',
};

const priorityTones: Record<number, BadgeTone> = { 1: 'neutral', 2: 'info', 3: 'warning', 4: 'error' };

export function StatusBadge({ statusId }: { statusId: number }) {
  const { t } = useTranslation('tickets');
  const status = statusName(statusId) ?? 'Open';
  return (
    <Badge tone={statusTones[status]} testId="ticket-status">
      {t(`status.${status}`)}
    </Badge>
  );
}

export function PriorityBadge({ priorityId }: { priorityId: number }) {
  const { t } = useTranslation('tickets');
  return <Badge tone={priorityTones[priorityId] ?? 'neutral'}>{t(`priority.${priorityId}`)}</Badge>;
}
