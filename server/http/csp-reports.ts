import type { FastifyBaseLogger } from 'fastify';
import type { components } from '../../openapi/schema.d.ts';
import { cspViolations } from '../shared/metrics.ts';

type CspReport = components['schemas']['CspReport']['csp-report'];

/** The directives the policy sets (security-headers.ts); a report naming another is counted as `other`. */
const DIRECTIVES = new Set([
  'default-src',
  'script-src',
  'script-src-elem',
  'script-src-attr',
  'style-src',
  'style-src-elem',
  'style-src-attr',
  'img-src',
  'font-src',
  'connect-src',
  'frame-src',
  'worker-src',
  'object-src',
  'base-uri',
  'form-action',
  'frame-ancestors',
]);

/**
 * A browser's report of what the policy blocked: logged for whoever runs the server, and counted
 * by directive in /metrics (a label of the policy's own directives only, so the series stay few).
 */
export function recordCspViolation(report: CspReport, log: FastifyBaseLogger): void {
  // Older engines give only the violated directive, which may carry its sources after the name.
  const named = report['effective-directive'] ?? report['violated-directive']?.split(' ')[0] ?? '';
  const directive = DIRECTIVES.has(named) ? named : 'other';
  cspViolations.inc({ directive });
  log.warn(
    {
      csp: {
        document: report['document-uri'],
        blocked: report['blocked-uri'],
        directive: named,
        source: report['source-file'],
        line: report['line-number'],
        disposition: report.disposition,
      },
    },
    'the content security policy blocked something',
  );
}
