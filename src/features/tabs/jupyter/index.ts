export { JupyterTab } from './JupyterTab.tsx';
