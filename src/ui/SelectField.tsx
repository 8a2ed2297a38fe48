import { useId, type ComponentProps } from 'react';
import * as styles from './field.css.ts';

type SelectFieldProps = Omit<ComponentProps<'select'>, 'id' | 'className' | 'children'> & {
  label: string;
  options: readonly { value: string; label: string }[];
};

/** A labelled native select: the platform's own keyboard and screen-reader behaviour. */
export function SelectField({ label, options, ...selectProps }: SelectFieldProps) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <select id={id} className={styles.input} {...selectProps}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
