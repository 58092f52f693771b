import { Type, type Static } from 'typebox';

export type { Static };
import { registrationStatusNames } from '#machines/exams/registration.machine.ts';
import { seasonStatusNames, type SeasonEventType } from '#machines/exams/season.machine.ts';
import { RecordId, Timestamp, UserStamp } from '#machines/exams/project-record.ts';
import { PagedResult, searchRequestProperties } from '#server/lib/paging.ts';

/** Request and answer shapes of centers and seasons (issue 18); they are also its OpenAPI. */

export { PagedResult, RecordId };
export const IdParams = Type.Object({ id: RecordId });
const Version = Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'The version the edit was made on (or send If-Match).' });
const Code = Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$', description: 'Letters, digits, _ . -' });
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Text = (maxLength: number) => Type.String({ maxLength });
const DateOnly = Type.String({ format: 'date', description: 'yyyy-mm-dd' });

// ---- centers ---------------------------------------------------------------------------------

export const CENTER_LIMITS = { capacity: 100_000 } as const;

const centerFields = {
  code: Code,
  name: Name,
  address: Type.Optional(Text(500)),
  city: Type.String({ minLength: 1, maxLength: 100 }),
  state: Type.Optional(Text(100)),
  capacity: Type.Integer({ minimum: 1, maximum: CENTER_LIMITS.capacity, description: 'Seats the center has.' }),
  cbtCapable: Type.Optional(Type.Boolean({ description: 'Has computers for online (CBT) papers.' })),
  contactName: Type.Optional(Text(200)),
  contactPhone: Type.Optional(Type.String({ maxLength: 32, pattern: '^[0-9+()\\- .]*$' })),
  contactEmail: Type.Optional(Type.Union([Type.Literal(''), Type.String({ format: 'email', maxLength: 254 })])),
  isActive: Type.Optional(Type.Boolean()),
};

export const CreateCenterBody = Type.Object(centerFields, { additionalProperties: false });
export type CreateCenterBody = Static<typeof CreateCenterBody>;
export const EditCenterBody = Type.Object(
  {
    code: Type.Optional(centerFields.code),
    name: Type.Optional(centerFields.name),
    address: centerFields.address,
    city: Type.Optional(centerFields.city),
    state: centerFields.state,
    capacity: Type.Optional(centerFields.capacity),
    cbtCapable: centerFields.cbtCapable,
    contactName: centerFields.contactName,
    contactPhone: centerFields.contactPhone,
    contactEmail: centerFields.contactEmail,
    isActive: centerFields.isActive,
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
);
export type EditCenterBody = Static<typeof EditCenterBody>;

export const Center = Type.Object({
  centerId: RecordId,
  code: Type.String(),
  name: Type.String(),
  address: Type.String(),
  city: Type.String(),
  state: Type.String(),
  capacity: Type.Integer(),
  cbtCapable: Type.Boolean(),
  contactName: Type.String(),
  contactPhone: Type.String(),
  contactEmail: Type.String(),
  isActive: Type.Boolean(),
  version: Type.Integer(),
  createdOn: Timestamp,
  updatedOn: Timestamp,
  updatedBy: UserStamp,
});
export type Center = Static<typeof Center>;

export const CenterSearchBody = Type.Object(
  {
    ...searchRequestProperties,
    city: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
    state: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
    cbtCapable: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    isActive: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    minCapacity: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: CENTER_LIMITS.capacity }), Type.Null()])),
  },
  { additionalProperties: false },
);
export type CenterSearchBody = Static<typeof CenterSearchBody>;

export const CenterImportAnswer = Type.Object({
  importId: RecordId,
  fileName: Type.String(),
  totalRows: Type.Integer(),
  createdCount: Type.Integer(),
  failedCount: Type.Integer(),
  hasErrorFile: Type.Boolean(),
  errors: Type.Array(Type.Object({ rowNumber: Type.Integer(), reason: Type.String() }), { description: 'The first 100 refused rows.' }),
});
export const Deleted = Type.Object({ deleted: Type.Boolean() });
export const BinaryFile = Type.String({ format: 'binary', description: 'The file' });

// ---- seasons ---------------------------------------------------------------------------------

export const SeasonStatusName = Type.Enum(seasonStatusNames);
export const seasonEventNames: SeasonEventType[] = [
  'season.openRegistration',
  'season.closeRegistration',
  'season.reopenRegistration',
  'season.start',
  'season.complete',
];

