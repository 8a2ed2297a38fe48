import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Tabs } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import { money } from '../../rules/usd.ts';
import { errorText } from '../../api/errors.ts';
import { Button, ConfirmDialog, Dialog, Spinner } from '../../ui/index.ts';
import * as styles from './dialogs.css.ts';
import { useConversationChanges } from './changes.ts';
import { MicroagentContent, MicroagentEntry } from './MicroagentEntry.tsx';
import { forksQuery, microagentsQuery, trajectoryQuery } from './queries.ts';
import { budgetUse, contextUse, latestMetricsOf, systemMessageOf, toolParameters } from './rules.ts';
import type { Conversation } from '../../../openapi/types.ts';

export type ConversationDialog = {
  kind: 'delete' | 'stop' | 'metrics' | 'system' | 'microagents' | 'forks';
  conversation: Conversation;
};

interface DialogProps {
  conversation: Conversation;
  onClose: () => void;
}

/** The dialog a conversation's menu opened, if any. */
export function ConversationDialogs({ dialog, onClose }: { dialog: ConversationDialog | null; onClose: () => void }) {
  if (dialog === null) return null;
  const props = { conversation: dialog.conversation, onClose };
  switch (dialog.kind) {
    case 'delete':
    case 'stop':
      return <ConfirmChangeDialog kind={dialog.kind} {...props} />;
    case 'metrics':
      return <MetricsDialog {...props} />;
    case 'system':
      return <SystemMessageDialog {...props} />;
    case 'microagents':
      return <MicroagentsDialog {...props} />;
    case 'forks':
      return <ForksDialog {...props} />;
  }
}

function useDialogFrame(onClose: () => void) {
  const { t } = useTranslation(['conversations', 'common']);
  return {
    t,
    frame: { open: true, onOpenChange: (open: boolean) => !open && onClose(), closeLabel: t('common:dialog.close') },
  };
}

/** Asks before deleting or stopping a conversation (spec §2's delete and stop confirmations). */
function ConfirmChangeDialog({ kind, conversation, onClose }: DialogProps & { kind: 'delete' | 'stop' }) {
  const { t, frame } = useDialogFrame(onClose);
  const change = useConversationChanges();
  const confirm = () => {
    change({ kind, conversationId: conversation.conversation_id });
    onClose();
  };
  return (
    <ConfirmDialog
      title={t(`${kind}.title`)}
      description={t(`${kind}.description`)}
      confirmLabel={t(`${kind}.confirm`)}
      cancelLabel={t(`${kind}.cancel`)}
      closeLabel={frame.closeLabel}
      onConfirm={confirm}
      onCancel={onClose}
    >
      <p>{t(`${kind}.body`)}</p>
    </ConfirmDialog>
  );
}

