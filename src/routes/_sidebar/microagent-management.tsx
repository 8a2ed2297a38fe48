import { createFileRoute, redirect } from '@tanstack/react-router';
import { configQuery } from '../../api/queries.ts';
import { pageTexts } from '../../app/i18n.ts';
import { queryClient, requests } from '../../app/services.ts';
import { MicroagentManagementPage } from '../../features/microagents/index.ts';

export const Route = createFileRoute('/_sidebar/microagent-management')({
  // Hidden by the operator's feature flag (spec §6): the page is not there at all.
  beforeLoad: async () => {
    const config = await queryClient.ensureQueryData(configQuery(requests));
    if (config.FEATURE_FLAGS.HIDE_MICROAGENT_MANAGEMENT) throw redirect({ to: '/dashboard', replace: true });
  },
  loader: pageTexts('microagents'),
  component: MicroagentManagementPage,
});