const ROLL_PATTERN = '^(?:[A-Za-z0-9_/-]|\\{season\\}|\\{center\\}|\\{seq:[1-9]\\})*\\{seq:[1-9]\\}(?:[A-Za-z0-9_/-]|\\{season\\}|\\{center\\})*$';
const seasonFields = {
  code: Code,
  name: Name,
  startsOn: DateOnly,
  endsOn: DateOnly,
  registrationOpensAt: Type.String({ format: 'date-time' }),
  registrationClosesAt: Type.String({ format: 'date-time' }),
  rollPattern: Type.Optional(
    Type.String({
      maxLength: 60,
      pattern: ROLL_PATTERN,
      description: 'Roll numbers: literal letters and digits with {season}, {center} and exactly one {seq:N} (N digits), e.g. {season}{center}{seq:5}.',
    }),
  ),
};
export const CreateSeasonBody = Type.Object(seasonFields, { additionalProperties: false });
export type CreateSeasonBody = Static<typeof CreateSeasonBody>;
export const EditSeasonBody = Type.Object(
  {
    code: Type.Optional(Code),
    name: Type.Optional(Name),
    startsOn: Type.Optional(DateOnly),
    endsOn: Type.Optional(DateOnly),
    registrationOpensAt: Type.Optional(Type.String({ format: 'date-time' })),
    registrationClosesAt: Type.Optional(Type.String({ format: 'date-time' })),
    rollPattern: Type.Optional(seasonFields.rollPattern),
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
);
export type EditSeasonBody = Static<typeof EditSeasonBody>;

export const Season = Type.Object({
  seasonId: RecordId,
  projectId: RecordId,
  code: Type.String(),
  name: Type.String(),
  startsOn: Type.String(),
  endsOn: Type.String(),
  registrationOpensAt: Timestamp,
  registrationClosesAt: Timestamp,
  rollPattern: Type.String(),
  status: SeasonStatusName,
  paperCount: Type.Integer(),
  centerCount: Type.Integer(),
  seats: Type.Integer(),
  allocated: Type.Integer(),
  version: Type.Integer(),
  createdOn: Timestamp,
  updatedOn: Timestamp,
  updatedBy: UserStamp,
  actions: Type.Array(Type.String(), { description: 'Status events the caller may send now (season machine).' }),
  canConfigure: Type.Boolean({ description: 'The caller may change the schedule, sets, sections and centers now.' }),
});
export type Season = Static<typeof Season>;

export const SeasonSearchBody = Type.Object(
  { ...searchRequestProperties, status: Type.Optional(Type.Union([SeasonStatusName, Type.Null()])) },
  { additionalProperties: false },
);
export const SeasonStatusBody = Type.Object(
  { event: Type.Enum(seasonEventNames), reason: Type.Optional(Type.String({ maxLength: 2000 })), version: Type.Optional(Version) },
  { additionalProperties: false },
);
export const TransitionAnswer = Type.Object({ fromStatus: Type.String(), toStatus: Type.String(), record: Season });
export const HistoryEntry = Type.Object({
  event: Type.String(),
  fromStatus: Type.Union([Type.String(), Type.Null()]),
  toStatus: Type.Union([Type.String(), Type.Null()]),
  by: UserStamp,
  reason: Type.Union([Type.String(), Type.Null()]),
  at: Timestamp,
});

// ---- season papers, sets, sections -----------------------------------------------------------

export const SetAssignment = Type.Union([Type.Literal('randomPerCandidate'), Type.Literal('perCenter')]);
const StartTime = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, the centers’ local time' });
const Mode = Type.Union([Type.Literal('online'), Type.Literal('offline')]);
const Letter = Type.String({ pattern: '^[A-Z]{1,2}$' });

export const SeasonPaperParams = Type.Object({ id: RecordId, seasonPaperId: RecordId });
export const CreateSeasonPaperBody = Type.Object(
  {
    paperId: RecordId,
    sitsOn: DateOnly,
    startsAt: StartTime,
    durationMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 1440, description: 'Defaults to the paper’s duration.' })),
    mode: Type.Optional(Mode),
    setAssignment: Type.Optional(SetAssignment),
    candidateGroup: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 60 }), Type.Null()])),
  },
  { additionalProperties: false },
);
export type CreateSeasonPaperBody = Static<typeof CreateSeasonPaperBody>;
export const EditSeasonPaperBody = Type.Object(
  {
    sitsOn: Type.Optional(DateOnly),
    startsAt: Type.Optional(StartTime),
    durationMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 1440 })),
    mode: Type.Optional(Mode),
    setAssignment: Type.Optional(SetAssignment),
    candidateGroup: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 60 }), Type.Null()])),
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
);
export type EditSeasonPaperBody = Static<typeof EditSeasonPaperBody>;

