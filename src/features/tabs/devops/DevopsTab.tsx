import { useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import {
  devopsMachine,
  selectCanSend,
  selectEntries,
  selectInfraHourlyCost,
  selectIsBusy,
  selectIsComplete,
  selectProgress,
  type DevopsCallFailure,
  type DevopsEntry,
} from '../../../../machines/devops.ts';
import { enterKeyIntent } from '../../../../machines/chat-input.ts';
import { validateFiles, type UploadError } from '../../../../machines/upload.ts';
import { queryKeys } from '../../../api/queries.ts';
import { keepDraft, readDraft } from '../../../app/local-data.ts';
import { usd } from '../../../rules/usd.ts';
import { Button, Markdown, MessageTextarea, toast } from '../../../ui/index.ts';
import * as bubbles from '../../../ui/message-bubble.css.ts';
import { visuallyHidden } from '../../../styles/visually-hidden.css.ts';
import { isRuntimeReady } from '../runtime.ts';
import * as tabStyles from '../tabs.css.ts';
import * as styles from './devops.css.ts';
import { devopsRequests } from './requests.ts';
import type { Conversation } from '../../../../openapi/types.ts';

export interface DevopsTabProps {
  conversation: Conversation;
}

const now = () => new Date().toISOString();
/** The session's history: on opening, and for the progress while a message is answered. */
const readHistory = fromPromise(({ input }: { input: { sessionId: string } }) =>
  devopsRequests.history(input.sessionId),
);

/**
 * The DevOps agent's tab (spec §4): its session starts once the runtime is ready; messages go one
 * at a time, with text or attached files; failures show as the agent's messages; a complete
 * workflow disables the input. The machine (machines/devops.ts) decides; this view selects and sends.
 */
export function DevopsTab({ conversation }: DevopsTabProps) {
  const { t, i18n } = useTranslation(['tabs', 'chat']);
  const queryClient = useQueryClient();
  const conversationId = conversation.conversation_id;
  // Given once: `provide` builds the machine anew, too much for every render.
  const [logic] = useState(() =>
    devopsMachine.provide({
      actors: {
        loadHistory: readHistory,
        execute: fromPromise(async ({ input }) => {
          const reply = await devopsRequests.execute(input.sessionId, input.message);
          // A reply may have deployed or deleted something: the App menu and the dialog read again.
          void queryClient.invalidateQueries({ queryKey: queryKeys.conversation(conversationId, 'deployments') });
          return { ...reply, receivedAt: now() };
        }),
        uploadFiles: fromPromise(async ({ input }) => {
          const result = await devopsRequests.upload(conversationId, input.files as File[]);
          const uploaded = t('devops.uploaded', { names: result.uploaded_files.join(', ') });
          return input.text.trim() ? `${input.text.trim()}\n\n${uploaded}` : uploaded;
        }),
        readProgress: readHistory,
      },
      actions: { announceUploadFailure: () => toast.error(t('devops.uploadFailed')) },
    }),
  );
  const devops = useActorRef(logic, { input: { sessionId: conversationId } });
  const ready = isRuntimeReady(conversation);
  useEffect(() => {
    if (ready) devops.send({ type: 'RUNTIME_READY' });
  }, [ready, devops]);

  const entries = useSelector(devops, selectEntries);
  const busy = useSelector(devops, selectIsBusy);
  const canSend = useSelector(devops, selectCanSend);
  const complete = useSelector(devops, selectIsComplete);
  const hourlyCost = useSelector(devops, selectInfraHourlyCost);
  const progress = useSelector(devops, selectProgress);

  // The draft outlives a reload: kept as it is typed, forgotten once sent.
  const draftBox = `devops.${conversationId}`;
  const [text, setDraft] = useState(() => readDraft(draftBox));
  const setText = (value: string) => {
    setDraft(value);
    keepDraft(draftBox, value);
  };
  const [files, setFiles] = useState<File[]>([]);
  const [fileError, setFileError] = useState<UploadError | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Braces: Chromium's scrollIntoView may answer a promise, which an effect must not return.
    void end.current?.scrollIntoView?.({ block: 'end' });
  }, [entries.length, busy]);

  // The chat's upload rules (spec §5) on picked and dropped files; images go too (the agent may ship them).
  const attach = (picked: File[]) => {
    const checked = validateFiles([...files, ...picked]);
    if (!checked.ok) return setFileError(checked.error);
    setFileError(null);
    setFiles([...checked.files, ...checked.images]);
  };
  const send = () => {
    if (!canSend || (text.trim() === '' && files.length === 0)) return;
    devops.send({ type: 'SEND', text, files, at: now() });
    setText('');
    setFiles([]);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    if (canSend) attach([...event.dataTransfer.files]);
  };

  return (
    <section
      className={tabStyles.tab}
      aria-label={t('devops.title')}
      onDragOver={(e) => e.preventDefault()}
      onDrop={onDrop}
    >
      <div className={tabStyles.bar}>
        <strong>{t('devops.title')}</strong>
        <span className={styles.status}>{t('devops.hourlyCost', { cost: usd(hourlyCost, i18n.language, 2, 4) })}</span>
      </div>
      {!ready && <p className={tabStyles.message}>{t('devops.waitingForRuntime')}</p>}
      <div className={bubbles.messageList} role="log" aria-label={t('devops.messages')} tabIndex={0}>
        {entries.map((entry) => (
          <EntryView key={entryKey(entry)} entry={entry} />
        ))}
        {progress.map((line) => (
          <p key={line.id} className={styles.status}>
            {line.text}
          </p>
        ))}
        {busy && (
          <p className={styles.status} role="status">
            {t('devops.working')}
          </p>
        )}
        <div ref={end} />
      </div>
      {complete && (
        <p className={styles.banner} role="status">
          {t('devops.complete')}
        </p>
      )}
      {fileError && (
        <p className={tabStyles.errorText} role="alert">
          {t('chat:upload.error', {
            message: t(`chat:${fileError.key}`, 'params' in fileError ? fileError.params : {}),
          })}
        </p>
      )}
      {files.length > 0 && (
        <div className={styles.files}>
          {files.map((file) => (
            <Button
              key={file.name}
              size="sm"
              tone="secondary"
              aria-label={t('devops.removeFile', { name: file.name })}
              onClick={() => setFiles(files.filter((kept) => kept !== file))}
            >
              {file.name} ×
            </Button>
          ))}
        </div>
      )}
      <form
        className={styles.form}
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <input
          ref={fileInput}
          type="file"
          multiple
          className={styles.hiddenInput}
          tabIndex={-1}
          aria-hidden="true"
          onChange={(event) => {
            attach([...(event.target.files ?? [])]);
            event.target.value = '';
          }}
        />
        <Button tone="ghost" disabled={complete} onClick={() => fileInput.current?.click()}>
          {t('devops.attach')}
        </Button>
        <MessageTextarea
          value={text}
          disabled={complete}
          aria-label={t('devops.inputLabel')}
          placeholder={t(complete ? 'devops.completePlaceholder' : 'devops.placeholder')}
          onChange={(event) => setText(event.target.value)}
          onEnter={(key) => enterKeyIntent(key) === 'send' && (send(), true)}
        />
        <Button type="submit" disabled={!canSend || (text.trim() === '' && files.length === 0)}>
          {t('devops.send')}
        </Button>
      </form>
    </section>
  );
}

