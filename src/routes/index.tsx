import { createFileRoute, redirect } from '@tanstack/react-router';
import { configQuery } from '../api/queries.ts';
import { pageTexts } from '../app/i18n.ts';
import { queryClient, requests } from '../app/services.ts';
import { LandingPage } from '../features/landing/index.ts';

// A page load of / gets the prerendered page (scripts/prerender-landing.ts); this renders the same
// page for a navigation inside the application and on the dev server.
export const Route = createFileRoute('/')({
  // A self-hosted installation (oss) has no public site: its / is the application.
  beforeLoad: async () => {
    const config = await queryClient.ensureQueryData(configQuery(requests));
    if (config.APP_MODE === 'oss') throw redirect({ to: '/dashboard', replace: true });
  },
  loader: pageTexts('landing'),
  staticData: { publicSite: true },
  component: LandingPage,
});
