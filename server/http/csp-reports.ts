import type { FastifyBaseLogger } from 'fastify';
import type { components } from '../../openapi/schema.d.ts';
import { cspViolations } from '../shared/metrics.ts';
import { POLICY_DIRECTIVES } from './security-headers.ts';

type CspReport = components['schemas']['CspReport']['csp-report'];

const DIRECTIVES = new Set<string>(POLICY_DIRECTIVES);

/**
 * A browser's report of what the policy blocked: logged for whoever runs the server, and counted
 * by directive in /metrics (a label of the policy's own directives only, so the series stay few).
 */
export function recordCspViolation(report: CspReport, log: FastifyBaseLogger): void {
  // Older engines give only the violated directive, which may carry its sources after the name.
  const named = report['effective-directive'] ?? report['violated-directive']?.split(' ')[0] ?? '';
  // Browsers name the -elem and -attr parts of script-src and style-src; a report naming a
  // directive the policy does not set is counted as `other`.
  const directive = DIRECTIVES.has(named.replace(/-(elem|attr)$/, '')) ? named : 'other';
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
