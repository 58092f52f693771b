import type { Queryable } from './client.ts';

/**
 * Demo data of issue 18: six exam centers of the tenant (one inactive), the board project's
 * "March 2027" season with registration open now (its window is set around the day the demo is
 * seeded), the locked MATH-10 unit test scheduled in it with sets A–C live, four centers given
 * seats, and five candidates' registrations at four points of the registration machine
 * (two Submitted in the approval queue, one with accommodations asked for; Approved; Allocated
 * with a roll number; one whose admit card is issued, to download and verify; and one Rejected
 * with its reason), its first section's settings for the sitting and the admit-card batch that
 * issued the card; and the Completed "November 2026 practice sitting" whose two candidates were
 * marked Attended and Absent, so every seasons screen has something to show.
 */
const centers: Array<[code: string, name: string, address: string, city: string, capacity: number, cbt: boolean, active: boolean]> = [
  ['AHM-001', 'Navrangpura Public School', '12 University Road, Navrangpura', 'Ahmedabad', 240, true, true],
  ['AHM-002', 'Maninagar Vidyalaya', '4 Station Road, Maninagar', 'Ahmedabad', 180, false, true],
  ['SUR-001', 'Athwa Lines High School', '7 Athwa Lines', 'Surat', 200, true, true],
  ['VAD-001', 'Alkapuri Model School', '21 R. C. Dutt Road, Alkapuri', 'Vadodara', 150, false, true],
  ['RAJ-001', 'Kalawad Road Secondary School', '33 Kalawad Road', 'Rajkot', 120, true, true],
  ['GNR-001', 'Sector 21 Government School', 'Sector 21', 'Gandhinagar', 90, false, false],
];

export const DEMO_CANDIDATES = [
  { key: 'neha.joshi', firstName: 'Neha', lastName: 'Joshi', city: 'Surat', status: 'Submitted' as const },
  { key: 'aarav.mehta', firstName: 'Aarav', lastName: 'Mehta', city: 'Ahmedabad', status: 'Approved' as const },
  { key: 'isha.trivedi', firstName: 'Isha', lastName: 'Trivedi', city: 'Ahmedabad', status: 'Allocated' as const },
  { key: 'kavya.shah', firstName: 'Kavya', lastName: 'Shah', city: 'Ahmedabad', status: 'AdmitCardIssued' as const },
  { key: 'dev.parmar', firstName: 'Dev', lastName: 'Parmar', city: 'Rajkot', status: 'Submitted' as const },
  { key: 'rahul.bhatt', firstName: 'Rahul', lastName: 'Bhatt', city: 'Vadodara', status: 'Rejected' as const },
];

/** Why the demo's rejected registration was refused (the candidate's dashboard shows it). */
export const DEMO_REJECTION = 'The photo identity document could not be read. Register again with a clear scan.';

const isoDate = (d: Date) => d.toISOString().slice(0, 10);
const day = 24 * 60 * 60 * 1000;

