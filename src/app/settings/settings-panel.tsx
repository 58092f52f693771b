import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Button } from '#src/components/ui/button.tsx';
import { Icon } from '#src/components/ui/icons.tsx';
import { CheckMark, ChoiceGroup } from '#src/components/ui/radio-group.tsx';
import { Sheet, SheetClose, SheetDescription, SheetTitle } from '#src/components/ui/sheet.tsx';
import { Switch } from '#src/components/ui/switch.tsx';
import { chooseAndSaveLanguage } from './server-language.ts';
import { withScriptFaces } from '#src/fonts/font-stack.ts';
import { locales, presetColors, type Locale, type ThemeDirection, type ThemeMode } from '#src/lib/config.ts';
import { formatUtcOffset, useFormat } from '#src/lib/format.ts';
import { layoutConfigStore, type LayoutConfig } from '../stores/layout-config-store.ts';
import { localizationStore } from '../stores/localization-store.ts';
import { familyName, fontOptions, isSameFont } from './font-options.ts';
import { presetDefinitions } from './presets.ts';

const header = css({
  position: 'sticky',
  top: 0,
  zIndex: 'raised',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: '2',
  minHeight: 'toolbar',
  px: '4',
  bg: 'bg.surface',
  borderBottomWidth: '1px',
  borderColor: 'border',
});

const closeButton = css({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: '10',
  height: '10',
  borderRadius: 'md',
  cursor: 'pointer',
  color: 'fg.default',
  _hover: { bg: 'bg.hover' },
});

const fieldset = css({ border: 'none', m: 0, p: 0, minWidth: 0 });
const legend = css({ fontSize: 'sm', fontWeight: 'semibold', mb: '2', p: 0 });
const section = css({ px: '4', py: '4', borderBottomWidth: '1px', borderColor: 'border' });

const swatch = css({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  flexShrink: 0,
  width: '6',
  height: '6',
  borderRadius: 'full',
  bg: 'primary.main',
  color: 'primary.contrast',
  borderWidth: '2px',
  borderColor: 'primary.lighter',
  boxShadow: '0 0 0 1px token(colors.border.strong)',
});

const change = (patch: Partial<LayoutConfig>) => layoutConfigStore.trigger.change({ patch });

/** Capitalises the first letter the way the language does ('français' → 'Français'). */
function capitalise(text: string, locale: string) {
  return text ? text[0].toLocaleUpperCase(locale) + text.slice(1) : text;
}

function languageNames(uiLanguage: string) {
  const inUi = new Intl.DisplayNames([uiLanguage], { type: 'language' });
  return locales.map((code) => {
    const own = capitalise(new Intl.DisplayNames([code], { type: 'language' }).of(code) ?? code, code);
    const translated = capitalise(inUi.of(code) ?? code, uiLanguage);
    return { code, own, translated };
  });
}

/**
 * The theme settings panel (spec §3 theme settings, §4 layout config): a modal side sheet on
 * Ark UI's Dialog (`Sheet`, docs/decisions/0086; 0021 chose the native <dialog> before). Every change applies at once, is saved in
 * localStorage and reaches the other tabs; the language goes to the localization slice.
 */
