import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import * as styles from './dialogs.css.ts';

/**
 * One microagent, folded: its name and type badge, open for its triggers and `children` (its
 * content). `onToggle` tells when it opens, for content loaded on demand.
 */
export function MicroagentEntry(props: {
  name: string;
  type: 'repo' | 'knowledge';
  triggers: readonly string[];
  children: ReactNode;
  onToggle?: (open: boolean) => void;
}) {
  const { t } = useTranslation('conversations');
  return (
    <details className={styles.item} onToggle={(event) => props.onToggle?.(event.currentTarget.open)}>
      <summary className={styles.itemName}>
        {props.name} <span className={styles.badge}>{t(`microagents.type.${props.type}`)}</span>
      </summary>
      {props.triggers.length > 0 ? (
        <p>
          {t('microagents.triggers')}: {props.triggers.join(', ')}
        </p>
      ) : null}
      {props.children}
    </details>
  );
}

/** A microagent's text as it is written. */
export function MicroagentContent({ text }: { text: string }) {
  return <pre className={styles.pre}>{text}</pre>;
}
