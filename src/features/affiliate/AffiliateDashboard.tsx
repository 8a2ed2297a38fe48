import { useQuery } from '@tanstack/react-query';
import { Navigate } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import i18next from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { selectAffiliate, selectChecking } from '../../../machines/affiliate-session.ts';
import {
  linkEditorMachine,
  selectArchiving,
  selectCanCreate,
  selectCreateOpen,
  selectCreating,
  selectDraft,
  selectRenaming,
} from '../../../machines/link-editor.ts';
import { ApiError } from '../../api/errors.ts';
import { useClientConfig } from '../../app/hooks.ts';
import { queryClient, showErrorToast } from '../../app/services.ts';
import { Banner, Button, PageSpinner } from '../../ui/index.ts';
import * as styles from './affiliate.css.ts';
import { AffiliateHeader } from './AffiliateHeader.tsx';
import { affiliateKeys, affiliateLogin, refreshAffiliate, type AffiliateLink } from './requests.ts';
import { CommissionTiers } from './CommissionTiers.tsx';
import { ArchiveLinkDialog, CreateLinkDialog } from './LinkDialogs.tsx';
import { LinksTable } from './LinksTable.tsx';
import { Performance } from './Performance.tsx';
import { useAffiliateRequests, useAffiliateSelector, useAffiliateSession } from './session.tsx';
import { UsersDialog } from './UsersDialog.tsx';

/** §8: the server's detail, else the spec's text for the action. */
const announce = (fallback: 'errors.createLink' | 'errors.deleteLink') => (_: unknown, error: unknown) =>
  showErrorToast((error instanceof ApiError && error.message) || i18next.t(`affiliate:${fallback}`));

/** The links, with their dialogs and the link editor's actions. */
function ReferralLinks({ verified }: { verified: boolean }) {
  const { t } = useTranslation('affiliate');
  const requests = useAffiliateRequests();
  const publicUrl = useClientConfig()?.PUBLIC_URL || window.location.origin;
  const links = useQuery({
    queryKey: affiliateKeys.links,
    queryFn: () => requests.links(),
    meta: { affiliate: true, errorFallback: t('errors.loadLinks') },
  });
  const editor = useActorRef(
    linkEditorMachine.provide({
      actors: {
        createLink: fromPromise(({ input }) => requests.createLink(input)),
        renameLink: fromPromise(({ input }) => requests.renameLink(input.linkId, input.name)),
        archiveLink: fromPromise(({ input }) => requests.archiveLink(input.linkId)),
      },
      actions: {
        // The earnings count conversions too: everything of the affiliate is loaded again.
        refreshLinks: () => void refreshAffiliate(queryClient),
        announceCreateFailure: announce('errors.createLink'),
        announceArchiveFailure: announce('errors.deleteLink'),
        logRenameFailure: (_, error) => console.warn('the link was not renamed', error),
      },
    }),
  );
  const createOpen = useSelector(editor, selectCreateOpen);
  const creating = useSelector(editor, selectCreating);
  const canCreate = useSelector(editor, selectCanCreate);
  const draft = useSelector(editor, selectDraft);
  const renaming = useSelector(editor, selectRenaming);
  const archiving = useSelector(editor, selectArchiving);
  const [viewing, setViewing] = useState<AffiliateLink | null>(null);
  const list = links.data ?? [];

  return (
    <section className={styles.section} aria-labelledby="links-heading">
      <div className={styles.sectionHeader}>
        <h2 id="links-heading" className={styles.heading}>
          {t('dashboard.links')}
        </h2>
        {verified ? <Button onClick={() => editor.send({ type: 'CREATE' })}>{t('dashboard.createLink')}</Button> : null}
      </div>
      {links.isPending ? null : list.length === 0 ? (
        <div className={styles.empty}>
          <p>{t('dashboard.noLinks')}</p>
          {verified ? null : <p>{t('dashboard.needVerification')}</p>}
        </div>
      ) : (
        <LinksTable links={list} renaming={renaming} send={editor.send} onViewUsers={setViewing} />
      )}
      {createOpen ? (
        <CreateLinkDialog
          draft={draft}
          canCreate={canCreate}
          creating={creating}
          hostPrefix={`${publicUrl.replace(/^https?:\/\//, '').replace(/\/$/, '')}/`}
          send={editor.send}
        />
      ) : null}
      {archiving ? <ArchiveLinkDialog saving={archiving.saving} send={editor.send} /> : null}
      {viewing ? <UsersDialog link={viewing} onClose={() => setViewing(null)} /> : null}
    </section>
  );
}

/** /affiliate/dashboard (public-site spec §2): the signed-in affiliate's performance and links. */
export function AffiliateDashboard() {
  const { t } = useTranslation('affiliate');
  const session = useAffiliateSession();
  const checking = useAffiliateSelector(selectChecking);
  const affiliate = useAffiliateSelector(selectAffiliate);
  const supportEmail = useClientConfig()?.SUPPORT_EMAIL;
  if (checking) return <PageSpinner label={t('dashboard.loading')} />;
  if (!affiliate) return <Navigate to="/affiliate" replace />;
  // Spec §4: the review banner is for an unverified affiliate who has a stored affiliator id.
  const underReview = affiliate.status === 'pending' && affiliateLogin.affiliateId() !== null;
  const rejected = affiliate.status === 'rejected';
  return (
    <div className={styles.page}>
      <AffiliateHeader label={t('header.label')}>
        <Button tone="ghost" onClick={() => session.send({ type: 'LOG_OUT' })}>
          {t('header.logout')}
        </Button>
      </AffiliateHeader>
      {underReview ? <Banner label={t('dashboard.reviewLabel')} text={t('dashboard.review')} /> : null}
      {rejected ? <Banner label={t('dashboard.rejectedLabel')} text={t('dashboard.rejected')} /> : null}
      <main className={styles.main}>
        <Performance />
        <ReferralLinks verified={affiliate.is_verified} />
        <CommissionTiers />
      </main>
      <footer className={styles.footer}>
        <span>{t('footer.rights')}</span>
        {supportEmail ? (
          <span>
            {t('dashboard.contact')} <a href={`mailto:${supportEmail}`}>{supportEmail}</a>
          </span>
        ) : null}
      </footer>
    </div>
  );
}
