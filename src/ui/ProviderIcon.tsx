import * as styles from './provider-icon.css.ts';
import type { GitProvider } from '../../openapi/types.ts';

const PROVIDER_MARK: Record<GitProvider, string> = {
  github: 'M12 2a10 10 0 1 0 0 20a10 10 0 1 0 0-20z',
  gitlab: 'M12 21L3 12l3-9 3 7h6l3-7 3 9z',
  bitbucket: 'M3 4h18l-3 16H6z',
};

/**
 * A git host's mark beside a repository; `label` (the host's name) is the image's accessible name.
 * Without one the mark is decoration (the text beside it names the host).
 */
export function ProviderIcon({ provider, label }: { provider: GitProvider; label?: string }) {
  const named = label === undefined ? { 'aria-hidden': true } : { role: 'img', 'aria-label': label };
  return (
    <svg className={styles.icon} viewBox="0 0 24 24" {...named}>
      <path d={PROVIDER_MARK[provider]} />
    </svg>
  );
}
