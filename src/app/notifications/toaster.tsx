import { useSelector } from '@xstate/react';
import { Suspense, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Toaster as SonnerToaster, toast as sonner } from 'sonner';
import { TOAST_LIMIT, type QueuedToast } from '#machines/toast-queue.machine.ts';
import { ErrorToast } from './error-toast.tsx';
import { MessageToast } from './message-toast.tsx';
import type { ToastContent } from './toast-content.ts';
import { toastActor } from './toast-runtime.ts';

const close = (id: string) => toastActor.send({ type: 'toast.dismiss', id });

/**
 * One toast's body, read from the actor (a toast pushed again with its id shows the new
 * content); once the actor has let it go, sonner plays its exit with the content it started with.
 */
function ToastBody({ id, initial }: { id: string; initial: QueuedToast }) {
  const current = useSelector(toastActor, (s) => s.context.visible.find((t) => t.id === id) ?? null);
  const content = (current ?? initial).content as ToastContent;
  return content.kind === 'error' ? (
    <ErrorToast id={id} display={content.display} onClose={() => close(id)} />
  ) : (
    <MessageToast id={id} kind={content.kind} message={content.message} onClose={() => close(id)} />
  );
}

/**
 * Makes sonner show exactly the toasts the toast-queue actor has visible: new ones are
 * handed to sonner without a timer of its own (the actor times them), removed ones are
 * dismissed, and a toast sonner lets the user swipe away is dismissed in the actor.
 */
function ToastSync() {
  const visible = useSelector(toastActor, (s) => s.context.visible);
  const shown = useRef(new Set<string>());
  useEffect(() => {
    const ids = new Set(visible.map((t) => t.id));
    for (const toast of visible) {
      const { id } = toast;
      if (shown.current.has(id)) continue;
      shown.current.add(id);
      sonner.custom(
        () => (
          <Suspense fallback={null}>
            <ToastBody id={id} initial={toast} />
          </Suspense>
        ),
        // Custom toasts are not sized by sonner: take the toaster's width so they stay centred.
        { id, duration: Infinity, onDismiss: () => close(id), style: { width: 'var(--width)' } },
      );
    }
    for (const id of [...shown.current]) {
      if (ids.has(id)) continue;
      shown.current.delete(id);
      sonner.dismiss(id);
    }
  }, [visible]);
  return null;
}

/** The toaster: top centre, at most 3 (spec §4/§9), loaded with the first toast. */
export default function Toaster() {
  const { t } = useTranslation('notifications');
  return (
    <>
      <SonnerToaster
        position="top-center"
        visibleToasts={TOAST_LIMIT}
        expand
        gap={8}
        offset={16}
        containerAriaLabel={t('region')}
        style={{ ['--width' as string]: 'min(420px, calc(100vw - 32px))' }}
      />
      <ToastSync />
    </>
  );
}
