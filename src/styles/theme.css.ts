import { createTheme, createThemeContract } from '@vanilla-extract/css';

/** The design tokens every style reads; the light and dark themes fill them in. */
export const vars = createThemeContract({
  color: {
    background: null,
    surface: null,
    surfaceHover: null,
    text: null,
    textMuted: null,
    border: null,
    accent: null,
    accentHover: null,
    onAccent: null,
    danger: null,
    warning: null,
    success: null,
    focusRing: null,
    overlay: null,
    progress: null,
  },
  space: { xs: null, sm: null, md: null, lg: null, xl: null },
  radius: { sm: null, md: null, lg: null, full: null },
  font: { body: null },
  fontSize: { sm: null, md: null, lg: null, xl: null },
  shadow: { raised: null },
});

const shared = {
  space: { xs: '4px', sm: '8px', md: '12px', lg: '16px', xl: '24px' },
  radius: { sm: '4px', md: '8px', lg: '12px', full: '9999px' },
  font: { body: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif' },
  fontSize: { sm: '0.875rem', md: '1rem', lg: '1.25rem', xl: '1.75rem' },
};

export const lightTheme = createTheme(vars, {
  ...shared,
  color: {
    background: '#ffffff',
    surface: '#f5f6f8',
    surfaceHover: '#e9ebf0',
    text: '#1b1d23',
    textMuted: '#545a67',
    border: '#c9cdd6',
    accent: '#3447c7',
    accentHover: '#2a3aa6',
    onAccent: '#ffffff',
    danger: '#b42318',
    warning: '#93370d',
    success: '#067647',
    focusRing: '#3447c7',
    overlay: 'rgba(15, 17, 23, 0.55)',
    progress: '#3447c7',
  },
  shadow: { raised: '0 12px 32px rgba(15, 17, 23, 0.18)' },
});

export const darkTheme = createTheme(vars, {
  ...shared,
  color: {
    background: '#111318',
    surface: '#1b1e26',
    surfaceHover: '#262a35',
    text: '#eceef2',
    textMuted: '#a9afbd',
    border: '#3a3f4c',
    accent: '#8d9cff',
    accentHover: '#a8b4ff',
    onAccent: '#0b0d14',
    danger: '#ff8a80',
    warning: '#fdb022',
    success: '#75e0a7',
    focusRing: '#a8b4ff',
    overlay: 'rgba(0, 0, 0, 0.65)',
    progress: '#8d9cff',
  },
  shadow: { raised: '0 12px 32px rgba(0, 0, 0, 0.5)' },
});
