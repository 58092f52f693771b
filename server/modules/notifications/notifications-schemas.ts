import { Type, type Static } from 'typebox';
import { PagedResult, searchRequestProperties } from '#server/lib/paging.ts';
import { notificationChannels, notificationKinds } from './notification-kinds.ts';

const Iso = Type.String({ format: 'date-time' });

export const NotificationKindSchema = Type.Enum([...notificationKinds], { description: 'What the notification is about' });
export const NotificationChannelSchema = Type.Enum([...notificationChannels], { description: 'inApp: the notification center; email; both; none' });

export const Notification = Type.Object({
  id: Type.Integer(),
  kind: NotificationKindSchema,
  titleKey: Type.String({ description: 'A key of the client translations (namespace `notifications`)' }),
  params: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]), { description: 'The values the title names' }),
  link: Type.Union([Type.String(), Type.Null()], { description: 'The client path of the record' }),
  createdOn: Iso,
  readOn: Type.Union([Iso, Type.Null()]),
  archivedOn: Type.Union([Iso, Type.Null()]),
});

export const NotificationSearchBody = Type.Object({
  pageNumber: searchRequestProperties.pageNumber,
  pageSize: searchRequestProperties.pageSize,
  archived: Type.Optional(Type.Boolean({ default: false, description: 'true: the archive instead of the list' })),
  unreadOnly: Type.Optional(Type.Boolean({ default: false })),
});
export type NotificationSearchBody = Static<typeof NotificationSearchBody>;

export const NotificationPage = Type.Intersect([PagedResult(Notification), Type.Object({ unreadCount: Type.Integer() })]);

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });

export const Marked = Type.Object({ notification: Notification, unreadCount: Type.Integer() });
export const UnreadCount = Type.Object({ unreadCount: Type.Integer() });
export const MarkedAll = Type.Object({ updated: Type.Integer(), unreadCount: Type.Integer() });

export const Preference = Type.Object({ kind: NotificationKindSchema, channel: NotificationChannelSchema });
export const Preferences = Type.Object({
  preferences: Type.Array(Type.Intersect([Preference, Type.Object({ defaultChannel: NotificationChannelSchema })])),
});
export const PreferencesBody = Type.Object(
  { preferences: Type.Array(Preference, { minItems: 1, maxItems: notificationKinds.length }) },
  { additionalProperties: false },
);
