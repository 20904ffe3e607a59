import { accountOperations } from './contract/accounts.server';
import { adminOperations } from './contract/admin.server';
import { aiAndMediaOperations } from './contract/ai-and-media.server';
import { billingOperations } from './contract/billing.server';
import { courseOperations } from './contract/courses.server';
import { lessonOperations } from './contract/lessons.server';
import type { ApiOperation } from './contract/operation.server';
import { quizOperations } from './contract/quizzes.server';
import { siteOperations } from './contract/site.server';
import { webhookOperations } from './contract/webhooks.server';

/**
 * The `/api` contract (ADR 0035): for every route, the zod schemas its handler parses requests
 * with and types its answers against, and from which `/api/openapi.json` is generated. A route
 * answers through `apiJson`, so an answer that drifts from its schema fails `tsc`, and the
 * contract test validates every answer against the generated document.
 *
 * Shapes are the spec's (section 7): field names, nesting and values as its clients read them,
 * the provider subscription objects as the providers' own REST JSON. Every failure is
 * `{ success: false, message }` (the `default` response of each operation).
 *
 * One file per OpenAPI tag under ./contract; the document lists the operations in this order,
 * tag by tag.
 */
export const API = {
  ...accountOperations,
  ...courseOperations,
  ...lessonOperations,
  ...quizOperations,
  ...aiAndMediaOperations,
  ...billingOperations,
  ...adminOperations,
  ...siteOperations,
  ...webhookOperations,
} as const satisfies Record<string, ApiOperation>;

export { apiJson, type ApiBody, type ApiOperation } from './contract/operation.server';
