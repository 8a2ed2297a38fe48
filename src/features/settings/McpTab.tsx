import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { EMPTY_MCP_CONFIG, type McpConfig } from '../../../machines/mcp-config.ts';
import {
  mcpEditorMachine,
  selectCanSave,
  selectIsEditing,
  selectIsSaving,
  selectShownConfig,
  selectShowsSaved,
} from '../../../machines/mcp-editor.ts';
import { errorText } from '../../api/errors.ts';
import { queryKeys } from '../../api/queries.ts';
import { useSettings } from '../../app/hooks.ts';
import { requests } from '../../app/services.ts';
import { Button, Spinner } from '../../ui/index.ts';
import { ErrorAlert } from './ConfirmActionDialog.tsx';
import { checkMcpServers, settingsQueryKeys, type McpServerStatus } from './requests.ts';
import * as styles from './settings.css.ts';

/** MCP servers: the list, and the JSON editor of machines/mcp-editor.ts (Edit, Confirm, Cancel, Save). */
export function McpTab() {
  const { t } = useTranslation('settings');
  const settings = useSettings();
  if (settings.isPending) return <Spinner label={t('loading')} />;
  if (settings.isError) return <p className={styles.error}>{t('loadFailed')}</p>;
  return <McpEditor saved={settings.data?.mcp_config ?? EMPTY_MCP_CONFIG} />;
}

function McpEditor({ saved }: { saved: McpConfig }) {
  const { t } = useTranslation('settings');
  const queryClient = useQueryClient();
  const editor = useActorRef(
    mcpEditorMachine.provide({
      actors: {
        saveMcpConfig: fromPromise<void, McpConfig>(async ({ input }) => {
          await requests.saveSettings({ mcp_config: input });
          await queryClient.invalidateQueries({ queryKey: queryKeys.settings });
        }),
      },
    }),
    { input: { saved } },
  );
  const shown = useSelector(editor, selectShownConfig);
  const editing = useSelector(editor, selectIsEditing);
  const canSave = useSelector(editor, selectCanSave);
  const saving = useSelector(editor, selectIsSaving);
  const { draft, errors, saveError } = useSelector(editor, (snapshot) => snapshot.context);
  const textId = useId();
  const errorsId = useId();
  const savedJson = JSON.stringify(saved);
  const hasServers = saved.sse_servers.length + (saved.shttp_servers?.length ?? 0) + saved.stdio_servers.length > 0;
  const check = useQuery({
    queryKey: settingsQueryKeys.mcpCheck(savedJson),
    queryFn: ({ signal }) => checkMcpServers(signal),
    enabled: hasServers,
    retry: false,
    staleTime: 30_000,
    refetchOnWindowFocus: false,
    meta: { disableToast: true },
  });
  // The check is of the saved servers: shown beside them while the list shows what is saved (the
  // machine knows; the server's copy may spell the same configuration differently).
  const showsSaved = useSelector(editor, selectShowsSaved);
  const statusOf = (index: number) => {
    if (!showsSaved) return t('mcp.afterSave');
    if (check.isFetching) return t('mcp.checking');
    if (check.isError) return t('mcp.checkFailed', { error: errorText(check.error) });
    const result = check.data?.[index];
    return result ? describeStatus(result) : '';
  };
  const describeStatus = (result: McpServerStatus) => {
    if (result.reachable === null) return t('mcp.notChecked', { reason: result.error ?? '' });
    if (!result.reachable) return t('mcp.unreachable', { error: result.error ?? '' });
    if (result.tools.length === 0) return t('mcp.reachableNoTools');
    return t('mcp.reachable', { tools: result.tools.map(toolShown).join(', ') });
  };
  // The agent's name for a tool, and why it is not the server's own (agentToolNames in the server).
  const toolShown = ({ name, agent_name: agentName }: McpServerStatus['tools'][number]) => {
    if (agentName === null) return t('mcp.toolUnnamed', { name });
    return agentName === name ? name : t('mcp.toolRenamed', { name, agentName });
  };
  const urlOf = (server: string | { url: string }) => (typeof server === 'string' ? server : server.url);
  // In the check's order: SSE, Streamable HTTP, stdio.
  const servers = [
    ...shown.sse_servers.map((server) => ({ kind: 'SSE', name: urlOf(server), detail: '' })),
    ...(shown.shttp_servers ?? []).map((server) => ({ kind: 'HTTP', name: urlOf(server), detail: '' })),
    ...shown.stdio_servers.map((server) => ({
      kind: 'stdio',
      name: server.name,
      detail: [server.command, ...(server.args ?? [])].join(' '),
    })),
  ];

  return (
    <section className={styles.section} aria-labelledby="mcp-heading">
      <h2 id="mcp-heading" className={styles.sectionHeading}>
        {t('mcp.heading')}
      </h2>
      <p className={styles.muted}>{t('mcp.intro')}</p>
      {canSave ? <p role="status">{t('mcp.staged')}</p> : null}
      {servers.length === 0 ? (
        <p className={styles.muted}>{t('mcp.none')}</p>
      ) : (
        <table className={styles.table}>
          <thead>
            <tr>
              <th className={styles.cell} scope="col">
                {t('mcp.kind')}
              </th>
              <th className={styles.cell} scope="col">
                {t('mcp.server')}
              </th>
              <th className={styles.cell} scope="col">
                {t('mcp.command')}
              </th>
              <th className={styles.cell} scope="col">
                {t('mcp.status')}
              </th>
            </tr>
          </thead>
          <tbody>
            {servers.map((server, index) => (
              <tr key={`${server.kind}-${index}`}>
                <td className={styles.cell}>{server.kind}</td>
                <td className={`${styles.cell} ${styles.code}`}>{server.name}</td>
                <td className={`${styles.cell} ${styles.code}`}>{server.detail}</td>
                <td className={styles.cell} aria-live="polite">
                  {statusOf(index)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing ? (
        <div className={styles.form}>
          <label htmlFor={textId}>{t('mcp.editorLabel')}</label>
          <textarea
            id={textId}
            className={styles.editor}
            value={draft}
            rows={14}
            spellCheck={false}
            aria-invalid={errors.length > 0 ? true : undefined}
            aria-describedby={errors.length > 0 ? errorsId : undefined}
            onChange={(event) => editor.send({ type: 'CHANGE', text: event.target.value })}
          />
          {errors.length > 0 ? (
            <div id={errorsId} role="alert">
              <p className={styles.error}>{t('mcp.errorHeading')}</p>
              <ul className={styles.error}>
                {errors.map((error) => (
                  <li key={error}>{t(`mcp.errors.${error}`)}</li>
                ))}
              </ul>
            </div>
          ) : null}
          <div className={styles.actions}>
            <Button onClick={() => editor.send({ type: 'CONFIRM' })}>{t('mcp.confirm')}</Button>
            <Button tone="secondary" onClick={() => editor.send({ type: 'CANCEL' })}>
              {t('cancel')}
            </Button>
          </div>
        </div>
      ) : (
        <div className={styles.actions}>
          <Button tone="secondary" disabled={saving} onClick={() => editor.send({ type: 'EDIT' })}>
            {t('mcp.edit')}
          </Button>
          <Button disabled={!canSave} onClick={() => editor.send({ type: 'SAVE' })}>
            {saving ? t('saving') : t('save')}
          </Button>
          {hasServers && showsSaved ? (
            <Button tone="secondary" disabled={check.isFetching} onClick={() => void check.refetch()}>
              {t('mcp.checkAgain')}
            </Button>
          ) : null}
        </div>
      )}
      <ErrorAlert error={saveError} />
    </section>
  );
}
