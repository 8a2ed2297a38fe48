import { useId, type ComponentProps } from 'react';
import * as styles from './field.css.ts';

type TextFieldProps = Omit<ComponentProps<'input'>, 'id' | 'className'> & {
  label: string;
  /** Shown under the input and announced with it; the input is marked invalid while set. */
  error?: string | undefined;
  /** Help under the input, announced with it; an error takes its place. */
  hint?: string | undefined;
};

export function TextField({ label, error, hint, ...inputProps }: TextFieldProps) {
  const inputId = useId();
  const errorId = useId();
  const below = error ?? hint;
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={inputId}>
        {label}
      </label>
      <input
        id={inputId}
        className={styles.input}
        aria-invalid={error ? true : undefined}
        aria-describedby={below ? errorId : undefined}
        {...inputProps}
      />
      {below ? (
        <p id={errorId} className={error ? styles.error : styles.hint}>
          {below}
        </p>
      ) : null}
    </div>
  );
}
