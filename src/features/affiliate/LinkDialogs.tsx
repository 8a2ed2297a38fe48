import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { LinkEditorEvent, NewLink } from '../../../machines/link-editor.ts';
import { Button, ConfirmDialog, Dialog, TextField } from '../../ui/index.ts';
import * as styles from './affiliate.css.ts';

/**
 * 'Create New Referral Link' (spec §2): Link Name and Custom Code, the code shown after the
 * product's host; it does not close on a click beside it.
 */
export function CreateLinkDialog(props: {
  draft: NewLink;
  canCreate: boolean;
  creating: boolean;
  hostPrefix: string;
  send: (event: LinkEditorEvent) => void;
}) {
  const { t } = useTranslation('affiliate');
  const { draft, send } = props;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send({ type: 'SAVE' });
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && send({ type: 'CANCEL' })}
      title={t('create.title')}
      description={t('create.description')}
      closeLabel={t('create.close')}
      closeOnOutsideClick={false}
    >
      <form className={styles.form} onSubmit={submit}>
        <TextField
          label={t('create.name')}
          placeholder={t('create.namePlaceholder')}
          value={draft.name}
          required
          disabled={props.creating}
          onChange={(event) => send({ type: 'DRAFT_CHANGED', field: 'name', value: event.target.value })}
        />
        <div className={styles.stack}>
          <TextField
            label={t('create.code')}
            hint={`${props.hostPrefix}${draft.code.trim() || '…'} — ${t('create.codeHint')}`}
            value={draft.code}
            required
            disabled={props.creating}
            onChange={(event) => send({ type: 'DRAFT_CHANGED', field: 'code', value: event.target.value })}
          />
        </div>
        <div className={styles.buttons}>
          <Button tone="secondary" onClick={() => send({ type: 'CANCEL' })}>
            {t('create.cancel')}
          </Button>
          <Button type="submit" disabled={!props.canCreate || props.creating}>
            {t('create.submit')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** Asks before archiving a link (spec §2): it leaves the dashboard, its data and statistics stay. */
export function ArchiveLinkDialog(props: { saving: boolean; send: (event: LinkEditorEvent) => void }) {
  const { t } = useTranslation('affiliate');
  return (
    <ConfirmDialog
      title={t('archive.title')}
      description={t('archive.description')}
      confirmLabel={t('archive.confirm')}
      cancelLabel={t('archive.cancel')}
      closeLabel={t('archive.close')}
      busy={props.saving}
      onConfirm={() => props.send({ type: 'SAVE' })}
      onCancel={() => props.send({ type: 'CANCEL' })}
    >
      <p>{t('archive.preserved')}</p>
    </ConfirmDialog>
  );
}
