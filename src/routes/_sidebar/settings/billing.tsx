import { createFileRoute } from '@tanstack/react-router';
import { pageTexts } from '../../../app/i18n.ts';
import { CreditsPanel } from '../../../features/profile/index.ts';

export const Route = createFileRoute('/_sidebar/settings/billing')({
  loader: pageTexts('billing'),
  component: () => <CreditsPanel linkToHistory />,
});
