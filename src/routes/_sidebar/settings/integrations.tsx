import { createFileRoute } from '@tanstack/react-router';
import { IntegrationsTab } from '../../../features/settings/index.ts';

export const Route = createFileRoute('/_sidebar/settings/integrations')({ component: IntegrationsTab });
