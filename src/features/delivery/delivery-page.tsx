import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import { css, cx } from '#styled-system/css';
import { P } from '#machines/permissions.ts';
import type { DeliveryChangedData } from '#machines/realtime-protocol.ts';
import type { ItemContent, ItemResponse } from '#machines/items/item-schema.ts';
import {
  autosaveMachine,
  autosaveStatus,
  isAnswered,
  paletteState,
  type AutosaveActor,
  type PaletteState,
  type QueuedSave,
  type SaveBatchAnswer,
} from '#machines/delivery-autosave.machine.ts';
import { connectionMachine, type ConnectionActor, type TelemetryReport } from '#machines/delivery-connection.machine.ts';
import type { CountdownActor, CountdownTiming } from '#machines/delivery-countdown.machine.ts';
import { sittingMachine, type SittingActor } from '#machines/delivery-sitting.machine.ts';
import { Button } from '#src/components/ui/button.tsx';
import { Checkbox } from '#src/components/ui/checkbox.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import { Tabs } from '#src/components/ui/tabs.tsx';
import { useFormat } from '#src/lib/format.ts';
import { languageName } from '#src/lib/language-name.ts';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { ResponseInput, RichHtml } from '#src/features/items/index.ts';
import { contentInSetOrder } from '#src/features/papers/index.ts';
import { PermissionGate } from '#src/features/users/index.ts';
import { deliveryApi, type Delivery, type DeliveryItem, type Receipt, type Timing } from './api/delivery-api.ts';
import { keepQueue, queuedSaves } from './lib/offline-queue.ts';
import { CalculatorPanel } from './calculator-panel.tsx';
import { failRecord, storeRecord } from '#src/app/stores/record-slices.ts';
import { useRealtime } from '#src/app/realtime/use-realtime.ts';
import { registerLiveActor } from '#src/app/live-actors.ts';

/**
 * The candidate's screen (issue 19, EXAMS.md §4, docs/decisions/0243): the CBT layout of national
 * exams. Before the start: instructions, the declaration and a waiting-room countdown. During the
 * exam: section tabs, one question at a time with a per-question language toggle, save & next /
 * mark for review & next / clear response, the palette of question states, the timer from the
 * server's deadline (corrected for this browser's clock offset) and the autosave indicator.
 * Submit asks first with a summary; at time up the screen submits by itself and says so; the end
 * shows the receipt.
 */
const statusColors: Record<PaletteState, string> = {
  notVisited: css({ bg: 'bg.surface', color: 'fg.default', borderColor: 'border.strong' }),
  notAnswered: css({ bg: 'red.600', color: 'white', borderColor: 'red.700' }),
  answered: css({ bg: 'green.700', color: 'white', borderColor: 'green.800' }),
  marked: css({ bg: 'purple.700', color: 'white', borderColor: 'purple.800' }),
  answeredMarked: css({ bg: 'purple.700', color: 'white', borderColor: 'green.500', outline: '3px solid', outlineColor: 'green.500' }),
};
const paletteButton = css({
  minWidth: '2.5rem',
  h: '2.5rem',
  borderWidth: '1px',
  borderRadius: 'md',
  fontWeight: 'semibold',
  cursor: 'pointer',
  _focusVisible: { outline: '3px solid', outlineColor: 'primary.main', outlineOffset: '2px' },
});

/** The question's text sizes, in per cent. */
const TEXT_SIZES = [100, 125, 150, 200] as const;
type TextSize = (typeof TEXT_SIZES)[number];

interface AnswerState {
  response: ItemResponse | undefined;
  marked: boolean;
}