export async function seedDemoSeasons(
  tx: Queryable,
  input: {
    tenantId: string;
    projectId: number;
    examId: number;
    paperId: number;
    manager: string;
    centerManager: string;
    candidates: Map<string, string>;
    now?: Date;
  },
): Promise<void> {
  const now = input.now ?? new Date();
  const ids = new Map<string, number>();
  for (const [code, name, address, city, capacity, cbt, active] of centers) {
    const { rows } = await tx.query<{ id: number }>(
      `insert into exam_centers (tenant_id, code, name, address, city, state, capacity, cbt_capable, contact_name, contact_phone, contact_email, is_active, created_by, updated_by)
       values ($1, $2, $3, $4, $5, 'Gujarat', $6, $7, 'Centre superintendent', '+91 79 2630 0000', $8, $9, $10, $10)
       on conflict do nothing returning id::int as id`,
      [input.tenantId, code, name, address, city, capacity, cbt, `${code.toLowerCase()}@centres.example.org`, active, input.manager],
    );
    const id =
      rows[0]?.id ??
      (await tx.query<{ id: number }>(`select id::int as id from exam_centers where tenant_id = $1 and lower(code) = lower($2)`, [input.tenantId, code]))
        .rows[0].id;
    ids.set(code, id);
  }

  const opens = new Date(now.getTime() - 7 * day);
  const closes = new Date(now.getTime() + 45 * day);
  const startsOn = new Date(closes.getTime() + 14 * day);
  const endsOn = new Date(startsOn.getTime() + 20 * day);
  const { rows: seasonRows } = await tx.query<{ id: number }>(
    `insert into seasons (tenant_id, project_id, code, name, starts_on, ends_on, registration_opens_at, registration_closes_at, status, created_by, updated_by, version)
     values ($1, $2, 'MAR27', 'March 2027 sitting', $3, $4, $5, $6, 'RegistrationOpen', $7, $7, 4) returning id::int as id`,
    [input.tenantId, input.projectId, isoDate(startsOn), isoDate(endsOn), opens, closes, input.manager],
  );
  const seasonId = seasonRows[0].id;
  await tx.query(
    `insert into season_history (season_id, event, from_status, to_status, actor_id) values ($1, 'season.create', null, 'Planned', $2), ($1, 'season.openRegistration', 'Planned', 'RegistrationOpen', $2)`,
    [seasonId, input.manager],
  );
  const { rows: paperRows } = await tx.query<{ id: number }>(
    `insert into season_papers (season_id, paper_id, exam_id, sits_on, starts_at_minute, duration_minutes, mode, set_assignment, updated_by)
     values ($1, $2, $3, $4, 600, 90, 'offline', 'perCenter', $5) returning id::int as id`,
    [seasonId, input.paperId, input.examId, isoDate(new Date(startsOn.getTime() + 2 * day)), input.manager],
  );
  const seasonPaperId = paperRows[0].id;
  await tx.query(`insert into season_sets (season_paper_id, letter) select $1, letter from paper_sets where paper_id = $2 and letter in ('A', 'B', 'C')`, [
    seasonPaperId,
    input.paperId,
  ]);
  for (const [code, seats] of [
    ['AHM-001', 200],
    ['AHM-002', 150],
    ['SUR-001', 120],
    ['RAJ-001', 80],
  ] as const) {
    await tx.query(`insert into season_centers (season_id, center_id, seats, updated_by) values ($1, $2, $3, $4)`, [
      seasonId,
      ids.get(code),
      seats,
      input.centerManager,
    ]);
  }

  for (const candidate of DEMO_CANDIDATES) {
    const candidateId = input.candidates.get(candidate.key)!;
    let centerId: number | null = null;
    let seq: number | null = null;
    const seated = candidate.status === 'Allocated' || candidate.status === 'AdmitCardIssued';
    if (seated) {
      centerId = ids.get('AHM-001')!;
      const { rows } = await tx.query<{ seq: number }>(
        `update season_centers set allocated = allocated + 1, last_seq = last_seq + 1 where season_id = $1 and center_id = $2 returning last_seq as seq`,
        [seasonId, centerId],
      );
      seq = rows[0].seq;
    }
    const asked = candidate.key === 'neha.joshi';
    const { rows } = await tx.query<{ id: number }>(
      `insert into registrations (tenant_id, project_id, season_id, exam_id, candidate_id, season_paper_ids, medium, preferred_city, accommodations,
                                  accommodation_status, status, center_id, seat_number, roll_number, updated_by, reason)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) returning id::int as id`,
      [
        input.tenantId,
        input.projectId,
        seasonId,
        input.examId,
        candidateId,
        [seasonPaperId],
        asked || candidate.key === 'kavya.shah' ? 'gu' : 'en',
        candidate.city,
        JSON.stringify({ extraTimePercent: asked ? 25 : 0, scribe: false, largePrint: asked }),
        asked ? 'requested' : 'none',
        candidate.status,
        centerId,
        seq,
        seq === null ? null : `MAR27AHM-001${String(seq).padStart(5, '0')}`,
        candidate.status === 'Submitted' ? candidateId : input.manager,
        candidate.status === 'Rejected' ? DEMO_REJECTION : null,
      ],
    );
    const steps: Array<[string, string | null, string]> = [['registration.submit', null, 'Submitted']];
    if (candidate.status === 'Rejected') steps.push(['registration.reject', 'Submitted', 'Rejected']);
    else if (candidate.status !== 'Submitted') steps.push(['registration.approve', 'Submitted', 'Approved']);
    if (seated) steps.push(['registration.allocate', 'Approved', 'Allocated']);
    if (candidate.status === 'AdmitCardIssued') {
      steps.push(['registration.issueAdmitCard', 'Allocated', 'AdmitCardIssued']);
      await tx.query(`update registrations set admit_card_version = 1, admit_card_issued_at = $2 where id = $1`, [rows[0].id, now]);
    }
    for (const [event, from, to] of steps) {
      await tx.query(`insert into registration_history (registration_id, event, from_status, to_status, actor_id, reason) values ($1, $2, $3, $4, $5, $6)`, [
        rows[0].id,
        event,
        from,
        to,
        event === 'registration.submit' ? candidateId : input.manager,
        event === 'registration.reject' ? DEMO_REJECTION : null,
      ]);
    }
    if (candidate.status === 'AdmitCardIssued') {
      // The batch that issued the card (the Admit cards tab lists it with its rate).
      await tx.query(
        `insert into admit_card_batches (tenant_id, project_id, season_id, center_id, state, message, total, issued, failed, elapsed_ms, created_by, created_at, started_at, finished_at)
         values ($1, $2, $3, $4, 'finished', null, 1, 1, 0, 284, $5, $6, $6, $6)`,
        [input.tenantId, input.projectId, seasonId, centerId, input.manager, now],
      );
    }
  }

  // The first section of the paper runs to its own time limit in this sitting.
  await tx.query(
    `insert into season_sections (season_paper_id, section_id, time_limit_minutes, note)
     select $1, id, 15, 'Section A answer sheets are collected after 15 minutes.' from paper_sections where paper_id = $2 order by position limit 1`,
    [seasonPaperId, input.paperId],
  );

  await seedCompletedSeason(tx, input, ids, now);
  await seedDemoPaperSitting(tx, input, ids.get('AHM-002')!, now);
}

