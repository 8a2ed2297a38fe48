export { DevopsTab } from './DevopsTab.tsx';
