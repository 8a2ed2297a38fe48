import { createFileRoute } from '@tanstack/react-router';
import { pageTexts } from '../app/i18n.ts';
import { TermsPage } from '../features/legal/index.ts';

export const Route = createFileRoute('/terms')({ loader: pageTexts('legal'), component: TermsPage });
