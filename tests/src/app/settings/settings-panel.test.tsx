import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serifFonts, systemFonts, fontOptions, familyName } from '#src/app/settings/font-options.ts';
import { SettingsTrigger } from '#src/app/settings/settings-trigger.tsx';
import { defaultLayoutConfig, layoutConfigStore } from '#src/app/stores/layout-config-store.ts';
import { localizationStore } from '#src/app/stores/localization-store.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { followLanguage } from '#src/i18n/language.ts';

// (Modal dialogs in jsdom: see tests/setup/jsdom-setup.ts.)
beforeAll(async () => {
  await initI18n('en-IN');
});

let stopLanguage: (() => void) | undefined;
afterEach(async () => {
  stopLanguage?.();
  stopLanguage = undefined;
  layoutConfigStore.trigger.reset();
  localizationStore.trigger.reset();
  await i18n.changeLanguage('en-IN');
});

async function openPanel() {
  const user = userEvent.setup();
  render(
    <I18nextProvider i18n={i18n}>
      <SettingsTrigger />
    </I18nextProvider>,
  );
  const trigger = screen.getByRole('button', { name: 'Theme settings' });
  expect(trigger).toHaveAttribute('aria-expanded', 'false');
  await user.click(trigger);
  const panel = await screen.findByRole('dialog', { name: 'Theme settings' }, { timeout: 5000 });
  expect(trigger).toHaveAttribute('aria-expanded', 'true');
  return { user, panel, trigger };
}

describe('font options', () => {
  it('should offer the configured font first, then Public Sans, system and serif, and keep an unknown current one', () => {
    expect(fontOptions(`'Public Sans', sans-serif`).map((o) => o.value)).toEqual([`'Public Sans', sans-serif`, systemFonts, serifFonts]);
    expect(fontOptions('Inter, sans-serif', 'Inter, sans-serif').map((o) => familyName(o.value))).toEqual(['Inter', 'Public Sans', 'system-ui', 'Georgia']);
    expect(fontOptions('"Fira Sans", sans-serif').map((o) => familyName(o.value))).toEqual(['Public Sans', 'system-ui', 'Georgia', 'Fira Sans']);
  });
});

describe('SettingsPanel', () => {
  it('should show every setting as a labelled control with the current values checked', async () => {
    const { panel } = await openPanel();
    // The choices are radio groups (Ark UI RadioGroup); the switches sit in a fieldset.
    const group = (name: string) => within(panel).queryByRole('radiogroup', { name }) ?? within(panel).getByRole('group', { name });
    expect(within(group('Mode')).getByRole('radio', { name: 'Light' })).toBeChecked();
    expect(
      within(group('Colour preset'))
        .getAllByRole('radio')
        .map((r) => r.getAttribute('value')),
    ).toEqual(['default', 'theme1', 'theme2', 'theme3', 'theme4', 'theme5', 'theme6', 'theme7', 'theme8']);
    expect(within(group('Colour preset')).getByRole('radio', { name: 'Blue' })).toBeChecked();
    expect(within(group('Text direction')).getByRole('radio', { name: 'Left to right' })).toBeChecked();
    expect(within(group('Layout')).getByRole('switch', { name: 'Mini drawer' })).not.toBeChecked();
    expect(within(group('Layout')).getByRole('switch', { name: 'Boxed content' })).toHaveAccessibleDescription(
      'Limit the width of the content on wide screens.',
    );
    expect(within(group('Font')).getByRole('radio', { name: 'Public Sans (default)' })).toBeChecked();
    expect(
      within(group('Language'))
        .getAllByRole('radio')
        .map((r) => r.getAttribute('value')),
    ).toEqual(['en-IN', 'en-US', 'fr', 'es', 'hi', 'gu']);
    expect(within(group('Language')).getByRole('radio', { name: 'English (India)' })).toBeChecked();
    expect(within(group('Language')).getByRole('radio', { name: 'हिन्दी — Hindi' })).not.toBeChecked();
    expect(within(panel).getByTestId('region-number')).toHaveTextContent('12,34,567.891');
  }, 20_000); // many role queries over a large panel; jsdom is slow on a loaded machine

  it('should change the layout config at once for each control', async () => {
    const { user, panel } = await openPanel();
    await user.click(within(panel).getByRole('radio', { name: 'Dark' }));
    await user.click(within(panel).getByRole('radio', { name: 'Teal' }));
    await user.click(within(panel).getByRole('radio', { name: 'Right to left' }));
    await user.click(within(panel).getByRole('switch', { name: 'Mini drawer' }));
    await user.click(within(panel).getByRole('switch', { name: 'Boxed content' }));
    await user.click(within(panel).getByRole('radio', { name: 'Serif' }));
    expect(layoutConfigStore.getSnapshot().context).toEqual({
      mode: 'dark',
      presetColor: 'theme3',
      themeDirection: 'rtl',
      miniDrawer: true,
      container: true,
      fontFamily: serifFonts,
    });
    expect(within(panel).getByRole('radio', { name: 'Teal' })).toBeChecked();
    // Arrow keys move within a radio group and apply the choice, as native radios do.
    await user.keyboard('{ArrowRight}');
    expect(layoutConfigStore.getSnapshot().context.fontFamily).toBe(defaultLayoutConfig.fontFamily);
  }, 20_000);

  it('should store the chosen language in the localization slice and switch the UI to it', async () => {
    stopLanguage = followLanguage({ i18n, store: localizationStore, configured: 'en-IN', document });
    const { user, panel } = await openPanel();
    await user.click(within(panel).getByRole('radio', { name: 'Français — French' }));
    expect(localizationStore.getSnapshot().context.i18n).toBe('fr');
    expect(await screen.findByRole('dialog', { name: 'Paramètres du thème' }, { timeout: 5000 })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('fr');
    expect(within(panel).getByRole('radio', { name: 'Français' })).toBeChecked();
    expect(within(panel).getByTestId('region-number')).toHaveTextContent(/^1\s234\s567,891$/);
  });

  it('should reset the layout and the language to the configured defaults', async () => {
    const { user, panel } = await openPanel();
    await user.click(within(panel).getByRole('radio', { name: 'Dark' }));
    await user.click(within(panel).getByRole('radio', { name: 'Español — Spanish' }));
    expect(localizationStore.getSnapshot().context.i18n).toBe('es');
    await user.click(within(panel).getByRole('button', { name: 'Reset to defaults' }));
    expect(layoutConfigStore.getSnapshot().context).toEqual(defaultLayoutConfig);
    expect(localizationStore.getSnapshot().context.i18n).toBeNull();
  });

  it('should close with its close button and report it to the trigger', async () => {
    const { user, panel, trigger } = await openPanel();
    await user.click(within(panel).getByRole('button', { name: 'Close settings' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(trigger).toHaveAttribute('aria-expanded', 'false');
    await act(async () => {});
  });
});
