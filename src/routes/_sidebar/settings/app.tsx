import { createFileRoute } from '@tanstack/react-router';
import { ApplicationTab } from '../../../features/settings/index.ts';

export const Route = createFileRoute('/_sidebar/settings/app')({
  component: ApplicationTab,
});
