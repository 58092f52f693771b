import { useSelector } from '@xstate/react';
import { Component, Suspense, lazy, type ReactNode } from 'react';
import { Banner } from './banner.tsx';
import { notificationsStore } from './notifications-store.ts';

const Toaster = lazy(() => import('./toaster.tsx'));
const Snackbar = lazy(() => import('./snackbar-view.tsx'));

/** A notification surface that fails (its chunk did not load) must not take the page down. */
class Quiet extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: Error) {
    console.error('Notifications could not load', error.name, error.message);
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/**
 * The banner, and the toaster and the snackbar once something asked for them (their code
 * loads then, not with the first render).
 */
export function NotificationsHost() {
  const { toasts, snackbar } = useSelector(notificationsStore, (s) => s.context);
  return (
    <Quiet>
      <Banner />
      <Suspense fallback={null}>
        {toasts ? <Toaster /> : null}
        {snackbar ? <Snackbar /> : null}
      </Suspense>
    </Quiet>
  );
}
