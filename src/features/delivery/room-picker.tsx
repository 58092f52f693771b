import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { SelectField } from '#src/components/ui/select.tsx';
import { EmptyState, ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { seasonsApi, type Season, type SeasonCenter } from '#src/features/seasons/index.ts';

/** The room an invigilator keeps: a season paper, at one center or (undefined) at all of them. */
export interface Room {
  seasonPaperId: number;
  centerId: number | undefined;
}

const ALL_CENTERS = 'all';

/**
 * The season, paper and center pickers of the invigilator's screens (issue 19): the console
 * offers the papers sat online, paper mode (docs/decisions/0249) those sat on paper. A failed
 * load goes to the page's `onError`, which shows it in place of the room; `onRoomChange` gets
 * null until a paper is chosen, and again whenever another season is.
 */
export function RoomPicker({
  sitting,
  testIdPrefix,
  onRoomChange,
  onError,
}: {
  sitting: 'online' | 'paper';
  /** `<prefix>-season`, `<prefix>-paper` and `<prefix>-center`: the pages' tests find the pickers by these. */
  testIdPrefix: string;
  onRoomChange: (room: Room | null) => void;
  onError: (error: unknown) => void;
}) {
  const { t } = useTranslation('delivery');
  const [seasons, setSeasons] = useState<Season[] | null>(null);
  const [papers, setPapers] = useState<Array<{ value: string; label: string }>>([]);
  const [centers, setCenters] = useState<SeasonCenter[]>([]);
  const [seasonId, setSeasonId] = useState('');
  const [seasonPaperId, setSeasonPaperId] = useState('');
  const [centerId, setCenterId] = useState(ALL_CENTERS);

  useEffect(() => {
    seasonsApi.all().then((page) => setSeasons(page.data), onError);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read once; onError need not be stable
  }, []);
  useEffect(() => {
    if (!seasonId) return;
    seasonsApi.centers(Number(seasonId)).then(setCenters, onError);
    seasonsApi
      .schedule(Number(seasonId))
      .then(
        (schedule) =>
          setPapers(
            schedule.papers
              .filter((p) => (sitting === 'online') === (p.mode === 'online'))
              .map((p) => ({ value: String(p.seasonPaperId), label: `${p.paperCode} · ${p.sitsOn} ${p.startsAt}` })),
          ),
        onError,
      );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read per season; onError need not be stable
  }, [seasonId, sitting]);

  const choose = (paper: string, center: string) => {
    setSeasonPaperId(paper);
    setCenterId(center);
    onRoomChange(paper ? { seasonPaperId: Number(paper), centerId: center === ALL_CENTERS ? undefined : Number(center) } : null);
  };
  const chooseSeason = (value: string) => {
    // The same season again keeps the room: its papers and centers are not read again.
    if (value === seasonId) return;
    setSeasonId(value);
    setPapers([]);
    setCenters([]);
    choose('', ALL_CENTERS);
  };

  return (
    <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', mb: '4' })}>
      <SelectField
        label={t('console.season')}
        value={seasonId}
        onValueChange={chooseSeason}
        placeholder={t('console.choose')}
        options={(seasons ?? []).map((s) => ({ value: String(s.seasonId), label: s.name }))}
        testId={`${testIdPrefix}-season`}
      />
      <SelectField
        label={t('console.paper')}
        value={seasonPaperId}
        onValueChange={(value) => choose(value, centerId)}
        placeholder={t('console.choose')}
        options={papers}
        disabled={!papers.length}
        testId={`${testIdPrefix}-paper`}
      />
      <SelectField
        label={t('console.center')}
        value={centerId}
        onValueChange={(value) => choose(seasonPaperId, value)}
        options={[
          { value: ALL_CENTERS, label: t('console.allCenters') },
          ...centers.map((c) => ({ value: String(c.centerId), label: `${c.code} · ${c.name}` })),
        ]}
        disabled={!centers.length}
        testId={`${testIdPrefix}-center`}
      />
    </div>
  );
}

/**
 * What stands below the pickers: the error (of the pickers or of the page's own calls), the
 * ask to pick a room, the room loading, the room with nobody in it, or the page's view of it.
 */
export function RoomStates<T>({
  room,
  loaded,
  isEmpty,
  error,
  onRetry,
  pickTitle,
  emptyTitle,
  children,
}: {
  room: Room | null;
  /** The page's data of the room; null while it loads. */
  loaded: T | null;
  isEmpty: (loaded: T) => boolean;
  error: unknown;
  onRetry: () => void;
  pickTitle: string;
  emptyTitle: string;
  children: (loaded: T) => ReactNode;
}) {
  const { t } = useTranslation('delivery');
  const errorText = useErrorText(error);
  if (error) return <ErrorState message={errorText} onRetry={onRetry} />;
  if (!room) return <EmptyState title={pickTitle} />;
  if (loaded === null) return <LoadingState label={t('loading')} />;
  if (isEmpty(loaded)) return <EmptyState title={emptyTitle} />;
  return <>{children(loaded)}</>;
}
