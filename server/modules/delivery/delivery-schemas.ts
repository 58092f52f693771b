import { Type, type Static } from 'typebox';
import { MAX_EXTENSION_MINUTES } from '#machines/delivery.machine.ts';
import { RecordId } from '#machines/exams/project-record.ts';
import { ItemResponseSchema } from '#machines/items/item-schema.ts';

/** Request and answer shapes of deliveries (issue 19); they are also its OpenAPI. */

export const IdParams = Type.Object({ id: RecordId });
const Iso = Type.String({ format: 'date-time' });
export const DeliveryStatus = Type.Union(
  [Type.Literal('Waiting'), Type.Literal('Active'), Type.Literal('Paused'), Type.Literal('Submitted'), Type.Literal('TimeUp'), Type.Literal('Terminated')],
  { description: 'Waiting → Active ⇄ Paused → Submitted | TimeUp | Terminated (machines/delivery.machine.ts)' },
);

export const Timing = Type.Object(
  {
    status: DeliveryStatus,
    serverNow: Type.String({ format: 'date-time', description: "The server's time of this answer: the browser computes its clock offset from it." }),
    startsAt: Iso,
    deadline: Type.Union([Iso, Type.Null()], {
      description: 'When time runs out while Active; null while the clock stands (Waiting, Paused) or after the end.',
    }),
    remainingMs: Type.Integer({ minimum: 0, description: 'Time left: duration + accommodation extra time + extensions − active time used.' }),
    allowedMs: Type.Integer({ description: 'Duration plus accommodation extra time.' }),
    extensionMs: Type.Integer(),
    admitted: Type.Boolean({ description: 'An invigilator admitted the candidate before the start time.' }),
    declared: Type.Boolean({ description: 'The candidate accepted the declaration.' }),
    endedAt: Type.Union([Iso, Type.Null()]),
  },
  { additionalProperties: false },
);
export type Timing = Static<typeof Timing>;

export const DeliveryItem = Type.Object(
  {
    number: Type.Integer({ minimum: 1 }),
    versionId: Type.String(),
    kind: Type.String(),
    marks: Type.Number(),
    options: Type.Union([Type.Array(Type.String()), Type.Null()]),
    left: Type.Union([Type.Array(Type.String()), Type.Null()]),
    right: Type.Union([Type.Array(Type.String()), Type.Null()]),
    content: Type.Unknown({ description: 'The item content without its answer key (machines/delivery.machine.ts candidateContent).' }),
  },
  { additionalProperties: false },
);

export const DeliverySection = Type.Object(
  {
    sectionId: Type.String(),
    title: Type.String(),
    instructions: Type.Record(Type.String(), Type.String()),
    items: Type.Array(DeliveryItem),
  },
  { additionalProperties: false },
);

