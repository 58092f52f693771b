import { useEffect, useMemo, useState } from 'react';
import type { MediaRef } from '#machines/items/item-schema.ts';
import { itemsApi } from '../api/items-api.ts';

/**
 * The item's media as URLs the page can show: each category file is fetched once through the
 * authenticated client (an `<img src>` cannot send the session's headers) and shown from an
 * object URL, revoked when the item no longer uses it or the screen closes.
 */
const cache = new Map<string, Promise<string>>();

export function useMediaUrls(media: readonly MediaRef[]): Record<string, string> {
  const [urls, setUrls] = useState<Record<string, string>>({});
  const wanted = useMemo(() => media.filter((m) => m.categoryFileId).map((m) => [m.key, m.categoryFileId as string] as const), [media]);
  const signature = wanted.map(([key, id]) => `${key}=${id}`).join('&');
  useEffect(() => {
    let live = true;
    for (const [key, fileId] of wanted) {
      let loading = cache.get(fileId);
      if (!loading) {
        loading = itemsApi.categoryFile(fileId).then(({ blob }) => URL.createObjectURL(blob));
        cache.set(fileId, loading);
        loading.catch(() => cache.delete(fileId));
      }
      loading.then(
        (url) => live && setUrls((current) => (current[key] === url ? current : { ...current, [key]: url })),
        () => undefined,
      );
    }
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the signature names exactly what `wanted` holds
  }, [signature]);
  return urls;
}
