import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import type { ItemComment, ReviewAction } from '#machines/items/item-records.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { TextAreaField } from '#src/components/ui/field.tsx';
import { ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import { itemsApi } from '../api/items-api.ts';

/** The order outcomes are offered in; the server decides which of them the caller may take. */
const ORDER: ReviewAction[] = ['submit', 'approve', 'requestChanges', 'retire', 'comment'];
/** Outcomes that need words with them. */
const NEEDS_COMMENT = new Set<string>(['requestChanges', 'comment']);

export interface ReviewPanelProps {
  itemId: number;
  /** Exactly the outcomes the compiled flow allows the caller now (the record's `actions`). */
  actions: string[];
  /** Changes when the item moved, so the history is read again. */
  status: string;
  busy: boolean;
  /** Unsaved edits: outcomes other than a comment wait until they are saved. */
  dirty: boolean;
  onAction: (action: string, comment: string) => void;
}

/** Review through the project's item flow: the history of comments and outcomes, and the outcomes open to the caller. */
export function ReviewPanel({ itemId, actions, status, busy, dirty, onAction }: ReviewPanelProps) {
  const { t } = useTranslation('items');
  const [comments, setComments] = useState<ItemComment[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [comment, setComment] = useState('');
  const [missing, setMissing] = useState(false);
  const [reload, setReload] = useState(0);
  useEffect(() => {
    let live = true;
    setFailed(false);
    itemsApi.comments(itemId).then(
      (list) => live && setComments(list),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [itemId, status, reload, busy]);
  const offered = ORDER.filter((action) => actions.includes(action));
  const take = (action: string) => {
    if (NEEDS_COMMENT.has(action) && !comment.trim()) {
      setMissing(true);
      return;
    }
    setMissing(false);
    onAction(action, comment.trim());
    setComment('');
  };
  return (
    <section aria-labelledby="review-title" className={css({ display: 'grid', gap: '3' })} data-testid="review-panel">
      <h2 id="review-title" className={css({ fontWeight: 'semibold', fontSize: 'lg' })}>
        {t('review.title')}
      </h2>
      {failed ? <ErrorState onRetry={() => setReload((n) => n + 1)} /> : comments === null ? <LoadingState /> : null}
      {comments && comments.length === 0 ? <p className={css({ color: 'fg.muted' })}>{t('review.noHistory')}</p> : null}
      {comments && comments.length ? (
        <ol className={css({ display: 'grid', gap: '2' })} data-testid="review-history">
          {comments.map((c) => (
            <li key={c.commentId} className={css({ borderWidth: '1px', borderColor: 'border', borderRadius: 'md', p: '2' })}>
              <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center', fontSize: 'sm' })}>
                <Badge tone={c.action === 'approve' ? 'success' : c.action === 'requestChanges' ? 'warning' : c.action === 'retire' ? 'error' : 'neutral'}>
                  {t(`review.action.${c.action}`)}
                </Badge>
                <span>{c.by?.name ?? t('review.someone')}</span>
                <time dateTime={c.at} className={css({ color: 'fg.muted' })}>
                  {new Date(c.at).toLocaleString()}
                </time>
                <span className={css({ color: 'fg.muted' })}>{t('review.onVersion', { n: c.versionNumber })}</span>
              </div>
              {c.text ? <p className={css({ mt: '1', whiteSpace: 'pre-wrap' })}>{c.text}</p> : null}
            </li>
          ))}
        </ol>
      ) : null}
      {offered.length ? (
        <>
          <TextAreaField
            label={t('review.comment')}
            hint={t('review.commentHint')}
            rows={3}
            maxLength={4000}
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            error={missing ? t('review.commentNeeded') : undefined}
            data-testid="review-comment-text"
          />
          {dirty ? <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{t('review.saveFirst')}</p> : null}
          <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
            {offered.map((action) => (
              <Button
                key={action}
                variant={action === 'approve' || action === 'submit' ? 'solid' : action === 'retire' ? 'outline' : 'ghost'}
                disabled={busy || (dirty && action !== 'comment')}
                onClick={() => take(action)}
                data-testid={`review-${action}`}
              >
                {t(`review.do.${action}`)}
              </Button>
            ))}
          </div>
        </>
      ) : (
        <p className={css({ color: 'fg.muted', fontSize: 'sm' })} data-testid="review-none">
          {t('review.nothingForYou')}
        </p>
      )}
    </section>
  );
}