export const Answer = Type.Object(
  {
    itemNumber: Type.Integer({ minimum: 1 }),
    sequence: Type.Integer({ minimum: 1 }),
    response: ItemResponseSchema,
    marked: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const Delivery = Type.Object(
  {
    deliveryId: RecordId,
    registrationId: RecordId,
    seasonPaperId: RecordId,
    rollNumber: Type.Union([Type.String(), Type.Null()]),
    candidateName: Type.String(),
    paper: Type.Object(
      {
        code: Type.String(),
        title: Type.String(),
        durationMinutes: Type.Integer(),
        totalMarks: Type.Number(),
        calculator: Type.Boolean(),
        navigation: Type.String(),
        instructions: Type.Record(Type.String(), Type.String()),
      },
      { additionalProperties: false },
    ),
    medium: Type.String(),
    largePrint: Type.Boolean({ description: 'An approved large-print accommodation: the screen opens at a larger text size.' }),
    languages: Type.Array(Type.String(), { description: 'The languages the items have, the medium first.' }),
    setLetter: Type.String(),
    timing: Timing,
    sections: Type.Array(DeliverySection),
    answers: Type.Array(Answer),
    actions: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);
export type Delivery = Static<typeof Delivery>;

export const Sitting = Type.Object(
  {
    registrationId: RecordId,
    seasonPaperId: RecordId,
    seasonName: Type.String(),
    examName: Type.String(),
    paperCode: Type.String(),
    paperTitle: Type.String(),
    startsAt: Iso,
    durationMinutes: Type.Integer(),
    deliveryId: Type.Union([RecordId, Type.Null()]),
    status: Type.Union([DeliveryStatus, Type.Null()]),
  },
  { additionalProperties: false },
);

export const OpenBody = Type.Object({ registrationId: RecordId, seasonPaperId: RecordId }, { additionalProperties: false });
export const StartBody = Type.Object(
  { declaration: Type.Literal(true, { description: 'The candidate has read the instructions and accepts the declaration.' }) },
  { additionalProperties: false },
);

export const Save = Type.Object(
  {
    saveId: Type.String({ format: 'uuid', description: 'Made by the browser; a retry of the same save sends the same id.' }),
    itemNumber: Type.Integer({ minimum: 1, maximum: 10_000 }),
    sequence: Type.Integer({
      minimum: 1,
      maximum: 2_147_483_647,
      description: 'Grows with each change of this question; a lower one never overwrites a higher.',
    }),
    response: ItemResponseSchema,
    marked: Type.Boolean({ description: 'Marked for review.' }),
  },
  { additionalProperties: false },
);
export const SavesBody = Type.Object({ saves: Type.Array(Save, { minItems: 1, maxItems: 500 }) }, { additionalProperties: false });
export const SavesAnswer = Type.Object(
  {
    results: Type.Array(
      Type.Object(
        {
          saveId: Type.String(),
          itemNumber: Type.Integer(),
          applied: Type.Boolean({ description: 'false: a save with a higher sequence for this question was already stored.' }),
          storedSequence: Type.Integer(),
        },
        { additionalProperties: false },
      ),
    ),
    timing: Timing,
  },
  { additionalProperties: false },
);

export const Receipt = Type.Object(
  {
    deliveryId: RecordId,
    status: DeliveryStatus,
    endedAt: Iso,
    answered: Type.Integer(),
    total: Type.Integer(),
  },
  { additionalProperties: false },
);

export const TelemetryBody = Type.Object(
  {
    events: Type.Array(
      Type.Object(
        {
          kind: Type.Union([
            Type.Literal('heartbeat'),
            Type.Literal('focusLost'),
            Type.Literal('focusRegained'),
            Type.Literal('fullscreenExited'),
            Type.Literal('reconnected'),
          ]),
          // Numbers first: the request coercion would otherwise turn every number into a string.
          details: Type.Optional(Type.Record(Type.String({ maxLength: 64 }), Type.Union([Type.Number(), Type.Boolean(), Type.String({ maxLength: 500 })]))),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 100 },
    ),
  },
  { additionalProperties: false },
);

export const InvigilatorEventBody = Type.Object(
  {
    event: Type.Union([
      Type.Literal('delivery.admit'),
      Type.Literal('delivery.pause'),
      Type.Literal('delivery.resume'),
      Type.Literal('delivery.extend'),
      Type.Literal('delivery.terminate'),
    ]),
    minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_EXTENSION_MINUTES })),
    reason: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);

export const ConsoleQuery = Type.Object({ seasonPaperId: RecordId, centerId: Type.Optional(RecordId) }, { additionalProperties: false });

export const ConsoleRow = Type.Object(
  {
    deliveryId: RecordId,
    registrationId: RecordId,
    rollNumber: Type.Union([Type.String(), Type.Null()]),
    candidateName: Type.String(),
    centerId: Type.Union([RecordId, Type.Null()]),
    timing: Timing,
    answered: Type.Integer(),
    lastHeartbeat: Type.Union([Iso, Type.Null()]),
    alerts: Type.Integer({ description: 'Focus lost and fullscreen exits reported.' }),
    actions: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);

export const HistoryEntry = Type.Object(
  {
    event: Type.String(),
    fromStatus: Type.Union([Type.String(), Type.Null()]),
    toStatus: Type.Union([Type.String(), Type.Null()]),
    reason: Type.Union([Type.String(), Type.Null()]),
    details: Type.Record(Type.String(), Type.Unknown()),
    at: Iso,
  },
  { additionalProperties: false },
);

export const DeliveryRecord = Type.Object(
  {
    row: ConsoleRow,
    history: Type.Array(HistoryEntry),
    lateSaves: Type.Integer({ description: 'Saves that arrived after the end, kept as telemetry only.' }),
  },
  { additionalProperties: false },
);

export const ConsoleVerifyBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 2000, description: "What the admit card's QR code carries (scanned or typed)." }),
    seasonPaperId: RecordId,
    centerId: Type.Optional(RecordId),
  },
  { additionalProperties: false },
);

export const ConsoleVerdict = Type.Object(
  {
    verdict: Type.Union([Type.Literal('valid'), Type.Literal('forged'), Type.Literal('revoked'), Type.Literal('elsewhere')], {
      description: 'elsewhere: a genuine card, but not for this project, this paper or this center.',
    }),
    message: Type.String(),
    candidate: Type.Union([
      Type.Object(
        {
          name: Type.String(),
          rollNumber: Type.String(),
          examName: Type.String(),
          center: Type.String(),
          seatNumber: Type.Integer(),
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
    registrationId: Type.Union([RecordId, Type.Null()]),
    delivery: Type.Union([ConsoleRow, Type.Null()], {
      description: 'The candidate’s delivery of this paper once opened, with the actions (admit) open to you.',
    }),
  },
  { additionalProperties: false },
);
