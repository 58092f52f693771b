import type { TFunction } from 'i18next';
import type { NotificationDto } from '#machines/notification-center.machine.ts';
import { dateTimeFormat } from '#src/lib/format.ts';

/** The title of a notification in the reader's language: the server sends a key and its values (decision 0260). */
export function notificationTitle(t: TFunction, n: NotificationDto): string {
  const params: Record<string, unknown> = { ...n.params };
  if (n.kind === 'ticket.status' && typeof n.params.status === 'string') {
    params.status = t(`tickets:status.${n.params.status}`, { defaultValue: n.params.status });
  }
  const key = n.titleKey.startsWith('kinds.') ? n.titleKey : `kinds.${n.kind}`;
  return t(`notifications:center.${key}`, { ...params, defaultValue: t(`notifications:center.kinds.${n.kind}`, params) });
}

/** The local calendar day of a timestamp, `yyyy-mm-dd`, for grouping. */
export function dayKey(iso: string, timeZone?: string): string {
  const parts = dateTimeFormat('en-CA', timeZone, { year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(iso));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** Notifications grouped by local day, newest day first, the order inside each day kept. */
export function groupByDay<T extends { createdOn: string }>(items: readonly T[], timeZone?: string): Array<{ day: string; items: T[] }> {
  const groups: Array<{ day: string; items: T[] }> = [];
  for (const item of items) {
    const day = dayKey(item.createdOn, timeZone);
    const last = groups[groups.length - 1];
    if (last && last.day === day) last.items.push(item);
    else groups.push({ day, items: [item] });
  }
  return groups;
}