export const SeasonPaper = Type.Object({
  seasonPaperId: RecordId,
  seasonId: RecordId,
  paperId: RecordId,
  paperCode: Type.String(),
  paperTitle: Type.String(),
  paperStatus: Type.String(),
  examId: RecordId,
  examName: Type.String(),
  sitsOn: Type.String(),
  startsAt: Type.String(),
  endsAt: Type.String({ description: 'HH:MM; may pass midnight (then the next day)' }),
  durationMinutes: Type.Integer(),
  mode: Mode,
  setAssignment: SetAssignment,
  candidateGroup: Type.String({ description: 'Who sits it together (the exam’s code unless set)' }),
  liveSets: Type.Array(Type.String()),
  availableSets: Type.Array(Type.String()),
  sections: Type.Array(
    Type.Object({
      sectionId: RecordId,
      title: Type.String(),
      position: Type.Integer(),
      paperTimeLimitMinutes: Type.Union([Type.Integer(), Type.Null()]),
      timeLimitMinutes: Type.Union([Type.Integer(), Type.Null()]),
      note: Type.String(),
    }),
  ),
  version: Type.Integer(),
});
export type SeasonPaper = Static<typeof SeasonPaper>;

export const ScheduleClash = Type.Object({
  candidateGroup: Type.String(),
  sitsOn: Type.String(),
  seasonPaperIds: Type.Array(RecordId, { minItems: 2, maxItems: 2 }),
  message: Type.String(),
});
export const Schedule = Type.Object({
  seasonId: RecordId,
  papers: Type.Array(SeasonPaper),
  clashes: Type.Array(ScheduleClash, { description: 'One candidate group with two papers at the same time (warnings; the schedule is still stored).' }),
});
export const SeasonPaperAnswer = Type.Object({ record: SeasonPaper, clashes: Type.Array(ScheduleClash) });

export const LiveSetsBody = Type.Object(
  { letters: Type.Array(Letter, { maxItems: 26, uniqueItems: true }), version: Type.Optional(Version) },
  { additionalProperties: false },
);
export const SectionSettingsBody = Type.Object(
  {
    sections: Type.Array(
      Type.Object(
        {
          sectionId: RecordId,
          timeLimitMinutes: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 1440 }), Type.Null()])),
          note: Type.Optional(Type.String({ maxLength: 1000 })),
        },
        { additionalProperties: false },
      ),
      { maxItems: 100 },
    ),
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
);

// ---- season centers --------------------------------------------------------------------------

export const SeasonCenterParams = Type.Object({ id: RecordId, centerId: RecordId });
export const SeasonCenterBody = Type.Object(
  { centerId: RecordId, seats: Type.Integer({ minimum: 0, maximum: CENTER_LIMITS.capacity }), version: Type.Optional(Version) },
  { additionalProperties: false },
);
export const SeasonCenter = Type.Object({
  seasonId: RecordId,
  centerId: RecordId,
  code: Type.String(),
  name: Type.String(),
  city: Type.String(),
  state: Type.String(),
  address: Type.String(),
  capacity: Type.Integer(),
  cbtCapable: Type.Boolean(),
  isActive: Type.Boolean(),
  seats: Type.Integer(),
  allocated: Type.Integer(),
  version: Type.Integer(),
});
export type SeasonCenter = Static<typeof SeasonCenter>;

// ---- registrations ---------------------------------------------------------------------------

export const RegistrationStatusName = Type.Enum(registrationStatusNames);
export const Accommodations = Type.Object(
  {
    extraTimePercent: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'Extra time asked for, in % of each paper' })),
    scribe: Type.Optional(Type.Boolean()),
    largePrint: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export const CreateRegistrationBody = Type.Object(
  {
    seasonId: RecordId,
    examId: RecordId,
    seasonPaperIds: Type.Array(RecordId, { minItems: 1, maxItems: 50, uniqueItems: true }),
    medium: Type.String({ minLength: 2, maxLength: 5, description: 'Language of the papers: one of the project’s languages' }),
    preferredCity: Type.String({ minLength: 1, maxLength: 100 }),
    accommodations: Type.Optional(Accommodations),
  },
  { additionalProperties: false },
);
export type CreateRegistrationBody = Static<typeof CreateRegistrationBody>;

