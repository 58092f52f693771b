import { useEffect, useSyncExternalStore } from 'react';

/**
 * The signed-in person's photo as an object URL (issue 21, docs/decisions/0264), shared by the
 * header's avatar and the profile: loaded once per user (GET /v1/profile/photo answers 204 when
 * there is none), replaced or cleared by the profile when they upload or remove one. No photo,
 * or one that cannot load: null, and the avatar shows initials.
 */
let state: { userId: string | null; url: string | null } = { userId: null, url: null };
let loading: string | null = null;
const listeners = new Set<() => void>();

const emit = () => {
  for (const listener of [...listeners]) listener();
};

const objectUrl = (blob: Blob | null) => (blob && blob.size > 0 && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(blob) : null);

function replace(userId: string | null, url: string | null) {
  if (state.url && state.url !== url && typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(state.url);
  state = { userId, url };
  emit();
}

/** Fetches the user's photo; null when they have none or it cannot be read. */
export async function fetchOwnPhoto(): Promise<Blob | null> {
  // The transfer client loads with the first photo, not with the header.
  const { download } = await import('#src/lib/http/transfer.ts');
  try {
    const { blob } = await download('userService', { url: '/v1/profile/photo', method: 'GET', showErrors: false });
    return blob.size > 0 ? blob : null;
  } catch {
    return null;
  }
}

function load(userId: string) {
  if (loading === userId || state.userId === userId) return;
  loading = userId;
  void fetchOwnPhoto().then((blob) => {
    if (loading !== userId) return;
    loading = null;
    replace(userId, objectUrl(blob));
  });
}

/** The profile changed the photo: `blob` is the new one, null after removing it. */
export function showProfilePhoto(userId: string, blob: Blob | null): void {
  loading = null;
  replace(userId, objectUrl(blob));
}

/** The photo URL of `userId` (loading it the first time), or null. */
export function useProfilePhoto(userId: string | null | undefined): string | null {
  const url = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => (state.userId === userId ? state.url : null),
  );
  useEffect(() => {
    if (userId) load(userId);
  }, [userId]);
  return url;
}

/** For tests: forget the photo and any load in flight. */
export function resetProfilePhoto(): void {
  loading = null;
  replace(null, null);
}
