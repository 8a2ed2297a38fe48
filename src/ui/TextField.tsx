import { useId, type ComponentProps } from 'react';
import * as styles from './field.css.ts';

type TextFieldProps = Omit<ComponentProps<'input'>, 'id' | 'className'> & {
  label: string;
  /** Shown under the input and announced with it; the input is marked invalid while set. */
  error?: string | undefined;
};

export function TextField({ label, error, ...inputProps }: TextFieldProps) {
  const inputId = useId();
  const errorId = useId();
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={inputId}>
        {label}
      </label>
      <input
        id={inputId}
        className={styles.input}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...inputProps}
      />
      {error ? (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
