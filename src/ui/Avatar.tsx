import { avatar } from './avatar.css.ts';

/** A round badge with the first letter of a name; decorative, so the name must be given in text nearby. */
export function Avatar({ name }: { name: string }) {
  return (
    <span className={avatar} aria-hidden="true">
      {name.trim().charAt(0)}
    </span>
  );
}