function clock(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

/** The browser's clock offset from one server answer: serverNow − the browser's time when it arrived. */
function offsetOf(timing: Timing, receivedAt: number): number {
  return Date.parse(timing.serverNow) - receivedAt;
}

function useNow(intervalMs = 1000) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/**
 * A child of the sitting, kept after the sitting ended: the screen still reads the last
 * state of the queue and the clock while it turns into the receipt.
 */
function useChild<T>(sitting: SittingActor, id: 'autosave' | 'connection' | 'countdown'): T {
  const last = useRef<T | null>(null);
  const child = useSelector(sitting, (s) => s.children[id] as T | undefined);
  if (child) last.current = child;
  return last.current!;
}

function failureStatus(error: unknown): number | null {
  const e = error as { status?: unknown; statusCode?: unknown } | null;
  if (typeof e?.statusCode === 'number') return e.statusCode;
  if (typeof e?.status === 'number') return e.status;
  return null;
}

function ReceiptView({ receipt, timeUp }: { receipt: Receipt; timeUp: boolean }) {
  const { t } = useTranslation('delivery');
  const format = useFormat();
  return (
    <section className={card} aria-labelledby="receipt-title" data-testid="delivery-receipt">
      <h2 id="receipt-title" className={css({ fontSize: 'xl', fontWeight: 'bold', mb: '2' })}>
        {t('receipt.title')}
      </h2>
      {timeUp || receipt.status === 'TimeUp' ? (
        <p role="status" data-testid="delivery-time-up">
          {t('receipt.timeUp')}
        </p>
      ) : null}
      {receipt.status === 'Terminated' ? <p role="status">{t('receipt.terminated')}</p> : null}
      <dl className={css({ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '1 4', mt: '2' })}>
        <dt>{t('receipt.id')}</dt>
        <dd data-testid="receipt-id">{receipt.deliveryId}</dd>
        <dt>{t('receipt.time')}</dt>
        <dd data-testid="receipt-time">{format.dateTime(receipt.endedAt)}</dd>
        <dt>{t('receipt.answered')}</dt>
        <dd data-testid="receipt-answered">{t('receipt.answeredOf', { answered: receipt.answered, total: receipt.total })}</dd>
      </dl>
    </section>
  );
}

function Waiting({ delivery, offset, onStarted }: { delivery: Delivery; offset: number; onStarted: (timing: Timing) => void }) {
  const { t } = useTranslation('delivery');
  const now = useNow();
  const [declared, setDeclared] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const language = delivery.languages[0] ?? 'en';
  const untilStart = Math.max(0, Date.parse(delivery.timing.startsAt) - (now + offset));
  const mayStart = declared && (untilStart === 0 || delivery.timing.admitted);
  return (
    <section className={cx(card, css({ display: 'grid', gap: '3' }))} aria-labelledby="instructions-title">
      <h2 id="instructions-title" className={css({ fontSize: 'xl', fontWeight: 'bold' })}>
        {t('waiting.instructions')}
      </h2>
      <p>{t('waiting.facts', { minutes: Math.round(delivery.timing.allowedMs / 60_000), marks: delivery.paper.totalMarks })}</p>
      {delivery.paper.instructions[language] ? (
        <p lang={language} className={css({ whiteSpace: 'pre-line' })} data-testid="delivery-instructions">
          {delivery.paper.instructions[language]}
        </p>
      ) : null}
      <ul className={css({ listStyle: 'disc', pl: '5' })}>
        <li>{t('waiting.rule.palette')}</li>
        <li>{t('waiting.rule.autosave')}</li>
        <li>{t('waiting.rule.timeUp')}</li>
      </ul>
      <Checkbox checked={declared} onChange={setDeclared} testId="delivery-declaration">
        {t('waiting.declaration')}
      </Checkbox>
      <p role="timer" aria-live="off" data-testid="waiting-countdown">
        {untilStart > 0 && !delivery.timing.admitted ? t('waiting.startsIn', { time: clock(untilStart) }) : t('waiting.mayStart')}
      </p>
      {error ? (
        <p role="alert" className={css({ color: 'red.700' })}>
          {error}
        </p>
      ) : null}
      <div>
        <Button
          disabled={!mayStart}
          loading={busy}
          data-testid="delivery-start"
          onClick={() => {
            setBusy(true);
            setError(null);
            deliveryApi
              .start(delivery.deliveryId)
              .then(onStarted, (failure: unknown) => setError(failureStatus(failure) === 409 ? t('waiting.notYet') : t('error.generic')))
              .finally(() => setBusy(false));
          }}
        >
          {t('waiting.start')}
        </Button>
      </div>
    </section>
  );
}

function Sitting({ delivery, initialOffset, onEnded }: { delivery: Delivery; initialOffset: number; onEnded: (receipt: Receipt, timeUp: boolean) => void }) {
  const { t, i18n } = useTranslation('delivery');
  const items = useMemo(() => delivery.sections.flatMap((s) => s.items), [delivery]);
  const [timing, setTiming] = useState(delivery.timing);
  const [current, setCurrent] = useState(() => items[0]?.number ?? 1);
  const [visited, setVisited] = useState<Set<number>>(() => new Set([...delivery.answers.map((a) => a.itemNumber), items[0]?.number ?? 1]));
  // Saves this browser kept while offline (decision 0244) show over the stored answers they follow.
  const [queued] = useState(() => queuedSaves(delivery.deliveryId));
  const [answers, setAnswers] = useState<Record<number, AnswerState>>(() => {
    const shown: Record<number, AnswerState & { sequence: number }> = Object.fromEntries(
      delivery.answers.map((a) => [a.itemNumber, { response: a.response ?? undefined, marked: a.marked, sequence: a.sequence }]),
    );
    for (const save of queued)
      if ((shown[save.itemNumber]?.sequence ?? 0) < save.sequence)
        shown[save.itemNumber] = { response: (save.response ?? undefined) as AnswerState['response'], marked: save.marked, sequence: save.sequence };
    return Object.fromEntries(Object.entries(shown).map(([n, { response, marked }]) => [n, { response, marked }]));
  });
  const [languages, setLanguages] = useState<Record<number, string>>({});
  // Large print (an approved accommodation) opens at 150 %; anyone may change the size.
  const [textSize, setTextSize] = useState<TextSize>(delivery.largePrint ? 150 : 100);
  const [confirming, setConfirming] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const ended = useRef(false);
  const id = delivery.deliveryId;
  // Every server answer's timing: the screen's state, and the sitting's clock and line (a ref, as
  // the actor's own calls answer through it).
  const learnRef = useRef<(timing: Timing, receivedAt: number) => void>(() => undefined);

  const sitting = useActorRef(
    sittingMachine.provide({
      actors: {
        autosave: autosaveMachine.provide({
          actors: {
            saveBatch: fromPromise<SaveBatchAnswer, { saves: QueuedSave[] }>(async ({ input }) => {
              try {
                const answer = await deliveryApi.save(id, input.saves);
                learnRef.current(answer.timing, Date.now());
                return {
                  acknowledged: answer.results.map((r) => r.saveId),
                  // Another device stored a higher sequence: this one's next change goes above it.
                  stored: answer.results.filter((r) => !r.applied).map((r) => ({ itemNumber: r.itemNumber, storedSequence: r.storedSequence })),
                };
              } catch (error) {
                throw { status: failureStatus(error) };
              }
            }),
          },
        }),
        connection: connectionMachine.provide({
          actors: { sendTelemetry: fromPromise<CountdownTiming, { events: TelemetryReport[] }>(({ input }) => deliveryApi.telemetry(id, input.events)) },
        }),
      },
    }),
    {
      input: {
        autosave: { sequences: Object.fromEntries(delivery.answers.map((a) => [a.itemNumber, a.sequence])), queued, newId: () => crypto.randomUUID() },
        timing: delivery.timing,
        receivedAt: Date.parse(delivery.timing.serverNow) - initialOffset,
      },
    },
  );
  // Listed for the live mode of /machines; the screen's path replays find the running sitting there too.
  useEffect(() => registerLiveActor('delivery-sitting', sittingMachine, sitting), [sitting]);
  const autosave = useChild<AutosaveActor>(sitting, 'autosave');
  const connection = useChild<ConnectionActor>(sitting, 'connection');
  const countdown = useChild<CountdownActor>(sitting, 'countdown');
  learnRef.current = (fresh, receivedAt) => {
    setTiming(fresh);
    sitting.send({ type: 'timing', timing: fresh, receivedAt });
  };
  // Every unacknowledged save is kept, encrypted, until the server has it (a reload while offline loses none).
  useEffect(() => {
    let last = autosave.getSnapshot().context.pending;
    const subscription = autosave.subscribe((snapshot) => {
      if (snapshot.context.pending === last || ended.current) return;
      last = snapshot.context.pending;
      keepQueue(id, Object.values(last));
    });
    return () => subscription.unsubscribe();
  }, [autosave, id]);
  const indicator = useSelector(autosave, autosaveStatus, (a, b) => a.state === b.state && a.waiting === b.waiting);
  const held = useSelector(autosave, (s) => s.matches('held'));

  // The browser's own signals go to the sitting: the network to the queue and the line, and
  // what the invigilator should know of (focus, fullscreen) to the line as telemetry.
  useEffect(() => {
    const online = () => sitting.send({ type: 'online' });
    const offline = () => sitting.send({ type: 'offline' });
    const blur = () => sitting.send({ type: 'report', kind: 'focusLost' });
    const focus = () => sitting.send({ type: 'report', kind: 'focusRegained' });
    let wasFullscreen = document.fullscreenElement != null;
    const fullscreen = () => {
      if (wasFullscreen && document.fullscreenElement == null) sitting.send({ type: 'report', kind: 'fullscreenExited' });
      wasFullscreen = document.fullscreenElement != null;
    };
    window.addEventListener('online', online);
    window.addEventListener('offline', offline);
    window.addEventListener('blur', blur);
    window.addEventListener('focus', focus);
    document.addEventListener('fullscreenchange', fullscreen);
    return () => {
      window.removeEventListener('online', online);
      window.removeEventListener('offline', offline);
      window.removeEventListener('blur', blur);
      window.removeEventListener('focus', focus);
      document.removeEventListener('fullscreenchange', fullscreen);
    };
  }, [sitting]);

  const refresh = useCallback(async () => {
    const fresh = await deliveryApi.get(id);
    learnRef.current(fresh.timing, Date.now());
    return fresh.timing;
  }, [id]);

  /**
   * The end: `submit` when the candidate confirms, `ended` when the server has ended it already
   * (time up, terminated, or submitted on another device), which only reads the receipt.
   */
  const finish = useCallback(
    async (how: 'submit' | 'ended', timeUp = false) => {
      if (ended.current) return;
      ended.current = true;
      sitting.send({ type: 'end' });
      // After the end the server takes no answer: what is still queued is dropped here.
      keepQueue(id, []);
      const receipt = how === 'ended' ? await deliveryApi.receipt(id) : await deliveryApi.submit(id).catch(() => deliveryApi.receipt(id));
      onEnded(receipt, timeUp || receipt.status === 'TimeUp');
    },
    [id, onEnded, sitting],
  );

  // A refused save (paused or ended): read the delivery again and follow the server.
  useEffect(() => {
    if (!held) return;
    void refresh().then((fresh) => {
      if (fresh.status === 'Active') autosave.send({ type: 'resume' });
      else if (fresh.status !== 'Paused') void finish('ended');
    });
  }, [held, refresh, autosave, finish]);

  // What the server says now: resume a held queue, or end (the heartbeat and the hub both ask).
  const follow = useCallback(
    (fresh: Timing) => {
      if (fresh.status === 'Active' && autosave.getSnapshot().matches('held')) autosave.send({ type: 'resume' });
      if (['Submitted', 'TimeUp', 'Terminated'].includes(fresh.status)) void finish('ended');
    },
    [autosave, finish],
  );
  // An invigilator's pause, resume, extension or end reaches this screen at once over the hub
  // (decision 0245), and after a resumed connection, when a push may have been missed.
  useRealtime((notice) => {
    const mine =
      (notice.type === 'event' && notice.frame.kind === 'delivery.changed' && (notice.frame.data as unknown as DeliveryChangedData).deliveryId === id) ||
      notice.type === 'resync' ||
      (notice.type === 'connected' && notice.resumed);
    if (mine) void refresh().then(follow, () => undefined);
  });

  // The line's heartbeats answer what the server says now (pause, extension, end).
  useEffect(() => {
    const subscription = connection.on('timing', ({ timing: fresh, receivedAt }) => {
      learnRef.current(fresh as Timing, receivedAt);
      follow(fresh as Timing);
    });
    return () => subscription.unsubscribe();
  }, [connection, follow]);

  const left = useSelector(countdown, (s) => s.context.leftMs);
  const expired = useSelector(countdown, (s) => s.hasTag('expired'));
  useEffect(() => {
    if (expired && !ended.current) {
      autosave.send({ type: 'flush' });
      // The server ends the delivery at its deadline; reading it settles it.
      void refresh().then((fresh) => {
        if (fresh.status !== 'Active') void finish('ended', fresh.status === 'TimeUp');
      });
    }
  }, [expired, autosave, refresh, finish]);

  const item = items.find((i) => i.number === current) ?? items[0];
  const sectionOf = (n: number) => delivery.sections.find((s) => s.items.some((i) => i.number === n))!;
  const section = sectionOf(item.number);
  const language = languages[item.number] ?? delivery.languages[0] ?? 'en';
  const itemLanguages = Object.keys(item.content.variants);
  const answer = answers[item.number] ?? { response: undefined, marked: false };

  const record = (number: number, next: AnswerState) => {
    setAnswers((all) => ({ ...all, [number]: next }));
    autosave.send({ type: 'answer', itemNumber: number, response: next.response ?? null, marked: next.marked });
  };
  const go = (number: number) => {
    autosave.send({ type: 'flush' });
    setVisited((v) => new Set([...v, number]));
    setCurrent(number);
  };
  const nextNumber = () => {
    const i = items.findIndex((x) => x.number === item.number);
    return items[Math.min(i + 1, items.length - 1)].number;
  };
  const summary = useMemo(() => {
    let answered = 0;
    let marked = 0;
    for (const i of items) {
      const a = answers[i.number];
      if (a && isAnswered(a.response)) answered++;
      if (a?.marked) marked++;
    }
    return { answered, notAnswered: items.length - answered, marked };
  }, [answers, items]);

  const paused = timing.status === 'Paused';
  return (
    <div className={css({ display: 'grid', gap: '3' })}>
      <div
        className={cx(card, css({ display: 'flex', flexWrap: 'wrap', gap: '4', alignItems: 'center', justifyContent: 'space-between' }))}
        data-testid="delivery-bar"
      >
        <p>
          {delivery.candidateName} · {delivery.rollNumber ?? ''} · {t('sitting.set', { letter: delivery.setLetter })}
        </p>
        <p
          role="timer"
          aria-label={t('sitting.timeLeftLabel')}
          className={css({ fontSize: 'xl', fontWeight: 'bold', fontVariantNumeric: 'tabular-nums' })}
          data-testid="delivery-timer"
        >
          {paused ? t('sitting.pausedClock', { time: clock(timing.remainingMs) }) : clock(left)}
        </p>
        <div role="group" aria-label={t('sitting.textSize')} className={css({ display: 'flex', gap: '1' })} data-testid="text-size">
          {TEXT_SIZES.map((size) => (
            <Button
              key={size}
              size="sm"
              variant={size === textSize ? 'solid' : 'outline'}
              aria-pressed={size === textSize}
              data-testid={`text-size-${size}`}
              onClick={() => setTextSize(size)}
            >
              {t('sitting.textSizeOption', { percent: size })}
            </Button>
          ))}
        </div>
        {delivery.paper.calculator ? <CalculatorPanel /> : null}
        <p role="status" aria-live="polite" data-testid="autosave-indicator" data-state={indicator.state}>
          {indicator.state === 'offline'
            ? t('autosave.offline', { count: indicator.waiting })
            : indicator.state === 'saving'
              ? t('autosave.saving')
              : t('autosave.saved')}
        </p>
      </div>
      {paused ? (
        <p role="alert" className={cx(card, css({ fontWeight: 'semibold' }))} data-testid="delivery-paused">
          {t('sitting.paused')}
        </p>
      ) : null}
      <div className={css({ display: 'grid', gap: '3', gridTemplateColumns: { base: '1fr', lg: '1fr 18rem' }, opacity: paused ? 0.4 : 1 })} inert={paused}>
        <div className={css({ display: 'grid', gap: '3', alignContent: 'start' })}>
          <Tabs
            label={t('sitting.sections')}
            value={section.sectionId}
            onChange={(sectionId) => go(delivery.sections.find((s) => s.sectionId === sectionId)!.items[0].number)}
            tabs={delivery.sections.map((s) => ({ value: s.sectionId, label: s.title }))}
          >
            {() => (
              <article
                lang={language}
                // Zoom scales the question whole (its rem-sized text, options and images alike).
                style={{ zoom: textSize / 100 }}
                data-text-size={textSize}
                className={cx(card, css({ display: 'grid', gap: '3' }))}
                aria-labelledby="question-title"
                data-testid={`question-${item.number}`}
              >
                <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', justifyContent: 'space-between', alignItems: 'center' })}>
                  <h2 id="question-title" className={css({ fontWeight: 'bold', fontSize: 'lg' })}>
                    {t('sitting.question', { n: item.number, of: items.length })}
                    <span className={css({ color: 'fg.muted', fontWeight: 'normal', ms: '2', fontSize: 'sm' })}>
                      {t('sitting.marks', { count: item.marks })}
                    </span>
                  </h2>
                  {itemLanguages.length > 1 ? (
                    <div role="group" aria-label={t('sitting.language')} className={css({ display: 'flex', gap: '1' })}>
                      {itemLanguages.map((l) => (
                        <Button
                          key={l}
                          size="sm"
                          variant={l === language ? 'solid' : 'outline'}
                          aria-pressed={l === language}
                          data-testid={`question-language-${l}`}
                          onClick={() => setLanguages((all) => ({ ...all, [item.number]: l }))}
                        >
                          {languageName(l, i18n.language)}
                        </Button>
                      ))}
                    </div>
                  ) : null}
                </div>
                <QuestionBody item={item} language={language} answer={answer.response} onAnswer={(response) => record(item.number, { ...answer, response })} />
              </article>
            )}
          </Tabs>
          <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })}>
            <Button data-testid="save-next" onClick={() => go(nextNumber())}>
              {t('sitting.saveNext')}
            </Button>
            <Button
              variant="outline"
              data-testid="mark-next"
              onClick={() => {
                record(item.number, { ...answer, marked: true });
                go(nextNumber());
              }}
            >
              {t('sitting.markNext')}
            </Button>
            <Button variant="ghost" data-testid="clear-response" onClick={() => record(item.number, { response: undefined, marked: false })}>
              {t('sitting.clear')}
            </Button>
            <Button variant="solid" data-testid="delivery-submit" onClick={() => setConfirming(true)}>
              {t('sitting.submit')}
            </Button>
          </div>
        </div>
        <nav aria-label={t('palette.label')} className={cx(card, css({ display: 'grid', gap: '3', alignContent: 'start' }))}>
          <h2 className={css({ fontWeight: 'semibold' })}>{t('palette.label')}</h2>
          {delivery.sections.map((s) => (
            <div key={s.sectionId} className={css({ display: 'grid', gap: '1' })}>
              <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{s.title}</p>
              <ul className={css({ display: 'flex', flexWrap: 'wrap', gap: '1', listStyle: 'none', p: 0, m: 0 })}>
                {s.items.map((i) => {
                  const state = paletteState(visited.has(i.number), answers[i.number]?.response, answers[i.number]?.marked ?? false);
                  return (
                    <li key={i.number}>
                      <button
                        type="button"
                        className={cx(paletteButton, statusColors[state])}
                        aria-label={t('palette.item', { n: i.number, state: t(`palette.state.${state}`) })}
                        aria-current={i.number === item.number ? 'step' : undefined}
                        data-state={state}
                        data-testid={`palette-${i.number}`}
                        onClick={() => go(i.number)}
                      >
                        {i.number}
                      </button>
                    </li>
                  );
                })}
              </ul>
            </div>
          ))}
          <ul className={css({ display: 'grid', gap: '1', fontSize: 'sm', listStyle: 'none', p: 0 })}>
            {(['notVisited', 'notAnswered', 'answered', 'marked', 'answeredMarked'] as const).map((state) => (
              <li key={state} className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
                <span aria-hidden="true" className={cx(paletteButton, statusColors[state], css({ minWidth: '1.25rem', h: '1.25rem' }))} />
                {t(`palette.state.${state}`)}
              </li>
            ))}
          </ul>
        </nav>
      </div>
      {confirming ? (
        <Dialog
          title={t('confirm.title')}
          role="alertdialog"
          busy={submitting}
          onClose={() => setConfirming(false)}
          testId="submit-confirm"
          footer={
            <>
              <Button variant="ghost" onClick={() => setConfirming(false)} disabled={submitting}>
                {t('confirm.back')}
              </Button>
              <Button
                data-testid="submit-confirm-yes"
                loading={submitting}
                onClick={() => {
                  setSubmitting(true);
                  autosave.send({ type: 'flush' });
                  // Let the last saves go out before the end.
                  const wait = () =>
                    new Promise<void>((resolve) => {
                      const check = () =>
                        autosave.getSnapshot().matches('saved') || autosave.getSnapshot().matches('held') ? resolve() : setTimeout(check, 100);
                      check();
                    });
                  void Promise.race([wait(), new Promise((r) => setTimeout(r, 5_000))]).then(() => finish('submit'));
                }}
              >
                {t('confirm.submit')}
              </Button>
            </>
          }
        >
          <dl className={css({ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '1 4' })} data-testid="submit-summary">
            <dt>{t('confirm.answered')}</dt>
            <dd data-testid="summary-answered">{summary.answered}</dd>
            <dt>{t('confirm.notAnswered')}</dt>
            <dd data-testid="summary-not-answered">{summary.notAnswered}</dd>
            <dt>{t('confirm.marked')}</dt>
            <dd data-testid="summary-marked">{summary.marked}</dd>
          </dl>
          <p className={css({ mt: '2' })}>{t('confirm.final')}</p>
        </Dialog>
      ) : null}
    </div>
  );
}

