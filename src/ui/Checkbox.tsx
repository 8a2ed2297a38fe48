import { Checkbox as RadixCheckbox } from 'radix-ui';
import { useId } from 'react';
import * as styles from './checkbox.css.ts';

interface CheckboxProps {
  label: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
}

export function Checkbox({ label, checked, onCheckedChange, disabled }: CheckboxProps) {
  const id = useId();
  return (
    <div className={styles.row}>
      <RadixCheckbox.Root
        id={id}
        className={styles.box}
        checked={checked}
        disabled={disabled}
        onCheckedChange={(state) => onCheckedChange(state === true)}
      >
        <RadixCheckbox.Indicator aria-hidden="true">✓</RadixCheckbox.Indicator>
      </RadixCheckbox.Root>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
    </div>
  );
}
