import { createFileRoute } from '@tanstack/react-router';
import { ApiKeysTab } from '../../../features/settings/index.ts';

export const Route = createFileRoute('/_sidebar/settings/api-keys')({
  component: ApiKeysTab,
});
