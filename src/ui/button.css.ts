import { recipe, type RecipeVariants } from '@vanilla-extract/recipes';
import { vars } from '../styles/theme.css.ts';

export const button = recipe({
  base: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: vars.space.sm,
    border: '1px solid transparent',
    borderRadius: vars.radius.md,
    fontFamily: 'inherit',
    fontWeight: 600,
    lineHeight: 1.2,
    cursor: 'pointer',
    textDecoration: 'none',
    transition: 'background-color 120ms ease, border-color 120ms ease',
    selectors: {
      '&:disabled': { cursor: 'not-allowed', opacity: 0.6 },
    },
  },
  variants: {
    tone: {
      primary: {
        background: vars.color.accent,
        color: vars.color.onAccent,
        selectors: { '&:hover:not(:disabled)': { background: vars.color.accentHover } },
      },
      secondary: {
        background: vars.color.surface,
        color: vars.color.text,
        borderColor: vars.color.border,
        selectors: { '&:hover:not(:disabled)': { background: vars.color.surfaceHover } },
      },
      ghost: {
        background: 'transparent',
        color: vars.color.text,
        selectors: { '&:hover:not(:disabled)': { background: vars.color.surfaceHover } },
      },
      link: {
        background: 'transparent',
        color: vars.color.accent,
        padding: 0,
        textDecoration: 'underline',
        fontWeight: 500,
      },
    },
    size: {
      sm: { padding: `${vars.space.xs} ${vars.space.md}`, fontSize: vars.fontSize.sm, minHeight: '32px' },
      md: { padding: `${vars.space.sm} ${vars.space.lg}`, fontSize: vars.fontSize.md, minHeight: '40px' },
    },
    wide: { true: { width: '100%' } },
  },
  compoundVariants: [{ variants: { tone: 'link', size: 'sm' }, style: { padding: 0, minHeight: 'auto' } }],
  defaultVariants: { tone: 'primary', size: 'md', wide: false },
});

export type ButtonVariants = NonNullable<RecipeVariants<typeof button>>;
