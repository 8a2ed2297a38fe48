import { useTranslation } from 'react-i18next';
import { Dialog } from '../../ui/index.ts';
import { shortcutLabel, WORKSPACE_ACTIONS } from './workspace-actions.ts';
import * as styles from './workspace.css.ts';

const WITH_SHORTCUTS = WORKSPACE_ACTIONS.filter((action) => action.shortcut !== undefined);

/** Every keyboard shortcut of the workspace (`?`, or Layout → Keyboard shortcuts), read from the action table. */
export function ShortcutsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation(['workspace', 'common']);
  // Closed, it renders nothing: its texts are not looked up with every render of the workspace.
  if (!open) return null;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('shortcuts.title')}
      description={t('shortcuts.description')}
      closeLabel={t('common:dialog.close')}
    >
      <table className={styles.shortcuts}>
        <thead>
          <tr>
            <th scope="col">{t('shortcuts.action')}</th>
            <th scope="col">{t('shortcuts.keys')}</th>
          </tr>
        </thead>
        <tbody>
          {WITH_SHORTCUTS.map((action) => (
            <tr key={action.id}>
              <td>{t(action.label as 'menu.shortcuts')}</td>
              <td>
                <kbd>{shortcutLabel(action.shortcut ?? '')}</kbd>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}
