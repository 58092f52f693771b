import type { Locator, Page } from 'playwright-core';

/**
 * Chooses an option of an Ark UI Select (src/components/ui/select.tsx) with the pointer: the
 * trigger is a button with the combobox role, the listbox is portalled to <body>.
 */
export async function chooseOption(page: Page, scope: Locator | Page, label: string | RegExp, option: string): Promise<void> {
  const trigger = scope.getByRole('combobox', { name: label });
  await trigger.click();
  const listbox = page.getByRole('listbox');
  // A click that lands while the screen is still re-rendering its first data can be lost on a
  // loaded machine: the listbox is then not open, and one more click opens it.
  if (
    !(await listbox.waitFor({ timeout: 5000 }).then(
      () => true,
      () => false,
    ))
  )
    await trigger.click();
  await listbox.getByRole('option', { name: option, exact: true }).click();
  await listbox.waitFor({ state: 'hidden' });
}
