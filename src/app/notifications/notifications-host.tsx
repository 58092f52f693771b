import { Component, Suspense, lazy, useEffect, type ReactNode } from 'react';
import { bannerStore } from '#src/lib/http/banner-store.ts';
import { useStoreValue } from '#src/lib/use-store-value.ts';
import Banner from './banner.tsx';
import { notificationsStore } from './notifications-store.ts';

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
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
    };
  }, []);
}

/**
 * The banner once there is one; the toaster and the snackbar once something asked for them: their
 * code loads then, not with the first render. The banner's own code (a few hundred bytes) comes in
 * this host's chunk, which loads once the first content is up: it is wanted exactly when the
 * network may be gone, and a banner chunk of its own, preloaded 1.5 s later, was still missing
 * when a page loaded moments before went offline (CI, ticket chat under load; decision 0287).
 */
export function NotificationsHost() {
  const { toasts, snackbar } = useStoreValue(notificationsStore, (s) => s.context);
  const banner = useStoreValue(bannerStore, (s) => s.context.message);
  useOfflineBanner();
  return (
    <Quiet>
      {/* Separate boundaries: one loading never hides another. */}
      <Suspense fallback={null}>{banner ? <Banner message={banner} /> : null}</Suspense>
      <Suspense fallback={null}>{toasts ? <Toaster /> : null}</Suspense>
      <Suspense fallback={null}>{snackbar ? <Snackbar /> : null}</Suspense>
    </Quiet>
  );
}