/** Last November's practice sitting, Completed: Isha Trivedi sat it, Aarav Mehta was absent. */
async function seedCompletedSeason(tx: Queryable, input: Parameters<typeof seedDemoSeasons>[1], ids: Map<string, number>, now: Date) {
  const startsOn = new Date(now.getTime() - 30 * day);
  const { rows: seasonRows } = await tx.query<{ id: number }>(
    `insert into seasons (tenant_id, project_id, code, name, starts_on, ends_on, registration_opens_at, registration_closes_at, status, created_by, updated_by, version)
     values ($1, $2, 'NOV26', 'November 2026 practice sitting', $3, $4, $5, $6, 'Completed', $7, $7, 6) returning id::int as id`,
    [
      input.tenantId,
      input.projectId,
      isoDate(startsOn),
      isoDate(new Date(startsOn.getTime() + 2 * day)),
      new Date(startsOn.getTime() - 40 * day),
      new Date(startsOn.getTime() - 10 * day),
      input.manager,
    ],
  );
  const seasonId = seasonRows[0].id;
  const walk: Array<[string, string | null, string]> = [
    ['season.create', null, 'Planned'],
    ['season.openRegistration', 'Planned', 'RegistrationOpen'],
    ['season.closeRegistration', 'RegistrationOpen', 'RegistrationClosed'],
    ['season.start', 'RegistrationClosed', 'InProgress'],
    ['season.complete', 'InProgress', 'Completed'],
  ];
  for (const [event, from, to] of walk)
    await tx.query(`insert into season_history (season_id, event, from_status, to_status, actor_id) values ($1, $2, $3, $4, $5)`, [
      seasonId,
      event,
      from,
      to,
      input.manager,
    ]);
  const { rows: paperRows } = await tx.query<{ id: number }>(
    `insert into season_papers (season_id, paper_id, exam_id, sits_on, starts_at_minute, duration_minutes, mode, set_assignment, updated_by)
     values ($1, $2, $3, $4, 570, 40, 'offline', 'randomPerCandidate', $5) returning id::int as id`,
    [seasonId, input.paperId, input.examId, isoDate(new Date(startsOn.getTime() + day)), input.manager],
  );
  const seasonPaperId = paperRows[0].id;
  await tx.query(`insert into season_sets (season_paper_id, letter) select $1, letter from paper_sets where paper_id = $2 and letter in ('A', 'B')`, [
    seasonPaperId,
    input.paperId,
  ]);
  const centerId = ids.get('AHM-002')!;
  await tx.query(`insert into season_centers (season_id, center_id, seats, allocated, last_seq, updated_by) values ($1, $2, 60, 2, 2, $3)`, [
    seasonId,
    centerId,
    input.centerManager,
  ]);
  for (const [seq, key, status] of [
    [1, 'isha.trivedi', 'Attended'],
    [2, 'aarav.mehta', 'Absent'],
  ] as const) {
    const candidateId = input.candidates.get(key)!;
    const { rows } = await tx.query<{ id: number }>(
      `insert into registrations (tenant_id, project_id, season_id, exam_id, candidate_id, season_paper_ids, medium, preferred_city, status, center_id, seat_number,
                                  roll_number, admit_card_version, admit_card_issued_at, updated_by, created_at)
       values ($1, $2, $3, $4, $5, $6, 'en', 'Ahmedabad', $7, $8, $9, $10, 1, $11, $12, $13) returning id::int as id`,
      [
        input.tenantId,
        input.projectId,
        seasonId,
        input.examId,
        candidateId,
        [seasonPaperId],
        status,
        centerId,
        seq,
        `NOV26AHM-002${String(seq).padStart(5, '0')}`,
        new Date(startsOn.getTime() - 5 * day),
        input.manager,
        new Date(startsOn.getTime() - 30 * day),
      ],
    );
    const steps: Array<[string, string | null, string]> = [
      ['registration.submit', null, 'Submitted'],
      ['registration.approve', 'Submitted', 'Approved'],
      ['registration.allocate', 'Approved', 'Allocated'],
      ['registration.issueAdmitCard', 'Allocated', 'AdmitCardIssued'],
      [status === 'Attended' ? 'registration.markAttended' : 'registration.markAbsent', 'AdmitCardIssued', status],
    ];
    for (const [event, from, to] of steps)
      await tx.query(`insert into registration_history (registration_id, event, from_status, to_status, actor_id) values ($1, $2, $3, $4, $5)`, [
        rows[0].id,
        event,
        from,
        to,
        event === 'registration.submit' ? candidateId : input.centerManager,
      ]);
  }
  await seedDemoMockTest(tx, input, ids.get('AHM-001')!, now);
}

