import { Type, type Static } from 'typebox';
import { RecordId } from '#machines/exams/project-record.ts';
import { resultStatusNames } from '#machines/results/result.machine.ts';

/** Request and answer shapes of results and marking (issue 20); they are also its OpenAPI. */

export const IdParams = Type.Object({ id: RecordId });
const Iso = Type.String({ format: 'date-time' });
const Marks = Type.Number({ minimum: -100_000, maximum: 100_000 });
export const ResultStatus = Type.Enum(resultStatusNames, {
  description: 'Provisional ⇄ Marking → Moderated → Published → ReevaluationRequested → Revised; Withheld (machines/results/result.machine.ts)',
});
const Reason = Type.String({ minLength: 1, maxLength: 2000 });

export const SectionTotal = Type.Object(
  { sectionId: Type.String(), title: Type.String(), total: Type.Number(), maxTotal: Type.Number(), attemptAny: Type.Union([Type.Integer(), Type.Null()]) },
  { additionalProperties: false },
);

export const ResultSummary = Type.Object(
  {
    resultId: RecordId,
    examId: RecordId,
    examName: Type.String(),
    paperCode: Type.String(),
    paperTitle: Type.String(),
    status: ResultStatus,
    total: Type.Number(),
    maxTotal: Type.Number(),
    percent: Type.Number(),
    grade: Type.Union([Type.String(), Type.Null()]),
    passed: Type.Boolean(),
    publishedAt: Type.Union([Iso, Type.Null()]),
  },
  { additionalProperties: false },
);

