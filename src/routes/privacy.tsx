import { createFileRoute } from '@tanstack/react-router';
import { pageTexts } from '../app/i18n.ts';
import { PrivacyPage } from '../features/legal/index.ts';

export const Route = createFileRoute('/privacy')({ loader: pageTexts('legal'), component: PrivacyPage });
