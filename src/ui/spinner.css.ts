import { keyframes, style } from '@vanilla-extract/css';
import { recipe } from '@vanilla-extract/recipes';
import { vars } from '../styles/theme.css.ts';

const turn = keyframes({ to: { transform: 'rotate(360deg)' } });

export const spinner = recipe({
  base: {
    display: 'inline-block',
    borderRadius: vars.radius.full,
    border: `3px solid ${vars.color.border}`,
    borderTopColor: vars.color.accent,
    animation: `${turn} 800ms linear infinite`,
    '@media': { '(prefers-reduced-motion: reduce)': { animationDuration: '2400ms' } },
  },
  variants: {
    size: {
      sm: { width: '16px', height: '16px', borderWidth: '2px' },
      lg: { width: '40px', height: '40px' },
    },
  },
  defaultVariants: { size: 'sm' },
});

export const fullPage = style({
  display: 'grid',
  placeItems: 'center',
  minHeight: '60vh',
});
