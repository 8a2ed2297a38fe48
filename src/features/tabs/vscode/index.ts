export { VscodeTab } from './VscodeTab.tsx';
