import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../ui/index.ts';
import { ModelSettingsForm } from './ModelSettingsForm.tsx';
import { optionRequests, settingsQueryKeys } from './requests.ts';
import * as styles from './settings.css.ts';

/** The oss settings' first tab: the model the agent runs with. */
export function ModelSettingsTab() {
  const { t } = useTranslation('settings');
  const models = useQuery({
    queryKey: settingsQueryKeys.options('models'),
    queryFn: ({ signal }) => optionRequests.models(signal),
  });
  if (models.isPending) return <Spinner label={t('loading')} />;
  if (models.isError) return <p className={styles.error}>{t('loadFailed')}</p>;
  return <ModelSettingsForm knownModels={models.data} />;
}
