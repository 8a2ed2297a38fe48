import { createFileRoute } from '@tanstack/react-router';
import { PlannedTab } from '../../../features/settings/index.ts';

export const Route = createFileRoute('/_sidebar/settings/integrations')({
  component: () => <PlannedTab tab="integrations" />,
});
