import fs from 'node:fs';
import { metricsRegistry } from '../shared/metrics.ts';
import { RawResponse, type Handler } from '../shared/operations.ts';
import { renderApiDocs } from './api-docs.ts';
import { recordCspViolation } from './csp-reports.ts';
import { openapiPath, type Operation } from './openapi.ts';

/** The operations the HTTP edge answers itself: the API's documentation, the contract, metrics and CSP reports. */
export function edgeHandlers(operations: Operation[]) {
  // Rendered when first asked for, not at every start.
  let docsPage: string | null = null;
  const documentText = fs.readFileSync(openapiPath, 'utf8');
  const reportCspViolation: Handler<'reportCspViolation'> = async (ctx) => {
    recordCspViolation(ctx.body['csp-report'], ctx.log);
    return { success: true };
  };
  return {
    getApiDocs: async () =>
      new RawResponse(200, (docsPage ??= renderApiDocs('Atelier API', operations)), {
        'content-type': 'text/html; charset=utf-8',
      }),
    getMetrics: async () =>
      new RawResponse(200, await metricsRegistry.metrics(), { 'content-type': metricsRegistry.contentType }),
    getOpenApiDocument: async () =>
      new RawResponse(200, documentText, { 'content-type': 'application/yaml; charset=utf-8' }),
    reportCspViolation,
  };
}
