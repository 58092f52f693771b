import { expect } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';

/**
 * Opens an Ark UI menu from its trigger and chooses an item with the keyboard (arrow keys to
 * it, then Enter), as a keyboard user does. Ark keeps focus on the menu and marks the current
 * item with aria-activedescendant. Pointer selection is exercised in Chromium
 * (tests/e2e/layering.test.ts, users-admin.test.ts): jsdom's synthetic pointer events do not
 * drive Ark's highlight reliably.
 */
export async function chooseMenuItem(user: UserEvent, trigger: HTMLElement, itemName: string | RegExp): Promise<void> {
  trigger.focus();
  await user.keyboard('{Enter}');
  const menu = await screen.findByRole('menu');
  await waitFor(() => expect(menu).toHaveFocus());
  const target = within(menu).getByRole('menuitem', { name: itemName });
  const items = within(menu).getAllByRole('menuitem');
  // From the first item, whatever the menu highlighted on opening (Home is the menu's own key).
  await user.keyboard('{Home}');
  await waitFor(() => expect(menu.getAttribute('aria-activedescendant')).toBe(items[0]!.id));
  for (let step = 0; step <= items.length && menu.getAttribute('aria-activedescendant') !== target.id; step += 1) {
    await user.keyboard('{ArrowDown}');
  }
  expect(menu.getAttribute('aria-activedescendant')).toBe(target.id);
  await user.keyboard('{Enter}');
}

/**
 * Opens an Ark UI menu from its trigger, reads its item names, and closes it with Escape.
 * Escape only reaches the menu once the menu holds the focus (Ark moves it there a frame
 * after opening); pressed earlier, it lands on the trigger and the menu stays open.
 */
export async function readMenuItems(user: UserEvent, trigger: HTMLElement): Promise<(string | null)[]> {
  trigger.focus();
  await user.keyboard('{Enter}');
  const menu = await screen.findByRole('menu');
  await waitFor(() => expect(menu).toHaveFocus());
  const names = within(menu)
    .getAllByRole('menuitem')
    .map((item) => item.textContent);
  await user.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
  return names;
}