/**
 * Issue 19: an online mock test the demo candidate Kavya Shah can sit in the browser at any time
 * (/sit). A second season of the board project ("Online mock test") schedules the same locked
 * paper online today at 00:00 at the centers, 90 minutes, sets A–C random per candidate; Kavya
 * is registered, allocated to AHM-001 and has her admit card, so opening it starts her delivery.
 */
async function seedDemoMockTest(
  tx: Queryable,
  input: { tenantId: string; projectId: number; examId: number; paperId: number; manager: string; candidates: Map<string, string> },
  centerId: number,
  now: Date,
) {
  // Today in IST (the centers' time, docs/decisions/0241), so the start is already past.
  const today = isoDate(new Date(now.getTime() + 330 * 60_000));
  const { rows: seasonRows } = await tx.query<{ id: number }>(
    `insert into seasons (tenant_id, project_id, code, name, starts_on, ends_on, registration_opens_at, registration_closes_at, status, created_by, updated_by, version)
     values ($1, $2, 'MOCK', 'Online mock test', $3, $4, $5, $6, 'InProgress', $7, $7, 5) returning id::int as id`,
    [
      input.tenantId,
      input.projectId,
      today,
      isoDate(new Date(now.getTime() + 60 * day)),
      new Date(now.getTime() - 14 * day),
      new Date(now.getTime() - day),
      input.manager,
    ],
  );
  const seasonId = seasonRows[0].id;
  await recordSeasonStarted(tx, seasonId, input.manager);
  const { rows: paperRows } = await tx.query<{ id: number }>(
    `insert into season_papers (season_id, paper_id, exam_id, sits_on, starts_at_minute, duration_minutes, mode, set_assignment, updated_by)
     values ($1, $2, $3, $4, 0, 90, 'online', 'randomPerCandidate', $5) returning id::int as id`,
    [seasonId, input.paperId, input.examId, today, input.manager],
  );
  const seasonPaperId = paperRows[0].id;
  await tx.query(`insert into season_sets (season_paper_id, letter) select $1, letter from paper_sets where paper_id = $2 and letter in ('A', 'B', 'C')`, [
    seasonPaperId,
    input.paperId,
  ]);
  await tx.query(`insert into season_centers (season_id, center_id, seats, allocated, last_seq, updated_by) values ($1, $2, 60, 1, 1, $3)`, [
    seasonId,
    centerId,
    input.manager,
  ]);
  const candidateId = input.candidates.get('kavya.shah')!;
  const { rows } = await tx.query<{ id: number }>(
    `insert into registrations (tenant_id, project_id, season_id, exam_id, candidate_id, season_paper_ids, medium, preferred_city, accommodations,
                                accommodation_status, status, center_id, seat_number, roll_number, admit_card_version, admit_card_issued_at, updated_by)
     values ($1, $2, $3, $4, $5, $6, 'gu', 'Ahmedabad', '{}', 'none', 'AdmitCardIssued', $7, 1, 'MOCKAHM-00100001', 1, $8, $9) returning id::int as id`,
    [input.tenantId, input.projectId, seasonId, input.examId, candidateId, [seasonPaperId], centerId, now, input.manager],
  );
  await recordAdmitCardIssued(tx, rows[0].id, candidateId, input.manager);
}

/**
 * Issue 19, paper mode (docs/decisions/0249): a third season of the board project ("Paper
 * sitting") sits the same locked paper on paper today at 10:00 at AHM-002 (no computers), sets A
 * and B one per center. Isha Trivedi and Aarav Mehta hold their admit cards and are not marked
 * yet, so the invigilator (Sunita Patel) can open /invigilate/paper, mark one present and one
 * absent, and enter the present one's marks per question.
 */
