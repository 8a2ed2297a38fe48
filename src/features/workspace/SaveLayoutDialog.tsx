import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { selectCanSave, selectIsSaving, selectSaveDialogOpen, selectSaveFailure } from '../../../machines/layout.ts';
import { Button, Dialog, TextField } from '../../ui/index.ts';
import type { LayoutActor } from './use-workspace.ts';
import * as styles from './workspace.css.ts';

/** 'Save Layout': a name (trimmed; Save is disabled while it is empty) for the layout on screen. */
export function SaveLayoutDialog({ layout }: { layout: LayoutActor }) {
  const { t } = useTranslation(['workspace', 'common']);
  const open = useSelector(layout, selectSaveDialogOpen);
  const canSave = useSelector(layout, selectCanSave);
  const saving = useSelector(layout, selectIsSaving);
  const failure = useSelector(layout, selectSaveFailure);
  const name = useSelector(layout, (snapshot) => snapshot.context.draftName);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    layout.send({ type: 'SAVE' });
  };
  const error =
    failure === null ? undefined : failure.kind === 'server' ? failure.text : t(`layout.${failure.message}`);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && layout.send({ type: 'CANCEL' })}
      title={t('layout.saveDialogTitle')}
      description={t('layout.saveCurrent')}
      closeLabel={t('common:dialog.close')}
    >
      <form onSubmit={onSubmit} className={styles.dialogForm}>
        <TextField
          label={t('layout.nameLabel')}
          value={name}
          onChange={(event) => layout.send({ type: 'NAME_CHANGED', name: event.target.value })}
          error={error}
          autoFocus
        />
        <div className={styles.dialogButtons}>
          <Button tone="secondary" onClick={() => layout.send({ type: 'CANCEL' })}>
            {t('layout.cancel')}
          </Button>
          <Button type="submit" disabled={!canSave || saving}>
            {t('layout.save')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
