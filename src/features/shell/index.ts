export { AppShell } from './AppShell.tsx';
export { NotFoundPage } from './NotFoundPage.tsx';
