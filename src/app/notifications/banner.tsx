import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Icon } from '#src/components/ui/icons.tsx';
import { bannerStore } from '#src/lib/http/banner-store.ts';
import type { CatalogueKey } from '#src/lib/error-catalogue.ts';

const bar = css({
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  px: '4',
  py: '2',
  bg: 'warning.lighter',
  color: 'fg.default',
  borderBottomWidth: '1px',
  borderColor: 'warning.main',
  fontSize: 'sm',
});

/** The banner of spec §8 (the HTTP layer sets and clears it); loaded when first shown. */
export default function Banner({ message }: { message: CatalogueKey }) {
  const { t } = useTranslation('errors');
  return (
    <div role="alert" className={bar} data-testid="connection-banner" data-message={message}>
      <p className={css({ flex: '1' })}>{t(`catalogue.${message}`)}</p>
      <button
        type="button"
        aria-label={t('banner.dismiss')}
        onClick={() => bannerStore.trigger.clear()}
        className={css({ display: 'inline-flex', p: '1.5', borderRadius: 'md', cursor: 'pointer', _hover: { bg: 'bg.hover' } })}
      >
        <Icon name="close" size={18} />
      </button>
    </div>
  );
}
