import { visuallyHidden } from '../styles/visually-hidden.css.ts';
import { fullPage, spinner } from './spinner.css.ts';

interface SpinnerProps {
  /** What is loading, read by screen readers. */
  label: string;
  size?: 'sm' | 'lg';
}

export function Spinner({ label, size }: SpinnerProps) {
  return (
    <span role="status">
      <span className={spinner({ size })} aria-hidden="true" />
      <span className={visuallyHidden}>{label}</span>
    </span>
  );
}

/** A large spinner centred in the page, for whole-page loading. */
export function PageSpinner({ label }: { label: string }) {
  return (
    <div className={fullPage}>
      <Spinner label={label} size="lg" />
    </div>
  );
}
