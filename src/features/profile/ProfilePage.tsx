import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../app/hooks.ts';
import { money } from '../../rules/usd.ts';
import { Avatar, Button, Spinner } from '../../ui/index.ts';
import { CreditsPanel } from './CreditsPanel.tsx';
import type { PaymentOutcome } from './payment-return.ts';
import { PaymentReturn } from './PaymentReturn.tsx';
import { ProfileForm } from './ProfileForm.tsx';
import * as styles from './profile.css.ts';
import {
  historyKeys,
  historyRequests,
  type ConversationGroup,
  type Transaction,
  type UsageBucket,
} from './requests.ts';

/** Totals with 2 decimals, rows with 4 (spec §2), in the reader's language. */
function useMoney() {
  const { i18n } = useTranslation();
  return {
    total: (dollars: number) => money.total(dollars, i18n.language),
    usage: (dollars: number) => money.usage(dollars, i18n.language),
  };
}

/** A row's amount as it moved the balance: spent −, credited +; a failed purchase moved nothing, so no sign. */
function signOf(row: Transaction): string {
  if (row.status === 'failed') return '';
  return row.transaction_type === 'usage' || row.transaction_type === 'debit' ? '−' : '+';
}

/**
 * A list that failed to load is logged and shown empty (spec §2): the rest of the page stays
 * usable, and the next visit asks again.
 */
function useHistory<T>(queryKey: readonly unknown[], load: (signal: AbortSignal) => Promise<T>, empty: T) {
  const query = useQuery({
    queryKey,
    queryFn: async ({ signal }) => {
      try {
        return await load(signal);
      } catch (error) {
        console.warn('billing history could not be loaded', error);
        return empty;
      }
    },
  });
  return { data: query.data ?? empty, loading: query.isPending };
}

function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  const { t } = useTranslation('auth');
  if (pages <= 1) return null;
  return (
    <div className={styles.pager}>
      <Button size="sm" tone="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('profile.previous')}
      </Button>
      <span className={styles.muted}>{t('profile.page', { page, pages })}</span>
      <Button size="sm" tone="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('profile.next')}
      </Button>
    </div>
  );
}

