import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/global.css.ts';
import { App } from './root/App.tsx';
import { followColorScheme } from './app/color-scheme.ts';
import { initI18n } from './app/i18n.ts';
import { createAppRouter } from './root/router.ts';
import { createSessionLogic } from './app/session.ts';
import { reloadFailedLinks } from './ui/index.ts';

followColorScheme();
reloadFailedLinks(document);
await initI18n();

const router = createAppRouter();
// Signing in keeps the page the person was on (a conversation's link, the settings); the landing page leads on.
const sessionLogic = createSessionLogic({
  continueAfterSignIn: () => {
    if (router.state.location.pathname === '/') void router.navigate({ to: '/dashboard' });
  },
});
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <App router={router} sessionLogic={sessionLogic} />
  </StrictMode>,
);