export const Registration = Type.Object({
  registrationId: RecordId,
  projectId: RecordId,
  seasonId: RecordId,
  seasonName: Type.String(),
  examId: RecordId,
  examName: Type.String(),
  candidate: Type.Object({ userId: Type.String(), name: Type.String(), email: Type.String() }),
  papers: Type.Array(
    Type.Object({ seasonPaperId: RecordId, paperCode: Type.String(), paperTitle: Type.String(), sitsOn: Type.String(), startsAt: Type.String() }),
  ),
  medium: Type.String(),
  preferredCity: Type.String(),
  accommodations: Accommodations,
  accommodationStatus: Type.String(),
  status: RegistrationStatusName,
  reason: Type.Union([Type.String(), Type.Null()]),
  center: Type.Union([Type.Object({ centerId: RecordId, code: Type.String(), name: Type.String(), city: Type.String(), address: Type.String() }), Type.Null()]),
  seatNumber: Type.Union([Type.Integer(), Type.Null()]),
  rollNumber: Type.Union([Type.String(), Type.Null()]),
  document: Type.Union([Type.Object({ fileName: Type.String(), sizeBytes: Type.Integer() }), Type.Null()], {
    description: 'The supporting document of the accommodations asked for (issue 18)',
  }),
  admitCardIssuedAt: Type.Union([Timestamp, Type.Null()]),
  version: Type.Integer(),
  createdOn: Timestamp,
  updatedOn: Timestamp,
  actions: Type.Array(Type.String()),
});
export type Registration = Static<typeof Registration>;

export const RegistrationSearchBody = Type.Object(
  {
    ...searchRequestProperties,
    seasonId: Type.Optional(Type.Union([RecordId, Type.Null()])),
    examId: Type.Optional(Type.Union([RecordId, Type.Null()])),
    status: Type.Optional(Type.Union([RegistrationStatusName, Type.Null()])),
    centerId: Type.Optional(Type.Union([RecordId, Type.Null()])),
    accommodationStatus: Type.Optional(Type.Union([Type.Enum(['none', 'requested', 'approved', 'rejected']), Type.Null()])),
  },
  { additionalProperties: false },
);
export const registrationEventNames = [
  'registration.approve',
  'registration.reject',
  'registration.issueAdmitCard',
  'registration.markAttended',
  'registration.markAbsent',
  'registration.cancel',
] as const;
export const RegistrationStatusBody = Type.Object(
  { event: Type.Enum(registrationEventNames), reason: Type.Optional(Type.String({ maxLength: 2000 })), version: Type.Optional(Version) },
  { additionalProperties: false },
);
export const CancelBody = Type.Object({ reason: Type.String({ maxLength: 2000 }) }, { additionalProperties: false });
export const AllocateBody = Type.Object(
  { centerId: Type.Optional(Type.Union([RecordId, Type.Null()], { description: 'Manual allocation; omit for automatic (preferred city, then free seats)' })) },
  { additionalProperties: false },
);
export const MoveBody = Type.Object({ centerId: RecordId }, { additionalProperties: false });
export const AccommodationDecisionBody = Type.Object({ decision: Type.Enum(['approved', 'rejected']) }, { additionalProperties: false });
export const RegistrationTransition = Type.Object({ fromStatus: Type.String(), toStatus: Type.String(), record: Registration });
export const SeasonAllocationAnswer = Type.Object({ allocated: Type.Integer(), unplaced: Type.Integer(), elapsedMs: Type.Integer() });

export const OpenSeason = Type.Object({
  seasonId: RecordId,
  projectId: RecordId,
  projectName: Type.String(),
  code: Type.String(),
  name: Type.String(),
  startsOn: Type.String(),
  endsOn: Type.String(),
  registrationOpensAt: Timestamp,
  registrationClosesAt: Timestamp,
  languages: Type.Array(Type.String()),
  cities: Type.Array(Type.String()),
  exams: Type.Array(
    Type.Object({
      examId: RecordId,
      code: Type.String(),
      name: Type.String(),
      papers: Type.Array(
        Type.Object({
          seasonPaperId: RecordId,
          paperCode: Type.String(),
          paperTitle: Type.String(),
          sitsOn: Type.String(),
          startsAt: Type.String(),
          durationMinutes: Type.Integer(),
          mode: Type.String(),
        }),
      ),
    }),
  ),
});

