import { createFileRoute } from '@tanstack/react-router';
import { ModelSettingsTab } from '../../../features/settings/index.ts';

export const Route = createFileRoute('/_sidebar/settings/')({
  component: ModelSettingsTab,
});