async function seedDemoPaperSitting(tx: Queryable, input: Parameters<typeof seedDemoSeasons>[1], centerId: number, now: Date) {
  // Today in IST, as the mock test (docs/decisions/0241).
  const today = isoDate(new Date(now.getTime() + 330 * 60_000));
  const { rows: seasonRows } = await tx.query<{ id: number }>(
    `insert into seasons (tenant_id, project_id, code, name, starts_on, ends_on, registration_opens_at, registration_closes_at, status, created_by, updated_by, version)
     values ($1, $2, 'PAPR', 'Paper sitting', $3, $3, $4, $5, 'InProgress', $6, $6, 5) returning id::int as id`,
    [input.tenantId, input.projectId, today, new Date(now.getTime() - 21 * day), new Date(now.getTime() - 7 * day), input.manager],
  );
  const seasonId = seasonRows[0].id;
  await recordSeasonStarted(tx, seasonId, input.manager);
  const { rows: paperRows } = await tx.query<{ id: number }>(
    `insert into season_papers (season_id, paper_id, exam_id, sits_on, starts_at_minute, duration_minutes, mode, set_assignment, updated_by)
     values ($1, $2, $3, $4, 600, 40, 'offline', 'perCenter', $5) returning id::int as id`,
    [seasonId, input.paperId, input.examId, today, input.manager],
  );
  const seasonPaperId = paperRows[0].id;
  await tx.query(`insert into season_sets (season_paper_id, letter) select $1, letter from paper_sets where paper_id = $2 and letter in ('A', 'B')`, [
    seasonPaperId,
    input.paperId,
  ]);
  await tx.query(`insert into season_centers (season_id, center_id, seats, allocated, last_seq, updated_by) values ($1, $2, 60, 2, 2, $3)`, [
    seasonId,
    centerId,
    input.centerManager,
  ]);
  for (const [seq, key] of [
    [1, 'isha.trivedi'],
    [2, 'aarav.mehta'],
  ] as const) {
    const candidateId = input.candidates.get(key)!;
    const { rows } = await tx.query<{ id: number }>(
      `insert into registrations (tenant_id, project_id, season_id, exam_id, candidate_id, season_paper_ids, medium, preferred_city, status, center_id, seat_number,
                                  roll_number, admit_card_version, admit_card_issued_at, updated_by, created_at)
       values ($1, $2, $3, $4, $5, $6, 'en', 'Ahmedabad', 'AdmitCardIssued', $7, $8, $9, 1, $10, $11, $12) returning id::int as id`,
      [
        input.tenantId,
        input.projectId,
        seasonId,
        input.examId,
        candidateId,
        [seasonPaperId],
        centerId,
        seq,
        `PAPRAHM-002${String(seq).padStart(5, '0')}`,
        new Date(now.getTime() - 3 * day),
        input.manager,
        new Date(now.getTime() - 14 * day),
      ],
    );
    await recordAdmitCardIssued(tx, rows[0].id, candidateId, input.manager);
  }
}

/** A season's history from creation to InProgress, as a season that opened, closed and started its registration. */
async function recordSeasonStarted(tx: Queryable, seasonId: number, manager: string) {
  await tx.query(
    `insert into season_history (season_id, event, from_status, to_status, actor_id) values ($1, 'season.create', null, 'Planned', $2),
       ($1, 'season.openRegistration', 'Planned', 'RegistrationOpen', $2), ($1, 'season.closeRegistration', 'RegistrationOpen', 'RegistrationClosed', $2),
       ($1, 'season.start', 'RegistrationClosed', 'InProgress', $2)`,
    [seasonId, manager],
  );
}

/** A registration's history to AdmitCardIssued: submitted by the candidate, the rest by the manager. */
async function recordAdmitCardIssued(tx: Queryable, registrationId: number, candidateId: string, manager: string) {
  for (const [event, from, to] of [
    ['registration.submit', null, 'Submitted'],
    ['registration.approve', 'Submitted', 'Approved'],
    ['registration.allocate', 'Approved', 'Allocated'],
    ['registration.issueAdmitCard', 'Allocated', 'AdmitCardIssued'],
  ] as const) {
    await tx.query(`insert into registration_history (registration_id, event, from_status, to_status, actor_id) values ($1, $2, $3, $4, $5)`, [
      registrationId,
      event,
      from,
      to,
      event === 'registration.submit' ? candidateId : manager,
    ]);
  }
}
