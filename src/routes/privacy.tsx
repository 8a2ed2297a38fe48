import { createFileRoute } from '@tanstack/react-router';
import { PrivacyPage } from '../features/legal/index.ts';

export const Route = createFileRoute('/privacy')({ component: PrivacyPage });
