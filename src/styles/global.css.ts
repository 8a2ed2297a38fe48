import { globalStyle } from '@vanilla-extract/css';
import { vars } from './theme.css.ts';

globalStyle('*, *::before, *::after', { boxSizing: 'border-box' });

globalStyle('html, body', { margin: 0, padding: 0, minHeight: '100%' });

globalStyle('body', {
  fontFamily: vars.font.body,
  fontSize: vars.fontSize.md,
  lineHeight: 1.5,
  color: vars.color.text,
  background: vars.color.background,
});

globalStyle('h1, h2, h3, p', { margin: 0 });

globalStyle(':focus-visible', { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: '2px' });

// The navigation progress bar (src/app/progress-bar.ts creates #nprogress > .bar > .peg).
globalStyle('#nprogress', { pointerEvents: 'none' });
globalStyle('#nprogress .bar', {
  position: 'fixed',
  zIndex: 1000,
  top: 0,
  left: 0,
  width: '100%',
  height: '3px',
  background: vars.color.progress,
});
globalStyle('#nprogress .peg', {
  display: 'block',
  position: 'absolute',
  right: 0,
  width: '100px',
  height: '100%',
  boxShadow: `0 0 10px ${vars.color.progress}, 0 0 5px ${vars.color.progress}`,
  opacity: 1,
  transform: 'rotate(3deg) translate(0px, -4px)',
});

// sonner's light rich colours put its text below WCAG AA's 4.5:1 on their backgrounds (axe
// flagged the warning and error toasts); the same hues, darker. The extra attribute outranks its rule.
globalStyle("[data-sonner-toaster][data-sonner-theme='light'][dir]", {
  vars: {
    '--success-text': 'hsl(140, 100%, 22%)',
    '--info-text': 'hsl(210, 92%, 35%)',
    '--warning-text': 'hsl(31, 92%, 28%)',
    '--error-text': 'hsl(360, 100%, 38%)',
  },
});
