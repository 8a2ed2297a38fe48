import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { GIT_PROVIDERS, type GitProvider } from '../../api/git-providers.ts';
import { useSettings } from '../../app/hooks.ts';
import { Button, Spinner, TextField } from '../../ui/index.ts';
import { ErrorAlert } from './ConfirmActionDialog.tsx';
import { gitRequests, settingsQueryKeys, useSaveSettings } from './requests.ts';
import * as styles from './settings.css.ts';

/** Whose account a saved token is on its provider, or why the provider refuses it. */
function AccountStatus({ provider }: { provider: GitProvider }) {
  const { t } = useTranslation('settings');
  const account = useQuery({
    queryKey: settingsQueryKeys.gitUser(provider),
    queryFn: ({ signal }) => gitRequests.user(provider, signal),
    retry: false,
    meta: { disableToast: true },
  });
  if (account.isPending) return <Spinner label={t('integrations.checking')} />;
  if (account.isError) return <ErrorAlert error={account.error} />;
  return <p role="status">{t('integrations.connectedAs', { login: account.data.login })}</p>;
}

/** One provider: its token (written, never shown) and host, saved or removed. */
function ProviderCard({ provider, connected }: { provider: GitProvider; connected: boolean }) {
  const { t } = useTranslation(['settings', 'common']);
  const name = t(`common:gitProviders.${provider}`);
  const [token, setToken] = useState('');
  const [host, setHost] = useState('');
  const save = useSaveSettings(() => setToken(''));
  const saveToken = (input: { token: string | null; host: string | null }) =>
    save.mutate({ provider_tokens: { [provider]: input } });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (token.trim() && !save.isPending) saveToken({ token: token.trim(), host: host.trim() || null });
  };
  return (
    <form className={styles.card} onSubmit={submit} aria-labelledby={`${provider}-heading`}>
      <h3 id={`${provider}-heading`} className={styles.sectionHeading}>
        {name}
      </h3>
      {connected ? (
        <AccountStatus provider={provider} />
      ) : (
        <p className={styles.muted}>{t('integrations.notConnected')}</p>
      )}
      <TextField
        type="password"
        autoComplete="off"
        label={t('integrations.token', { provider: name })}
        placeholder={connected ? t('integrations.tokenSaved') : ''}
        value={token}
        onChange={(event) => setToken(event.target.value)}
      />
      <TextField
        label={t('integrations.host')}
        hint={t(`integrations.hostHint.${provider}`)}
        value={host}
        onChange={(event) => setHost(event.target.value)}
      />
      {save.isError ? <ErrorAlert error={save.error} /> : null}
      <div className={styles.actions}>
        <Button type="submit" disabled={!token.trim() || save.isPending}>
          {save.isPending ? t('integrations.saving') : t('integrations.save', { provider: name })}
        </Button>
        {connected ? (
          <Button tone="secondary" disabled={save.isPending} onClick={() => saveToken({ token: null, host: null })}>
            {t('integrations.disconnect', { provider: name })}
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/** Settings → Integrations: a token (and a host for self-hosted instances) per git provider. */
export function IntegrationsTab() {
  const { t } = useTranslation('settings');
  const settings = useSettings();
  const saved = settings.data?.provider_tokens_set;
  return (
    <section className={styles.section} aria-labelledby="integrations-heading">
      <h2 id="integrations-heading" className={styles.sectionHeading}>
        {t('integrations.heading')}
      </h2>
      <p className={styles.muted}>{t('integrations.intro')}</p>
      {settings.isPending ? <Spinner label={t('loading')} /> : null}
      {GIT_PROVIDERS.map((provider) => (
        <ProviderCard key={provider} provider={provider} connected={saved?.[provider] ?? false} />
      ))}
    </section>
  );
}
