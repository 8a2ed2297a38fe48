import { useEffect, useRef } from 'react';
import { useClientConfig } from '../../app/hooks.ts';
import { activateLanding } from './activate.ts';
import { LandingMarkup } from './LandingMarkup.tsx';

/** `/` inside the application (a navigation there without a page load, and the dev server). */
export function LandingPage() {
  const root = useRef<HTMLDivElement>(null);
  const config = useClientConfig();
  const loaded = config !== undefined;
  useEffect(() => (root.current ? activateLanding(root.current) : undefined), [loaded]);
  if (!config) return null;
  return (
    <div ref={root}>
      {/* Spec: 'Build Number: 3'; the number is the server's BUILD_NUMBER setting. */}
      <LandingMarkup buildNumber={config.BUILD_NUMBER} />
    </div>
  );
}
