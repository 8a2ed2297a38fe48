import type { ReactNode } from 'react';
import * as styles from './banner.css.ts';

/** A strip across the page that tells the user something and offers what to do about it. */
export function Banner(props: { label: string; text: string; children?: ReactNode; status?: ReactNode }) {
  return (
    <section className={styles.banner} aria-label={props.label}>
      <p className={styles.text}>{props.text}</p>
      {props.children}
      {props.status !== undefined ? (
        <p className={styles.text} role="status">
          {props.status}
        </p>
      ) : null}
    </section>
  );
}
