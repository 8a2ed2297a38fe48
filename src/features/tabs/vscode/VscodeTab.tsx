import { useQuery } from '@tanstack/react-query';
import { useBlocker } from '@tanstack/react-router';
import { useCallback, useReducer, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors.ts';
import type { ConversationStream } from '../../../realtime/types.ts';
import { visuallyHidden } from '../../../styles/visually-hidden.css.ts';
import { Button, ConfirmDialog, Spinner, toast } from '../../../ui/index.ts';
import { listFilesQuery, vscodeUrlQuery } from '../queries.ts';
import { tabRequests } from '../requests.ts';
import { isRuntimeReady } from '../runtime.ts';
import * as styles from '../tabs.css.ts';
import { CodeEditor } from './CodeEditor.tsx';
import { baseName, childPath, editorFiles, isChanged, isDirectory, noFilesOpen, vscodeFrame } from './editor-files.ts';
import type { Conversation } from '../../../../openapi/types.ts';

export interface VscodeTabProps {
  stream: ConversationStream;
  conversation: Conversation;
}

/** One directory of the file tree; its entries load when it is first shown. */
function TreeDirectory({
  conversationId,
  path,
  activePath,
  onOpen,
}: {
  conversationId: string;
  path: string;
  activePath: string | null;
  onOpen: (path: string) => void;
}) {
  const { t } = useTranslation('tabs');
  const entries = useQuery(listFilesQuery(conversationId, path));
  if (entries.isPending) return <Spinner label={t('vscode.loading')} />;
  if (entries.isError) return <p className={styles.errorText}>{errorText(entries.error)}</p>;
  return (
    <ul className={styles.treeList}>
      {entries.data.map((name) => (
        <TreeEntry
          key={name}
          conversationId={conversationId}
          path={childPath(path, name)}
          activePath={activePath}
          onOpen={onOpen}
        />
      ))}
    </ul>
  );
}

function TreeEntry({
  conversationId,
  path,
  activePath,
  onOpen,
}: {
  conversationId: string;
  path: string;
  activePath: string | null;
  onOpen: (path: string) => void;
}) {
  const [expanded, setExpanded] = useState(false);
  if (isDirectory(path)) {
    return (
      <li>
        <button
          type="button"
          className={styles.treeItem}
          aria-expanded={expanded}
          onClick={() => setExpanded((open) => !open)}
        >
          {expanded ? '▾' : '▸'} {baseName(path)}
        </button>
        {expanded && (
          <TreeDirectory conversationId={conversationId} path={path} activePath={activePath} onOpen={onOpen} />
        )}
      </li>
    );
  }
  return (
    <li>
      <button type="button" className={styles.treeItem} aria-current={path === activePath} onClick={() => onOpen(path)}>
        {baseName(path)}
      </button>
    </li>
  );
}

/** The exit confirmation: leaving the conversation (or closing the page) while files have unsaved changes asks first. */
function ExitConfirmation({ changed }: { changed: string[] }) {
  const { t } = useTranslation('tabs');
  const blocking = changed.length > 0;
  const blocker = useBlocker({
    // Moving around inside this conversation (its layout, its search) loses nothing.
    shouldBlockFn: ({ current, next }) => blocking && current.pathname !== next.pathname,
    enableBeforeUnload: () => blocking,
    withResolver: true,
  });
  if (blocker.status !== 'blocked') return null;
  return (
    <ConfirmDialog
      title={t('vscode.exitTitle')}
      description={t('vscode.exitDescription', { files: changed.join(', ') })}
      confirmLabel={t('vscode.exitLeave')}
      cancelLabel={t('vscode.exitStay')}
      closeLabel={t('vscode.exitClose')}
      onConfirm={blocker.proceed}
      onCancel={blocker.reset}
    />
  );
}

/** The built-in editor: a file tree, open files as tabs (with unsaved markers), CodeMirror, save. */
function BuiltInEditor({ conversationId }: { conversationId: string }) {
  const { t } = useTranslation('tabs');
  const [state, dispatch] = useReducer(editorFiles, noFilesOpen);
  const [saving, setSaving] = useState(false);
  const active = state.files.find((file) => file.path === state.activePath) ?? null;

  const open = useCallback(
    (path: string) => {
      tabRequests.selectFile(conversationId, path).then(
        (content) => dispatch({ type: 'opened', path, content }),
        (error: unknown) => toast.error(t('vscode.loadFailed', { path, message: errorText(error) })),
      );
    },
    [conversationId, t],
  );

  const save = () => {
    if (!active || saving) return;
    const { path, unsavedContent } = active;
    setSaving(true);
    tabRequests
      .saveFile(conversationId, path, unsavedContent)
      .then(
        () => {
          dispatch({ type: 'saved', path, content: unsavedContent });
          toast.success(t('vscode.saved', { path }));
        },
        (error: unknown) => toast.error(t('vscode.saveFailed', { path, message: errorText(error) })),
      )
      .finally(() => setSaving(false));
  };

  return (
    <div className={styles.editor}>
      <ExitConfirmation changed={state.files.filter(isChanged).map((file) => baseName(file.path))} />
      <nav className={styles.tree} aria-label={t('vscode.files')}>
        <TreeDirectory conversationId={conversationId} path="" activePath={state.activePath} onOpen={open} />
      </nav>
      <div className={styles.editorPane}>
        <ul className={styles.fileTabs} aria-label={t('vscode.openFiles')}>
          {state.files.map((file) => (
            <li key={file.path} className={styles.fileTab}>
              <button
                type="button"
                className={styles.treeItem}
                aria-current={file.path === state.activePath}
                onClick={() => dispatch({ type: 'activated', path: file.path })}
              >
                {baseName(file.path)}
                {isChanged(file) && (
                  <>
                    {' ●'}
                    <span className={visuallyHidden}>{t('vscode.unsaved')}</span>
                  </>
                )}
              </button>
              <Button
                size="sm"
                tone="ghost"
                aria-label={t('vscode.close', { path: file.path })}
                onClick={() => dispatch({ type: 'closed', path: file.path })}
              >
                ×
              </Button>
            </li>
          ))}
        </ul>
        {active ? (
          <>
            <div className={styles.bar}>
              <span className={styles.address}>{active.path}</span>
              <Button size="sm" disabled={saving || !isChanged(active)} onClick={save}>
                {saving ? t('vscode.saving') : t('vscode.save')}
              </Button>
            </div>
            <CodeEditor
              key={active.path}
              path={active.path}
              initialContent={active.unsavedContent}
              label={t('vscode.editorLabel', { path: active.path })}
              onChange={(content) => dispatch({ type: 'edited', path: active.path, content })}
              onSave={save}
            />
          </>
        ) : (
          <p className={styles.message}>{t('vscode.noFileOpen')}</p>
        )}
      </div>
    </div>
  );
}

/** VS Code: the operator's VS Code server in a frame when there is one, else the built-in editor over the workspace files. */
export function VscodeTab({ conversation }: VscodeTabProps) {
  const { t } = useTranslation('tabs');
  const conversationId = conversation.conversation_id;
  const ready = isRuntimeReady(conversation);
  const vscodeUrl = useQuery(vscodeUrlQuery(conversationId, ready));

  if (!ready) return <p className={styles.message}>{t('runtime.waiting')}</p>;
  if (vscodeUrl.isPending)
    return (
      <div className={styles.message}>
        <Spinner label={t('vscode.loading')} />
      </div>
    );
  if (vscodeUrl.isError) return <p className={styles.errorText}>{t('vscode.urlNotAvailable')}</p>;
  if (vscodeUrl.data === null) return <BuiltInEditor conversationId={conversationId} />;
  const frame = vscodeFrame(vscodeUrl.data, window.location.origin);
  if (frame === null) return <p className={styles.errorText}>{t('vscode.urlParseError', { url: vscodeUrl.data })}</p>;
  return (
    <div className={styles.tab}>
      {frame.crossOrigin && (
        <div className={styles.bar}>
          <span className={styles.address}>{t('vscode.crossOriginWarning')}</span>
          <Button size="sm" tone="secondary" asChild>
            <a href={frame.url} target="_blank" rel="noopener noreferrer">
              {t('vscode.openInNewTab')}
            </a>
          </Button>
        </div>
      )}
      <iframe className={styles.frame} src={frame.url} title={t('vscode.frameTitle')} />
    </div>
  );
}
