import { darkTheme, lightTheme } from '../styles/theme.css.ts';

/** Puts the light or dark theme class on <html> following the system's colour scheme, now and when it changes. */
export function followColorScheme(
  root: HTMLElement = document.documentElement,
  query = window.matchMedia('(prefers-color-scheme: dark)'),
) {
  const apply = () => {
    root.classList.toggle(darkTheme, query.matches);
    root.classList.toggle(lightTheme, !query.matches);
    root.style.colorScheme = query.matches ? 'dark' : 'light';
  };
  apply();
  query.addEventListener('change', apply);
}