function QuestionBody({
  item,
  language,
  answer,
  onAnswer,
}: {
  item: DeliveryItem;
  language: string;
  answer: ItemResponse | undefined;
  onAnswer: (a: ItemResponse | undefined) => void;
}) {
  const { t } = useTranslation('delivery');
  const shown = useMemo(() => contentInSetOrder(item.content as ItemContent, item), [item]);
  const variant = shown.variants[language];
  if (!variant) return <p role="note">{t('sitting.missingLanguage')}</p>;
  return (
    <>
      <RichHtml html={variant.stem} lang={language} testId={`question-${item.number}-stem`} />
      <ResponseInput content={shown} language={language} media={{}} answer={answer} onAnswer={onAnswer} />
    </>
  );
}

/** /sit/:deliveryId — the delivery in whatever state the server has it. */
function DeliveryScreen({ deliveryId }: { deliveryId: number }) {
  const { t } = useTranslation('delivery');
  const [delivery, setDelivery] = useState<Delivery | null>(null);
  const [offset, setOffset] = useState(0);
  const [ended, setEnded] = useState<{ receipt: Receipt; timeUp: boolean } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const errorText = useErrorText(error);
  const load = useCallback(() => {
    setError(null);
    deliveryApi.get(deliveryId).then(
      (answer) => {
        setOffset(offsetOf(answer.timing, Date.now()));
        setDelivery(answer);
        storeRecord('delivery', {
          deliveryId: answer.deliveryId,
          registrationId: answer.registrationId,
          seasonPaperId: answer.seasonPaperId,
          rollNumber: answer.rollNumber,
          paperCode: answer.paper.code,
          status: answer.timing.status,
        });
        if (['Submitted', 'TimeUp', 'Terminated'].includes(answer.timing.status))
          void deliveryApi.receipt(deliveryId).then((receipt) => setEnded({ receipt, timeUp: false }), setError);
      },
      (failure: unknown) => {
        failRecord('delivery');
        setError(failure ?? new Error('failed'));
      },
    );
  }, [deliveryId]);
  useEffect(load, [load]);
  // In the waiting room an invigilator's admission, extension or termination reaches this screen
  // over the hub too (the sitting follows its own pushes): the candidate admitted early may start
  // without reloading, and a terminated one sees the end.
  const waiting = delivery?.timing.status === 'Waiting' && !ended;
  useRealtime((notice) => {
    if (!waiting) return;
    const mine =
      (notice.type === 'event' &&
        notice.frame.kind === 'delivery.changed' &&
        (notice.frame.data as unknown as DeliveryChangedData).deliveryId === deliveryId) ||
      notice.type === 'resync' ||
      (notice.type === 'connected' && notice.resumed);
    if (mine) load();
  });

  if (error) return <ErrorState message={errorText} onRetry={load} />;
  if (!delivery) return <LoadingState label={t('loading')} />;
  return (
    <section className={css({ display: 'grid', gap: '3' })} data-testid="delivery-screen">
      <PageHeader
        title={`${delivery.paper.code} · ${delivery.paper.title}`}
        description={t('sitting.facts', { minutes: delivery.paper.durationMinutes, marks: delivery.paper.totalMarks })}
      />
      {ended ? (
        <ReceiptView receipt={ended.receipt} timeUp={ended.timeUp} />
      ) : delivery.timing.status === 'Waiting' ? (
        <Waiting
          delivery={delivery}
          offset={offset}
          onStarted={(timing) => {
            setOffset(offsetOf(timing, Date.now()));
            setDelivery({ ...delivery, timing });
          }}
        />
      ) : delivery.timing.status === 'Active' || delivery.timing.status === 'Paused' ? (
        <Sitting delivery={delivery} initialOffset={offset} onEnded={(receipt, timeUp) => setEnded({ receipt, timeUp })} />
      ) : (
        <LoadingState label={t('loading')} />
      )}
    </section>
  );
}

function DeliveryRoute() {
  const { deliveryId } = useParams();
  return <DeliveryScreen key={deliveryId} deliveryId={Number(deliveryId)} />;
}

export default function GatedDeliveryPage() {
  return (
    <PermissionGate permission={P.Dashboard.View}>
      <DeliveryRoute />
    </PermissionGate>
  );
}
