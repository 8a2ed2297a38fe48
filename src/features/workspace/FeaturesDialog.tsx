import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Dialog, TextField } from '../../ui/index.ts';
import { matchingFeatures, SAMPLE_FEATURES } from './sample-features.ts';
import * as styles from './workspace.css.ts';

interface FeaturesDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onNewFeature: () => void;
}

/** The Feature menu's dialog: the sample features, filtered by name, each with its status written out. */
export function FeaturesDialog({ open, onOpenChange, onNewFeature }: FeaturesDialogProps) {
  const { t, i18n } = useTranslation(['workspace', 'common']);
  const [query, setQuery] = useState('');
  // Closed, it renders nothing: its texts are not looked up with every render of the workspace.
  if (!open) return null;
  const features = SAMPLE_FEATURES.map((feature) => ({ ...feature, name: t(`features.samples.${feature.id}`) }));
  const shown = matchingFeatures(features, query, i18n.resolvedLanguage);
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('features.title')}
      description={t('features.description')}
      closeLabel={t('common:dialog.close')}
    >
      <TextField
        type="search"
        label={t('features.search')}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      {shown.length === 0 ? (
        <p role="status">{t('features.empty')}</p>
      ) : (
        <ul className={styles.featureList} aria-label={t('features.title')}>
          {shown.map((feature) => (
            <li key={feature.id} className={styles.featureRow}>
              <span>{feature.name}</span>
              <span className={styles.statusBadge[feature.status]}>{t(`features.status.${feature.status}`)}</span>
            </li>
          ))}
        </ul>
      )}
      <div className={styles.dialogButtons}>
        {/* Nothing tracks features yet, so a new one starts where work starts: the dialog closes and the chat's message box takes focus. */}
        <Button onClick={onNewFeature}>{t('features.newFeature')}</Button>
      </div>
    </Dialog>
  );
}
