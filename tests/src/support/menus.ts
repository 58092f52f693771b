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
/** Under a loaded machine Ark's frame-delayed focus move can take a while: wait longer than waitFor's default second. */
const MENU_TIMEOUT = { timeout: 5000 };

/**
 * Opens an Ark UI menu from its trigger with the keyboard and returns it once it holds the
 * focus: Ark moves the focus into the menu a frame after opening, and keys pressed before that
 * land on the trigger (an Escape then leaves the menu open, an arrow moves nothing).
 */
export async function openMenu(user: UserEvent, trigger: HTMLElement): Promise<HTMLElement> {
  trigger.focus();
  await user.keyboard('{Enter}');
  const menu = await screen.findByRole('menu', undefined, MENU_TIMEOUT);
  await waitFor(() => expect(menu).toHaveFocus(), MENU_TIMEOUT);
  return menu;
}

/**
 * Closes an open Ark UI menu as a keyboard user does, with Escape from inside the menu, and waits
 * until it is gone. If an Escape got lost (the menu had not taken the focus back yet), it is
 * pressed again from the menu; a click on the trigger, which toggles the menu, is the last resort.
 */
export async function closeMenu(user: UserEvent, trigger: HTMLElement): Promise<void> {
  for (let attempt = 0; attempt < 3 && screen.queryByRole('menu'); attempt += 1) {
    const menu = screen.queryByRole('menu');
    if (menu && document.activeElement !== menu && !menu.contains(document.activeElement)) menu.focus();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull(), { timeout: 1500 }).catch(() => undefined);
  }
  if (screen.queryByRole('menu')) await user.click(trigger);
  await waitFor(() => expect(screen.queryByRole('menu')).toBeNull(), MENU_TIMEOUT);
}

/**
 * Opens an Ark UI menu from its trigger and chooses an item with the keyboard (arrow keys to
 * it, then Enter), as a keyboard user does. Ark keeps focus on the menu and marks the current
 * item with aria-activedescendant. Pointer selection is exercised in Chromium
 * (tests/e2e/layering.test.ts, users-admin.test.ts): jsdom's synthetic pointer events do not
 * drive Ark's highlight reliably.
 */
export async function chooseMenuItem(user: UserEvent, trigger: HTMLElement, itemName: string | RegExp): Promise<void> {
  const menu = await openMenu(user, trigger);
  const target = within(menu).getByRole('menuitem', { name: itemName });
  const items = within(menu).getAllByRole('menuitem');
  // From the first item, whatever the menu highlighted on opening (Home is the menu's own key).
  await user.keyboard('{Home}');
  await waitFor(() => expect(menu.getAttribute('aria-activedescendant')).toBe(items[0]!.id), MENU_TIMEOUT);
  for (let step = 0; step <= items.length && menu.getAttribute('aria-activedescendant') !== target.id; step += 1) {
    await user.keyboard('{ArrowDown}');
  }
  expect(menu.getAttribute('aria-activedescendant')).toBe(target.id);
  await user.keyboard('{Enter}');
}

/** Opens an Ark UI menu from its trigger, reads its item names, and closes it again (`closeMenu`). */
export async function readMenuItems(user: UserEvent, trigger: HTMLElement): Promise<(string | null)[]> {
  const menu = await openMenu(user, trigger);
  const names = within(menu)
    .getAllByRole('menuitem')
    .map((item) => item.textContent);
  await closeMenu(user, trigger);
  return names;
}
