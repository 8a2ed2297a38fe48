import { createContext, memo, Suspense, useContext, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { useTranslation } from 'react-i18next';
import { Button, lazyRetrying } from '../../ui/index.ts';
import { visuallyHidden } from '../../styles/visually-hidden.css.ts';
import * as styles from './chat.css.ts';
import { Markdown } from '../../ui/index.ts';
import { ModelSetupButton } from './ModelSetupButton.tsx';
import type { ConversationStream } from '../../realtime/types.ts';
import { agentErrorKey } from './rules/agent-errors.ts';
import { editableText, forkPoint, type ChatRow } from './rules/chat-rows.ts';
import {
  commandTitle,
  observationResult,
  shownExitCode,
  truncateRunOutput,
  truncateText,
  type ResultStatus,
} from '../../rules/event-display.ts';
import type { LaunchTask } from '../../../machines/microagent-launch.ts';
import type { Event } from '../../../openapi/types.ts';

// The fork tools load when a row is first pointed at or focused, the edit form when a message is first edited.
const ForkTools = lazyRetrying(() => import('./ForkTools.tsx').then((module) => ({ default: module.ForkTools })));
const EditForm = lazyRetrying(() => import('./EditForm.tsx').then((module) => ({ default: module.EditForm })));
// The star ratings (hosted service, the last agent messages) load after the chat itself.
const FeedbackStars = lazyRetrying(() =>
  import('./FeedbackStars.tsx').then((module) => ({ default: module.FeedbackStars })),
);

export interface EventRowProps {
  row: ChatRow;
  /** Confirm and reject go on the last agent row while the agent awaits confirmation. */
  confirmation: { onConfirm: () => void; onReject: () => void } | null;
  /** Star ratings (saas only) on agent messages among the last events. */
  feedback: { stream: ConversationStream } | null;
  /** 'Remember in a microagent' on agent rows, and the row's launch task if there is one. */
  memory: { onRemember: (eventId: number) => void; task: LaunchTask | null } | null;
  /** 'Fork from here' and 'Edit and retry'; null where the conversation cannot be forked. */
  fork: RowFork | null;
}

export interface RowFork {
  onFork: (eventId: number) => void;
  onEdit: (eventId: number, text: string) => void;
  /** A fork is being made: the buttons wait. */
  busy: boolean;
  /** The edit form, on the row of the message being edited. */
  edit: { draft: string; onChange: (text: string) => void; onSend: () => void; onCancel: () => void } | null;
}

type ChatText = ReturnType<typeof useTranslation<'chat'>>['t'];
// react-i18next copies the i18next instance for each component that mounts with useTranslation,
// about a fifth of a new row's render: a row's parts take the message list's `t` from here instead.
const RowText = createContext<ChatText | null>(null);
/** Gives the rows inside it the chat's texts (the list's own `t`, which changes with the language). */
export const RowTextProvider = RowText.Provider;
function useRowText(): ChatText {
  const t = useContext(RowText);
  if (t === null) throw new Error('a chat row is rendered outside a RowTextProvider');
  return t;
}

/** A message's attached images: data URLs only (the server takes no others; a link stored before that stays unloaded). */
function Images({ urls, output = false }: { urls: readonly string[] | null | undefined; output?: boolean }) {
  const t = useRowText();
  const images = urls?.filter((url) => url.startsWith('data:image/')) ?? [];
  if (images.length === 0) return null;
  return (
    <div className={styles.images}>
      {images.map((url, index) => (
        <img
          key={url}
          src={url}
          alt={t(output ? 'events.outputImage' : 'events.image', { number: index + 1 })}
          className={output ? styles.outputImage : styles.thumbnail}
        />
      ))}
    </div>
  );
}

const RESULT_ICONS: Record<ResultStatus, string> = { success: '✓', error: '✗', timeout: '⏱', rejected: '⊘' };

function ResultIcon({ status }: { status: ResultStatus }) {
  const t = useRowText();
  return (
    <span role="img" aria-label={t(`events.result.${status}`)} className={styles.result[status]}>
      {RESULT_ICONS[status]}
    </span>
  );
}

/**
 * Output text as the rules cut it: run output keeps both ends with a note between them, other
 * text its first 1,000 characters. The whole of it (as the event holds it: the server keeps
 * 30,000 characters of a command's output) shows on demand.
 */
function Output({ text, run }: { text: string; run: boolean }) {
  const t = useRowText();
  const [whole, setWhole] = useState(false);
  if (text.trim() === '') return <p className={styles.cutNote}>{t('events.noOutput')}</p>;
  const cut = run ? truncateRunOutput(text) : { ...truncateText(text), head: '', tail: '' };
  const toggle = cut.cut > 0 && (
    <Button size="sm" tone="link" aria-expanded={whole} onClick={() => setWhole(!whole)}>
      {whole ? t('events.showLessOutput') : t('events.showFullOutput', { count: text.length })}
    </Button>
  );
  if (whole || cut.cut === 0)
    return (
      <>
        <pre className={styles.output}>{text}</pre>
        {toggle}
      </>
    );
  return (
    <>
      {run ? (
        <pre className={styles.output}>
          {cut.head}
          <span className={styles.cutNote}>{t('events.outputCut', { count: cut.cut })}</span>
          {cut.tail}
        </pre>
      ) : (
        <pre className={styles.output}>{cut.text}</pre>
      )}
      {toggle}
    </>
  );
}

function Screenshot({ event }: { event: Event | null }) {
  const t = useRowText();
  const screenshot = event?.extras?.screenshot;
  if (!screenshot) return null;
  return (
    <img
      src={screenshot}
      alt={t('events.screenshot', { url: event.extras?.url ?? '' })}
      className={styles.screenshot}
    />
  );
}

/** A step of the agent: a collapsible title with its result icon and facts; the details hold the command, code, diff or output. */
function Step({
  title,
  status,
  facts = [],
  children,
}: {
  title: string;
  status: ResultStatus | null;
  facts?: readonly string[];
  children: ReactNode;
}) {
  return (
    <details className={styles.step}>
      <summary className={styles.stepSummary}>
        {status && <ResultIcon status={status} />}
        <span className={styles.stepTitle}>{title}</span>
        {facts.map((fact) => (
          <span key={fact} className={styles.stepFact}>
            {fact}
          </span>
        ))}
      </summary>
      {children}
    </details>
  );
}

/** Each step's title as done (`events.*`) and as proposed while it awaits the user (`events.proposed.*`). */
function stepTitle(t: ChatText, event: Event, proposed: boolean): string {
  const args = event.args ?? {};
  const key = (name: string) => (proposed ? `events.proposed.${name}` : `events.${name}`) as 'events.ranCommand';
  switch (event.action) {
    case 'run':
      return t(key('ranCommand'), { command: commandTitle(args.command ?? '') });
    case 'run_ipython':
      return t(key('ranPython'));
    case 'edit':
    case 'write':
      return t(key('edited'), { path: args.path ?? '' });
    case 'read':
      return t(key('read'), { path: args.path ?? '' });
    case 'browse':
      return t(key('browsed'), { url: args.url ?? '' });
    case 'browse_interactive':
      return t(key('browsing'));
    case 'call_tool_mcp':
      return t(key('calledTool'), { name: args.name ?? '' });
    case 'delegate':
      return t(key('delegated'));
    default:
      return t('events.thought');
  }
}

/** Only medium and high risks are pointed out on a step; unknown and low are the usual case. */
const RISK_LEVELS = { [-1]: null, 0: null, 1: 'medium', 2: 'high' } as const;

/**
 * The risk a step shows: high always; medium only where the user decides (confirmation), since
 * models rate most workspace edits medium and a badge on every edit says nothing.
 */
function shownRisk(level: number | undefined, confirming: boolean): 'medium' | 'high' | null {
  const risk = level === undefined ? null : (RISK_LEVELS[level as keyof typeof RISK_LEVELS] ?? null);
  return risk === 'high' || (risk === 'medium' && confirming) ? risk : null;
}

function ActionRow({
  action,
  observation,
  decision,
}: {
  action: Event;
  observation: Event | null;
  decision: Event | null;
}) {
  const t = useRowText();
  const args = action.args ?? {};
  const confirmation = decision?.args?.confirmation_state ?? args.confirmation_state;
  if (action.action === 'finish')
    return <AgentBubble text={args.final_thought || args.thought || action.message || ''} />;
  if (action.action === 'reject')
    return <AgentBubble text={[t('events.rejected'), args.reason].filter(Boolean).join('\n\n')} />;
  if (action.action === 'think') {
    return (
      <Step title={t('events.thought')} status={null}>
        <Markdown text={args.thought ?? ''} />
      </Step>
    );
  }
  const status = observation ? observationResult(observation) : null;
  const content = observation?.content ?? '';
  const body = (() => {
    switch (action.action) {
      case 'run':
        return (
          <>
            <pre className={styles.output}>{truncateText(args.command ?? '').text}</pre>
            {observation && <Output text={content} run />}
          </>
        );
      case 'run_ipython':
        return (
          <>
            <pre className={styles.output}>{truncateText(args.code ?? '').text}</pre>
            {observation && <Output text={content} run />}
            <Images urls={observation?.extras?.image_urls} output />
          </>
        );
      case 'edit':
      case 'write':
        return observation && <Output text={observation.extras?.diff || content} run={false} />;
      case 'browse':
      case 'browse_interactive':
        return (
          <>
            {args.browser_actions && <pre className={styles.output}>{truncateText(args.browser_actions).text}</pre>}
            <Screenshot event={observation} />
          </>
        );
      case 'call_tool_mcp':
        return (
          <>
            <pre className={styles.output}>{truncateText(JSON.stringify(args.arguments ?? {}, null, 2)).text}</pre>
            {observation && <Output text={content} run={false} />}
          </>
        );
      default:
        return observation && <Output text={content} run={false} />;
    }
  })();
  const risk = shownRisk(args.security_risk, confirmation !== undefined);
  const exitCode = shownExitCode(observation);
  const facts = [
    ...(exitCode !== null ? [t('events.exitCode', { code: exitCode })] : []),
    ...(risk ? [t('events.securityRisk', { level: t(`events.risk.${risk}`) })] : []),
    ...(confirmation ? [t(`events.confirmation.${confirmation}`)] : []),
  ];
  // Not run yet: a step that awaits the user, or was rejected, reads as proposed ("Run ls"), not done.
  const proposed = observation === null ? confirmation !== undefined : observation.observation === 'user_rejected';
  return (
    <div>
      {args.thought && <Markdown text={args.thought} />}
      <Step title={stepTitle(t, action, proposed)} status={status} facts={facts}>
        {body}
      </Step>
    </div>
  );
}

function AgentBubble({ text, images }: { text: string; images?: readonly string[] | null }) {
  const t = useRowText();
  return (
    <div className={styles.bubble.agent}>
      <span className={visuallyHidden}>{t('events.agent')}</span>
      <Markdown text={text} />
      <Images urls={images} />
    </div>
  );
}

function ErrorBlock({ title, detail }: { title: string; detail: string }) {
  const t = useRowText();
  return (
    <div role="alert" className={styles.errorBlock}>
      <p>{title}</p>
      {detail.trim() !== '' && (
        <details>
          <summary>{t('events.details')}</summary>
          <pre className={styles.output}>{truncateText(detail).text}</pre>
        </details>
      )}
    </div>
  );
}

function RecallRow({ event }: { event: Event }) {
  const t = useRowText();
  const extras = event.extras ?? {};
  const hosts = Object.keys(extras.runtime_hosts ?? {});
  return (
    <details className={styles.step}>
      <summary className={styles.stepSummary}>
        {extras.recall_type === 'knowledge' ? t('events.knowledge') : t('events.workspaceContext')}
      </summary>
      {extras.repo_name && <p>{t('events.repository', { name: extras.repo_name })}</p>}
      {extras.date && <p>{t('events.date', { date: extras.date })}</p>}
      {hosts.length > 0 && <p>{t('events.hosts', { hosts: hosts.join(', ') })}</p>}
      {extras.repo_instructions && (
        <>
          <p>{t('events.instructions')}</p>
          <pre className={styles.output}>{truncateText(extras.repo_instructions).text}</pre>
        </>
      )}
      {(extras.microagent_knowledge ?? []).map((knowledge) => (
        <div key={knowledge.name}>
          <p>
            <strong>{knowledge.name}</strong> ({knowledge.trigger})
          </p>
          <pre className={styles.output}>{truncateText(knowledge.content).text}</pre>
        </div>
      ))}
    </details>
  );
}

function ObservationRow({ event }: { event: Event }) {
  const t = useRowText();
  switch (event.observation) {
    case 'error': {
      const key = agentErrorKey(event.extras?.error_id);
      return <ErrorBlock title={key ? t(key) : t('events.agentError')} detail={event.content ?? event.message ?? ''} />;
    }
    case 'recall':
      return <RecallRow event={event} />;
    case 'user_rejected':
      return <p className={styles.centred}>{t('events.userRejected')}</p>;
    case 'chat':
      return <AgentBubble text={event.content ?? event.message ?? ''} />;
    default:
      return (
        <Step title={event.message ?? event.observation ?? ''} status={observationResult(event)}>
          <Output text={event.content ?? ''} run={event.observation === 'run' || event.observation === 'run_ipython'} />
          <Screenshot event={event} />
        </Step>
      );
  }
}

function RowContent({ row }: { row: ChatRow }) {
  const t = useRowText();
  switch (row.kind) {
    case 'pending':
      return (
        <div className={`${styles.bubble.user} ${styles.pending}`}>
          <span className={visuallyHidden}>{t('events.pending')}</span>
          <Markdown text={row.message.content} />
        </div>
      );
    case 'message': {
      const text = row.event.args?.content ?? row.event.message ?? '';
      if (row.event.source === 'user') {
        return (
          <div className={styles.bubble.user}>
            <span className={visuallyHidden}>{t('events.you')}</span>
            <Markdown text={text} />
            <Images urls={row.event.args?.image_urls} />
          </div>
        );
      }
      return <AgentBubble text={text} images={row.event.args?.image_urls} />;
    }
    case 'action':
      return <ActionRow action={row.event} observation={row.observation} decision={row.decision} />;
    case 'observation':
      return <ObservationRow event={row.event} />;
    case 'agentStateError':
      return <ErrorBlock title={row.event.extras?.reason?.trim() || t('agent.unknownError')} detail="" />;
    case 'statusError': {
      const key = agentErrorKey(row.event.status_id);
      return (
        <>
          <ErrorBlock
            title={key ? t(key) : row.event.message || t('events.error')}
            detail={key ? (row.event.message ?? '') : ''}
          />
          {row.event.status_id === 'STATUS$ERROR_LLM_NOT_CONFIGURED' ? <ModelSetupButton /> : null}
        </>
      );
    }
  }
}

/** Rows whose agent text can be rated. */
const isRatableRow = (row: ChatRow) =>
  row.kind !== 'pending' &&
  row.event.source === 'agent' &&
  (row.kind === 'message' || (row.kind === 'action' && row.event.action === 'finish'));

/** One row of the chat; memoised, so it renders again only when its own row, buttons or feedback change. */
function LaunchTaskStatus({ task }: { task: LaunchTask }) {
  const t = useRowText();
  return (
    <p className={styles.launchTask} role="status">
      {t(`microagentLaunch.task.${task.status}`)}
      {task.prUrl ? (
        <a href={task.prUrl} target="_blank" rel="noreferrer">
          {t('microagentLaunch.task.pullRequest')}
        </a>
      ) : null}
    </p>
  );
}

export const EventRow = memo(function EventRow({ row, confirmation, feedback, memory, fork }: EventRowProps) {
  const t = useRowText();
  const at = forkPoint(row);
  const text = editableText(row);
  const forkable = fork !== null && at !== null;
  // The tools render once the row is first pointed at or focused: appending a row renders no menu.
  const [toolsWanted, wantTools] = useState(false);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!forkable || event.target !== event.currentTarget || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === 'f' && !fork.busy) fork.onFork(at);
    else if (event.key === 'e' && text !== null && !fork.busy) fork.onEdit(at, text);
    else return;
    event.preventDefault();
  };
  return (
    <div
      className={styles.row}
      {...(forkable && {
        tabIndex: 0,
        'aria-keyshortcuts': text === null ? 'F' : 'F E',
        onKeyDown,
        onPointerEnter: () => wantTools(true),
        onFocus: () => wantTools(true),
      })}
    >
      {fork?.edit ? (
        <Suspense fallback={<RowContent row={row} />}>
          <EditForm edit={fork.edit} busy={fork.busy} />
        </Suspense>
      ) : (
        <RowContent row={row} />
      )}
      {forkable && toolsWanted && !fork.edit ? (
        <Suspense fallback={null}>
          <ForkTools fork={fork} at={at} text={text} />
        </Suspense>
      ) : null}
      {confirmation && (
        <div className={styles.rowActions}>
          <Button size="sm" onClick={confirmation.onConfirm}>
            {t('agent.confirm')}
          </Button>
          <Button size="sm" tone="secondary" onClick={confirmation.onReject}>
            {t('agent.reject')}
          </Button>
        </div>
      )}
      {feedback && row.kind !== 'pending' && isRatableRow(row) && (
        <Suspense fallback={null}>
          <FeedbackStars stream={feedback.stream} eventId={row.id} />
        </Suspense>
      )}
      {memory && row.kind !== 'pending' && isRatableRow(row) ? (
        <div className={styles.rowActions}>
          <Button size="sm" tone="ghost" onClick={() => memory.onRemember(row.id)}>
            {t('microagentLaunch.remember')}
          </Button>
        </div>
      ) : null}
      {memory?.task ? <LaunchTaskStatus task={memory.task} /> : null}
    </div>
  );
});
