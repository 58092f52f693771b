import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import type { SupportGroup } from '../api/tickets-api.ts';

/** Active support groups nobody works in: tickets raised there are never claimed (issue 23). */
export function groupsWithoutAgents(groups: readonly SupportGroup[]): SupportGroup[] {
  return groups.filter((group) => group.isActive && group.memberCount === 0);
}

/**
 * A warning for support admins, naming the active groups without agents. Raising a ticket into
 * them stays possible (the requester is not blocked); the admin sees it here and on the ticket.
 */
export function NoAgentsWarning({ groups }: { groups: readonly SupportGroup[] }) {
  const { t } = useTranslation('tickets');
  const empty = groupsWithoutAgents(groups);
  if (empty.length === 0) return null;
  return (
    <div
      role="status"
      data-testid="no-agents-warning"
      className={css({
        mb: '4',
        p: '3',
        borderRadius: 'md',
        borderWidth: '1px',
        borderColor: 'warning.main',
        bg: 'warning.lighter',
        color: 'fg.default',
        fontSize: 'sm',
      })}
    >
      <p className={css({ fontWeight: 'semibold' })}>{t('groups.noAgentsWarningTitle', { count: empty.length })}</p>
      <p>{t('groups.noAgentsWarning', { names: empty.map((group) => group.name).join(', ') })}</p>
    </div>
  );
}