export const AnswerSheetItem = Type.Object(
  {
    number: Type.Integer({ minimum: 1 }),
    sectionId: Type.String(),
    kind: Type.String(),
    content: Type.Unknown({ description: 'The item with its key, in the languages it was written in.' }),
    response: Type.Unknown({ description: 'The answer given, or null.' }),
    outcome: Type.String(),
    marks: Type.Union([Type.Number(), Type.Null()]),
    maxMarks: Type.Number(),
    counted: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const ResultHistoryEntry = Type.Object(
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

export const ResultDetail = Type.Object(
  {
    ...ResultSummary.properties,
    sections: Type.Array(SectionTotal),
    medium: Type.String(),
    answerSheet: Type.Union([Type.Array(AnswerSheetItem), Type.Null()], { description: 'Null when the exam does not show answer sheets.' }),
    reevaluation: Type.Object(
      {
        openUntil: Type.Union([Iso, Type.Null()], { description: 'The end of the window, or null when not offered.' }),
        canRequest: Type.Boolean(),
        ticketId: Type.Union([RecordId, Type.Null()]),
        items: Type.Array(Type.Integer()),
      },
      { additionalProperties: false },
    ),
    history: Type.Array(ResultHistoryEntry),
  },
  { additionalProperties: false },
);
export type ResultDetail = Static<typeof ResultDetail>;
export type ResultSummary = Static<typeof ResultSummary>;

export const ReevaluationBody = Type.Object(
  {
    items: Type.Array(Type.Integer({ minimum: 1, maximum: 10_000 }), { minItems: 1, maxItems: 500, description: 'The question numbers to re-evaluate.' }),
    reason: Type.String({ minLength: 1, maxLength: 2000, description: 'Why the candidate asks.' }),
  },
  { additionalProperties: false },
);

export const ExamIdParams = Type.Object({ examId: RecordId });

export const ConsoleResult = Type.Object(
  {
    resultId: RecordId,
    scriptId: Type.String(),
    candidateName: Type.String(),
    rollNumber: Type.Union([Type.String(), Type.Null()]),
    paperCode: Type.String(),
    status: ResultStatus,
    total: Type.Number(),
    maxTotal: Type.Number(),
    percent: Type.Number(),
    grade: Type.Union([Type.String(), Type.Null()]),
    passed: Type.Boolean(),
    awaitingMarks: Type.Integer({ minimum: 0 }),
    reevaluationTicketId: Type.Union([RecordId, Type.Null()]),
  },
  { additionalProperties: false },
);

export const ResultSettings = Type.Object({
  answerSheet: Type.Boolean(),
  reevaluationDays: Type.Integer(),
  doubleMarkPercent: Type.Number(),
  thirdMarkThreshold: Type.Number(),
});

/** The exam's result settings as the exam manager sets them (grade bands and the pass mark are the exam's rules: PUT /v1/exam/:id). */
export const ResultSettingsBody = Type.Object(
  {
    answerSheet: Type.Boolean({ description: 'Whether candidates see their answer sheet: each item, their answer, the key and the marks.' }),
    reevaluationDays: Type.Integer({ minimum: 0, maximum: 365, description: 'Days after publication a candidate may ask for re-evaluation; 0 = not offered.' }),
    doubleMarkPercent: Type.Number({ minimum: 0, maximum: 100, description: 'Share of human-marked answers marked twice, blind, from now on.' }),
    thirdMarkThreshold: Type.Number({ minimum: 0, maximum: 1000, description: 'Two marks further apart than this go to a third marker (a Moderator).' }),
  },
  { additionalProperties: false },
);
export type ResultSettingsBody = Static<typeof ResultSettingsBody>;

export const ExamResults = Type.Object(
  {
    examId: RecordId,
    counts: Type.Record(Type.String(), Type.Integer()),
    results: Type.Array(ConsoleResult),
    settings: ResultSettings,
  },
  { additionalProperties: false },
);

export const PublishAnswer = Type.Object(
  {
    published: Type.Integer({ minimum: 0 }),
    stillMarking: Type.Integer({ minimum: 0, description: 'Results left unpublished because answers still wait for marks.' }),
    withheld: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

export const ResultEventBody = Type.Object(
  {
    event: Type.Union([Type.Literal('result.moderate'), Type.Literal('result.withhold'), Type.Literal('result.release')], {
      description: 'moderate: a moderator confirms the result after review; withhold / release: the moderator or the exam manager.',
    }),
    reason: Reason,
  },
  { additionalProperties: false },
);

export const AnswerKeyBody = Type.Object(
  {
    versionId: Type.String({ minLength: 1, maxLength: 100 }),
    content: Type.Unknown({ description: 'The item content with the corrected key (same kind as the locked version).' }),
    reason: Reason,
  },
  { additionalProperties: false },
);

export const Difference = Type.Object(
  {
    resultId: RecordId,
    scriptId: Type.String(),
    before: Type.Object(
      { total: Type.Number(), percent: Type.Number(), grade: Type.Union([Type.String(), Type.Null()]), passed: Type.Boolean() },
      { additionalProperties: true },
    ),
    after: Type.Object(
      { total: Type.Number(), percent: Type.Number(), grade: Type.Union([Type.String(), Type.Null()]), passed: Type.Boolean() },
      { additionalProperties: true },
    ),
    items: Type.Array(
      Type.Object({ number: Type.Integer(), before: Type.Union([Type.Number(), Type.Null()]), after: Type.Union([Type.Number(), Type.Null()]) }),
    ),
  },
  { additionalProperties: false },
);

export const AnswerKeyAnswer = Type.Object(
  {
    correctionId: RecordId,
    rescored: Type.Integer({ minimum: 0 }),
    changed: Type.Integer({ minimum: 0 }),
    differences: Type.Array(Difference),
  },
  { additionalProperties: false },
);

// ---- marking -------------------------------------------------------------------------------

export const QueueQuery = Type.Object(
  {
    examId: RecordId,
    itemNumber: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
    scriptId: Type.Optional(Type.String({ format: 'uuid' })),
  },
  { additionalProperties: false },
);

export const MarkingTask = Type.Object(
  {
    taskId: RecordId,
    scriptId: Type.String({ description: 'Opaque: never the name or roll number.' }),
    itemNumber: Type.Integer(),
    round: Type.Integer({ minimum: 1, maximum: 3 }),
    maxMarks: Type.Number(),
    stem: Type.String(),
    rubric: Type.Union([Type.String(), Type.Null()]),
    answer: Type.String(),
    /** Third marker only: the two marks that disagreed. */
    earlierMarks: Type.Array(Type.Object({ round: Type.Integer(), marks: Type.Number(), comment: Type.Union([Type.String(), Type.Null()]) })),
  },
  { additionalProperties: false },
);

export const MarkBody = Type.Object({ marks: Marks, comment: Type.String({ maxLength: 4000 }) }, { additionalProperties: false });

export const MarkAnswer = Type.Object(
  {
    taskId: RecordId,
    state: Type.Union([Type.Literal('awaiting'), Type.Literal('thirdMarker'), Type.Literal('final')]),
    resultStatus: ResultStatus,
  },
  { additionalProperties: false },
);

export const Progress = Type.Object(
  {
    examId: RecordId,
    byEvaluator: Type.Array(
      Type.Object(
        { markerId: Type.String(), name: Type.String(), marked: Type.Integer(), mean: Type.Number(), sd: Type.Number() },
        { additionalProperties: false },
      ),
    ),
    byItem: Type.Array(
      Type.Object(
        { itemNumber: Type.Integer(), total: Type.Integer(), marked: Type.Integer(), waitingThirdMarker: Type.Integer() },
        { additionalProperties: false },
      ),
    ),
    overall: Type.Object({ mean: Type.Number(), sd: Type.Number(), count: Type.Integer() }),
  },
  { additionalProperties: false },
);

export const ModerateBody = Type.Object(
  {
    examId: RecordId,
    markerId: Type.String({ format: 'uuid' }),
    kind: Type.Union([Type.Literal('shift'), Type.Literal('scale')]),
    value: Type.Number({ minimum: -100, maximum: 100 }),
    reason: Reason,
  },
  { additionalProperties: false },
);

export const ModerateAnswer = Type.Object({ adjusted: Type.Integer({ minimum: 0 }), results: Type.Integer({ minimum: 0 }) }, { additionalProperties: false });
