import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import {
  selectCanLoadMore,
  selectFailure,
  selectLoading,
  selectLoadingMore,
  selectPicked,
  selectRepositories,
  type repositoryPickerMachine,
} from '../../../machines/repository-picker.ts';
import { errorText } from '../../api/errors.ts';
import { Button, ProviderIcon, Spinner } from '../../ui/index.ts';
import * as styles from './home.css.ts';
import type { GitProvider } from '../../api/git-providers.ts';

type PickerActor = ActorRefFrom<typeof repositoryPickerMachine>;

/**
 * The repository and branch pickers of the home page (a conversation starts on a repository): the user's repositories on the
 * chosen provider, page by page, a search as they type, then the picked repository's branches.
 */
export function RepositoryPicker(props: {
  picker: PickerActor;
  providers: readonly GitProvider[];
  provider: GitProvider;
  onProviderChange: (provider: GitProvider) => void;
}) {
  const { t } = useTranslation(['home', 'common']);
  const { picker } = props;
  const repositories = useSelector(picker, selectRepositories);
  const loading = useSelector(picker, selectLoading);
  const loadingMore = useSelector(picker, selectLoadingMore);
  const canLoadMore = useSelector(picker, selectCanLoadMore);
  const failure = useSelector(picker, selectFailure);
  const picked = useSelector(picker, selectPicked);
  const providerName = (provider: GitProvider) => t(`common:gitProviders.${provider}`);

  if (picked)
    return (
      <section className={styles.repository} aria-label={t('repository.label')}>
        <div className={styles.pickedRow}>
          <ProviderIcon
            provider={picked.repository.git_provider}
            label={providerName(picked.repository.git_provider)}
          />
          <strong>{picked.repository.full_name}</strong>
          <Button size="sm" tone="ghost" onClick={() => picker.send({ type: 'CLEAR' })}>
            {t('repository.change')}
          </Button>
        </div>
        {picked.loadingBranches ? <Spinner label={t('repository.loadingBranches')} /> : null}
        {picked.branches.length > 0 ? (
          <label className={styles.branchField}>
            <span>{t('repository.branch')}</span>
            <select
              value={picked.branch ?? ''}
              onChange={(event) => picker.send({ type: 'PICK_BRANCH', branch: event.target.value })}
            >
              {picked.branches.map((branch) => (
                <option key={branch.name} value={branch.name}>
                  {branch.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        {failure ? <Failure error={failure} onRetry={() => picker.send({ type: 'RETRY' })} /> : null}
      </section>
    );

  return (
    <section className={styles.repository} aria-label={t('repository.label')}>
      <div className={styles.pickedRow}>
        {props.providers.length > 1 ? (
          <select
            aria-label={t('repository.provider')}
            value={props.provider}
            onChange={(event) => props.onProviderChange(event.target.value as GitProvider)}
          >
            {props.providers.map((provider) => (
              <option key={provider} value={provider}>
                {providerName(provider)}
              </option>
            ))}
          </select>
        ) : null}
        <input
          type="search"
          className={styles.search}
          aria-label={t('repository.search')}
          placeholder={t('repository.searchPlaceholder', { provider: providerName(props.provider) })}
          onChange={(event) => picker.send({ type: 'TYPE', query: event.target.value })}
        />
      </div>
      {loading ? <Spinner label={t('repository.loading')} /> : null}
      {failure ? <Failure error={failure} onRetry={() => picker.send({ type: 'RETRY' })} /> : null}
      {!loading && !failure && repositories.length === 0 ? (
        <p className={styles.muted}>{t('repository.none')}</p>
      ) : null}
      <ul className={styles.repositoryList} aria-label={t('repository.list')}>
        {repositories.map((repository) => (
          <li key={`${repository.git_provider}:${repository.id}`}>
            <button
              type="button"
              className={styles.repositoryButton}
              onClick={() => picker.send({ type: 'PICK', repository })}
            >
              <ProviderIcon provider={repository.git_provider} label={providerName(repository.git_provider)} />
              <span>{repository.full_name}</span>
              {repository.is_public ? null : <span className={styles.muted}>{t('repository.private')}</span>}
            </button>
          </li>
        ))}
      </ul>
      {canLoadMore || loadingMore ? (
        <Button size="sm" tone="secondary" disabled={loadingMore} onClick={() => picker.send({ type: 'MORE' })}>
          {loadingMore ? t('repository.loading') : t('repository.more')}
        </Button>
      ) : null}
    </section>
  );
}

function Failure({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation('home');
  return (
    <div className={styles.pickedRow} role="alert">
      <span>{errorText(error)}</span>
      <Button size="sm" tone="secondary" onClick={onRetry}>
        {t('repository.retry')}
      </Button>
    </div>
  );
}
