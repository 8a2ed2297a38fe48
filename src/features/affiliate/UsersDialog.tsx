import { useQuery } from '@tanstack/react-query';
import { Tabs } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../ui/index.ts';
import * as styles from './affiliate.css.ts';
import { affiliateKeys, type AffiliateLink, type ReferredUser } from './requests.ts';
import { useAffiliateRequests } from './session.tsx';
import { dollars } from './tiers.ts';

type Kind = 'users' | 'affiliators';

/** One tab: who registered through the link. A failed load is an empty list, only logged (spec §8). */
function People({ link, kind }: { link: AffiliateLink; kind: Kind }) {
  const { t, i18n } = useTranslation('affiliate');
  const requests = useAffiliateRequests();
  const people = useQuery({
    queryKey: affiliateKeys.linkPeople(link.id, kind),
    queryFn: async (): Promise<ReferredUser[]> => {
      try {
        return await requests[kind](link.id);
      } catch (error) {
        console.warn(`the ${kind} of the link were not loaded`, error);
        return [];
      }
    },
    meta: { affiliate: true, disableToast: true },
  });
  if (people.isPending) return <p role="status">{t('users.loading')}</p>;
  const list = people.data ?? [];
  if (list.length === 0)
    return <p className={styles.empty}>{kind === 'users' ? t('users.noUsers') : t('users.noAffiliators')}</p>;
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  return (
    <div className={styles.tableWrap}>
      <table className={styles.peopleTable}>
        <thead>
          <tr>
            {(['name', 'email', 'joined', 'status'] as const).map((column) => (
              <th key={column} scope="col" className={styles.peopleCell}>
                {t(`users.${column}`)}
              </th>
            ))}
            <th scope="col" className={`${styles.peopleCell} ${styles.numeric}`}>
              {t('users.commission')}
            </th>
          </tr>
        </thead>
        <tbody>
          {list.map((person) => (
            <tr key={person.id}>
              <td className={styles.peopleCell}>{person.name}</td>
              <td className={styles.peopleCell}>{person.email}</td>
              <td className={styles.peopleCell}>{date.format(new Date(person.created_at))}</td>
              <td className={styles.peopleCell}>{person.status}</td>
              <td className={`${styles.peopleCell} ${styles.numeric}`}>{dollars(person.commission, i18n.language)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** 'Users' plus the link's name, with the 'Users' and 'Affiliators' tabs (spec §2). */
export function UsersDialog({ link, onClose }: { link: AffiliateLink; onClose: () => void }) {
  const { t } = useTranslation('affiliate');
  return (
    <Dialog
      open
      wide
      onOpenChange={(open) => !open && onClose()}
      title={t('users.title', { name: link.name })}
      description={t('users.description')}
      closeLabel={t('users.close')}
    >
      <Tabs.Root defaultValue="users">
        <Tabs.List className={styles.tabs} aria-label={t('users.title', { name: link.name })}>
          <Tabs.Trigger value="users" className={styles.tab}>
            {t('users.users')}
          </Tabs.Trigger>
          <Tabs.Trigger value="affiliators" className={styles.tab}>
            {t('users.affiliators')}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="users">
          <People link={link} kind="users" />
        </Tabs.Content>
        <Tabs.Content value="affiliators">
          <People link={link} kind="affiliators" />
        </Tabs.Content>
      </Tabs.Root>
    </Dialog>
  );
}
