import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors.ts';
import { deploymentsQuery } from '../../api/queries.ts';
import { requests } from '../../app/services.ts';
import type { Deployment } from '../../../openapi/types.ts';
import { webAppUrl } from '../../rules/event-display.ts';
import { Button, ConfirmDialog, Dialog, Spinner } from '../../ui/index.ts';
import * as styles from './deployments.css.ts';
import { useDeleteDeployment } from './requests.ts';
import { formatCost, runtimeOf } from './format.ts';

/** File → Deployments: the conversation's deployments with their size, runtime and cost; each can be deleted. */
export function DeploymentsDialog({ conversationId, onClose }: { conversationId: string; onClose: () => void }) {
  const { t, i18n } = useTranslation('deployments');
  const deployments = useQuery(deploymentsQuery(requests, conversationId));
  const [deleting, setDeleting] = useState<Deployment | null>(null);
  const remove = useDeleteDeployment(conversationId, () => setDeleting(null));
  const cost = (dollars: number) => formatCost(dollars, i18n.language);
  const runtime = (hours: number) => {
    const shown = runtimeOf(hours);
    return t(`runtime.${shown.unit}`, shown);
  };
  const rows = deployments.data?.deployments ?? [];

  return (
    <Dialog
      open
      wide
      onOpenChange={(open) => !open && onClose()}
      title={t('title')}
      description={t('description')}
      closeLabel={t('close')}
    >
      {deployments.data ? (
        <p className={styles.total}>{t('total', { cost: cost(deployments.data.total_cost_usd) })}</p>
      ) : null}
      {deployments.isPending ? <Spinner label={t('loading')} /> : null}
      {deployments.isError ? (
        <p className={styles.error} role="alert">
          {t('loadFailed', { message: errorText(deployments.error) })}
        </p>
      ) : null}
      {remove.isError ? (
        <p className={styles.error} role="alert">
          {t('deleteFailed')}
        </p>
      ) : null}
      {deployments.isSuccess && rows.length === 0 ? (
        <div className={styles.empty}>
          <p>{t('empty')}</p>
          <p className={styles.muted}>{t('emptyHint')}</p>
        </div>
      ) : null}
      {rows.length > 0 ? (
        <div className={styles.scroller}>
          <table className={styles.table}>
            <thead>
              <tr>
                {(['number', 'ip', 'size', 'region', 'runtime', 'cost', 'actions'] as const).map((column) => (
                  <th key={column} className={styles.cell} scope="col">
                    {t(`columns.${column}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((deployment, index) => (
                <tr key={deployment.id}>
                  <td className={styles.cell}>{index + 1}</td>
                  <td className={styles.cell}>
                    {deployment.url ? (
                      <a href={webAppUrl(deployment.url, window.location)} target="_blank" rel="noreferrer">
                        {deployment.droplet_ip ?? new URL(deployment.url).host}
                      </a>
                    ) : (
                      (deployment.droplet_ip ?? '—')
                    )}
                  </td>
                  <td className={styles.cell}>
                    {t('sizeWithCost', { size: deployment.size_slug, cost: cost(deployment.hourly_cost_usd) })}
                  </td>
                  <td className={styles.cell}>{deployment.region}</td>
                  <td className={styles.cell}>{runtime(deployment.hours_alive)}</td>
                  <td className={styles.cell}>{cost(deployment.total_cost_usd)}</td>
                  <td className={styles.cell}>
                    <Button
                      size="sm"
                      tone="secondary"
                      aria-label={t('deleteOne', { name: deployment.droplet_name })}
                      onClick={() => {
                        remove.reset();
                        setDeleting(deployment);
                      }}
                    >
                      {t('delete')}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title={t('confirmTitle')}
          description={t('confirmText', { name: deleting.droplet_name })}
          confirmLabel={t('delete')}
          cancelLabel={t('cancel')}
          closeLabel={t('close')}
          busy={remove.isPending}
          onConfirm={() => remove.mutate(deleting.droplet_name, { onError: () => setDeleting(null) })}
          onCancel={() => setDeleting(null)}
        />
      ) : null}
    </Dialog>
  );
}
