import { createStore } from '@xstate/store';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useStoreValue } from '#src/lib/use-store-value.ts';

function counterStore() {
  return createStore({
    context: { count: 0, other: 0, items: [] as string[] },
    on: {
      inc: (context) => ({ ...context, count: context.count + 1 }),
      touchOther: (context) => ({ ...context, other: context.other + 1 }),
      add: (context, event: { item: string }) => ({ ...context, items: [...context.items, event.item] }),
    },
  });
}

describe('useStoreValue', () => {
  it('should show the selected value and follow its changes', () => {
    const store = counterStore();
    function Count() {
      return <output>{useStoreValue(store, (s) => s.context.count)}</output>;
    }
    render(<Count />);
    expect(screen.getByRole('status').textContent).toBe('0');
    act(() => store.trigger.inc());
    act(() => store.trigger.inc());
    expect(screen.getByRole('status').textContent).toBe('2');
  });

  it('should not re-render when the store changes elsewhere than the selected value', () => {
    const store = counterStore();
    let renders = 0;
    function Count() {
      renders += 1;
      return <output>{useStoreValue(store, (s) => s.context.count)}</output>;
    }
    render(<Count />);
    const afterMount = renders;
    act(() => store.trigger.touchOther());
    act(() => store.trigger.touchOther());
    expect(renders).toBe(afterMount);
    act(() => store.trigger.inc());
    expect(renders).toBe(afterMount + 1);
  });

  it('should give a selected part of the snapshot (a new array after a change, the same one before)', () => {
    const store = counterStore();
    const seen: string[][] = [];
    function Items() {
      const items = useStoreValue(store, (s) => s.context.items);
      seen.push(items);
      return <output>{items.join(',')}</output>;
    }
    render(<Items />);
    act(() => store.trigger.add({ item: 'a' }));
    act(() => store.trigger.add({ item: 'b' }));
    expect(screen.getByRole('status').textContent).toBe('a,b');
    expect(seen.at(-1)).toBe(store.getSnapshot().context.items);
  });

  it('should stop listening once unmounted', () => {
    const store = counterStore();
    let listening = 0;
    const counted = {
      getSnapshot: () => store.getSnapshot(),
      subscribe: (listener: (snapshot: ReturnType<typeof store.getSnapshot>) => void) => {
        listening += 1;
        const subscription = store.subscribe(listener);
        return {
          unsubscribe: () => {
            listening -= 1;
            subscription.unsubscribe();
          },
        };
      },
    };
    function Count() {
      return <output>{useStoreValue(counted, (s) => s.context.count)}</output>;
    }
    const view = render(<Count />);
    expect(listening).toBe(1);
    view.unmount();
    expect(listening).toBe(0);
    act(() => store.trigger.inc());
  });
});
