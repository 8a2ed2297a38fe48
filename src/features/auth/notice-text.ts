import { useTranslation } from 'react-i18next';
import type { Notice } from '../../../machines/notice.ts';
import type { RegistrationMessage } from '../../../machines/registration.ts';
import type { LoginMessage } from '../../../machines/session.ts';

/** The words of a machine's notice: the server's own, or the product's translated message. */
export function useNoticeText() {
  const { t } = useTranslation('auth');
  return (notice: Notice<LoginMessage | RegistrationMessage>) =>
    notice.kind === 'server' ? notice.text : t(`errors.${notice.message}`);
}