const entryKey = (entry: DevopsEntry) => (entry.kind === 'message' ? entry.message.id : entry.id);

function EntryView({ entry }: { entry: DevopsEntry }) {
  const { t } = useTranslation('tabs');
  if (entry.kind === 'failure') {
    const message = failureText(entry.reason, t);
    const key = { initialize: 'devops.failedInitialize', start: 'devops.failedStart', send: 'devops.error' } as const;
    return (
      <div className={bubbles.failureMessage}>
        <span className={visuallyHidden}>{t('devops.agentSaid')}</span>
        {t(key[entry.step], { message })}
      </div>
    );
  }
  const { message } = entry;
  if (message.sender === 'user')
    return (
      <div className={bubbles.userMessage}>
        <span className={visuallyHidden}>{t('devops.youSaid')}</span>
        {message.text}
      </div>
    );
  return (
    <div className={bubbles.agentMessage}>
      <span className={visuallyHidden}>{t('devops.agentSaid')}</span>
      <Markdown text={message.text} />
    </div>
  );
}

function failureText(reason: DevopsCallFailure, t: ReturnType<typeof useTranslation<'tabs'>>['t']): string {
  switch (reason.kind) {
    case 'methodNotAllowed':
      return t('devops.methodNotAllowed');
    case 'serverError':
      return t('devops.serverError', { message: reason.message ?? t('devops.internalServerError') });
    case 'server':
      return reason.text;
    case 'networkError':
      return t('devops.networkError');
  }
}
