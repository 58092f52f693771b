import { Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router-dom';
import { Link } from '#src/components/ui/link.tsx';
import { css } from '#styled-system/css';
import type { ItemContent, ItemResponse } from '#machines/items/item-schema.ts';
import type { SetItem } from '#machines/papers/paper-sets.ts';
import { P } from '#machines/permissions.ts';
import { examStore } from '#src/app/stores/slices.ts';
import { failRecord, storeRecord } from '#src/app/stores/record-slices.ts';
import { selectedPaper, selectPaper } from '#src/app/stores/workspace-selection.ts';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { EmptyState, ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { locales } from '#src/lib/config.ts';
import { useStoreValue } from '#src/lib/use-store-value.ts';
import { ResponseInput, RichHtml, useMediaUrls } from '#src/features/items/index.ts';
import { PermissionGate } from '#src/features/users/index.ts';
import { papersApi, type PaperRecord, type SetWithItems } from './api/papers-api.ts';
import { ChooseExamState } from './components/choose-exam-state.tsx';

const link = css({ color: 'primary.dark', textDecoration: 'underline' });

/** The item as this set shows it: its options (or both sides of a matching item) in the set's order. */
export function contentInSetOrder(content: ItemContent, item: Pick<SetItem, 'options' | 'left' | 'right'>): ItemContent {
  const order = <T extends { id: string }>(list: readonly T[], ids: string[] | null): T[] =>
    ids ? ids.map((id) => list.find((o) => o.id === id)).filter((o): o is T => o !== undefined) : [...list];
  if (content.kind === 'matching') return { ...content, left: order(content.left, item.left), right: order(content.right, item.right) };
  if ('options' in content && Array.isArray(content.options)) return { ...content, options: order(content.options, item.options) } as ItemContent;
  return content;
}

/**
 * The app's translations in the language a candidate of this medium reads (docs/decisions/0220):
 * the preview's own words ("Question 3", "Choose one answer" …) follow the set's language, not
 * the setter's interface. English content keeps the interface's English (en-IN or en-US).
 */
export function candidateLocale(language: string, interfaceLanguage: string): string {
  if (language === 'en') return interfaceLanguage.startsWith('en') ? interfaceLanguage : 'en-IN';
  return (locales as readonly string[]).includes(language) ? language : interfaceLanguage;
}

function useCandidateI18n(language: string) {
  const { i18n } = useTranslation();
  const locale = candidateLocale(language, i18n.language);
  // A clone shares the loaded translations and the loader; only its language differs.
  return useMemo(() => (locale === i18n.language ? i18n : i18n.cloneInstance({ lng: locale })), [i18n, locale]);
}

/** One question of the set, numbered as the candidate sees it, in one language (the item bank's rendering). */
function SetQuestion({ item, content, language }: { item: SetItem; content: ItemContent; language: string }) {
  const { t } = useTranslation('papers');
  const media = useMediaUrls(content.media);
  const shown = useMemo(() => contentInSetOrder(content, item), [content, item]);
  const [answer, setAnswer] = useState<ItemResponse | undefined>(undefined);
  const variant = shown.variants[language];
  return (
    <li className={css({ display: 'grid', gap: '2', borderTopWidth: '1px', borderColor: 'border', pt: '3' })} data-testid={`question-${item.number}`}>
      <p className={css({ display: 'flex', gap: '2', fontWeight: 'semibold' })}>
        <span>{t('preview.question', { n: item.number })}</span>
        <span className={css({ color: 'fg.muted', fontWeight: 'normal' })}>{t('preview.marks', { count: item.marks })}</span>
      </p>
      {variant ? (
        <>
          <RichHtml html={variant.stem} media={media} lang={language} testId={`question-${item.number}-stem`} />
          <ResponseInput content={shown} language={language} media={media} answer={answer} onAnswer={setAnswer} />
        </>
      ) : (
        <p role="note" data-testid={`question-${item.number}-missing`}>
          {t('preview.missingLanguage', { language: t(`language.${language}`, { defaultValue: language }) })}
        </p>
      )}
    </li>
  );
}

/** The set as a candidate of `language` sees it: every word in that language (its own i18n, see the provider). */
function CandidateView({ paper, set, letter, language }: { paper: PaperRecord; set: SetWithItems; letter: string; language: string }) {
  const { t } = useTranslation('papers');
  const sectionOf = (id: string) => set.sections.find((s) => s.sectionId === id);
  return (
    <article lang={language} dir="ltr" className={css({ display: 'grid', gap: '4' })} data-testid="set-preview">
      <header className={css({ display: 'grid', gap: '1' })}>
        <p className={css({ fontSize: 'lg', fontWeight: 'bold' })}>
          {paper.title} · {t('preview.set', { letter })}
        </p>
        <p className={css({ color: 'fg.muted' })}>{t('preview.facts', { minutes: paper.durationMinutes, marks: paper.totalMarks })}</p>
        {paper.instructions[language] ? (
          <p className={css({ whiteSpace: 'pre-line' })} data-testid="set-preview-instructions">
            {paper.instructions[language]}
          </p>
        ) : null}
      </header>
      {set.set.set.sections.map((section) => {
        const meta = sectionOf(section.sectionId);
        return (
          <section key={section.sectionId} aria-label={meta?.title ?? section.sectionId} className={css({ display: 'grid', gap: '2' })}>
            <h2 className={css({ fontSize: 'md', fontWeight: 'semibold' })}>{meta?.title}</h2>
            {meta?.instructions[language] ? <p className={css({ whiteSpace: 'pre-line' })}>{meta.instructions[language]}</p> : null}
            {meta?.attemptAny ? <p>{t('preview.attemptAny', { n: meta.attemptAny, of: section.items.length })}</p> : null}
            {meta?.timeLimitMinutes ? <p>{t('preview.timeLimit', { count: meta.timeLimitMinutes })}</p> : null}
            <ol className={css({ display: 'grid', gap: '3', listStyle: 'none', p: 0, m: 0 })}>
              {section.items.map((item) => (
                <SetQuestion key={item.versionId} item={item} content={set.items[item.versionId]} language={language} />
              ))}
            </ol>
          </section>
        );
      })}
    </article>
  );
}

/**
 * A set as the candidate will see it (issue 17): the paper's instructions, each section with its
 * instructions and "attempt any", and the questions in the set's order with their options in the
 * set's order, in one language at a time (in the URL, `?lang=hi`).
 */
function SetPreview({ paperId, letter }: { paperId: number; letter: string }) {
  const { t } = useTranslation('papers');
  const [params, setParams] = useSearchParams();
  const [paper, setPaper] = useState<PaperRecord | null>(null);
  const [set, setSet] = useState<SetWithItems | null>(null);
  const [error, setError] = useState<unknown>(null);
  const errorText = useErrorText(error);
  const load = useCallback(() => {
    setError(null);
    // Its calls carry `ExamId: exam&paper`: the paper is selected before they leave.
    if (selectedPaper()?.paperId !== paperId) selectPaper({ paperId });
    Promise.all([papersApi.get(paperId), papersApi.set(paperId, letter)]).then(
      ([record, answer]) => {
        setPaper(record);
        setSet(answer);
        selectPaper({ paperId: record.paperId, code: record.code, title: record.title, status: record.status });
        const { letter: setLetter, seed, sha256, createdAt } = answer.set;
        storeRecord('set', { paperId: record.paperId, letter: setLetter, seed, sha256, createdAt });
      },
      (failure: unknown) => {
        failRecord('set');
        setError(failure ?? new Error('failed'));
      },
    );
  }, [paperId, letter]);
  useEffect(() => {
    load();
  }, [load]);

  const languages = useMemo(() => {
    if (!set) return [];
    const found = new Set<string>();
    for (const content of Object.values(set.items)) for (const l of Object.keys(content.variants)) found.add(l);
    return ['en', 'hi', 'gu', 'fr', 'es'].filter((l) => found.has(l));
  }, [set]);
  const wanted = params.get('lang') ?? '';
  const language = languages.includes(wanted) ? wanted : (languages[0] ?? 'en');
  const candidateI18n = useCandidateI18n(language);

  if (error) return <ErrorState message={errorText ?? t('preview.failed')} onRetry={load} />;
  if (!paper || !set) return <LoadingState />;
  return (
    <section aria-labelledby="set-preview-title" className={css({ display: 'grid', gap: '4' })}>
      <PageHeader
        id="set-preview-title"
        title={t('preview.title', { letter, code: paper.code })}
        description={t('preview.intro')}
        actions={
          <Link to={`/workspace/papers/${paperId}?tab=sets`} className={link} data-testid="back-to-sets">
            {t('preview.backToSets')}
          </Link>
        }
      />
      <div className={`${card} ${css({ p: '4', display: 'grid', gap: '4' })}`}>
        <SelectField
          label={t('preview.language')}
          value={language}
          onValueChange={(value) =>
            setParams(
              (current) => {
                const next = new URLSearchParams(current);
                next.set('lang', value);
                return next;
              },
              { replace: true },
            )
          }
          options={languages.map((l) => ({ value: l, label: t(`language.${l}`) }))}
          testId="set-preview-language"
        />
        <I18nextProvider i18n={candidateI18n}>
          <Suspense fallback={<LoadingState />}>
            <CandidateView paper={paper} set={set} letter={letter} language={language} />
          </Suspense>
        </I18nextProvider>
      </div>
    </section>
  );
}

function SetPreviewPage() {
  const { t } = useTranslation('papers');
  const params = useParams();
  const exam = useStoreValue(examStore, (s) => s.context.selected);
  const paperId = Number(params.paperId);
  const letter = String(params.letter ?? '');
  if (!exam) return <ChooseExamState />;
  if (!Number.isSafeInteger(paperId) || paperId < 1 || !/^[A-Z]{1,2}$/.test(letter)) return <EmptyState title={t('preview.notFound')} />;
  return <SetPreview key={`${paperId}-${letter}`} paperId={paperId} letter={letter} />;
}

export default function GatedSetPreviewPage() {
  return (
    <PermissionGate permission={P.Projects.View}>
      <SetPreviewPage />
    </PermissionGate>
  );
}
