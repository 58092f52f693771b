import { useTranslation } from 'react-i18next';
import { Badge } from '#src/components/ui/badge.tsx';

export function StatusBadge({ active }: { active: boolean }) {
  const { t } = useTranslation('users');
  return <Badge tone={active ? 'success' : 'neutral'}>{active ? t('status.active') : t('status.inactive')}</Badge>;
}

export function EmailBadge({ confirmed }: { confirmed: boolean }) {
  const { t } = useTranslation('users');
  return <Badge tone={confirmed ? 'info' : 'warning'}>{confirmed ? t('email.confirmed') : t('email.unconfirmed')}</Badge>;
}
