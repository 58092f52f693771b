import { expect } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';

/**
 * Chooses an option of an Ark UI Select as a keyboard user does: focus the trigger (role
 * combobox), Enter opens the listbox, Home goes to the first option, arrow keys down to the
 * wanted one (the listbox marks it with aria-activedescendant), Enter chooses it.
 */
export async function chooseOption(user: UserEvent, combobox: HTMLElement, optionName: string | RegExp): Promise<void> {
  combobox.focus();
  await user.keyboard('{Enter}');
  const listbox = await screen.findByRole('listbox');
  await waitFor(() => expect(listbox).toHaveFocus());
  const target = await within(listbox).findByRole('option', { name: optionName });
  const options = within(listbox).getAllByRole('option');
  await user.keyboard('{Home}');
  await waitFor(() => expect(listbox.getAttribute('aria-activedescendant')).toBe(options[0]!.id));
  for (let step = 0; step <= options.length && listbox.getAttribute('aria-activedescendant') !== target.id; step += 1) {
    await user.keyboard('{ArrowDown}');
  }
  expect(listbox.getAttribute('aria-activedescendant')).toBe(target.id);
  await user.keyboard('{Enter}');
  await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
}

/**
 * The Ark Select inside `root` (a SelectField's `testId` element): its combobox, and the label of
 * the option whose value is `value`, read from the hidden native select that carries the value.
 */
function optionLabel(root: HTMLElement, value: string): string {
  const option = Array.from(root.querySelectorAll('select option')).find((o) => (o as HTMLOptionElement).value === value);
  if (!option) throw new Error(`no option with the value ${value} in ${root.getAttribute('data-testid') ?? 'the select'}`);
  return option.textContent ?? '';
}

/** Chooses the option with `value` of the SelectField rendered as `root`, with the keyboard. */
export async function chooseValue(user: UserEvent, root: HTMLElement, value: string): Promise<void> {
  const label = optionLabel(root, value);
  await chooseOption(user, within(root).getByRole('combobox'), new RegExp(`^${label.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
}

/** The option labels a SelectField offers (its hidden native select's options, in order). */
export function optionLabels(root: HTMLElement): string[] {
  return Array.from(root.querySelectorAll('select option')).map((o) => o.textContent ?? '');
}

/** Chooses the option with `value` of the Ark Select whose combobox is `combobox`. */
export async function chooseValueOf(user: UserEvent, combobox: HTMLElement, value: string): Promise<void> {
  const root = combobox.closest<HTMLElement>('[data-scope="select"][data-part="root"]');
  if (!root) throw new Error('the combobox is not inside an Ark Select');
  await chooseValue(user, root, value);
}
