import { P } from '#machines/permissions.ts';
import type { Db } from '#server/db/client.ts';
import type { DomainEventBus, TicketChanged } from '#server/lib/domain-events.ts';
import type { MailDispatcher } from '#server/mail/mail-dispatcher.ts';
import { matchLanguage, DEFAULT_MAIL_LANGUAGE } from '#server/mail/mail-language.ts';
import { unstaffedTicketMail } from '#server/mail/ticket-mails.ts';
import type { FastifyBaseLogger } from 'fastify';

export interface UnstaffedAlertDeps {
  db: Db;
  events: DomainEventBus;
  mail: MailDispatcher;
  publicUrl: string;
  log: FastifyBaseLogger;
}

/** A ticket arrived in a group: raised there, escalated there (the child), or moved there. */
export function arrivesInGroup(change: TicketChanged): boolean {
  return change.change === 'ticket.created' || (change.previousSupportGroupId !== null && change.previousSupportGroupId !== change.supportGroupId);
}

/** The desk's page of a ticket, under PUBLIC_URL (a path prefix kept). */
export function deskTicketLink(publicUrl: string, ticketId: number): string {
  return new URL(`support/tickets/${ticketId}`, `${publicUrl}/`).toString();
}

/**
 * Support admins are e-mailed when a ticket arrives in a support group that has no members
 * (issue 23: "raising a ticket into them is possible but flagged to support admins";
 * docs/decisions/0280). The group is read after the commit, so a group that got an agent in
 * the meantime sends nothing. The domain event is in-process: only the instance that made the
 * change sends, once. The actor is not told about what they just did.
 */
export async function alertIfUnstaffed(deps: Omit<UnstaffedAlertDeps, 'events' | 'log'>, change: TicketChanged): Promise<number> {
  if (!arrivesInGroup(change)) return 0;
  const { rows: found } = await deps.db.query<{ title: string; groupName: string }>(
    `select t.title, g.name as "groupName"
     from support_tickets t join support_groups g on g.id = t.support_group_id
     where t.id = $1 and g.id = $2 and g.tenant_id = $3
       and not exists (select 1 from support_group_members m where m.group_id = g.id)`,
    [change.ticketId, change.supportGroupId, change.tenantId],
  );
  const ticket = found[0];
  if (!ticket) return 0;
  const { rows: admins } = await deps.db.query<{ email: string; firstName: string; preferredLanguage: string | null }>(
    `select distinct u.email, u.first_name as "firstName", u.preferred_language as "preferredLanguage"
     from users u
     join user_roles ur on ur.user_id = u.id
     join role_permissions rp on rp.role_id = ur.role_id
     where u.tenant_id = $1 and u.is_active and rp.permission = $2 and u.id is distinct from $3::uuid`,
    [change.tenantId, P.SupportTickets.Administer, change.actorId],
  );
  const link = deskTicketLink(deps.publicUrl, change.ticketId);
  for (const admin of admins) {
    const language = matchLanguage(admin.preferredLanguage) ?? DEFAULT_MAIL_LANGUAGE;
    deps.mail.dispatch(
      unstaffedTicketMail(
        language,
        { email: admin.email, name: admin.firstName },
        { ticketId: change.ticketId, title: ticket.title, groupName: ticket.groupName, link },
      ),
    );
  }
  return admins.length;
}

/** Subscribes the alert to the app's ticket changes. */
export function startUnstaffedGroupAlerts(deps: UnstaffedAlertDeps): () => void {
  const onChange = (change: TicketChanged) => {
    alertIfUnstaffed(deps, change).catch((error: unknown) => deps.log.error({ err: error, ticketId: change.ticketId }, 'unstaffed-group alert failed'));
  };
  deps.events.on('ticket.changed', onChange);
  return () => deps.events.off('ticket.changed', onChange);
}