const RegistrationPaper = Type.Object({
  seasonPaperId: RecordId,
  paperCode: Type.String(),
  paperTitle: Type.String(),
  sitsOn: Type.String(),
  startsAt: Type.String(),
});
export const AdmitCard = Type.Object({
  registrationId: RecordId,
  rollNumber: Type.String(),
  candidateName: Type.String(),
  examName: Type.String(),
  seasonName: Type.String(),
  medium: Type.String(),
  papers: Type.Array(RegistrationPaper),
  center: Type.Object({ name: Type.String(), address: Type.String(), city: Type.String() }),
  seatNumber: Type.Integer(),
  accommodations: Type.Union([Accommodations, Type.Null()]),
  issuedAt: Timestamp,
  token: Type.String({ description: 'What the card’s QR code carries; the verify screen checks it' }),
});
export const VerifyAdmitBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 2000 }) }, { additionalProperties: false });
export const AdmitVerdict = Type.Object({
  verdict: Type.Union([Type.Literal('valid'), Type.Literal('forged'), Type.Literal('revoked')]),
  message: Type.String(),
  candidate: Type.Union([
    Type.Object({
      name: Type.String(),
      rollNumber: Type.String(),
      examName: Type.String(),
      center: Type.String(),
      seatNumber: Type.Integer(),
      papers: Type.Array(RegistrationPaper),
    }),
    Type.Null(),
  ]),
});

export type AdmitVerdictAnswer = Static<typeof AdmitVerdict>;

// ---- admit card batches, bulk registration, roll pattern (docs/decisions/0230–0233) ----------

export const AdmitBatchBody = Type.Object(
  { centerId: Type.Optional(Type.Union([RecordId, Type.Null()], { description: 'Only this center’s candidates; omit for the whole season' })) },
  { additionalProperties: false },
);
export const AdmitBatch = Type.Object({
  batchId: RecordId,
  seasonId: RecordId,
  centerId: Type.Union([RecordId, Type.Null()]),
  state: Type.String(),
  message: Type.Union([Type.String(), Type.Null()]),
  total: Type.Integer(),
  issued: Type.Integer(),
  failed: Type.Integer(),
  elapsedMs: Type.Integer(),
  cardsPerSecond: Type.Union([Type.Number(), Type.Null()], { description: 'Cards issued and rendered per second of work' }),
  createdOn: Timestamp,
  finishedOn: Type.Union([Timestamp, Type.Null()]),
});
export const UploadQuery = Type.Object(
  {
    seasonId: RecordId,
    approve: Type.Optional(Type.Boolean({ description: 'Approve the registrations as they are made' })),
  },
  { additionalProperties: false },
);
export const UploadAccepted = Type.Object({ jobId: RecordId, fileName: Type.String(), state: Type.String(), message: Type.String() });
export const UploadSearchBody = Type.Object(
  { ...searchRequestProperties, seasonId: Type.Optional(Type.Union([RecordId, Type.Null()])) },
  { additionalProperties: false },
);
export const UploadJob = Type.Object({
  jobId: RecordId,
  seasonId: RecordId,
  fileName: Type.String(),
  state: Type.String(),
  message: Type.Union([Type.String(), Type.Null()]),
  approve: Type.Boolean(),
  totalRows: Type.Integer(),
  processedRows: Type.Integer(),
  createdCount: Type.Integer(),
  failedCount: Type.Integer(),
  hasErrorFile: Type.Boolean(),
  createdOn: Timestamp,
  finishedOn: Type.Union([Timestamp, Type.Null()]),
});
export const RollPatternBody = Type.Object(
  { rollPattern: Type.String({ maxLength: 60, pattern: ROLL_PATTERN, description: 'The default of the project’s new seasons, e.g. {season}{center}{seq:5}' }) },
  { additionalProperties: false },
);
export const RollPatternAnswer = Type.Object({ rollPattern: Type.String(), example: Type.String() });
export const DocumentInfo = Type.Object({ fileName: Type.String(), sizeBytes: Type.Integer() });
export const PdfBytes = Type.String({ format: 'binary', description: 'application/pdf' });
