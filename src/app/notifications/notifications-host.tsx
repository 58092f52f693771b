import { Component, Suspense, lazy, useEffect, useState, type ReactNode } from 'react';
import { bannerStore } from '#src/lib/http/banner-store.ts';
import { useStoreValue } from '#src/lib/use-store-value.ts';
import { notificationsStore } from './notifications-store.ts';

/**
 * The banner's module, fetched once and kept: the lazy component and the preload share one
 * promise, so showing the banner once the server is gone never needs the network (issue 23). A
 * failed fetch is forgotten, so the next try fetches again.
 */
let bannerModule: Promise<typeof import('./banner.tsx')> | null = null;
const loadBanner = () =>
  (bannerModule ??= import('./banner.tsx').catch((error: unknown) => {
    bannerModule = null;
    throw error;
  }));
let bannerLoaded: typeof import('./banner.tsx') | null = null;

/**
 * The banner's code once it is here. It is not rendered before: a lazy component whose fetch
 * fails (the network went before the preload came back) is an error React reports in the
 * console, and offline that is the expected case. The fetch is tried again with every banner
 * shown and whenever the browser is back online.
 */
function useBannerCode(wanted: boolean) {
  const [code, setCode] = useState(bannerLoaded);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const again = () => setAttempt((n) => n + 1);
    window.addEventListener('online', again);
    return () => window.removeEventListener('online', again);
  }, []);
  useEffect(() => {
    if (!wanted || code) return;
    let current = true;
    loadBanner().then(
      (module) => {
        bannerLoaded = module;
        if (current) setCode(module);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [wanted, code, attempt]);
  return code;
}
const Toaster = lazy(() => import('./toaster.tsx'));
const Snackbar = lazy(() => import('./snackbar-view.tsx'));

/**
 * A notification surface that fails (its chunk did not load) must not take the page down. Offline
 * that is expected — the network went before the chunk came (a page loaded moments before) — so
 * it is not reported, and the surfaces try again once the browser is back online.
 */
export class Quiet extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  private readonly retry = () => this.setState({ failed: false });
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidMount() {
    window.addEventListener('online', this.retry);
  }
  override componentWillUnmount() {
    window.removeEventListener('online', this.retry);
  }
  override componentDidCatch(error: Error) {
    if (navigator.onLine === false) return;
    console.error('Notifications could not load', error.name, error.message);
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/**
 * The browser's own word that it lost the network shows the offline banner at once (issue 23);
 * back online, that banner goes (the next call that fails to get an answer brings it back).
 */
function useOfflineBanner() {
  useEffect(() => {
    const offline = () => bannerStore.trigger.show({ message: 'network' });
    const online = () => bannerStore.trigger.clearIf({ message: 'network' });
    if (navigator.onLine === false) offline();
    // The banner's code must be here before the network goes: fetched once the page is up (after
    // the first render, so not in its budget), not when the banner is first needed.
    const preload = window.setTimeout(() => void loadBanner().catch(() => undefined), 1500);
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    return () => {
      window.clearTimeout(preload);
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
    };
  }, []);
}

/**
 * The banner once there is one, the toaster and the snackbar once something asked for them:
 * their code loads then, not with the first render.
 */
export function NotificationsHost() {
  const { toasts, snackbar } = useStoreValue(notificationsStore, (s) => s.context);
  const banner = useStoreValue(bannerStore, (s) => s.context.message);
  useOfflineBanner();
  const bannerCode = useBannerCode(banner !== null);
  const Banner = bannerCode?.default;
  return (
    <Quiet>
      {/* Separate boundaries: one loading never hides another. */}
      {banner && Banner ? <Banner message={banner} /> : null}
      <Suspense fallback={null}>{toasts ? <Toaster /> : null}</Suspense>
      <Suspense fallback={null}>{snackbar ? <Snackbar /> : null}</Suspense>
    </Quiet>
  );
}