function Transactions({ rows, label }: { rows: readonly Transaction[]; label: string }) {
  const { t } = useTranslation('auth');
  const { usage } = useMoney();
  if (rows.length === 0) return <p className={styles.muted}>{t('profile.none')}</p>;
  return (
    <table className={styles.table} aria-label={label}>
      <thead>
        <tr>
          <th className={styles.cell}>{t('profile.date')}</th>
          <th className={styles.cell}>{t('profile.description')}</th>
          <th className={styles.cell}>{t('profile.status')}</th>
          <th className={styles.amount}>{t('profile.amount')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id}>
            <td className={styles.cell}>{new Date(row.created_at).toLocaleString()}</td>
            <td className={styles.cell}>{row.description}</td>
            <td className={`${styles.cell} ${styles.status[row.status]}`}>{t(`profile.statuses.${row.status}`)}</td>
            <td className={styles.amount}>
              {signOf(row)}
              {usage(row.amount)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One bucket of a conversation group; its first page came with the group, later pages are asked for. */
function Bucket(props: {
  conversationId: string;
  bucket: { category: 'llm' | 'droplet'; subcategory?: 'devops' | 'chat' };
  usage: UsageBucket;
  label: string;
}) {
  const { t } = useTranslation('auth');
  const { total } = useMoney();
  const [page, setPage] = useState(1);
  const key = `${props.bucket.category}/${props.bucket.subcategory ?? ''}`;
  const later = useHistory(
    historyKeys.category(props.conversationId, key, page),
    (signal) =>
      page === 1
        ? Promise.resolve(props.usage.transactions)
        : historyRequests
            .category(props.conversationId, props.bucket, page, signal)
            .then((found) => found.transactions),
    [] as Transaction[],
  );
  if (props.usage.count === 0) return null;
  return (
    <div className={styles.bucket}>
      <p className={styles.muted}>
        {t('profile.bucket', { name: props.label, count: props.usage.count, total: total(props.usage.total) })}
      </p>
      <Transactions rows={later.data} label={props.label} />
      <Pager page={page} pages={props.usage.total_pages} onPage={setPage} />
    </div>
  );
}

function Group({ group }: { group: ConversationGroup }) {
  const { t } = useTranslation('auth');
  const { total } = useMoney();
  return (
    <details className={styles.group}>
      <summary className={styles.groupSummary}>
        <span>{group.title ?? t('profile.deletedConversation')}</span>
        <span>{total(group.total_cost)}</span>
      </summary>
      <Bucket
        conversationId={group.conversation_id}
        bucket={{ category: 'droplet' }}
        usage={group.droplet_usage}
        label={t('profile.droplet')}
      />
      <p className={styles.muted}>{t('profile.llm', { total: total(group.llm_usage.total) })}</p>
      <Bucket
        conversationId={group.conversation_id}
        bucket={{ category: 'llm', subcategory: 'devops' }}
        usage={group.llm_usage.devops}
        label={t('profile.devops')}
      />
      <Bucket
        conversationId={group.conversation_id}
        bucket={{ category: 'llm', subcategory: 'chat' }}
        usage={group.llm_usage.chat}
        label={t('profile.chat')}
      />
    </details>
  );
}

/** /profile (spec §2): who the user is, the balance, and the billing history. */
export function ProfilePage({
  payment,
  setupSession = null,
  onPaymentSeen,
}: {
  /** The outcome of the hosted payment or card setup the browser returned from, if any. */
  payment?: PaymentOutcome | undefined;
  /** The setup session a card setup came back with: its card is kept. */
  setupSession?: string | null;
  onPaymentSeen: () => void;
}) {
  const { t } = useTranslation('auth');
  const user = useCurrentUser();
  const [groupPage, setGroupPage] = useState(1);
  const [otherPage, setOtherPage] = useState(1);
  const groups = useHistory(
    historyKeys.groups(groupPage),
    (signal) => historyRequests.conversationGroups(groupPage, signal),
    { conversation_groups: [], total_pages: 0 },
  );
  const other = useHistory(historyKeys.other(otherPage), (signal) => historyRequests.other(otherPage, signal), {
    transactions: [],
    total_pages: 0,
  });
  if (!user) return <Spinner label={t('profile.loading')} />;
  return (
    <div className={styles.page}>
      <h1 className={styles.heading}>{t('profile.title')}</h1>
      <div className={styles.identity}>
        <Avatar name={user.fullname || user.email} />
        <div className={styles.identityText}>
          <strong>{user.fullname}</strong>
          <span className={styles.muted}>{user.email}</span>
        </div>
      </div>
      <ProfileForm fullname={user.fullname} email={user.email} />
      {payment ? <PaymentReturn outcome={payment} setupSession={setupSession} onDismiss={onPaymentSeen} /> : null}
      <CreditsPanel />
      <section className={styles.section} aria-labelledby="profile-conversations">
        <h2 id="profile-conversations" className={styles.heading}>
          {t('profile.conversations')}
        </h2>
        {groups.loading ? <Spinner label={t('profile.loading')} /> : null}
        {!groups.loading && groups.data.conversation_groups.length === 0 ? (
          <p className={styles.muted}>{t('profile.none')}</p>
        ) : null}
        {groups.data.conversation_groups.map((group) => (
          <Group key={group.conversation_id} group={group} />
        ))}
        <Pager page={groupPage} pages={groups.data.total_pages} onPage={setGroupPage} />
      </section>
      <section className={styles.section} aria-labelledby="profile-other">
        <h2 id="profile-other" className={styles.heading}>
          {t('profile.other')}
        </h2>
        {other.loading ? (
          <Spinner label={t('profile.loading')} />
        ) : (
          <Transactions rows={other.data.transactions} label={t('profile.other')} />
        )}
        <Pager page={otherPage} pages={other.data.total_pages} onPage={setOtherPage} />
      </section>
    </div>
  );
}
