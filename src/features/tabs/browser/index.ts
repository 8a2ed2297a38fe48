export { BrowserTab } from './BrowserTab.tsx';
