// The design system's icons (Radix): emoji showed as empty boxes without an emoji font.
import { ArchiveIcon, Pencil1Icon, PersonIcon } from '@radix-ui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent } from 'react';
import { fromPromise } from 'xstate';
import { copyLinkMachine, selectCopied } from '../../../machines/copy-link.ts';
import { useTranslation } from 'react-i18next';
import type { LinkEditorEvent } from '../../../machines/link-editor.ts';
import { visuallyHidden } from '../../styles/visually-hidden.css.ts';
import { Button } from '../../ui/index.ts';
import * as styles from './affiliate.css.ts';
import type { AffiliateLink } from './requests.ts';
import { dollars } from './tiers.ts';

const copyLogic = copyLinkMachine.provide({
  actors: { writeClipboard: fromPromise(({ input }) => navigator.clipboard.writeText(input)) },
});

/** Copies the full link; reads 'Copied!' for 2 seconds after (the machine's `copiedReset`). */
function CopyButton({ url }: { url: string }) {
  const { t } = useTranslation('affiliate');
  // Keyed by its link where it is drawn: another link is another button.
  const copy = useActorRef(copyLogic, { input: { text: url } });
  const copied = useSelector(copy, selectCopied);
  return (
    <Button
      size="sm"
      tone="secondary"
      aria-label={copied ? t('table.copied') : t('table.copy', { url })}
      onClick={() => copy.send({ type: 'COPY' })}
    >
      <span aria-live="polite">{copied ? t('table.copied') : '⧉'}</span>
    </Button>
  );
}

interface LinksTableProps {
  links: AffiliateLink[];
  /** The row being renamed, from the link editor. */
  renaming: { linkId: string | null; name: string; saving: boolean } | null;
  send: (event: LinkEditorEvent) => void;
  onViewUsers: (link: AffiliateLink) => void;
}

/** The referral links with their figures and row actions: view users, rename inline, archive (spec §2). */
export function LinksTable({ links, renaming, send, onViewUsers }: LinksTableProps) {
  const { t, i18n } = useTranslation('affiliate');
  const save = (event: FormEvent) => {
    event.preventDefault();
    send({ type: 'SAVE' });
  };
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">{t('table.name')}</th>
            <th scope="col">{t('table.link')}</th>
            <th scope="col" className={styles.numeric}>
              {t('table.totalClicks')}
            </th>
            <th scope="col" className={styles.numeric}>
              {t('table.uniqueClicks')}
            </th>
            <th scope="col" className={styles.numeric}>
              {t('table.conversions')}
            </th>
            <th scope="col" className={styles.numeric}>
              {t('table.earnings')}
            </th>
            <th scope="col">{t('table.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {links.map((link) => {
            const url = link.url ?? `${window.location.origin}/${link.code}`;
            const editing = renaming?.linkId === link.id ? renaming : null;
            return (
              <tr key={link.id}>
                <td>
                  {editing ? (
                    <form className={styles.rowActions} onSubmit={save}>
                      <input
                        className={styles.inlineInput}
                        aria-label={t('table.newName', { name: link.name })}
                        value={editing.name}
                        disabled={editing.saving}
                        // The pencil was pressed to type here.
                        autoFocus
                        onChange={(event) => send({ type: 'NAME_CHANGED', name: event.target.value })}
                        onKeyDown={(event) => event.key === 'Escape' && send({ type: 'CANCEL' })}
                      />
                      <Button size="sm" type="submit" disabled={editing.saving}>
                        {t('table.save')}
                      </Button>
                      <Button size="sm" tone="ghost" onClick={() => send({ type: 'CANCEL' })}>
                        {t('table.cancel')}
                      </Button>
                    </form>
                  ) : (
                    link.name
                  )}
                </td>
                <td>
                  <span className={styles.linkCell}>
                    <span>{url}</span>
                    <CopyButton key={url} url={url} />
                  </span>
                </td>
                <td className={styles.numeric}>{link.total_clicks}</td>
                <td className={styles.numeric}>{link.unique_clicks}</td>
                <td className={styles.numeric}>{link.conversions}</td>
                <td className={styles.numeric}>{dollars(link.earnings, i18n.language)}</td>
                <td>
                  <span className={styles.rowActions}>
                    <Button size="sm" tone="ghost" onClick={() => onViewUsers(link)}>
                      <PersonIcon aria-hidden="true" />
                      <span className={visuallyHidden}>{t('table.viewUsers', { name: link.name })}</span>
                    </Button>
                    <Button
                      size="sm"
                      tone="ghost"
                      onClick={() => send({ type: 'RENAME', linkId: link.id, name: link.name })}
                    >
                      <Pencil1Icon aria-hidden="true" />
                      <span className={visuallyHidden}>{t('table.edit', { name: link.name })}</span>
                    </Button>
                    <Button size="sm" tone="ghost" onClick={() => send({ type: 'ARCHIVE', linkId: link.id })}>
                      <ArchiveIcon aria-hidden="true" />
                      <span className={visuallyHidden}>{t('table.archive', { name: link.name })}</span>
                    </Button>
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
