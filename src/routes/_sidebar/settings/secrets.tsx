import { createFileRoute } from '@tanstack/react-router';
import { SecretsTab } from '../../../features/settings/index.ts';

export const Route = createFileRoute('/_sidebar/settings/secrets')({
  component: SecretsTab,
});
