import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors.ts';
import { GIT_PROVIDERS, type GitProvider } from '../../api/git-providers.ts';
import { useSettings } from '../../app/hooks.ts';
import { Button, ProviderIcon, SelectField, Spinner } from '../../ui/index.ts';
import { MicroagentContent, MicroagentEntry } from '../conversations/index.ts';
import { repositoryRequests } from '../home/index.ts';
import * as styles from './microagents.css.ts';
import { microagentQueryKeys, microagentRequests, refreshMicroagents } from './requests.ts';
import type { components } from '../../../openapi/schema.d.ts';

type RepositoryMicroagent = components['schemas']['RepositoryMicroagent'];

// The page shows its own messages for failed loads: no toast on top of them.
const INLINE_ERRORS = { disableToast: true } as const;

function MicroagentText(props: { provider: GitProvider; repository: string; path: string }) {
  const { t } = useTranslation('microagents');
  const content = useQuery({
    queryKey: microagentQueryKeys.content(props.provider, props.repository, props.path),
    queryFn: () => microagentRequests.content(props.provider, props.repository, props.path),
    meta: INLINE_ERRORS,
  });
  if (content.isPending) return <Spinner label={t('loadingContent')} />;
  if (content.isError) return <p role="alert">{errorText(content.error) || t('loadFailed')}</p>;
  return <MicroagentContent text={content.data.content} />;
}

/** A microagent whose content loads when it is first opened. */
function Microagent(props: { provider: GitProvider; repository: string; microagent: RepositoryMicroagent }) {
  const [opened, setOpened] = useState(false);
  const { microagent } = props;
  return (
    <MicroagentEntry {...microagent} onToggle={(open) => setOpened((was) => was || open)}>
      {opened ? (
        <MicroagentText provider={props.provider} repository={props.repository} path={microagent.path} />
      ) : null}
    </MicroagentEntry>
  );
}

function Microagents({ provider, repository }: { provider: GitProvider; repository: string }) {
  const { t } = useTranslation('microagents');
  const list = useQuery({
    queryKey: microagentQueryKeys.list(provider, repository),
    queryFn: () => microagentRequests.list(provider, repository),
    meta: INLINE_ERRORS,
  });
  if (list.isPending) return <Spinner label={t('loadingMicroagents')} />;
  if (list.isError) return <p role="alert">{errorText(list.error) || t('loadFailed')}</p>;
  if (list.data.length === 0) return <p className={styles.muted}>{t('none')}</p>;
  return list.data.map((microagent) => (
    <Microagent key={microagent.path} provider={provider} repository={repository} microagent={microagent} />
  ));
}

/** A repository, folded; its microagents load when it is first opened. */
function RepositoryItem({ provider, repository }: { provider: GitProvider; repository: string }) {
  const { t } = useTranslation('common');
  const [opened, setOpened] = useState(false);
  return (
    <li className={styles.repository}>
      <details
        onToggle={(event) => {
          const open = event.currentTarget.open;
          setOpened((was) => was || open);
        }}
      >
        <summary className={styles.repositoryName}>
          <ProviderIcon provider={provider} label={t(`gitProviders.${provider}`)} />
          {repository}
        </summary>
        <div className={styles.microagents}>
          {opened ? <Microagents provider={provider} repository={repository} /> : null}
        </div>
      </details>
    </li>
  );
}

function Repositories({ provider }: { provider: GitProvider }) {
  const { t } = useTranslation('microagents');
  const pages = useInfiniteQuery({
    queryKey: microagentQueryKeys.repositories(provider),
    queryFn: ({ pageParam }) => repositoryRequests(provider).page(pageParam),
    initialPageParam: 1,
    getNextPageParam: (last) => last.nextPage ?? undefined,
    meta: INLINE_ERRORS,
  });
  if (pages.isPending) return <Spinner label={t('loading')} />;
  if (pages.isError) return <p role="alert">{errorText(pages.error) || t('loadFailed')}</p>;
  const repositories = pages.data.pages.flatMap((page) => page.repositories);
  if (repositories.length === 0) return <p className={styles.muted}>{t('noRepositories')}</p>;
  return (
    <>
      <ul className={styles.list} aria-label={t('repositories')}>
        {repositories.map((repository) => (
          <RepositoryItem key={repository.id} provider={provider} repository={repository.full_name} />
        ))}
      </ul>
      {pages.hasNextPage ? (
        <Button tone="secondary" disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
          {t('more')}
        </Button>
      ) : null}
    </>
  );
}

/**
 * /microagent-management (spec §2, behind HIDE_MICROAGENT_MANAGEMENT): the repositories of a
 * connected git provider, each with its microagents (type, triggers, content), and Refresh.
 */
export function MicroagentManagementPage() {
  const { t } = useTranslation(['microagents', 'common']);
  const settings = useSettings();
  const queryClient = useQueryClient();
  const connected = GIT_PROVIDERS.filter((provider) => settings.data?.provider_tokens_set[provider]);
  const [chosen, setChosen] = useState<GitProvider | null>(null);
  const provider = chosen && connected.includes(chosen) ? chosen : (connected[0] ?? null);

  const body = () => {
    if (settings.isPending) return <Spinner label={t('loading')} />;
    if (!provider)
      return (
        <p className={styles.muted}>
          {t('noProvider')} <Link to="/settings/integrations">{t('connect')}</Link>
        </p>
      );
    return <Repositories key={provider} provider={provider} />;
  };

  return (
    <main className={styles.page}>
      <h1 className={styles.heading}>{t('title')}</h1>
      <p className={styles.muted}>{t('intro')}</p>
      <div className={styles.toolbar}>
        {connected.length > 1 && provider ? (
          <SelectField
            label={t('provider')}
            value={provider}
            options={connected.map((value) => ({ value, label: t(`common:gitProviders.${value}`) }))}
            onChange={(event) => setChosen(event.target.value as GitProvider)}
          />
        ) : null}
        <Button tone="secondary" disabled={!provider} onClick={() => void refreshMicroagents(queryClient)}>
          {t('refresh')}
        </Button>
      </div>
      {body()}
    </main>
  );
}
