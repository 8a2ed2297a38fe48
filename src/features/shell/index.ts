export { AppShell } from './AppShell.tsx';
export { NotFoundPage } from './NotFoundPage.tsx';
export { PageFailed } from './PageFailed.tsx';