function MetricsDialog({ conversation, onClose }: DialogProps) {
  const { t, frame } = useDialogFrame(onClose);
  const { i18n } = useTranslation();
  const trajectory = useQuery(trajectoryQuery(conversation.conversation_id));
  const metrics = trajectory.data ? latestMetricsOf(trajectory.data) : null;
  const content = () => {
    if (trajectory.isPending) return <Spinner label={t('metrics.title')} />;
    if (trajectory.isError) return <p role="alert">{errorText(trajectory.error) || t('metrics.loadFailed')}</p>;
    if (metrics === null) return <p>{t('metrics.none')}</p>;
    const usage = metrics.accumulated_token_usage;
    const rows: [string, string][] = [
      [t('metrics.totalCost'), money.usage(metrics.accumulated_cost, i18n.language)],
      ...(metrics.max_budget_per_task === null
        ? []
        : [[t('metrics.budget'), money.usage(metrics.max_budget_per_task, i18n.language)] as [string, string]]),
      [t('metrics.promptTokens'), usage.prompt_tokens.toLocaleString()],
      [t('metrics.completionTokens'), usage.completion_tokens.toLocaleString()],
      [t('metrics.cacheReadTokens'), usage.cache_read_tokens.toLocaleString()],
      [t('metrics.cacheWriteTokens'), usage.cache_write_tokens.toLocaleString()],
      [t('metrics.contextWindow'), usage.context_window.toLocaleString()],
    ];
    const budget = budgetUse(metrics);
    const context = contextUse(metrics);
    return (
      <>
        {budget ? <UsageBar label={t('metrics.budgetUsed')} percent={budget.percent} warning={budget.warning} /> : null}
        {context === null ? null : <UsageBar label={t('metrics.contextUsed')} percent={context} warning={false} />}
        <dl className={styles.facts}>
          {rows.map(([label, value]) => (
            <div key={label} className={styles.fact}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </>
    );
  };
  return (
    <Dialog {...frame} title={t('metrics.title')} description={t('metrics.description')}>
      {content()}
    </Dialog>
  );
}

/** A labelled bar of how much of something is used; red when `warning`. */
function UsageBar({ label, percent, warning }: { label: string; percent: number; warning: boolean }) {
  const rounded = Math.round(percent);
  return (
    <div className={styles.usage}>
      <span>
        {label}: {rounded}%
      </span>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={rounded}
        className={styles.usageTrack}
      >
        <div className={warning ? styles.usageFillWarning : styles.usageFill} style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

function SystemMessageDialog({ conversation, onClose }: DialogProps) {
  const { t, frame } = useDialogFrame(onClose);
  const trajectory = useQuery(trajectoryQuery(conversation.conversation_id));
  const system = trajectory.data ? systemMessageOf(trajectory.data) : null;
  const content = () => {
    if (trajectory.isPending) return <Spinner label={t('system.title')} />;
    if (trajectory.isError) return <p role="alert">{errorText(trajectory.error) || t('system.loadFailed')}</p>;
    if (system === null) return <p>{t('system.none')}</p>;
    return (
      <Tabs.Root defaultValue="system">
        <Tabs.List className={styles.tabList} aria-label={t('system.title')}>
          <Tabs.Trigger className={styles.tab} value="system">
            {t('system.systemTab')}
          </Tabs.Trigger>
          <Tabs.Trigger className={styles.tab} value="tools">
            {t('system.toolsTab')}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="system" className={styles.tabPanel}>
          {system.agentClass ? <p>{t('system.agent', { agent: system.agentClass })}</p> : null}
          {system.version ? <p>{t('system.version', { version: system.version })}</p> : null}
          <pre className={styles.pre}>{system.content}</pre>
        </Tabs.Content>
        <Tabs.Content value="tools" className={styles.tabPanel}>
          {system.tools.length === 0 ? <p>{t('system.noTools')}</p> : null}
          {system.tools.map((tool) => (
            <details key={tool.name} className={styles.item}>
              <summary className={styles.itemName}>{tool.name}</summary>
              <p>{tool.description}</p>
              <h4 className={styles.subheading}>{t('system.parameters')}</h4>
              <ul>
                {toolParameters(tool).map((parameter) => (
                  <li key={parameter.name}>
                    <code>{parameter.name}</code>
                    {parameter.required ? ` (${t('system.required')})` : ''} {parameter.description}
                  </li>
                ))}
              </ul>
            </details>
          ))}
        </Tabs.Content>
      </Tabs.Root>
    );
  };
  return (
    <Dialog {...frame} title={t('system.title')} description={t('system.description')}>
      <div className={styles.scroll}>{content()}</div>
    </Dialog>
  );
}

function MicroagentsDialog({ conversation, onClose }: DialogProps) {
  const { t, frame } = useDialogFrame(onClose);
  const microagents = useQuery(microagentsQuery(conversation.conversation_id));
  const content = () => {
    if (microagents.isPending) return <Spinner label={t('microagents.title')} />;
    if (microagents.isError) return <p role="alert">{errorText(microagents.error) || t('microagents.loadFailed')}</p>;
    if (microagents.data.length === 0) return <p>{t('microagents.none')}</p>;
    return microagents.data.map((microagent) => (
      <MicroagentEntry key={microagent.name} {...microagent}>
        <MicroagentContent text={microagent.content} />
      </MicroagentEntry>
    ));
  };
  return (
    <Dialog {...frame} title={t('microagents.title')} description={t('microagents.description')}>
      <div className={styles.buttons}>
        <Button tone="secondary" size="sm" onClick={() => void microagents.refetch()} disabled={microagents.isFetching}>
          {t('microagents.refresh')}
        </Button>
      </div>
      <div className={styles.scroll}>{content()}</div>
    </Dialog>
  );
}

/** The conversations forked from this one, each a link to it. */
function ForksDialog({ conversation, onClose }: DialogProps) {
  const { t, frame } = useDialogFrame(onClose);
  const forks = useQuery(forksQuery(conversation.conversation_id));
  const content = () => {
    if (forks.isPending) return <Spinner label={t('forks.title')} />;
    if (forks.isError) return <p role="alert">{errorText(forks.error) || t('forks.loadFailed')}</p>;
    if (forks.data.length === 0) return <p>{t('forks.none')}</p>;
    return (
      <ul className={styles.forks}>
        {forks.data.map((fork) => (
          <li key={fork.conversation_id}>
            <Link
              to="/experiment/conversations/$conversationId"
              params={{ conversationId: fork.conversation_id }}
              onClick={onClose}
            >
              {t('forks.atMessage', { title: fork.title, number: fork.forked_from?.event_id ?? 0 })}
            </Link>
          </li>
        ))}
      </ul>
    );
  };
  return (
    <Dialog {...frame} title={t('forks.title')} description={t('forks.description')}>
      {content()}
    </Dialog>
  );
}
