// The landing page's only script when the server sends it prerendered: the styles and the behaviour
// (activate.ts), without the application.
import '../../styles/global.css.ts';
import './landing.css.ts';
import { followColorScheme } from '../../app/color-scheme.ts';
import { activateLanding } from './activate.ts';

followColorScheme();
activateLanding(document.body);