export default function SettingsPanel({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation('settings');
  const config = useSelector(layoutConfigStore, (s) => s.context);
  const storedLanguage = useSelector(localizationStore, (s) => s.context.i18n);
  const format = useFormat();
  const uiLanguage = i18n.language as Locale;

  const languages = useMemo(() => languageNames(uiLanguage), [uiLanguage]);
  const fonts = fontOptions(config.fontFamily);
  const currentFont = fonts.find((option) => isSameFont(option.value, config.fontFamily))?.value ?? fonts[0].value;
  // Rendered once per opening: a preview, not a clock.
  const now = useMemo(() => new Date(), []);

  const modes: ThemeMode[] = ['light', 'dark'];
  const directions: ThemeDirection[] = ['ltr', 'rtl'];

  return (
    <Sheet id="settings-panel" testId="settings-panel" side="end" width="380px" onClose={onClose}>
      <div className={header}>
        <SheetTitle className={css({ fontSize: 'lg', fontWeight: 'bold' })}>{t('title')}</SheetTitle>
        <SheetClose className={closeButton} aria-label={t('close')}>
          <Icon name="close" />
        </SheetClose>
      </div>
      <SheetDescription className={css({ px: '4', pt: '3', fontSize: 'sm', color: 'fg.muted' })}>{t('description')}</SheetDescription>

      <div className={section}>
        <ChoiceGroup
          title={t('mode.legend')}
          name="mode"
          value={config.mode}
          onChange={(mode) => change({ mode })}
          options={modes.map((mode) => ({ value: mode, label: t(`mode.${mode}`), testId: `mode-${mode}` }))}
        />
      </div>

      <div className={section}>
        <ChoiceGroup
          title={t('preset.legend')}
          name="presetColor"
          value={config.presetColor}
          columns={3}
          onChange={(presetColor) => change({ presetColor })}
          options={presetColors.map((preset) => ({
            value: preset,
            label: t(presetDefinitions[preset].nameKey),
            testId: `preset-${preset}`,
            // The swatch resolves the preset's own tokens in the current mode.
            preview: (checked: boolean) => (
              <span className={swatch} data-preset={preset} data-mode={config.mode} aria-hidden="true">
                {checked ? <CheckMark size={14} /> : null}
              </span>
            ),
          }))}
        />
      </div>

      <div className={section}>
        <ChoiceGroup
          title={t('direction.legend')}
          name="themeDirection"
          value={config.themeDirection}
          onChange={(themeDirection) => change({ themeDirection })}
          options={directions.map((direction) => ({ value: direction, label: t(`direction.${direction}`), testId: `direction-${direction}` }))}
        />
      </div>

      <div className={section}>
        <fieldset className={fieldset}>
          <legend className={legend}>{t('layout.legend')}</legend>
          <Switch
            label={t('layout.miniDrawer')}
            hint={t('layout.miniDrawerHint')}
            checked={config.miniDrawer}
            onChange={(miniDrawer) => change({ miniDrawer })}
            testId="mini-drawer"
          />
          <Switch
            label={t('layout.container')}
            hint={t('layout.containerHint')}
            checked={config.container}
            onChange={(container) => change({ container })}
            testId="container"
          />
        </fieldset>
      </div>

      <div className={section}>
        <ChoiceGroup
          title={t('font.legend')}
          name="fontFamily"
          value={currentFont}
          columns={1}
          onChange={(fontFamily) => change({ fontFamily })}
          options={fonts.map((option, index) => {
            const name = option.labelKey ? t(option.labelKey) : familyName(option.value);
            return {
              value: option.value,
              label: option.isDefault ? t('font.defaultOption', { name }) : name,
              // Each choice is drawn in its own font; Devanagari and Gujarati still reach the shipped faces.
              style: { fontFamily: withScriptFaces(option.value) },
              testId: `font-${index}`,
            };
          })}
        />
      </div>

      <div className={section}>
        <ChoiceGroup
          title={t('language.legend')}
          name="language"
          value={storedLanguage ?? uiLanguage}
          onChange={(language) => chooseAndSaveLanguage(language)}
          options={languages.map(({ code, own, translated }) => ({
            value: code,
            lang: code,
            testId: `language-${code}`,
            ariaLabel: own === translated ? own : `${own} — ${translated}`,
            label: (
              <>
                <span className={css({ display: 'block' })}>{own}</span>
                {own === translated ? null : (
                  <span lang={uiLanguage} className={css({ display: 'block', fontSize: 'xs', color: 'fg.muted', fontWeight: 'normal' })}>
                    {translated}
                  </span>
                )}
              </>
            ),
          }))}
        />
      </div>

      <div className={section} data-testid="region-preview">
        <h3 className={legend}>{t('region.legend')}</h3>
        <dl className={css({ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: '3', rowGap: '1', fontSize: 'sm' })}>
          <dt className={css({ color: 'fg.muted' })}>{t('region.timeZone')}</dt>
          <dd data-testid="region-time-zone">{t('region.zoneWithOffset', { zone: format.timeZone, offset: formatUtcOffset(now) })}</dd>
          <dt className={css({ color: 'fg.muted' })}>{t('region.now')}</dt>
          <dd data-testid="region-now">{format.dateTime(now)}</dd>
          <dt className={css({ color: 'fg.muted' })}>{t('region.number')}</dt>
          <dd data-testid="region-number">{format.number(1234567.891)}</dd>
        </dl>
      </div>

      <div className={css({ p: '4' })}>
        <Button
          variant="outline"
          className={css({ width: '100%' })}
          onClick={() => {
            layoutConfigStore.trigger.reset();
            localizationStore.trigger.reset();
          }}
        >
          {t('reset')}
        </Button>
      </div>
    </Sheet>
  );
}
