import { createFileRoute } from '@tanstack/react-router';
import { pageTexts } from '../app/i18n.ts';
import { LandingPage } from '../features/landing/index.ts';

// A page load of / gets the prerendered page (scripts/prerender-landing.ts); this renders the same
// page for a navigation inside the application and on the dev server.
export const Route = createFileRoute('/')({
  loader: pageTexts('landing'),
  staticData: { publicSite: true },
  component: LandingPage,
});
